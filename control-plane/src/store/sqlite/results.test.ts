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

it('pruning snapshots the states first: a file pruned of every result still opens with every state', async () => {
  const path = join(dir, 'prune.db');
  const a = createSqliteStore({ path, states: { schedule: () => () => {} } });
  const b = createSqliteStore({ path, states: { schedule: () => () => {} } });
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
