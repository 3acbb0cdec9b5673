/**
 * The adapters every contract suite runs against: SQLite always (a fresh file per scenario), MongoDB
 * when LOOKOUT_MONGODB_URI points at a replica set (transactions need one; a single-node set is fine;
 * CI does that in .github/workflows/ci.yml). Each MongoDB scenario gets a fresh
 * database, dropped afterwards. An adapter is correct when the suites pass; nothing else tests adapters.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, afterEach, beforeEach, describe } from 'vitest';
import type { CheckResultRecord } from '../../control-plane/src/domain/types.js';
import { createMongoStore } from '../../control-plane/src/store/mongo/mongo-store.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';
import { fixtures, result } from './fixtures.js';

export type StoreOpener = () => Promise<Store>;

const dir = mkdtempSync(join(tmpdir(), 'lookout-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const uri = process.env.LOOKOUT_MONGODB_URI;

/** Each adapter's name and how to open a fresh store on it. */
export const adapters: [string, StoreOpener][] = [
  ['sqlite', async () => createSqliteStore({ path: join(dir, `store-${n++}.db`) })],
  ...(uri
    ? ([
        [
          'mongodb',
          async () => {
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
        ],
      ] as [string, StoreOpener][])
    : []),
];

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
  for (const [name, open] of adapters) {
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
    });
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
