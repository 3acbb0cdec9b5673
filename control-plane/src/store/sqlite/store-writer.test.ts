import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { countingStep, result } from '../../../../test/contract/fixtures.js';
import type { CheckResultRecord, MonitorLocationState } from '../../domain/types.js';
import { createSqliteStore } from './sqlite-store.js';
import { insertSql, recentResults, toRow } from './tables.js';

/**
 * Result batches are appended by the store writer's thread (store-writer.ts) from states computed on the
 * event loop; whenever those might be wrong (another process stored since, a replay) the thread writes
 * nothing and the batch goes through the event loop's own connection.
 */

const dir = mkdtempSync(join(tmpdir(), 'lookout-store-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (s: number) => new Date(Date.UTC(2026, 2, 1) + s * 1000);
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
const open = async (name: string) => {
  const store = createSqliteStore({ path: join(dir, name) });
  await store.init();
  return store;
};

it('the thread appends the rows with the states a single connection computes, and every read sees them', async () => {
  const store = await open('thread.db');
  const memory = createSqliteStore({ path: ':memory:' });
  await memory.init();
  const batches = [
    run('m1', 'eu-west', 0, 3),
    [...run('m1', 'eu-west', 3, 2, false), ...run('m1', 'us-east', 3, 1)],
  ];
  for (const b of batches) {
    const [viaThread, inThread] = [
      await store.recordResults(b, countingStep),
      await memory.recordResults(b, countingStep),
    ];
    expect(viaThread).toEqual(inThread);
  }
  expect(store.resultWrites).toEqual({ thread: 2, here: 0 });
  expect(memory.resultWrites).toEqual({ thread: 0, here: 2 });
  expect(
    stateOf((await store.recordResults(run('m1', 'eu-west', 5, 1, false), countingStep)).states, 'eu-west'),
  ).toMatchObject({
    status: 'down',
    consecutive_failures: 3,
    version: 6,
  });
  const page = await store.listResults('ws', 'm1', { limit: 10 });
  expect(page.data.map((r) => r.id)).toEqual([
    'm1:eu-west:5',
    'm1:eu-west:4',
    'm1:us-east:3',
    'm1:eu-west:3',
    'm1:eu-west:2',
    'm1:eu-west:1',
    'm1:eu-west:0',
  ]);
  expect(store.recentRows).toBe(7);
  await store.close();
  await memory.close();
});

it('a replayed batch: the thread writes none of it, and the batch lands once through the event loop’s connection', async () => {
  const store = await open('replay.db');
  const batch = run('m1', 'eu-west', 0, 3);
  expect((await store.recordResults(batch, countingStep)).stored).toHaveLength(3);
  // The replay, with one new result after it: the new one is stored, the three old ones move nothing.
  const again = await store.recordResults([...batch, ...run('m1', 'eu-west', 3, 1)], countingStep);
  expect(again.stored).toEqual(['m1:eu-west:3']);
  expect(stateOf(again.states, 'eu-west')).toMatchObject({ consecutive_successes: 4, version: 4 });
  expect(store.resultWrites).toEqual({ thread: 1, here: 1 });
  expect(store.recentRows).toBe(4);
  await store.close();
});

it('another process stores a row after the states were computed: the thread declines, and the batch steps from that row', async () => {
  const path = join(dir, 'race.db');
  const store = await open('race.db');
  await store.recordResults(run('m1', 'eu-west', 0, 2), countingStep);
  // Another process's row, with its state (3 successes), committed between the catch-up and the write.
  const other = new Database(path);
  const theirs: CheckResultRecord & Record<string, unknown> = {
    ...run('m1', 'eu-west', 2, 1)[0]!,
    id: 'theirs',
    state_status: 'up',
    state_failures: 0,
    state_successes: 3,
    state_slow: 0,
  };
  let inserted = false;
  const prevs: (number | undefined)[] = [];
  const out = await store.recordResults(run('m1', 'eu-west', 3, 1), (prev, r) => {
    prevs.push(prev?.consecutive_successes);
    if (!inserted) {
      inserted = true;
      other.prepare(insertSql(recentResults)).run(toRow(recentResults, theirs));
    }
    return countingStep(prev, r);
  });
  other.close();
  // First computed from 2 (declined by the thread), then again under the lock from the other's 3.
  expect(prevs).toEqual([2, 3]);
  expect(store.resultWrites).toEqual({ thread: 1, here: 1 });
  expect(stateOf(out.states, 'eu-west')).toMatchObject({ consecutive_successes: 4 });
  expect(store.recentRows).toBe(4);
  await store.close();
});

it('rows a reader took from the file before the thread’s answer came back are not taken twice', async () => {
  const path = join(dir, 'reader.db');
  const store = await open('reader.db');
  await store.recordResults(run('m1', 'eu-west', 0, 1), countingStep);
  const watcher = new Database(path, { readonly: true });
  const count = watcher.prepare('SELECT count(*) FROM check_results_recent').pluck();
  const writing = store.recordResults(run('m1', 'eu-west', 1, 3), countingStep);
  // Its batch is sent to the thread a few promise jobs later (no turn of the event loop).
  for (let i = 0; i < 20; i++) await Promise.resolve();
  // Hold the event loop until the thread has committed: its answer cannot be taken before the read.
  const until = Date.now() + 10_000;
  while ((count.get() as number) < 4) if (Date.now() > until) throw new Error('the thread wrote nothing');
  const reading = store.countResults('ws', 'm1', at(0), at(10));
  const out = await writing;
  expect(out.stored).toHaveLength(3);
  expect(await reading).toEqual({ total: 4, ok: 4 });
  expect(stateOf(out.states, 'eu-west')).toMatchObject({ consecutive_successes: 4, version: 4 });
  expect(store.recentRows).toBe(4);
  watcher.close();
  await store.close();
});
