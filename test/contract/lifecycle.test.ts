/**
 * Opening a store: with `mustExist` (what the CLI uses for every command but `workspace create`), a
 * store never made is refused with StoreMissingError naming where it looked, and nothing is created.
 * SQLite always; MongoDB when LOOKOUT_MONGODB_URI is set (registered and skipped without it).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, expect, it } from 'vitest';
import { createMongoStore } from '../../control-plane/src/store/mongo/mongo-store.js';
import { type Store, StoreMissingError } from '../../control-plane/src/store/port.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';
import { type Adapter, describeOn, mongoSkip, mongoUri } from './stores.js';

/** Opens one named store (a file, a database) more than once. */
interface NamedStores {
  /** The store named `key`; `init` creates it unless `mustExist`. */
  at(key: string, opts: { mustExist?: boolean }): Store;
  /** Removes what `at(key)` made. */
  drop(key: string): Promise<void>;
}

const dir = mkdtempSync(join(tmpdir(), 'lookout-lifecycle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** MongoDB's URI, read where it is used: its variant is registered (and skipped) without one. */
const uri = () => mongoUri ?? '';

const adapters: [Pick<Adapter, 'name' | 'skip'>, NamedStores][] = [
  [
    { name: 'sqlite', skip: null },
    {
      at: (key, opts) => createSqliteStore({ path: join(dir, key, 'lookout.db'), ...opts }),
      drop: async (key) => rmSync(join(dir, key), { recursive: true, force: true }),
    },
  ],
  [
    { name: 'mongodb', skip: mongoSkip },
    {
      at: (key, opts) => createMongoStore({ uri: uri(), dbName: `lookout_test_${key}`, ...opts }),
      drop: async (key) => {
        const c = new MongoClient(uri());
        await c.db(`lookout_test_${key}`).dropDatabase();
        await c.close();
      },
    },
  ],
];

for (const [adapter, named] of adapters) {
  describeOn(adapter, `store lifecycle: ${adapter.name}`, () => {
    it('opened with mustExist, a store never made is refused and nothing is created; once made, it opens', async () => {
      const key = `must_exist_${randomUUID().slice(0, 8)}`;
      /** Opens (the factory or init may refuse) and closes again. */
      const openAndClose = async (opts: { mustExist?: boolean }) => {
        const s = named.at(key, opts);
        try {
          await s.init();
          return s;
        } finally {
          await s.close();
        }
      };
      try {
        const refused = await openAndClose({ mustExist: true }).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(StoreMissingError);
        expect((refused as StoreMissingError).where).toContain(key);
        // Refusing made nothing: asked again, it is still missing.
        await expect(openAndClose({ mustExist: true })).rejects.toBeInstanceOf(StoreMissingError);
        await openAndClose({});
        await expect(openAndClose({ mustExist: true })).resolves.toBeDefined();
      } finally {
        await named.drop(key);
      }
    });
  });
}
