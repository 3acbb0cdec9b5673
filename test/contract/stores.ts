/**
 * The adapters every contract suite runs against: SQLite always (a fresh file per scenario), MongoDB
 * when LOOKOUT_MONGODB_URI points at a replica set (transactions need one; a single-node set is fine;
 * CI does that in .github/workflows/ci.yml). Without it the MongoDB variants are still
 * registered, and skipped with that reason (adapters.test.ts holds every suite to this). Each MongoDB
 * scenario gets a fresh database, dropped afterwards. An adapter is correct when the suites pass;
 * nothing else tests adapters.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, afterEach, beforeEach, describe, type RunnerTask } from 'vitest';
import type { CheckResultRecord, MonitorLocationState } from '../../control-plane/src/domain/types.js';
import { createMongoStore } from '../../control-plane/src/store/mongo/mongo-store.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';
import { fixtures, result, T0 } from './fixtures.js';

export type StoreOpener = () => Promise<Store>;

const dir = mkdtempSync(join(tmpdir(), 'lookout-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** How many tests of a file's tasks sit under a describe naming each adapter. */
export const testsPerAdapter = (tasks: readonly RunnerTask[], under: string | null = null) => {
  const counts = { sqlite: 0, mongodb: 0 };
  for (const t of tasks) {
    const named = /\b(sqlite|mongodb)\b/.exec(t.name)?.[1] ?? under;
    if (t.type === 'suite') {
      const inner = testsPerAdapter(t.tasks, named);
      counts.sqlite += inner.sqlite;
      counts.mongodb += inner.mongodb;
    } else if (named === 'sqlite' || named === 'mongodb') counts[named]++;
  }
  return counts;
};

// Every contract file imports this module, so each is checked once its tests are done: every
// scenario it registers for SQLite is registered for MongoDB too (run, or skipped with its reason).
// biome-ignore lint/correctness/noEmptyPattern: vitest reads which fixtures a hook uses from this pattern
afterAll(({}, file) => {
  const { sqlite, mongodb } = testsPerAdapter(file.tasks);
  if (mongodb < sqlite)
    throw new Error(
      `${file.name} registers ${sqlite} tests for SQLite but ${mongodb} for MongoDB: register every ` +
        'adapter from stores.ts (`adapters`, `contract`, `describeOn`, `onAdapter`), skipped where it cannot run',
    );
});

/** The replica set the MongoDB variants run on; unset on machines without one. */
export const mongoUri = process.env.LOOKOUT_MONGODB_URI;

/** One adapter: its name, how to open a fresh store on it, and why it cannot run here (null: it can). */
export interface Adapter {
  name: 'sqlite' | 'mongodb';
  open: StoreOpener;
  skip: string | null;
}

/** Why the MongoDB variants cannot run here, or null when they can. */
export const mongoSkip = mongoUri ? null : 'LOOKOUT_MONGODB_URI is not set';

/**
 * Every adapter, always both: the MongoDB variants are registered on machines without a replica set
 * too, and reported as skipped (with the reason) instead of vanishing from the runner's count.
 */
export const adapters: Adapter[] = [
  { name: 'sqlite', skip: null, open: async () => createSqliteStore({ path: join(dir, `store-${n++}.db`) }) },
  {
    name: 'mongodb',
    skip: mongoSkip,
    async open() {
      const uri = mongoUri;
      if (!uri) throw new Error(`MongoDB variants cannot run: ${mongoSkip}`);
      const dbName = `lookout_test_${randomUUID().slice(0, 8)}`;
      const store = createMongoStore({ uri, dbName });
      return {
        ...store,
        async close() {
          const c = new MongoClient(uri);
          await c.db(dbName).dropDatabase();
          await c.close();
          await store.close();
        },
      };
    },
  },
];

/** `describe(title)` for one adapter; where it cannot run, `describe.skip` with the reason in the name. */
export const describeOn = (adapter: Pick<Adapter, 'name' | 'skip'>, title: string, fn: () => void) => {
  if (adapter.skip === null) describe(title, fn);
  else describe.skip(`${title} (skipped: ${adapter.skip})`, fn);
};

/**
 * Registers `suites` for one adapter: as they are where it can run; elsewhere inside a skipped
 * describe whose name says why, so each of its tests is counted as skipped.
 */
export const onAdapter = (adapter: Pick<Adapter, 'name' | 'skip'>, suites: () => void) => {
  if (adapter.skip === null) suites();
  else describe.skip(`${adapter.name} (skipped: ${adapter.skip})`, suites);
};

export interface ContractContext {
  store: Store;
  /** A workspace created before each scenario, with its admin and default policy. */
  ws: ReturnType<typeof fixtures.workspace>;
}

/**
 * One port's suite: `scenarios` runs once per adapter, each scenario on a fresh, initialised store
 * holding one workspace.
 */
export const contract = (port: string, scenarios: (ctx: () => ContractContext) => void) => {
  for (const { name, open, skip } of adapters) {
    onAdapter({ name, skip }, () =>
      describe(`${port} contract: ${name}`, () => {
        let c: ContractContext;
        beforeEach(async () => {
          const store = await open();
          await store.init();
          const ws = fixtures.workspace();
          await store.createWorkspace(ws);
          c = { store, ws };
        });
        afterEach(async () => {
          await c.store.close();
        });
        scenarios(() => c);
      }),
    );
  }
};

/**
 * Every location state of a monitor, read through recordResults: `replay` (a result already stored)
 * stores and steps nothing; without it a probe result is stored once, stepping nothing.
 */
export const locationStates = async (
  store: Store,
  workspaceId: string,
  monitorId: string,
  replay?: CheckResultRecord,
) =>
  (
    await store.recordResults(
      [replay ?? result(workspaceId, monitorId, { id: `probe-${monitorId}` })],
      () => null,
    )
  ).states;

/**
 * A location state as ingestion leaves it: one result of its monitor at its location (at the state's
 * times), stepped to exactly `s`. Location states are moved by recordResults only.
 */
export const seedLocationState = async (store: Store, workspaceId: string, s: MonitorLocationState) => {
  const t = s.last_scheduled_at ?? s.last_result_at ?? T0;
  await store.recordResults(
    [
      result(workspaceId, s.monitor_id, {
        id: `seed-${s.monitor_id}-${s.location}-${t.getTime()}`,
        location: s.location,
        scheduled_at: t,
        received_at: s.last_result_at ?? t,
      }),
    ],
    () => s,
  );
};

/** One monitor-level state written by compare-and-set (`putMonitorStates` with one write): written or not. */
export const putState = async (store: Store, next: MonitorLocationState, expectedVersion: number) =>
  (await store.putMonitorStates([{ next, expectedVersion }]))[0]!;
