import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { countingStep, result } from '../../../../test/contract/fixtures.js';
import { NO_COVER } from '../../domain/maintenance/cover.js';
import type { MonitorLocationState } from '../../domain/types.js';
import { allPages } from '../cursor.js';
import { sqliteContext } from './db.js';
import { migrate, migrations } from './migrations.js';
import { createSqliteStore, type SqliteStore } from './sqlite-store.js';

/**
 * Results stored the way they arrive (results.ts): appended to check_results_recent, folded into the
 * monitor-clustered check_results by the flush (rollups.ts). Here: reads across the two, a replay of a
 * folded result, a process idle while the other folds and deletes, and a file from before the fold.
 */
const dir = mkdtempSync(join(tmpdir(), 'lookout-fold-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const T0 = Date.UTC(2026, 2, 1, 10);
const at = (s: number) => new Date(T0 + s * 1000);
const WS = 'ws';
const run = (monitor: string, location: string, from: number, count: number, ok = true) =>
  Array.from({ length: count }, (_, i) =>
    result(WS, monitor, {
      id: `${monitor}:${location}:${from + i}`,
      location,
      ok,
      scheduled_at: at(from + i),
      received_at: at(from + i),
    }),
  );
const step = countingStep;
/** Stores opened here flush only when told (flush(), close). */
const quiet = { rollups: { schedule: () => () => {} } };
const open = async (path: string) => {
  const s = createSqliteStore({ path, ...quiet });
  await s.init();
  return s;
};
const flush = (s: SqliteStore) => s.flushResults();
const history = async (s: SqliteStore, monitor: string, limit = 3) =>
  (await allPages((q) => s.listResults(WS, monitor, { ...q, limit }))).map((r) => r.id);
const counts = (path: string) => {
  const db = new Database(path, { readonly: true });
  const out = {
    folded: db.prepare('SELECT count(*) FROM check_results').pluck().get(),
    recent: db.prepare('SELECT count(*) FROM check_results_recent').pluck().get(),
  };
  db.close();
  return out;
};

it('a monitor’s history reads the same across the fold: newest first, paged, each result once', async () => {
  const path = join(dir, `across-${n++}.db`);
  const s = await open(path);
  await s.recordResults([...run('m1', 'eu', 0, 4), ...run('m2', 'eu', 0, 3)], step);
  const expected = ['m1:eu:3', 'm1:eu:2', 'm1:eu:1', 'm1:eu:0'];
  expect(await history(s, 'm1')).toEqual(expected);
  await flush(s);
  // Folded and deleted from the recent table (the snapshot holds their states).
  expect(counts(path)).toEqual({ folded: 7, recent: 0 });
  await s.recordResults(run('m1', 'eu', 4, 2), step);
  // Two recent, four folded: one list, pages of three across the two.
  expect(await history(s, 'm1')).toEqual(['m1:eu:5', 'm1:eu:4', ...expected]);
  expect(await s.countResults(WS, 'm1', at(1), at(5))).toEqual({ total: 4, ok: 4 });
  expect(await s.sumRollups(WS, 'm1', new Date(T0 - 3_600_000), new Date(T0 + 3_600_000))).toEqual({
    total: 6,
    ok: 6,
  });
  // The dashboard's recent checks: the newest of both tables, oldest first.
  const db = new Database(path);
  db.prepare("INSERT INTO monitors (id, workspace_id, paused) VALUES ('m1', ?, 0)").run(WS);
  db.close();
  const statuses = await s.getMonitorStatuses(WS, ['m1'], at(10), NO_COVER);
  expect(statuses.get('m1')?.recent_checks.map((c) => c.at.getTime())).toEqual(
    [0, 1, 2, 3, 4, 5].map((i) => at(i).getTime()),
  );
  await s.close();
});

it('a prune folds first only when recent results are older than its cut-off: the flush keeps its own period', async () => {
  const path = join(dir, `prune-${n++}.db`);
  const s = await open(path);
  await s.recordResults(run('m1', 'eu', 0, 4), step); // received at T0 … T0 + 3 s
  expect(await s.pruneResults(at(-3600), 1000)).toBe(0); // a cut-off before all of them
  expect(counts(path)).toEqual({ folded: 0, recent: 4 }); // nothing folded: no flush ran
  expect(await s.pruneResults(at(2), 1000)).toBe(2); // two of them are older than this one
  expect(counts(path)).toEqual({ folded: 2, recent: 0 }); // folded (all), then the old two pruned
  expect(await history(s, 'm1', 10)).toEqual(['m1:eu:3', 'm1:eu:2']);
  await s.close();
});

it('a replayed batch lands once even when its first copy was folded already', async () => {
  const path = join(dir, `replay-${n++}.db`);
  const s = await open(path);
  const first = await s.recordResults(run('m1', 'eu', 0, 3), step);
  expect(first.stored).toHaveLength(3);
  await flush(s);
  const again = await s.recordResults(run('m1', 'eu', 0, 3), step);
  expect(again.stored).toEqual([]);
  expect(again.states.find((x) => x.location === 'eu')).toMatchObject({ consecutive_successes: 3 });
  expect(await history(s, 'm1')).toEqual(['m1:eu:2', 'm1:eu:1', 'm1:eu:0']);
  // A run-now result too, whatever its scheduled time.
  const runNow = result(WS, 'm1', {
    id: 'm1:eu:run:r1',
    location: 'eu',
    run_now_request_id: 'r1',
    scheduled_at: at(50),
    received_at: at(50),
  });
  expect((await s.recordResults([runNow], step)).stored).toEqual(['m1:eu:run:r1']);
  await flush(s);
  expect((await s.recordResults([{ ...runNow, scheduled_at: at(51) }], step)).stored).toEqual([]);
  expect(counts(path)).toEqual({ folded: 4, recent: 0 });
  await s.close();
});

it('a process that stored and read nothing while another folded and deleted steps from the right state', async () => {
  const path = join(dir, `idle-${n++}.db`);
  const a = await open(path);
  const b = await open(path);
  await a.recordResults(run('m1', 'eu', 0, 3), step);
  await b.recordResults(run('m1', 'eu', 3, 1), step); // b has seen a's rows
  await a.recordResults(run('m1', 'eu', 4, 3, false), step);
  await flush(a); // a snapshots, folds and deletes: b never read a's last three rows
  expect(counts(path)).toEqual({ folded: 7, recent: 0 });
  const seen: (MonitorLocationState | null)[] = [];
  await b.recordResults(run('m1', 'eu', 7, 1, false), (prev, r) => {
    seen.push(prev);
    return step(prev, r);
  });
  expect(seen[0]).toMatchObject({ status: 'down', consecutive_failures: 3, last_scheduled_at: at(6) });
  expect(await history(b, 'm1', 10)).toHaveLength(8);
  await b.close();
  await a.close();
});

it('the periodic flush snapshots the states before it deletes what it folded; nothing else writes them', async () => {
  const path = join(dir, `periodic-${n++}.db`);
  let fire: (() => void) | null = null;
  const s = createSqliteStore({
    path,
    rollups: {
      schedule: (fn) => {
        fire = fn;
        return () => {};
      },
    },
  });
  await s.init();
  const locationStates = () => {
    const db = new Database(path, { readonly: true });
    const rows = db
      .prepare("SELECT monitor_id, consecutive_successes FROM monitor_states WHERE location != '*'")
      .all();
    db.close();
    return rows;
  };
  // Five batches move m1's state five times: no state row is written for any of them.
  for (let i = 0; i < 5; i++) await s.recordResults(run('m1', 'eu', i, 1), step);
  expect(locationStates()).toEqual([]);
  // The flush's own timer: it folds, snapshots (the state once, as after its last result), deletes.
  const first = fire!;
  first();
  for (let i = 0; i < 200 && fire === first; i++) await new Promise((r) => setTimeout(r, 5));
  expect(fire).not.toBe(first);
  expect(counts(path)).toEqual({ folded: 5, recent: 0 });
  expect(locationStates()).toEqual([{ monitor_id: 'm1', consecutive_successes: 5 }]);
  // A crash now loses nothing: the state comes back from the snapshot alone.
  await s.closeAsIfCrashed();
  const again = await open(path);
  const seen: (MonitorLocationState | null)[] = [];
  await again.recordResults(run('m1', 'eu', 5, 1), (prev, r) => {
    seen.push(prev);
    return step(prev, r);
  });
  expect(seen[0]).toMatchObject({ consecutive_successes: 5, last_scheduled_at: at(4) });
  await again.close();
});

it('a process forgets the rows another one folded and deleted: its recent index does not grow', async () => {
  const path = join(dir, `forget-${n++}.db`);
  const a = await open(path);
  const b = await open(path);
  await a.recordResults(run('m1', 'eu', 0, 3), step);
  await b.recordResults(run('m1', 'eu', 3, 2), step); // b reads a's rows as it stores its own
  expect([a.recentRows, b.recentRows]).toEqual([3, 5]);
  await flush(a); // a folds and deletes every row (b's too)
  expect(counts(path)).toEqual({ folded: 5, recent: 0 });
  expect(a.recentRows).toBe(0);
  await flush(b); // nothing left for b to fold or delete: it forgets what is gone
  expect(b.recentRows).toBe(0);
  expect(await history(b, 'm1', 10)).toHaveLength(5);
  await b.close();
  await a.close();
});

it('a file from before the fold keeps every result, its buckets and its states, mid-flush too', async () => {
  const path = join(dir, `old-${n++}.db`);
  const old = new Database(path);
  old.pragma('journal_mode = WAL');
  // As the release before the fold left it: every migration before the one that made the recent table.
  const fold = migrations.findIndex((sqls) => sqls.some((sql) => sql.includes('TABLE check_results_recent')));
  expect(fold).toBeGreaterThan(0);
  migrate(sqliteContext(old), migrations.slice(0, fold));
  const insert = old.prepare(
    `INSERT INTO check_results (id, workspace_id, monitor_id, location, scheduled_at, received_at, ok,
       response_time_ms, state_status, state_failures, state_successes, state_slow)
     VALUES (?, 'ws', ?, 'eu', ?, ?, 1, 5, 'up', 0, ?, 0)`,
  );
  // Rows 1–4: in the buckets and the snapshot. 5–8: a flush under way has written a's, not b's.
  // 9–10: waiting, and after the states' mark.
  for (let i = 0; i < 10; i++) {
    const m = i % 2 ? 'b' : 'a';
    insert.run(`${m}:${i}`, m, at(i).getTime(), at(i).getTime(), Math.floor(i / 2) + 1);
  }
  old.exec(`INSERT INTO uptime_rollups (monitor_id, hour, location, workspace_id, total, ok, response_ms_sum)
    VALUES ('a', ${T0}, 'eu', 'ws', 4, 4, 20), ('b', ${T0}, 'eu', 'ws', 2, 2, 10)`);
  old.exec("UPDATE uptime_rollup_mark SET upto = 4, flush_to = 8, flush_done = 'a'");
  old.exec('UPDATE result_state_mark SET upto = 8');
  old.exec(`INSERT INTO monitor_states (monitor_id, location, status, consecutive_failures, consecutive_successes,
    consecutive_slow, last_result_at, last_scheduled_at, version)
    VALUES ('a', 'eu', 'up', 0, 4, 0, ${at(6).getTime()}, ${at(6).getTime()}, 4),
           ('b', 'eu', 'up', 0, 4, 0, ${at(7).getTime()}, ${at(7).getTime()}, 4)`);
  old.close();

  const s = await open(path);
  const hour = [new Date(T0), new Date(T0 + 3_600_000)] as const;
  expect(await s.sumRollups(WS, 'a', ...hour)).toEqual({ total: 5, ok: 5 });
  expect(await s.sumRollups(WS, 'b', ...hour)).toEqual({ total: 5, ok: 5 });
  expect(await history(s, 'a', 2)).toEqual(['a:8', 'a:6', 'a:4', 'a:2', 'a:0']);
  expect(await history(s, 'b', 2)).toEqual(['b:9', 'b:7', 'b:5', 'b:3', 'b:1']);
  const seen: (MonitorLocationState | null)[] = [];
  await s.recordResults(
    [...run('a', 'eu', 10, 1), ...run('b', 'eu', 11, 1)].map((r, i) => ({ ...r, id: `new:${i}` })),
    (prev, r) => {
      seen.push(prev);
      return step(prev, r);
    },
  );
  expect(seen.map((x) => x?.consecutive_successes)).toEqual([5, 5]);
  await s.close();
  // Closing flushed everything: every result in check_results once, the buckets from them.
  const db = new Database(path, { readonly: true });
  expect(db.prepare('SELECT count(*) FROM check_results').pluck().get()).toBe(12);
  expect(
    db.prepare('SELECT monitor_id, sum(total) FROM uptime_rollups GROUP BY 1 ORDER BY 1').raw().all(),
  ).toEqual([
    ['a', 6],
    ['b', 6],
  ]);
  db.close();
});
