import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import { latencyBucket } from '../../control-plane/src/domain/results/latency-histogram.js';
import { DAY_MS, dayOf } from '../../control-plane/src/domain/results/uptime.js';
import type { CheckResultRecord } from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, type fixtures, result } from './fixtures.js';
import { contract } from './stores.js';

/** The histogram of these response times, as LatencyCounts. */
const hist = (...ms: number[]) => {
  const c = new Map<number, number>();
  for (const t of ms) c.set(latencyBucket(t), (c.get(latencyBucket(t)) ?? 0) + 1);
  return c;
};

contract('ResultStore.dailyRollups', (c) => {
  let store: Store;
  let ws: ReturnType<typeof fixtures.workspace>;
  beforeEach(() => {
    ({ store, ws } = c());
  });
  const day0 = dayOf(at(0));
  const insert = async (rs: CheckResultRecord[]) => (await store.recordResults(rs, () => null)).stored;
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
