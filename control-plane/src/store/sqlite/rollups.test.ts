import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { result } from '../../../../test/contract/fixtures.js';
import { addLatency, encodeCounts, type LatencyCounts } from '../../domain/results/latency-histogram.js';
import type { CheckResultRecord } from '../../domain/types.js';
import { createSqliteStore, type SqliteOptions } from './sqlite-store.js';

/**
 * The uptime buckets behind ingestion (results.ts): recordResults leaves them to a flush that writes
 * them from the stored results monitor by monitor, each chunk of monitors one transaction with the
 * flush's progress. Here: chunking, reads exact throughout, a crash, row ids after a full prune, two
 * handles.
 */
const dir = mkdtempSync(join(tmpdir(), 'lookout-rollups-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const H = 3_600_000;
const T0 = Date.UTC(2026, 2, 1, 10);
const WS = 'ws-1';
/** One batch as agents send it: one result per monitor, `count` monitors, all at `t`. */
const batch = (tag: string, t: number, count: number, over: Partial<CheckResultRecord> = {}) =>
  Array.from({ length: count }, (_, i) =>
    result(WS, `m${i}`, {
      id: `${tag}:${i}`,
      scheduled_at: new Date(t + i),
      received_at: new Date(t),
      ok: i % 3 !== 0,
      response_time_ms: 10 + i * 37,
      location: i % 2 ? 'us-east' : 'eu-west',
      in_maintenance: i % 5 === 0,
      ...over,
    }),
  );

/** A flush driven by the test: the periodic timer and each turn between chunks are released by hand. */
const manual = () => {
  const timers: (() => void)[] = [];
  const turns: (() => void)[] = [];
  let held = true;
  const options: NonNullable<SqliteOptions['rollups']> = {
    chunkMonitors: 10,
    schedule: (fn) => {
      timers.push(fn);
      return () => {};
    },
    nextTurn: () => new Promise<void>((r) => (held ? turns.push(r) : setImmediate(r))),
  };
  return {
    options,
    timers,
    /** From now on every turn comes by itself (close, reopen). */
    release() {
      held = false;
      for (const t of turns.splice(0)) t();
    },
    /** Lets the flush go on by one chunk (it waits for the next turn after each). */
    async turn() {
      const t = turns.shift();
      if (!t) return false;
      t();
      await new Promise((r) => setImmediate(r));
      return true;
    },
  };
};

const raw = (path: string) => new Database(path, { readonly: true });
/** The buckets as the results stored in the file say they must be. */
const expectedBuckets = (db: Database.Database) => {
  const hourly = new Map<
    string,
    Record<string, unknown> & { total: number; ok: number; response_ms_sum: number }
  >();
  const daily = new Map<
    string,
    Record<string, unknown> & {
      total: number;
      ok: number;
      response_ms_sum: number;
      maint_total: number;
      maint_ok: number;
      latency: LatencyCounts;
    }
  >();
  const rows = db
    .prepare(
      'SELECT workspace_id, monitor_id, location, scheduled_at, ok, response_time_ms, in_maintenance FROM check_results',
    )
    .all() as {
    workspace_id: string;
    monitor_id: string;
    location: string;
    scheduled_at: number;
    ok: number;
    response_time_ms: number;
    in_maintenance: number;
  }[];
  for (const r of rows) {
    const hour = r.scheduled_at - (r.scheduled_at % H);
    const day = r.scheduled_at - (r.scheduled_at % (24 * H));
    const base = { monitor_id: r.monitor_id, location: r.location, workspace_id: r.workspace_id };
    const h = hourly.get(`${r.monitor_id}|${hour}|${r.location}`) ?? {
      ...base,
      hour,
      total: 0,
      ok: 0,
      response_ms_sum: 0,
      last_ok_at: null as number | null,
      last_ok_ms: null as number | null,
    };
    hourly.set(`${r.monitor_id}|${hour}|${r.location}`, h);
    const d = daily.get(`${r.monitor_id}|${day}|${r.location}`) ?? {
      ...base,
      day,
      total: 0,
      ok: 0,
      response_ms_sum: 0,
      maint_total: 0,
      maint_ok: 0,
      latency: new Map(),
    };
    daily.set(`${r.monitor_id}|${day}|${r.location}`, d);
    d.maint_total += r.in_maintenance;
    d.maint_ok += r.in_maintenance & r.ok;
    addLatency(d.latency, r.response_time_ms);
    for (const b of [h, d]) {
      b.total++;
      b.ok += r.ok;
      b.response_ms_sum += r.response_time_ms;
    }
    if (r.ok && (h.last_ok_at === null || r.scheduled_at >= (h.last_ok_at as number))) {
      h.last_ok_at = r.scheduled_at;
      h.last_ok_ms = r.response_time_ms;
    }
  }
  const ordered = (m: Map<string, Record<string, unknown>>, key: string) =>
    [...m.values()].sort(
      (a, b) =>
        String(a.monitor_id).localeCompare(String(b.monitor_id)) ||
        (a[key] as number) - (b[key] as number) ||
        String(a.location).localeCompare(String(b.location)),
    );
  const days = [...daily.values()].map((d) => ({ ...d, latency: Buffer.from(encodeCounts(d.latency)) }));
  return { hourly: ordered(hourly, 'hour'), daily: ordered(new Map(days.map((d, i) => [`${i}`, d])), 'day') };
};
const bucketsOf = (db: Database.Database) => ({
  hourly: db.prepare('SELECT * FROM uptime_rollups ORDER BY monitor_id, hour, location').all(),
  daily: db.prepare('SELECT * FROM uptime_daily ORDER BY monitor_id, day, location').all(),
});
const markOf = (db: Database.Database) =>
  (db.prepare('SELECT upto FROM uptime_rollup_mark').get() as { upto: number }).upto;
const flushOf = (db: Database.Database) =>
  db.prepare('SELECT upto, flush_to, flush_done FROM uptime_rollup_mark').get();

const open = async (path: string, rollups?: SqliteOptions['rollups']) => {
  const store = createSqliteStore({ path, rollups });
  await store.init();
  return store;
};
const sum = (store: Awaited<ReturnType<typeof open>>, monitor: string, from: number, to: number) =>
  store.sumRollups(WS, monitor, new Date(from), new Date(to));

describe('uptime buckets behind ingestion (SQLite)', () => {
  it('are written every flush interval, chunkMonitors monitors a transaction, one turn each; reads exact throughout', async () => {
    const path = join(dir, `chunks-${n++}.db`);
    const m = manual();
    const store = await open(path, m.options);
    await store.recordResults(batch('a', T0, 25), () => null);
    await store.recordResults(batch('b', T0 + 60_000, 25), () => null);
    const db = raw(path);
    // Nothing written with the results themselves.
    expect(bucketsOf(db).hourly).toEqual([]);
    expect(await sum(store, 'm1', T0, T0 + H)).toEqual({ total: 2, ok: 2 });
    expect(m.timers).toHaveLength(1);
    m.timers.shift()!();
    // The flush takes what is stored now (row ids up to 50); each chunk after a turn of its own.
    const progress = [flushOf(db)];
    let third = 0;
    while (await m.turn()) {
      progress.push(flushOf(db));
      // Every monitor counted once, before, during and after its chunk: m0 fails, m1 and m20 succeed.
      expect(await sum(store, 'm0', T0, T0 + H)).toEqual({ total: 2 + third, ok: 0 });
      expect(await sum(store, 'm1', T0, T0 + H)).toEqual({ total: 2 + third, ok: 2 + third });
      expect(await sum(store, 'm20', T0, T0 + H)).toEqual({ total: 2, ok: 2 });
      // Results arriving during the flush (m0, m1 and m2 again) wait for the next one.
      if (progress.length === 2) {
        await store.recordResults(batch('c', T0 + 120_000, 3), () => null);
        third = 1;
      }
    }
    // Monitor ids in order (as text): m0, m1, m10 … m17 | m18, m19, m2, m20 … m24, m3, m4 | m5 … m9.
    expect(progress).toEqual([
      { upto: 0, flush_to: 50, flush_done: '' },
      { upto: 0, flush_to: 50, flush_done: 'm17' },
      { upto: 0, flush_to: 50, flush_done: 'm4' },
      { upto: 0, flush_to: 50, flush_done: 'm9' },
      { upto: 50, flush_to: null, flush_done: null },
    ]);
    expect(m.timers).toHaveLength(1); // armed again
    expect(await sum(store, 'm1', T0, T0 + H)).toEqual({ total: 3, ok: 3 });
    // close writes the rest.
    m.release();
    await store.close();
    expect(markOf(db)).toBe(53);
    expect(bucketsOf(db)).toEqual(expectedBuckets(db));
    db.close();
  });

  it('a chunk stops taking monitors once their results reach chunkRows', async () => {
    const path = join(dir, `rows-${n++}.db`);
    const m = manual();
    const store = await open(path, { ...m.options, chunkMonitors: 100, chunkRows: 5 });
    await store.recordResults(batch('a', T0, 25), () => null);
    await store.recordResults(batch('b', T0 + 60_000, 25), () => null);
    const db = raw(path);
    m.timers.shift()!();
    const progress = [flushOf(db)];
    while (await m.turn()) progress.push(flushOf(db));
    // Two results a monitor: three monitors (six results) a chunk, m0, m1, m10 first (ids as text).
    expect(progress.slice(0, 3).map((p) => (p as { flush_done: string | null }).flush_done)).toEqual([
      '',
      'm10',
      'm13',
    ]);
    expect(progress).toHaveLength(1 + Math.ceil(25 / 3) + 1);
    m.release();
    await store.close();
    expect(bucketsOf(db)).toEqual(expectedBuckets(db));
    db.close();
  });

  it('a crash before the flush loses nothing: reopening the file writes what was waiting, exactly', async () => {
    const path = join(dir, `crash-${n++}.db`);
    const m = manual();
    const store = await open(path, m.options);
    await store.recordResults(batch('a', T0, 30), () => null);
    m.timers.shift()!();
    await m.turn(); // one chunk written (10 monitors), then the crash
    expect(flushOf(raw(path))).toEqual({ upto: 0, flush_to: 30, flush_done: 'm17' });
    await store.recordResults(batch('b', T0 + H - 1, 30), () => null);
    await store.closeAsIfCrashed();
    // Opening goes on with the flush the crash left, then takes what came after it.
    const after = await open(path, { chunkMonitors: 7 });
    const db = raw(path);
    expect(bucketsOf(db)).toEqual(expectedBuckets(db));
    expect(markOf(db)).toBe(60);
    expect(await sum(after, 'm4', T0, T0 + 2 * H)).toEqual({ total: 2, ok: 2 });
    await after.close();
    db.close();
  });

  it('results stored after every result was pruned count once: row ids keep rising past the marks', async () => {
    const path = join(dir, `reuse-${n++}.db`);
    const store = await open(path, { chunkMonitors: 10 });
    await store.recordResults(batch('a', T0, 20), () => null);
    // Pruning writes the waiting buckets first, then deletes; the file keeps no result.
    expect(await store.pruneResults(new Date(T0 + 1), 1000)).toBe(20);
    const db = raw(path);
    expect(markOf(db)).toBe(20);
    // SQLite alone would hand out 1..5 again, at or below the marks every reader keeps its place by.
    await store.recordResults(batch('b', T0 + 2 * H, 5), () => null);
    expect(db.prepare('SELECT rid FROM check_results_recent ORDER BY rid').pluck().all()).toEqual([
      21, 22, 23, 24, 25,
    ]);
    expect(await sum(store, 'm1', T0, T0 + 3 * H)).toEqual({ total: 2, ok: 2 });
    await store.closeAsIfCrashed();
    const after = await open(path, { chunkMonitors: 10 });
    expect(await sum(after, 'm1', T0, T0 + 3 * H)).toEqual({ total: 2, ok: 2 });
    expect(await sum(after, 'm1', T0 + 2 * H, T0 + 3 * H)).toEqual({ total: 1, ok: 1 });
    expect(markOf(db)).toBe(25);
    await after.close();
    db.close();
  });

  it('two processes on one file: either one writes the other’s results once, and both read every result exactly', async () => {
    const path = join(dir, `two-${n++}.db`);
    const ma = manual();
    const mb = manual();
    const a = await open(path, ma.options);
    const b = await open(path, mb.options);
    await a.recordResults(batch('a1', T0, 15), () => null);
    await b.recordResults(batch('b1', T0 + 1000, 15), () => null);
    await a.recordResults(batch('a2', T0 + 2000, 15), () => null);
    // Before any flush, each reads every result, its own and the other's.
    expect(await sum(b, 'm1', T0, T0 + H)).toEqual({ total: 3, ok: 3 });
    expect(await sum(a, 'm1', T0, T0 + H)).toEqual({ total: 3, ok: 3 });
    // a writes everything stored so far (its results and b's), 10 monitors a chunk.
    ma.timers.shift()!();
    while (await ma.turn());
    const db = raw(path);
    expect(markOf(db)).toBe(45);
    // b's reads: its own results are in the buckets now, not counted twice.
    expect(await sum(b, 'm1', T0, T0 + H)).toEqual({ total: 3, ok: 3 });
    await b.recordResults(batch('b2', T0 + 3000, 15), () => null);
    expect(await sum(b, 'm1', T0, T0 + H)).toEqual({ total: 4, ok: 4 });
    // b crashes with its second batch waiting; a writes it.
    await b.closeAsIfCrashed();
    ma.release();
    await a.close();
    expect(bucketsOf(db)).toEqual(expectedBuckets(db));
    db.close();
  });
});
