import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll } from 'vitest';
import { createMongoStore } from '../../control-plane/src/store/mongo/mongo-store.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';

/**
 * Runs a contract suite against every adapter: SQLite always (a fresh file per scenario), MongoDB when
 * LOOKOUT_MONGODB_URI points at a replica set (a fresh database per scenario, dropped afterwards).
 */
export const eachAdapter = (suite: (name: string, open: () => Promise<Store>) => void) => {
  const dir = mkdtempSync(join(tmpdir(), 'lookout-contract-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  suite('sqlite', async () => createSqliteStore({ path: join(dir, `store-${n++}.db`) }));

  const uri = process.env.LOOKOUT_MONGODB_URI;
  if (uri) {
    suite('mongodb', async () => {
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
    });
  }
};
