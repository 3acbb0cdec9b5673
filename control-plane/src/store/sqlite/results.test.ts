import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { countingStep, result } from '../../../../test/contract/fixtures.js';
import type { MonitorLocationState } from '../../domain/types.js';
import { createSqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'lookout-results-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (s: number) => new Date(Date.UTC(2026, 2, 1) + s * 1000);
const step = countingStep;
const run = (monitor: string, location: string, from: number, count: number, ok = true) =>
  Array.from({ length: count }, (_, i) =>
    result('ws', monitor, {
      id: `${monitor}:${location}:${from + i}`,
      location,
      ok,
      scheduled_at: at(from + i),
      received_at: at(from + i),
    }),
  );
const stateOf = (states: MonitorLocationState[], location: string) =>
  states.find((s) => s.location === location);
/** Every row write to monitor_states, counted by triggers on the same file. */
const countStateWrites = (path: string) => {
  const db = new Database(path);
  db.exec(`CREATE TABLE state_writes (location TEXT);
    CREATE TRIGGER sw_i AFTER INSERT ON monitor_states BEGIN INSERT INTO state_writes VALUES (new.location); END;
    CREATE TRIGGER sw_u AFTER UPDATE ON monitor_states BEGIN INSERT INTO state_writes VALUES (new.location); END;`);
  return db;
};

it('recordResults appends rows that carry their location state and writes no state row; a snapshot writes each once', async () => {
  const path = join(dir, 'log.db');
  const store = createSqliteStore({ path });
  await store.init();
  const db = countStateWrites(path);
  const rs = [...run('m1', 'eu-west', 0, 3), ...run('m1', 'us-east', 1, 1)];
  const out = await store.recordResults(rs, step);
  expect(out.stored).toHaveLength(4);
  expect(stateOf(out.states, 'eu-west')).toMatchObject({ consecutive_successes: 3, version: 3 });
  expect(stateOf(out.states, 'us-east')).toMatchObject({ consecutive_successes: 1 });
  expect(db.prepare('SELECT count(*) FROM state_writes').pluck().get()).toBe(0);
  expect(
    db
      .prepare(
        "SELECT state_status, state_successes FROM check_results_recent WHERE location = 'eu-west' ORDER BY rid",
      )
      .all(),
  ).toEqual([1, 2, 3].map((n) => ({ state_status: 'up', state_successes: n })));
  // close() snapshots: each state written once, as it is after its last result, and the mark moves.
  await store.close();
  expect(db.prepare('SELECT location FROM state_writes ORDER BY location').pluck().all()).toEqual([
    'eu-west',
    'us-east',
  ]);
  expect(
    db
      .prepare(
        "SELECT consecutive_successes, last_scheduled_at FROM monitor_states WHERE location = 'eu-west'",
      )
      .get(),
  ).toEqual({ consecutive_successes: 3, last_scheduled_at: at(2).getTime() });
  expect(db.prepare('SELECT upto FROM result_state_mark').pluck().get()).toBe(4);
  db.close();
});

it('a crash before the snapshot loses no state: reopening replays the rows after the mark', async () => {
  const path = join(dir, 'crash.db');
  const store = createSqliteStore({ path });
  await store.init();
  await store.recordResults(run('m1', 'eu-west', 0, 4), step);
  await store.recordResults(run('m1', 'eu-west', 4, 2, false), step);
  await store.closeAsIfCrashed();
  const db = new Database(path);
  expect(db.prepare('SELECT count(*) FROM monitor_states').pluck().get()).toBe(0);
  db.close();

  const after = createSqliteStore({ path });
  await after.init();
  const seen: (MonitorLocationState | null)[] = [];
  const out = await after.recordResults(run('m1', 'eu-west', 6, 1, false), (prev, r) => {
    seen.push(prev);
    return step(prev, r);
  });
  expect(seen[0]).toMatchObject({ status: 'down', consecutive_failures: 2, last_scheduled_at: at(5) });
  expect(stateOf(out.states, 'eu-west')).toMatchObject({ consecutive_failures: 3 });
  // A replayed batch is stored once and moves nothing.
  const again = await after.recordResults(run('m1', 'eu-west', 6, 1, false), step);
  expect(again.stored).toEqual([]);
  expect(stateOf(again.states, 'eu-west')).toMatchObject({ consecutive_failures: 3 });
  await after.close();
});

it('two processes on one file: each steps from the state the other left, and reads the other’s states', async () => {
  const path = join(dir, 'two.db');
  const a = createSqliteStore({ path });
  const b = createSqliteStore({ path });
  await a.init();
  await b.init();
  await a.recordResults(run('m1', 'eu-west', 0, 3), step);
  // b takes over eu-west (its agent reconnected there): its first step starts from a's third result.
  const seen: (MonitorLocationState | null)[] = [];
  const out = await b.recordResults(
    [...run('m1', 'eu-west', 3, 1), ...run('m1', 'us-east', 3, 1)],
    (prev, r) => {
      seen.push(prev);
      return step(prev, r);
    },
  );
  expect(seen[0]).toMatchObject({ location: 'eu-west', consecutive_successes: 3 });
  expect(seen[1]).toBeNull();
  expect(stateOf(out.states, 'eu-west')).toMatchObject({ consecutive_successes: 4 });
  // a, stepping us-east next, starts from b's state; and its answer holds b's eu-west state.
  const back = await a.recordResults(run('m1', 'us-east', 4, 1, false), step);
  expect(stateOf(back.states, 'us-east')).toMatchObject({ status: 'down', consecutive_failures: 1 });
  expect(stateOf(back.states, 'eu-west')).toMatchObject({ consecutive_successes: 4 });
  await b.close();
  await a.close();
  const db = new Database(path);
  expect(
    db.prepare("SELECT consecutive_failures FROM monitor_states WHERE location = 'us-east'").pluck().get(),
  ).toBe(1);
  db.close();
});

it('monitor-level rows: a process answers from its copy until any process or statement writes one', async () => {
  const path = join(dir, 'levels.db');
  const a = createSqliteStore({ path });
  const b = createSqliteStore({ path });
  await a.init();
  await b.init();
  const star = (status: MonitorLocationState['status'], version: number): MonitorLocationState => ({
    monitor_id: 'm1',
    location: '*',
    status,
    consecutive_failures: 0,
    consecutive_successes: 0,
    consecutive_slow: 0,
    last_result_at: at(100 + version),
    last_scheduled_at: null,
    version,
  });
  const starOf = async (s: typeof a, from: number) =>
    stateOf((await s.recordResults(run('m1', 'eu-west', from, 1), step)).states, '*');
  expect(await starOf(a, 0)).toBeUndefined();
  expect(await b.putMonitorStates([{ next: star('up', 1), expectedVersion: 0 }])).toEqual([true]);
  // b's insert moved the sequence: a reads the row.
  expect(await starOf(a, 1)).toEqual(star('up', 1));
  // A write that leaves the sequence alone (no statement of ours does: the triggers move it) is not
  // seen, which shows a answers from its copy, not the table...
  const db = new Database(path);
  db.prepare("UPDATE monitor_states SET status = 'down' WHERE monitor_id = 'm1' AND location = '*'").run();
  db.prepare('UPDATE monitor_level_seq SET seq = seq - 1').run();
  expect(await starOf(a, 2)).toEqual(star('up', 1));
  // ...and any statement that writes a '*' row moves it (here as resolveAlert's re-arming does).
  db.prepare(
    "UPDATE monitor_states SET status = 'unknown', version = version + 1 WHERE monitor_id = 'm1' AND location = '*'",
  ).run();
  expect(await starOf(a, 3)).toMatchObject({ status: 'unknown', version: 2 });
  // a's own flip keeps its copy current: the sequence moved by exactly its write.
  expect(await a.putMonitorStates([{ next: star('down', 3), expectedVersion: 2 }])).toEqual([true]);
  db.prepare("UPDATE monitor_states SET status = 'up' WHERE monitor_id = 'm1' AND location = '*'").run();
  db.prepare('UPDATE monitor_level_seq SET seq = seq - 1').run();
  expect(await starOf(a, 4)).toEqual(star('down', 3));
  db.prepare("UPDATE monitor_states SET status = 'down' WHERE monitor_id = 'm1' AND location = '*'").run();
  // b's flip, after a's copy was taken, is what a answers with next; a lost compare-and-set moves nothing.
  expect(await b.putMonitorStates([{ next: star('up', 4), expectedVersion: 3 }])).toEqual([true]);
  expect(await a.putMonitorStates([{ next: star('up', 4), expectedVersion: 3 }])).toEqual([false]);
  expect(await starOf(a, 5)).toEqual(star('up', 4));
  expect(await starOf(b, 6)).toEqual(star('up', 4));
  db.close();
  await b.close();
  await a.close();
});

it('pruning snapshots the states first: a file pruned of every result still opens with every state', async () => {
  const path = join(dir, 'prune.db');
  const a = createSqliteStore({ path });
  const b = createSqliteStore({ path });
  await a.init();
  await b.init();
  await a.recordResults(run('m1', 'eu-west', 0, 5), step);
  await b.recordResults(run('m2', 'eu-west', 0, 5), step);
  // b prunes: it snapshots first (every state as of the newest row, a's too), so every result may go.
  expect(await b.pruneResults(at(100), 1000)).toBe(10);
  await a.closeAsIfCrashed();
  await b.closeAsIfCrashed();
  const after = createSqliteStore({ path });
  await after.init();
  const seen: (MonitorLocationState | null)[] = [];
  await after.recordResults(run('m1', 'eu-west', 5, 1), (prev, r) => {
    seen.push(prev);
    return step(prev, r);
  });
  expect(seen[0]).toMatchObject({ consecutive_successes: 5 });
  // Its row comes after every row id handed out before the prune (the log's ids only rise).
  const db = new Database(path);
  expect(db.prepare('SELECT rid FROM check_results_recent').pluck().all()).toEqual([11]);
  db.close();
  await after.close();
});

it('past its threshold of results stored, the log is checkpointed by the checkpointer thread', async () => {
  const path = join(dir, 'checkpoint.db');
  const store = createSqliteStore({ path, checkpoint: { afterResults: 10, everyMs: 20 } });
  await store.init();
  await store.recordResults(run('m1', 'eu-west', 0, 5), step);
  expect(store.checkpoints).toBe(0);
  const before = statSync(path).size;
  await store.recordResults(run('m1', 'eu-west', 5, 500), step);
  for (let i = 0; store.checkpoints === 0 && i < 500; i++) await new Promise((r) => setTimeout(r, 10));
  expect(store.checkpoints).toBeGreaterThan(0);
  // The thread copied the log's pages into the database file.
  expect(statSync(path).size).toBeGreaterThan(before);
  await store.close();
});
