import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HISTORY_DAYS,
  loadStatusView,
  PHONE_DAYS,
} from '../../control-plane/src/domain/status-pages/public-view.js';
import { type Harness, startHarness } from '../support/harness.js';
import { type Check, createMonitor, slaFeeder } from '../support/sla-feed.js';

/**
 * `GET /reports/sla` beyond the hand-computed month (sla-report-month.test.ts): it agrees with the
 * status page for the same days; groups, tags, status pages and the workspace count downtime once
 * (the union); roles; every bad input named in one 422; other workspaces' ids are 404; CSV cells are
 * safe from formula injection.
 */
const H = 3_600_000;
const DAY = 24 * H;
const dayText = (t: number) => new Date(t).toISOString().slice(0, 10);

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('the report agrees with the status page', () => {
  it("gives each monitor's uptime with maintenance as the page shows it, for its 90 days and its last 30", async () => {
    const today = Date.UTC(2026, 8, 15);
    const start = today - 99 * DAY;
    h.clock.set(start - DAY);
    const w = await h.workspace('sla-agree');
    const a = await createMonitor(w.api, 'Checkout');
    const b = await createMonitor(w.api, 'Search');
    // A maintenance window over Checkout (its checks then count only in the figure with maintenance).
    const mw = await w.api('POST', '/maintenance-windows', {
      json: {
        name: 'Migration',
        scope_type: 'monitor',
        scope_id: a,
        starts_at: new Date(today - 40 * DAY).toISOString(),
        ends_at: new Date(today - 38 * DAY).toISOString(),
      },
    });
    expect(mw.status, JSON.stringify(mw.body)).toBe(201);
    const feed = slaFeeder(h);
    const now = today + 10 * H + 30 * 60_000;
    for (let day = start; day <= today; day += DAY) {
      const checks: Check[] = [];
      for (let hour = 0; hour < 24 && day + hour * H <= now; hour++)
        for (const [i, id] of [a, b].entries()) {
          const n = (day - start) / DAY;
          checks.push({
            monitorId: id,
            at: day + hour * H,
            ok: (n * 7 + hour * 3 + i) % 17 !== 0,
            ms: 50 + hour,
          });
        }
      await feed.send(checks);
    }
    h.clock.set(now);
    const pageRes = await w.api('POST', '/status-pages', {
      json: {
        name: 'Shop status',
        slug: 'shop',
        components: [
          { name: 'Checkout', monitor_id: a },
          { name: 'Search', monitor_id: b },
        ],
      },
    });
    expect(pageRes.status, JSON.stringify(pageRes.body)).toBe(201);
    const page = (await h.store.getStatusPage(w.workspace.id, pageRes.body.id))!;
    const view = await loadStatusView(h.store, page, h.clock.now());

    const from90 = dayText(today - (HISTORY_DAYS - 1) * DAY);
    const from30 = dayText(today - (PHONE_DAYS - 1) * DAY);
    const pageReport = await w.api(
      'GET',
      `/reports/sla?status_page_id=${page.id}&from=${from90}&to=${dayText(today)}`,
    );
    expect(pageReport.status, JSON.stringify(pageReport.body)).toBe(200);
    for (const [id, c] of [
      [a, view.components[0]!],
      [b, view.components[1]!],
    ] as const) {
      const r90 = await w.api('GET', `/reports/sla?monitor_id=${id}&from=${from90}&to=${dayText(today)}`);
      const r30 = await w.api('GET', `/reports/sla?monitor_id=${id}&from=${from30}&to=${dayText(today)}`);
      expect(c.uptime?.uptime).not.toBeNull();
      expect(r90.body.uptime_percent_with_maintenance).toBe(c.uptime!.uptime);
      expect(r30.body.uptime_percent_with_maintenance).toBe(c.recent_uptime!.uptime);
      expect(
        r90.body.days.map(
          (d: { uptime_percent_with_maintenance: number | null }) => d.uptime_percent_with_maintenance,
        ),
      ).toEqual(c.days.map((d) => d.uptime));
      const row = pageReport.body.monitors.find((m: { id: string }) => m.id === id);
      expect(row.uptime_percent_with_maintenance).toBe(c.uptime!.uptime);
    }
    // Checkout's 48 checks in the window count in the figure with maintenance only (as on the page).
    const checkout = pageReport.body.monitors.find((m: { id: string }) => m.id === a);
    expect(checkout.checks.in_maintenance).toBe(48);
    expect(checkout.uptime_percent).not.toBe(checkout.uptime_percent_with_maintenance);
  });
});

describe('scopes, roles and bad input', () => {
  type W = Awaited<ReturnType<Harness['workspace']>>;
  let w: W;
  let other: W;
  const ids: Record<string, string> = {};
  const DAY0 = Date.UTC(2026, 9, 1);
  const q = '&from=2026-10-01&to=2026-10-01';

  beforeAll(async () => {
    h.clock.set(DAY0 - DAY);
    w = await h.workspace('sla-scopes');
    other = await h.workspace('sla-other');
    const g = await w.api('POST', '/groups', { json: { name: 'Payments' } });
    ids.group = g.body.id;
    ids.a = await createMonitor(w.api, 'Pay API', { group_id: ids.group, tags: ['team:pay'] });
    ids.b = await createMonitor(w.api, 'Pay DB', { group_id: ids.group, tags: ['team:pay'] });
    ids.c = await createMonitor(w.api, '=1+2', {});
    ids.otherMonitor = await createMonitor(other.api, 'Theirs');
    const og = await other.api('POST', '/groups', { json: { name: 'Theirs' } });
    ids.otherGroup = og.body.id;
    const osp = await other.api('POST', '/status-pages', {
      json: {
        name: 'Their status',
        slug: 'theirs',
        components: [{ name: 'T', monitor_id: ids.otherMonitor }],
      },
    });
    ids.otherPage = osp.body.id;
    const sp = await w.api('POST', '/status-pages', {
      json: {
        name: 'Pay status',
        slug: 'pay',
        components: [
          { name: 'C', monitor_id: ids.c },
          { name: 'Payments', group_id: ids.group },
        ],
      },
    });
    expect(sp.status, JSON.stringify(sp.body)).toBe(201);
    ids.page = sp.body.id;
    // A down 10:00–12:00, B down 11:00–13:00, C down 10:30–10:45 (UTC, Oct 1).
    const feed = slaFeeder(h);
    const t = (hh: number, mm = 0) => DAY0 + hh * H + mm * 60_000;
    const step = (id: string, at: number, ok: boolean) => feed.send([{ monitorId: id, at, ok, ms: 40 }]);
    for (const id of [ids.a, ids.b, ids.c]) await step(id!, t(9), true);
    await step(ids.a!, t(10), false);
    await step(ids.c!, t(10, 30), false);
    await step(ids.c!, t(10, 45), true);
    await step(ids.b!, t(11), false);
    await step(ids.a!, t(12), true);
    await step(ids.b!, t(13), true);
    h.clock.set(DAY0 + 2 * DAY);
  }, 60_000);

  it('counts the downtime of a group, a tag, a status page and the workspace once (the union)', async () => {
    const group = await w.api('GET', `/reports/sla?group_id=${ids.group}${q}`);
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    // A ∪ B = 10:00–13:00 = 10,800 s (not 7,200 + 7,200); each resolved 2 h after it began.
    expect(group.body).toMatchObject({
      scope: { type: 'group', id: ids.group, name: 'Payments' },
      downtime_seconds: 10_800,
      incident_count: 2,
      mttr_seconds: 7_200,
      mtta_seconds: null,
    });
    expect(group.body.monitors.map((m: { name: string }) => m.name)).toEqual(['Pay API', 'Pay DB']);
    expect(group.body.days).toEqual([
      // 4 of 6 checks fine (each: 09:00 fine, one failure, one recovery).
      {
        day: '2026-10-01',
        uptime_percent: 66.6667,
        uptime_percent_with_maintenance: 66.6667,
        downtime_seconds: 10_800,
      },
    ]);
    const tag = await w.api('GET', `/reports/sla?tag=team:pay${q}`);
    expect(tag.body).toMatchObject({
      scope: { type: 'tag', id: 'team:pay', name: 'team:pay' },
      downtime_seconds: 10_800,
    });
    // The page: C and the group's members; C's 15 minutes lie inside A's outage.
    const page = await w.api('GET', `/reports/sla?status_page_id=${ids.page}${q}`);
    expect(page.body).toMatchObject({
      scope: { name: 'Pay status' },
      downtime_seconds: 10_800,
      incident_count: 3,
    });
    expect(page.body.monitors).toHaveLength(3);
    const ws = await w.api('GET', `/reports/sla?${q.slice(1)}`);
    expect(ws.body).toMatchObject({
      scope: { type: 'workspace', id: null },
      downtime_seconds: 10_800,
      incident_count: 3,
    });
    // MTTR over A, B and C: (7,200 + 7,200 + 900) / 3 = 5,100 s
    expect(ws.body.mttr_seconds).toBe(5_100);
    expect(ws.body.incidents.map((i: { monitor_name: string }) => i.monitor_name)).toEqual([
      'Pay DB',
      '=1+2',
      'Pay API',
    ]);
  });

  it('lets a viewer read it and nobody without a key', async () => {
    const viewer = await w.userWithKey('viewer');
    expect((await w.as(viewer.key)('GET', `/reports/sla?group_id=${ids.group}${q}`)).status).toBe(200);
    const anon = await h.request('GET', `/api/v1/reports/sla?group_id=${ids.group}${q}`, { host: w.host });
    expect(anon.status).toBe(401);
  });

  it('names every bad field in one 422', async () => {
    const bad = async (query: string) => {
      const r = await w.api('GET', `/reports/sla?${query}`);
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.body.error.code).toBe('validation_failed');
      return r.body.error.details.map((d: { field: string }) => d.field).sort();
    };
    expect(await bad('from=2026-02-30&to=2026-03-01')).toEqual(['from']);
    expect(await bad('from=2026-10-02&to=2026-10-01')).toEqual(['to']);
    expect(await bad('from=2025-09-30&to=2026-10-01')).toEqual(['to']); // 367 days
    expect(await bad(`from=2025-10-02&to=2026-10-02&slo=100`)).toEqual(['slo']);
    expect(await bad('slo=0')).toEqual(['slo']);
    expect(await bad('slo=lots')).toEqual(['slo']);
    expect(await bad(`monitor_id=${ids.a}&group_id=${ids.group}`)).toEqual(['group_id', 'monitor_id']);
    expect(await bad(`from=10/01/2026&slo=100&monitor_id=${ids.a}&tag=team:pay&to=x`)).toEqual([
      'from',
      'monitor_id',
      'slo',
      'tag',
      'to',
    ]);
    expect(await bad('format=xlsx')).toEqual(['format']);
    expect(await bad('colour=red')).toEqual(['colour']);
  });

  it("answers 404 for an unknown id and for another workspace's", async () => {
    for (const query of [
      `monitor_id=${ids.otherMonitor}`,
      `group_id=${ids.otherGroup}`,
      `status_page_id=${ids.otherPage}`,
      'monitor_id=00000000-0000-4000-8000-000000000000',
      'status_page_id=not-an-id',
    ]) {
      const r = await w.api('GET', `/reports/sla?${query}${q}`);
      expect(r.status, query).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
    // A tag nobody carries is an empty report, not an error.
    const none = await w.api('GET', `/reports/sla?tag=team:none${q}`);
    expect(none.body).toMatchObject({
      monitors: [],
      checks: { total: 0 },
      uptime_percent: null,
      downtime_seconds: 0,
    });
  });

  it('writes CSV cells a spreadsheet would run as formulas as text', async () => {
    const r = await w.api('GET', `/reports/sla?monitor_id=${ids.c}${q}&format=csv`);
    const rows = r.text.trim().split('\r\n');
    expect(rows[1]!.startsWith(`${ids.c},"'=1+2",`)).toBe(true);
    expect(rows[2]!.startsWith(`TOTAL,"'=1+2",`)).toBe(true);
  });
});
