import { describe, expect, it } from 'vitest';
import type { CheckResultRecord, Monitor, MonitorLocationState } from '../types.js';
import {
  applyResult,
  domainExpiry,
  initialState,
  monitorRowStatus,
  tlsExpiry,
  verdict,
  wantsConfirmation,
} from './evaluation.js';

const T0 = new Date('2026-05-01T00:00:00Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

const monitor = (over: Partial<Monitor> = {}) =>
  ({
    id: 'm',
    monitor_type: 'http',
    check_interval_seconds: 60,
    timeout_seconds: 10,
    failure_threshold: 3,
    response_time_threshold_ms: null,
    check_locations: ['eu-west', 'us-east', 'ap-south'],
    ssl_cert_monitoring: true,
    ssl_cert_expiry_alert_days: 14,
    domain_expiry_alert_days: 30,
    ...over,
  }) as Monitor;

const result = (s: number, ok: boolean, over: Partial<CheckResultRecord> = {}) =>
  ({
    scheduled_at: at(s),
    received_at: at(s),
    ok,
    response_time_ms: 100,
    tls_valid_to: null,
    domain_expires_at: null,
    ...over,
  }) as CheckResultRecord;

const run = (m: Monitor, outcomes: boolean[], location = 'eu-west', start = 0) => {
  let s: MonitorLocationState = initialState(m.id, location);
  outcomes.forEach((ok, i) => {
    s = applyResult(m, s, result(start + i * 60, ok)) ?? s;
  });
  return s;
};

describe('applyResult', () => {
  it('a location is down only after failure_threshold consecutive failures, up after one success', () => {
    const m = monitor();
    expect(run(m, [false, false]).status).toBe('unknown');
    expect(run(m, [false, false, false]).status).toBe('down');
    expect(run(m, [false, false, true, false, false]).status).toBe('up');
    expect(run(m, [false, false, false, true]).status).toBe('up');
    expect(run(monitor({ failure_threshold: 1 }), [true, false]).status).toBe('down');
  });

  it('ignores a result not newer than the last one counted (replays, reordering)', () => {
    const m = monitor();
    const s = run(m, [false]);
    expect(applyResult(m, s, result(0, false))).toBeNull();
    expect(applyResult(m, s, result(-60, true))).toBeNull();
    expect(applyResult(m, s, result(60, false))?.consecutive_failures).toBe(2);
  });

  it('counts slow successes against response_time_threshold_ms', () => {
    const m = monitor({ response_time_threshold_ms: 500 });
    let s = initialState('m', 'eu-west');
    s = applyResult(m, s, result(0, true, { response_time_ms: 800 }))!;
    s = applyResult(m, s, result(60, true, { response_time_ms: 900 }))!;
    expect(s.consecutive_slow).toBe(2);
    s = applyResult(m, s, result(120, true, { response_time_ms: 100 }))!;
    expect(s.consecutive_slow).toBe(0);
  });

  it('asks for confirmation on the first failure after success', () => {
    const m = monitor();
    const ok = run(m, [true]);
    const first = applyResult(m, ok, result(60, false))!;
    expect(wantsConfirmation(ok, first)).toBe(true);
    expect(wantsConfirmation(first, applyResult(m, first, result(120, false))!)).toBe(false);
  });
});

describe('verdict', () => {
  const now = at(300);
  it('needs min(2, fresh locations) failing locations', () => {
    const m = monitor();
    const down = (loc: string) => run(m, [false, false, false, false], loc, 60);
    const up = (loc: string) => run(m, [true, true, true, true], loc, 60);
    expect(verdict(m, [down('eu-west'), up('us-east'), up('ap-south')], now).down).toBe(false);
    expect(verdict(m, [down('eu-west'), down('us-east'), up('ap-south')], now)).toMatchObject({
      down: true,
      quorum: 2,
    });
    // one location alone (the others have no fresh result) decides by itself
    expect(verdict(m, [down('eu-west')], now)).toMatchObject({ down: true, quorum: 1, voting: ['eu-west'] });
  });

  it('locations without a fresh result do not vote', () => {
    const m = monitor();
    const stale = run(m, [false, false, false], 'us-east', -1000);
    const fresh = run(m, [false, false, false, false], 'eu-west', 60);
    expect(verdict(m, [fresh, stale], now)).toMatchObject({ down: true, voting: ['eu-west'], quorum: 1 });
    expect(verdict(m, [stale], now)).toMatchObject({ down: false, voting: [] });
    // a location no longer among check_locations does not vote either
    expect(verdict(monitor({ check_locations: ['us-east'] }), [fresh], now).voting).toEqual([]);
  });

  it('is up only with a success: pending while the failures decide nothing yet', () => {
    const m = monitor();
    const status = (...states: MonitorLocationState[]) => verdict(m, states, now).status;
    // Every location's newest result at 240 s: all fresh, all vote.
    const states = (outcomes: boolean[], loc: string) =>
      run(m, outcomes, loc, 240 - (outcomes.length - 1) * 60);
    // Failing below the threshold everywhere, or failing at one location only: nothing decided.
    expect(status(states([false], 'eu-west'))).toBe('pending');
    expect(status(states([false, false], 'eu-west'), states([false, false], 'us-east'))).toBe('pending');
    expect(status(states([false, false, false], 'eu-west'), states([false], 'us-east'))).toBe('pending');
    // The quorum failing: down. One location succeeding (and still under its threshold since): up.
    expect(status(states([false, false, false], 'eu-west'), states([false, false, false], 'us-east'))).toBe(
      'down',
    );
    expect(status(states([false, false, false], 'eu-west'), states([true, false], 'us-east'))).toBe('up');
    expect(status(states([true], 'eu-west'))).toBe('up');
    expect(status()).toBe('pending');
  });

  it('moves the monitor-level row: pending leaves down as it is and anything else unknown', () => {
    const table: [
      MonitorLocationState['status'],
      'up' | 'down' | 'pending',
      MonitorLocationState['status'],
    ][] = [
      ['unknown', 'pending', 'unknown'],
      ['unknown', 'up', 'up'],
      ['unknown', 'down', 'down'],
      ['up', 'down', 'down'],
      ['up', 'pending', 'unknown'],
      ['down', 'pending', 'down'],
      ['down', 'up', 'up'],
    ];
    for (const [row, v, next] of table)
      expect([row, v, monitorRowStatus(row, { status: v })]).toEqual([row, v, next]);
  });

  it('is slow after failure_threshold consecutive slow successes at a location', () => {
    const m = monitor({ response_time_threshold_ms: 200, failure_threshold: 2 });
    let s = initialState('m', 'eu-west');
    s = applyResult(m, s, result(200, true, { response_time_ms: 300 }))!;
    expect(verdict(m, [s], now).slow).toBe(false);
    s = applyResult(m, s, result(260, true, { response_time_ms: 300 }))!;
    expect(verdict(m, [s], now).slow).toBe(true);
  });
});

describe('expiry', () => {
  it('TLS: expiring when fewer days remain than ssl_cert_expiry_alert_days', () => {
    const m = monitor();
    expect(tlsExpiry(m, result(0, true, { tls_valid_to: at(13 * 86400) }), T0)).toMatchObject({
      days: 13,
      expiring: true,
    });
    expect(tlsExpiry(m, result(0, true, { tls_valid_to: at(14 * 86400) }), T0)).toMatchObject({
      days: 14,
      expiring: false,
    });
    expect(
      tlsExpiry(monitor({ ssl_cert_monitoring: false }), result(0, true, { tls_valid_to: at(1) }), T0)
        .expiring,
    ).toBe(false);
  });

  it('domain: expiring when fewer days remain than domain_expiry_alert_days', () => {
    const m = monitor({ monitor_type: 'domain' });
    expect(domainExpiry(m, result(0, true, { domain_expires_at: at(29 * 86400) }), T0)).toMatchObject({
      days: 29,
      expiring: true,
    });
    expect(domainExpiry(m, result(0, true, { domain_expires_at: at(400 * 86400) }), T0).expiring).toBe(false);
  });
});

describe('domain monitors', () => {
  it('run from one region, every 6 hours at least, and only that region votes', async () => {
    const { effectiveIntervalSeconds, runningLocations } = await import('../monitors/monitor-runs.js');
    const m = monitor({
      monitor_type: 'domain',
      check_interval_seconds: 60,
      check_locations: ['us-east', 'eu-west'],
    });
    expect(runningLocations(m)).toEqual(['eu-west']);
    expect(effectiveIntervalSeconds(m)).toBe(21600);
    const down = (loc: string) => run(m, [false, false, false], loc, 0);
    const v = verdict(m, [down('us-east'), down('eu-west')], at(3600));
    expect(v).toMatchObject({ down: true, voting: ['eu-west'], quorum: 1 });
  });

  it('do not retry after a failure; other types retry at most once per interval', async () => {
    const { effectiveRetrySeconds } = await import('../monitors/monitor-runs.js');
    const of = (monitor_type: 'domain' | 'tcp', check_interval_seconds: number) =>
      effectiveRetrySeconds({ monitor_type, check_interval_seconds, retry_interval_seconds: 15 });
    expect(of('domain', 60)).toBe(0);
    expect(of('tcp', 60)).toBe(15);
    expect(of('tcp', 10)).toBe(10);
  });
});
