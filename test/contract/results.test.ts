import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import { initialState } from '../../control-plane/src/domain/results/evaluation.js';
import { latencyBucket } from '../../control-plane/src/domain/results/latency-histogram.js';
import { DAY_MS, dayOf } from '../../control-plane/src/domain/results/uptime.js';
import type { CheckResultRecord, MonitorLocationState } from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, type fixtures, result, T0 } from './fixtures.js';
import { contract, locationStates, seedLocationState } from './stores.js';

/** The histogram of these response times, as LatencyCounts. */
const hist = (...ms: number[]) => {
  const c = new Map<number, number>();
  for (const t of ms) c.set(latencyBucket(t), (c.get(latencyBucket(t)) ?? 0) + 1);
  return c;
};

contract('ResultStore', (c) => {
  let store: Store;
  let ws: ReturnType<typeof fixtures.workspace>;
  beforeEach(() => {
    ({ store, ws } = c());
  });
  const statesOf = (monitorId: string, replay?: CheckResultRecord) =>
    locationStates(store, ws.workspace.id, monitorId, replay);
  /** Stores the results whose id is new, moving no state; the ids stored now. */
  const insertResults = async (rs: CheckResultRecord[]) => (await store.recordResults(rs, () => null)).stored;

  it('stores each result id once, however often it is replayed', async () => {
    const r1 = result(ws.workspace.id, 'm1');
    const r2 = result(ws.workspace.id, 'm1', {
      scheduled_at: at(60),
      ok: false,
      error_kind: 'timeout',
      error_message: 'x',
      status_code: null,
      timings: null,
      tls_valid_to: null,
    });
    expect(await insertResults([r1, r2])).toEqual([r1.id, r2.id]);
    expect(await insertResults([r2, r1, { ...r1, id: 'new' }])).toEqual(['new']);
    const page = await store.listResults(ws.workspace.id, 'm1', { limit: 10 });
    expect(page.data).toHaveLength(3);
    expect(
      page.data
        .map((r) => r.id)
        .slice(1)
        .sort(),
    ).toEqual([r1.id, 'new'].sort());
    expect(page.data[0]).toEqual(r2);
  });

  it('stores a run-now result once, even when the run is done twice (each run starts at its own time)', async () => {
    // A run request may reach two agents (its monitor moved between them while it waited): both
    // results carry the id derived from the request, but each its own scheduled time.
    const run = (s: number) =>
      result(ws.workspace.id, 'm1', {
        id: 'm1:eu-west:run:r1',
        scheduled_at: at(s),
        run_now_request_id: 'r1',
      });
    expect(await insertResults([run(10)])).toEqual(['m1:eu-west:run:r1']);
    expect(await insertResults([run(12)])).toEqual([]);
    const page = await store.listResults(ws.workspace.id, 'm1', { limit: 10 });
    expect(page.data.map((r) => [r.id, r.scheduled_at])).toEqual([['m1:eu-west:run:r1', at(10)]]);
  });

  it('pages results newest first, filters by location and window, counts uptime, prunes', async () => {
    for (let i = 0; i < 6; i++) {
      await insertResults([
        result(ws.workspace.id, 'm2', {
          scheduled_at: at(i * 60),
          received_at: at(i * 60),
          ok: i % 3 !== 0,
          location: i % 2 ? 'us-east' : 'eu-west',
        }),
      ]);
    }
    const p1 = await store.listResults(ws.workspace.id, 'm2', { limit: 4 });
    const p2 = await store.listResults(ws.workspace.id, 'm2', { limit: 4, cursor: p1.next_cursor! });
    expect([...p1.data, ...p2.data].map((r) => r.scheduled_at.getTime())).toEqual(
      [5, 4, 3, 2, 1, 0].map((i) => at(i * 60).getTime()),
    );
    expect(
      (await store.listResults(ws.workspace.id, 'm2', { limit: 10, location: 'us-east' })).data,
    ).toHaveLength(3);
    expect(
      (await store.listResults(ws.workspace.id, 'm2', { limit: 10, since: at(60), until: at(180) })).data,
    ).toHaveLength(2);
    expect(await store.countResults(ws.workspace.id, 'm2', T0, at(360))).toEqual({ total: 6, ok: 4 });
    expect(await store.countResults('other', 'm2', T0, at(360))).toEqual({ total: 0, ok: 0 });
    expect(await store.pruneResults(at(120), 1)).toBe(1);
    expect(await store.pruneResults(at(120), 100)).toBe(1);
    expect(await store.countResults(ws.workspace.id, 'm2', T0, at(360))).toEqual({ total: 4, ok: 3 });
  });

  it('pages results a few at a time across instants shared by several results: each once, newest first, ties by id', async () => {
    const rs = [0, 60, 120].flatMap((s) =>
      ['eu-west', 'us-east', 'ap-south'].map((location) =>
        result(ws.workspace.id, 'm-ties', { scheduled_at: at(s), received_at: at(s), location }),
      ),
    );
    await insertResults(rs);
    const order = (list: CheckResultRecord[]) =>
      [...list]
        .sort((a, b) => b.scheduled_at.getTime() - a.scheduled_at.getTime() || (a.id < b.id ? 1 : -1))
        .map((r) => r.id);
    const paged = async (q: { location?: string; since?: Date; until?: Date }) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await store.listResults(ws.workspace.id, 'm-ties', { ...q, limit: 2, cursor });
        seen.push(...page.data.map((r) => r.id));
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      return seen;
    };
    expect(await paged({})).toEqual(order(rs));
    expect(await paged({ since: at(60), until: at(180) })).toEqual(
      order(rs.filter((r) => r.scheduled_at >= at(60))),
    );
    expect(await paged({ location: 'us-east' })).toEqual(order(rs.filter((r) => r.location === 'us-east')));
  });

  it('records results and moves their location states in one step, each seeing the one before', async () => {
    const base = (location: string): MonitorLocationState => initialState('m4', location);
    const other: MonitorLocationState = { ...base('eu-west'), monitor_id: 'm5', version: 1 };
    await seedLocationState(store, ws.workspace.id, other);
    const rs = [
      result(ws.workspace.id, 'm4', { id: 'a', location: 'eu-west', scheduled_at: at(0) }),
      result(ws.workspace.id, 'm4', { id: 'b', location: 'us-east', scheduled_at: at(1) }),
      result(ws.workspace.id, 'm4', { id: 'c', location: 'eu-west', scheduled_at: at(2) }),
      result(ws.workspace.id, 'm4', { id: 'd', location: 'eu-west', scheduled_at: at(3) }),
    ];
    const seen: Record<string, number | null> = {};
    const step = (prev: MonitorLocationState | null, r: CheckResultRecord) => {
      seen[r.id] = prev ? prev.consecutive_failures : null;
      if (r.id === 'd') return null;
      const p = prev ?? base(r.location);
      return { ...p, consecutive_failures: p.consecutive_failures + 1, version: p.version + 1 };
    };
    const out = await store.recordResults(rs, step);
    expect(out.stored).toEqual(['a', 'b', 'c', 'd']);
    expect(seen).toEqual({ a: null, b: null, c: 1, d: 2 });
    expect(out.states.map((s) => [s.monitor_id, s.location, s.consecutive_failures, s.version])).toEqual([
      ['m4', 'eu-west', 2, 2],
      ['m4', 'us-east', 1, 1],
    ]);
    expect(await statesOf('m4', rs[0])).toEqual(out.states);
    // A replay stores nothing and steps nothing, but still reports the monitor's states.
    const again = await store.recordResults([rs[1]!, { ...rs[0]!, id: 'e', scheduled_at: at(4) }], step);
    expect(again.stored).toEqual(['e']);
    expect(again.states.find((s) => s.location === 'eu-west')?.consecutive_failures).toBe(3);
    expect((await store.listResults(ws.workspace.id, 'm4', { limit: 10 })).data).toHaveLength(5);
    // The ids stored now come in the order given, a replay among them left out (ingestion walks them so).
    const mixed = await store.recordResults(
      [{ ...rs[0]!, id: 'g', scheduled_at: at(6) }, rs[2]!, { ...rs[0]!, id: 'f', scheduled_at: at(5) }],
      step,
    );
    expect(mixed.stored).toEqual(['g', 'f']);
  });

  it('adds each newly stored result to its hourly rollup once; pruning results leaves the rollups', async () => {
    const H = 3600;
    const ws1 = ws.workspace.id;
    const r = (id: string, s: number, ok: boolean, location = 'eu-west') =>
      result(ws1, 'mr', { id, scheduled_at: at(s), received_at: at(s), ok, location });
    // Hour 0: 3 checks in two locations (2 ok); hour 1: 2 checks (1 ok); hour 3: 1 check (ok).
    const batch = [
      r('a', 0, true),
      r('b', 60, false, 'us-east'),
      r('c', H - 1, true, 'us-east'),
      r('d', H, false),
      r('e', H + 30, true),
      r('f', 3 * H + 5, true),
    ];
    expect(await insertResults(batch)).toHaveLength(6);
    const sum = (from: number, to: number) => store.sumRollups(ws1, 'mr', at(from * H), at(to * H));
    expect(await sum(0, 1)).toEqual({ total: 3, ok: 2 });
    expect(await sum(0, 4)).toEqual({ total: 6, ok: 4 });
    expect(await sum(1, 3)).toEqual({ total: 2, ok: 1 });
    expect(await sum(4, 10)).toEqual({ total: 0, ok: 0 });
    expect(await store.sumRollups('other', 'mr', at(0), at(10 * H))).toEqual({ total: 0, ok: 0 });

    // A replay (alone, or mixed with a new result) adds only what is stored now.
    expect(await insertResults([batch[0]!, batch[3]!, r('g', H + 40, false)])).toEqual(['g']);
    expect(await insertResults(batch)).toEqual([]);
    expect(await sum(0, 4)).toEqual({ total: 7, ok: 4 });
    expect(await sum(1, 2)).toEqual({ total: 3, ok: 1 });

    // Results go; the buckets stay, until their own retention.
    expect(await store.pruneResults(at(10 * H), 100)).toBe(7);
    expect(await store.countResults(ws1, 'mr', at(0), at(10 * H))).toEqual({ total: 0, ok: 0 });
    expect(await sum(0, 4)).toEqual({ total: 7, ok: 4 });
    expect(await store.pruneRollups(at(H), 100)).toBe(2); // hour 0: eu-west and us-east
    expect(await sum(0, 4)).toEqual({ total: 4, ok: 2 });
    expect(await store.pruneRollups(at(H), 100)).toBe(0);
    // Daily buckets go once their whole (UTC) day is before the bound: hours 1 and 3 (2 buckets)
    // and the day's two (eu-west, us-east).
    expect(await store.pruneRollups(at(24 * H), 100)).toBe(4);
    expect(await sum(0, 4)).toEqual({ total: 0, ok: 0 });
  });

  it('reads count every stored result once, whether its bucket is written or still waiting (prunes write them)', async () => {
    const H = 3600;
    const ws1 = ws.workspace.id;
    const r = (id: string, monitor: string, s: number, ok: boolean, location = 'eu-west') =>
      result(ws1, monitor, { id, scheduled_at: at(s), received_at: at(s), ok, location });
    const sum = (monitor: string, from: number, to: number) =>
      store.sumRollups(ws1, monitor, at(from * H), at(to * H));
    // Hour 0 of two monitors, in two batches of distinct monitors (as agents send them).
    await insertResults([r('a1', 'ma', 10, true), r('b1', 'mb', 10, false)]);
    await insertResults([r('a2', 'ma', 70, false, 'us-east'), r('b2', 'mb', 70, true)]);
    expect(await sum('ma', 0, 1)).toEqual({ total: 2, ok: 1 });
    // A prune before the results' time deletes nothing; an adapter may write its waiting buckets then.
    expect(await store.pruneResults(at(0), 100)).toBe(0);
    expect(await sum('ma', 0, 1)).toEqual({ total: 2, ok: 1 });
    expect(await sum('mb', 0, 1)).toEqual({ total: 2, ok: 1 });
    // More results into the same buckets, a late one into hour 0 after hour 2, and replays.
    await insertResults([r('a3', 'ma', 130, true), r('b3', 'mb', 2 * H, true)]);
    await insertResults([r('a4', 'ma', 2 * H + 5, false), r('b4', 'mb', 200, false, 'us-east')]);
    expect(await insertResults([r('a1', 'ma', 10, true), r('a5', 'ma', 300, true)])).toEqual(['a5']);
    expect(await sum('ma', 0, 1)).toEqual({ total: 4, ok: 3 });
    expect(await sum('ma', 0, 3)).toEqual({ total: 5, ok: 3 });
    expect(await sum('ma', 1, 3)).toEqual({ total: 1, ok: 0 });
    expect(await sum('mb', 0, 3)).toEqual({ total: 4, ok: 2 });
    expect(await store.sumRollups('other', 'ma', at(0), at(3 * H))).toEqual({ total: 0, ok: 0 });
    // Pruning every result leaves every bucket as it was, written or waiting.
    expect(await store.pruneResults(at(10 * H), 100)).toBe(9);
    expect(await sum('ma', 0, 3)).toEqual({ total: 5, ok: 3 });
    expect(await sum('mb', 0, 3)).toEqual({ total: 4, ok: 2 });
    // New results after everything was pruned (an adapter may hand out old row ids again).
    await insertResults([r('a6', 'ma', 20, true), r('b6', 'mb', 3 * H, true)]);
    expect(await sum('ma', 0, 3)).toEqual({ total: 6, ok: 4 });
    expect(await store.pruneResults(at(0), 100)).toBe(0);
    expect(await sum('ma', 0, 3)).toEqual({ total: 6, ok: 4 });
    expect(await sum('mb', 0, 4)).toEqual({ total: 5, ok: 3 });
  });

  // Daily rollups (SLA reports): maintenance counts and the response-time histogram.
  const day0 = dayOf(at(0));
  const insert = insertResults;
  const r = (
    monitor: string,
    s: number,
    ok: boolean,
    ms: number,
    over: Partial<CheckResultRecord> = {},
  ): CheckResultRecord =>
    result(ws.workspace.id, monitor, {
      scheduled_at: at(s),
      received_at: at(s),
      ok,
      response_time_ms: ms,
      ...over,
    });

  it('sums every location per monitor and day, with maintenance counts and the histogram, written or waiting', async () => {
    const [m1, m2] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    const first = [
      r(m1, 0, true, 100),
      r(m1, 60, false, 3000, { location: 'us-east', in_maintenance: true }),
      r(m1, 120, true, 40, { in_maintenance: true }),
      r(m2, 0, true, 7),
      r(m1, -DAY_MS / 1000, true, 250), // the day before
    ];
    expect(await insert(first)).toHaveLength(5);
    // Writes the buckets (an adapter may write them behind ingestion) and deletes the results.
    expect(await store.pruneResults(new Date(day0 + 10 * DAY_MS), 1000)).toBe(5);
    // Then more into the same buckets, still waiting for them on an adapter that writes them later.
    const second = [
      r(m1, 180, true, 100, { location: 'us-east', in_maintenance: true }),
      r(m1, 240, false, 0),
      r(m2, 60, false, 9000, { in_maintenance: true }),
    ];
    expect(await insert(second)).toHaveLength(3);
    // A replayed batch counts once.
    expect(await insert([second[0]!, second[2]!])).toEqual([]);

    const rows = await store.dailyRollups(ws.workspace.id, [m2, m1, 'nope'], day0 - DAY_MS, day0 + DAY_MS);
    expect(rows).toEqual([
      {
        monitor_id: m1,
        day: day0 - DAY_MS,
        total: 1,
        ok: 1,
        maint_total: 0,
        maint_ok: 0,
        response_ms_sum: 250,
        latency: hist(250),
      },
      {
        monitor_id: m1,
        day: day0,
        total: 5,
        ok: 3,
        maint_total: 3,
        maint_ok: 2,
        response_ms_sum: 100 + 3000 + 40 + 100 + 0,
        latency: hist(100, 3000, 40, 100, 0),
      },
      {
        monitor_id: m2,
        day: day0,
        total: 2,
        ok: 1,
        maint_total: 1,
        maint_ok: 0,
        response_ms_sum: 9007,
        latency: hist(7, 9000),
      },
    ]);
    // The days asked for only; another workspace sees nothing; no ids, nothing.
    expect(await store.dailyRollups(ws.workspace.id, [m1], day0, day0 + DAY_MS)).toHaveLength(1);
    expect(await store.dailyRollups(ws.workspace.id, [m1], day0 + DAY_MS, day0 + 3 * DAY_MS)).toEqual([]);
    expect(await store.dailyRollups(randomUUID(), [m1, m2], day0 - DAY_MS, day0 + DAY_MS)).toEqual([]);
    expect(await store.dailyRollups(ws.workspace.id, [], day0 - DAY_MS, day0 + DAY_MS)).toEqual([]);
    // The status page's bars agree with the totals.
    expect(await store.dailyUptime(ws.workspace.id, [m1, m2], day0 - DAY_MS, day0 + DAY_MS)).toEqual(
      rows.map(({ monitor_id, day, total, ok }) => ({ monitor_id, day, total, ok })),
    );
    // A result read back says whether it was in maintenance (absent: not).
    const page = await store.listResults(ws.workspace.id, m2, { limit: 10 });
    expect(page.data.map((x) => x.in_maintenance === true)).toEqual([true]);
  });

  it('reads more than a thousand monitors, each once', async () => {
    const ids = Array.from({ length: 1203 }, (_, i) => `m${String(i).padStart(5, '0')}`);
    await insert(ids.map((id, i) => r(id, 0, i % 2 === 0, i)));
    const rows = await store.dailyRollups(ws.workspace.id, [...ids].reverse(), day0, day0 + DAY_MS);
    expect(rows.map((x) => x.monitor_id)).toEqual(ids);
    expect(rows[1202]!.latency).toEqual(hist(1202));
    expect(rows.reduce((n, x) => n + x.ok, 0)).toBe(602);
  });
});
