import { describe, expect, it } from 'vitest';
import type { Heartbeat } from '../types.js';
import { heartbeatAlertText } from './heartbeat-deadlines.js';
import { evaluateHeartbeat } from './heartbeat-rules.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);

const hb = (over: Partial<Heartbeat> = {}): Heartbeat => ({
  id: 'h',
  workspace_id: 'w',
  display_name: 'nightly backup',
  period_seconds: 600,
  schedule: null,
  timezone: 'UTC',
  slug: null,
  grace_seconds: 60,
  state: 'up',
  last_ping_at: at(0),
  escalation_policy_id: 'p',
  depends_on: [],
  paused: false,
  group_id: null,
  tags: [],
  severity: 'critical',
  created_at: at(0),
  updated_at: at(0),
  version: 1,
  due_at: at(600),
  started_at: null,
  start_rid: null,
  alert_id: null,
  state_version: 3,
  rearmed_at: null,
  last_duration_ms: null,
  ...over,
});

describe('evaluateHeartbeat', () => {
  it('up until period, late within grace, down at period + grace', () => {
    expect(evaluateHeartbeat(hb(), at(599))).toEqual({
      state: 'up',
      due_at: at(600),
      raise: null,
      resolve: false,
    });
    expect(evaluateHeartbeat(hb(), at(600))).toEqual({
      state: 'late',
      due_at: at(660),
      raise: null,
      resolve: false,
    });
    expect(evaluateHeartbeat(hb({ state: 'late' }), at(660))).toEqual({
      state: 'down',
      due_at: null,
      raise: 'missed',
      resolve: false,
    });
    // A job that ran late (several deadlines passed at once) goes straight to down.
    expect(evaluateHeartbeat(hb(), at(5000)).state).toBe('down');
  });
  it('down stays down until a ping; with its alert open nothing more is raised', () => {
    expect(evaluateHeartbeat(hb({ state: 'down', alert_id: 'a' }), at(9999))).toEqual({
      state: 'down',
      due_at: null,
      raise: null,
      resolve: false,
    });
    // Down without an alert: the ping said fail.
    expect(evaluateHeartbeat(hb({ state: 'down', last_ping_at: at(10) }), at(11)).raise).toBe('failed');
  });
  it('down after a manual resolve (spec 3.2): owes a ping within period + grace of it, or a run end within grace', () => {
    const rearmed = hb({ state: 'down', last_ping_at: at(10), rearmed_at: at(1000) });
    // Nothing to raise yet (an edit or another pass evaluates it early): due at resolve + period + grace.
    expect(evaluateHeartbeat(rearmed, at(1000))).toEqual({
      state: 'down',
      due_at: at(1660),
      raise: null,
      resolve: false,
    });
    expect(evaluateHeartbeat(rearmed, at(1660))).toEqual({
      state: 'down',
      due_at: null,
      raise: 'missed',
      resolve: false,
    });
    // A run started since must end within the grace, sooner than the deadline.
    const running = { ...rearmed, started_at: at(1100) };
    expect(evaluateHeartbeat(running, at(1100))).toMatchObject({ due_at: at(1160), raise: null });
    expect(evaluateHeartbeat(running, at(1160))).toMatchObject({ state: 'down', raise: 'run_overdue' });
    // With an alert open again, nothing more.
    expect(evaluateHeartbeat({ ...rearmed, alert_id: 'b' }, at(99999)).raise).toBeNull();
  });
  it('up with an alert resolves it', () => {
    expect(evaluateHeartbeat(hb({ alert_id: 'a', last_ping_at: at(100) }), at(101))).toEqual({
      state: 'up',
      due_at: at(700),
      raise: null,
      resolve: true,
    });
  });
  it('a started run must end within the grace', () => {
    const started = hb({ started_at: at(100), start_rid: 'r' });
    expect(evaluateHeartbeat(started, at(120))).toMatchObject({ state: 'up', due_at: at(160) });
    expect(evaluateHeartbeat(started, at(160))).toMatchObject({ state: 'down', raise: 'run_overdue' });
    // A new heartbeat that started a run but never pinged.
    expect(
      evaluateHeartbeat(hb({ state: 'new', last_ping_at: null, started_at: at(5) }), at(65)),
    ).toMatchObject({ state: 'down', raise: 'run_overdue' });
  });
  it('new waits for its first ping; paused has no deadline and resolves its alert; resumed is new', () => {
    expect(evaluateHeartbeat(hb({ state: 'new', last_ping_at: null }), at(99999))).toEqual({
      state: 'new',
      due_at: null,
      raise: null,
      resolve: false,
    });
    expect(evaluateHeartbeat(hb({ paused: true, alert_id: 'a' }), at(99999))).toEqual({
      state: 'paused',
      due_at: null,
      raise: null,
      resolve: true,
    });
    expect(evaluateHeartbeat(hb({ state: 'paused' }), at(99999))).toEqual({
      state: 'new',
      due_at: null,
      raise: null,
      resolve: false,
    });
  });
});

describe('heartbeatAlertText', () => {
  it('names the reason and shows the last ping’s body', () => {
    const ping = {
      id: 'p',
      heartbeat_id: 'h',
      workspace_id: 'w',
      kind: 'fail' as const,
      at: at(5),
      received_at: at(5),
      source: null,
      rid: 'r1',
      exit_status: 2,
      body: 'tar: error',
    };
    const t = heartbeatAlertText(hb(), 'failed', ping);
    expect(t.title).toBe('"nightly backup" reported a failure (exit status 2)');
    expect(t.description).toBe(
      'Expected a ping every 10m with 1m of grace.\nLast ping: 2026-01-01T00:00:05.000Z (fail, exit status 2, run r1).\n\nBody of the last ping:\ntar: error',
    );
    expect(heartbeatAlertText(hb(), 'missed', null).title).toBe('"nightly backup" missed its deadline');
    expect(
      heartbeatAlertText(hb({ period_seconds: 90, grace_seconds: 0 }), 'missed', null).description,
    ).toMatch(/^Expected a ping every 1m 30s with 0s of grace\./);
  });
});
