import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll } from 'vitest';
import { createMongoStore } from '../../control-plane/src/store/mongo/mongo-store.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';
import { mongoScenarios } from './mongo-scenarios.js';

/**
 * The scenarios of mongo-scenarios.ts against SQLite (always: a fresh file per scenario) and against
 * MongoDB when LOOKOUT_MONGODB_URI names a replica set (a fresh database per scenario, dropped
 * afterwards; CI: .github/workflows/ci.yml).
 */
const dir = mkdtempSync(join(tmpdir(), 'lookout-scenarios-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every store opened on one database, closed together. */
const opened = (make: () => Store) => {
  const all: Store[] = [];
  const open = () => {
    const s = make();
    all.push(s);
    return s;
  };
  return { open, closeAll: () => Promise.all(all.map((s) => s.close())) };
};

mongoScenarios('sqlite', async () => {
  const path = join(dir, `${randomUUID()}.db`);
  const stores = opened(() => createSqliteStore({ path }));
  return { store: stores.open(), peer: stores.open, dispose: async () => void (await stores.closeAll()) };
});

const uri = process.env.LOOKOUT_MONGODB_URI;
if (uri) {
  mongoScenarios(
    'mongodb',
    async () => {
      const dbName = `lookout_scenarios_${randomUUID().slice(0, 8)}`;
      const stores = opened(() => createMongoStore({ uri, dbName }));
      const client = await new MongoClient(uri).connect();
      return {
        store: stores.open(),
        peer: stores.open,
        mongo: client.db(dbName),
        async dispose() {
          await stores.closeAll();
          await client.db(dbName).dropDatabase();
          await client.close();
        },
      };
    },
    { mongodb: true },
  );
}
