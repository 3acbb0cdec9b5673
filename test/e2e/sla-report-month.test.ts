import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketValueMs, latencyBucket } from '../../control-plane/src/domain/results/latency-histogram.js';
import { type Harness, startHarness } from '../support/harness.js';
import { type Check, createMonitor, slaFeeder } from '../support/sla-feed.js';

/**
 * THE hand-computed month: one monitor checked every hour of November 2026 (720 checks) through the
 * real ingestion path, one outage raised, acknowledged and resolved by the real evaluation, and a
 * maintenance window over one day with failing checks inside it. Every figure of `GET /reports/sla`
 * (JSON and CSV) is asserted against the numbers worked out by hand below.
 *
 * The month, UTC:
 * - checks at every whole hour, Nov 1 00:00 .. Nov 30 23:00: 30 × 24 = 720;
 * - response times: 100 ms, but 300 ms at 12:00 every day (30 checks) and 2,000 ms on Nov 15
 *   00:00..07:00 (8 checks);
 * - the outage: Nov 10 12:00 and 13:00 fail (the `down` alert is raised at 12:00), acknowledged at
 *   12:10, the 14:00 check is fine (resolved at 14:00): open 2 h = 7,200 s, acknowledged after 600 s;
 * - maintenance: a one-off window over the monitor, Nov 20 00:00 .. Nov 21 00:00 (86,400 s), its 24
 *   checks in maintenance; 03:00, 04:00 and 05:00 fail inside it (an alert raised at 03:00, resolved
 *   at 06:00, all of it in maintenance: no incident, no downtime).
 */
const H = 3_600_000;
const DAY = 24 * H;
const NOV = Date.UTC(2026, 10, 1);
const at = (day: number, hour: number, minute = 0) => NOV + (day - 1) * DAY + hour * H + minute * 60_000;

let h: Harness;
let w: Awaited<ReturnType<Harness['workspace']>>;
let monitorId: string;

beforeAll(async () => {
  h = await startHarness();
  h.clock.set(NOV - DAY);
  w = await h.workspace('sla-month');
  monitorId = await createMonitor(w.api, 'Shop API');
  const feed = slaFeeder(h);
  for (let t = NOV; t < NOV + 30 * DAY; t += H) {
    const day = Math.floor((t - NOV) / DAY) + 1;
    const hour = ((t - NOV) % DAY) / H;
    const fails = (day === 10 && (hour === 12 || hour === 13)) || (day === 20 && hour >= 3 && hour <= 5);
    const ms = day === 15 && hour < 8 ? 2000 : hour === 12 ? 300 : 100;
    const check: Check = { monitorId, at: t, ok: !fails, ms };
    await feed.send([check]);
    if (t === at(10, 12)) {
      // Acknowledged ten minutes after it was raised.
      const open = await w.api('GET', '/alerts?status=open');
      expect(open.body.data).toHaveLength(1);
      h.clock.set(at(10, 12, 10));
      const ack = await w.api('POST', '/alerts/acknowledge', { json: { UUIDs: [open.body.data[0].id] } });
      expect(ack.status, JSON.stringify(ack.body)).toBe(200);
      expect(ack.body.acknowledged).toHaveLength(1);
    }
    if (t === at(10, 15)) {
      const mw = await w.api('POST', '/maintenance-windows', {
        json: {
          name: 'Database upgrade',
          scope_type: 'monitor',
          scope_id: monitorId,
          starts_at: new Date(at(20, 0)).toISOString(),
          ends_at: new Date(at(21, 0)).toISOString(),
        },
      });
      expect(mw.status, JSON.stringify(mw.body)).toBe(201);
    }
  }
  h.clock.set(Date.UTC(2026, 11, 2, 9));
}, 120_000);
afterAll(() => h.close());

// Percentiles are the bucket values of the response times that hold the rank (nearest rank):
// p50 is a 100 ms check, p95 a 300 ms one (ranks 684 of 720 / 680 of 715 successes fall past the
// 682 / 678 checks of 100 ms and before the 2,000 ms ones), p99 a 2,000 ms one (rank 713 / 708).
const P50 = bucketValueMs(latencyBucket(100));
const P95 = bucketValueMs(latencyBucket(300));
const P99 = bucketValueMs(latencyBucket(2000));

const figures = {
  // 720 checks, 5 failed (2 in the outage, 3 in maintenance); 24 in maintenance, 21 of them fine.
  checks: { total: 720, ok: 715, in_maintenance: 24, ok_in_maintenance: 21 },
  // (715 − 21) / (720 − 24) = 694 / 696 = 99.71264 %
  uptime_percent: 99.7126,
  // 715 / 720 = 99.30556 %
  uptime_percent_with_maintenance: 99.3056,
  downtime_seconds: 7_200,
  incident_count: 1,
  mtta_seconds: 600,
  mttr_seconds: 7_200,
  response_time_ms: { p50: P50, p95: P95, p99: P99 },
};

describe('the SLA report of a hand-computed month', () => {
  it('gives every figure exactly (JSON)', async () => {
    const r = await w.api('GET', `/reports/sla?monitor_id=${monitorId}&from=2026-11-01&to=2026-11-30`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      ...figures,
      scope: { type: 'monitor', id: monitorId, name: 'Shop API' },
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-12-01T00:00:00.000Z',
      generated_at: '2026-12-02T09:00:00.000Z',
      slo_percent: 99.9,
      // 30 days = 2,592,000 s, the window 86,400 s of it.
      period_seconds: 2_592_000,
      maintenance_seconds: 86_400,
      // 0.1 % of (2,592,000 − 86,400) = 2,505.6 → 2,506 s allowed; 2,506 − 7,200 = −4,694 left.
      allowed_downtime_seconds: 2_506,
      error_budget_seconds_left: -4_694,
      incidents_truncated: false,
    });
    expect(r.body.incidents).toEqual([
      {
        alert_id: expect.any(String),
        monitor_id: monitorId,
        monitor_name: 'Shop API',
        title: expect.any(String),
        started_at: '2026-11-10T12:00:00.000Z',
        acknowledged_at: '2026-11-10T12:10:00.000Z',
        resolved_at: '2026-11-10T14:00:00.000Z',
        downtime_seconds: 7_200,
      },
    ]);
    expect(r.body.monitors).toEqual([
      { id: monitorId, name: 'Shop API', ...figures, error_budget_seconds_left: -4_694 },
    ]);
    expect(r.body.days).toHaveLength(30);
    const day = (n: number) => r.body.days[n - 1];
    // Nov 10: 22 of 24 fine = 91.66667 %, the 2 h outage.
    expect(day(10)).toEqual({
      day: '2026-11-10',
      uptime_percent: 91.6667,
      uptime_percent_with_maintenance: 91.6667,
      downtime_seconds: 7_200,
    });
    // Nov 20: every check in maintenance (nothing left to judge); 21 of 24 counting them = 87.5 %.
    expect(day(20)).toEqual({
      day: '2026-11-20',
      uptime_percent: null,
      uptime_percent_with_maintenance: 87.5,
      downtime_seconds: 0,
    });
    for (const n of [1, 9, 11, 15, 19, 21, 30])
      expect(day(n)).toMatchObject({
        uptime_percent: 100,
        uptime_percent_with_maintenance: 100,
        downtime_seconds: 0,
      });
  });

  it('gives the error budget of another SLO', async () => {
    const r = await w.api(
      'GET',
      `/reports/sla?monitor_id=${monitorId}&from=2026-11-01&to=2026-11-30&slo=99.5`,
    );
    // 0.5 % of 2,505,600 s = 12,528 s allowed; 12,528 − 7,200 = 5,328 left.
    expect(r.body).toMatchObject({
      slo_percent: 99.5,
      allowed_downtime_seconds: 12_528,
      error_budget_seconds_left: 5_328,
    });
  });

  it('gives the same figures as CSV (Accept: text/csv, and format=csv)', async () => {
    const expected = [
      'monitor_id,monitor_name,uptime_percent,uptime_percent_with_maintenance,checks,checks_in_maintenance,downtime_seconds,incidents,mtta_seconds,mttr_seconds,p50_ms,p95_ms,p99_ms,error_budget_seconds_left',
      `${monitorId},Shop API,99.7126,99.3056,720,24,7200,1,600,7200,${P50},${P95},${P99},-4694`,
      `TOTAL,Shop API,99.7126,99.3056,720,24,7200,1,600,7200,${P50},${P95},${P99},-4694`,
      '',
    ].join('\r\n');
    const q = `/reports/sla?monitor_id=${monitorId}&from=2026-11-01&to=2026-11-30`;
    const byAccept = await w.api('GET', q, { headers: { accept: 'text/csv' } });
    expect(byAccept.status).toBe(200);
    expect(byAccept.headers['content-type']).toMatch(/^text\/csv/);
    expect(byAccept.headers['content-disposition']).toBe(
      'attachment; filename="sla-2026-11-01-2026-11-30.csv"',
    );
    expect(byAccept.text).toBe(expected);
    const byFormat = await w.api('GET', `${q}&format=csv`);
    expect(byFormat.text).toBe(expected);
  });

  it('counts a period not over yet up to now', async () => {
    // On Nov 10 at 13:00 the alert is still open (since 12:00): 3,600 s down so far.
    h.clock.set(at(10, 13));
    try {
      const r = await w.api('GET', `/reports/sla?monitor_id=${monitorId}&from=2026-11-01&to=2026-11-30`);
      // Nine days and 13 hours so far: 9 × 86,400 + 13 × 3,600 = 824,400 s; no maintenance yet.
      expect(r.body).toMatchObject({
        period_seconds: 824_400,
        maintenance_seconds: 0,
        downtime_seconds: 3_600,
      });
      // 0.1 % of 824,400 = 824.4 → 824
      expect(r.body.allowed_downtime_seconds).toBe(824);
    } finally {
      h.clock.set(Date.UTC(2026, 11, 2, 9));
    }
  });
});
