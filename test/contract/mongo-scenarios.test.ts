import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import { afterAll, expect } from 'vitest';
import type { CheckResultRecord } from '../../control-plane/src/domain/types.js';
import { collectionsOf, toDoc } from '../../control-plane/src/store/mongo/db.js';
import { createMongoStore } from '../../control-plane/src/store/mongo/mongo-store.js';
import { backfillRollups } from '../../control-plane/src/store/mongo/results.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { sqliteContext } from '../../control-plane/src/store/sqlite/db.js';
import { migrate, migrations } from '../../control-plane/src/store/sqlite/migrations.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';
import { results, toRow } from '../../control-plane/src/store/sqlite/tables.js';
import { mongoScenarios } from './mongo-scenarios.js';
import { mongoSkip, mongoUri, onAdapter } from './stores.js';

/**
 * The scenarios of mongo-scenarios.ts against SQLite (always: a fresh file per scenario) and against
 * MongoDB when LOOKOUT_MONGODB_URI names a replica set (a fresh database per scenario, dropped
 * afterwards; CI: .github/workflows/ci.yml); without it they are registered and skipped.
 */
const dir = mkdtempSync(join(tmpdir(), 'lookout-scenarios-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every store opened on one database (or made by `also`), closed together. */
const opened = (make: () => Store) => {
  const all: Store[] = [];
  const also = (s: Store) => {
    all.push(s);
    return s;
  };
  return { open: () => also(make()), also, closeAll: () => Promise.all(all.map((s) => s.close())) };
};

/** The migration that brought uptime rollups, filled from the results already stored. */
const ROLLUPS = migrations.findIndex((m) => m.some((sql) => sql.includes('CREATE TABLE uptime_rollups')));

mongoScenarios('sqlite', async () => {
  const path = join(dir, `${randomUUID()}.db`);
  const stores = opened(() => createSqliteStore({ path }));
  return {
    store: stores.open(),
    peer: stores.open,
    // A file as the versions before rollups left it; the rollups migration is one transaction with
    // every other pending one, so dying in it (here: a statement after its own fails) leaves none.
    async beforeRollups(rs: CheckResultRecord[]) {
      const old = join(dir, `${randomUUID()}.db`);
      const db = new Database(old);
      const ctx = sqliteContext(db);
      migrate(ctx, migrations.slice(0, ROLLUPS));
      // The columns check_results had then (later migrations added some: in_maintenance, 0050).
      const then = new Set(
        (db.prepare('PRAGMA table_info(check_results)').all() as { name: string }[]).map((c) => c.name),
      );
      const cols = Object.keys(results.columns).filter((c) => then.has(c));
      const insert = ctx.st(
        `INSERT INTO check_results (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`,
      );
      for (const r of rs) {
        const row = toRow(results, r) as Record<string, unknown>;
        insert.run(Object.fromEntries(cols.map((c) => [c, row[c]])));
      }
      const dying = migrations.map((m, i) => (i === ROLLUPS ? [...m, 'SELECT * FROM no_such_table'] : m));
      expect(() => migrate(ctx, dying)).toThrow(/no_such_table/);
      db.close();
      return stores.also(createSqliteStore({ path: old }));
    },
    dispose: async () => void (await stores.closeAll()),
  };
});

onAdapter({ name: 'mongodb', skip: mongoSkip }, () =>
  mongoScenarios(
    'mongodb',
    async () => {
      const uri = mongoUri!;
      const dbName = `lookout_scenarios_${randomUUID().slice(0, 8)}`;
      const stores = opened(() => createMongoStore({ uri, dbName }));
      const client = await new MongoClient(uri).connect();
      const others: string[] = [];
      return {
        store: stores.open(),
        peer: stores.open,
        mongo: client.db(dbName),
        // A database as the versions before rollups left it (results, no bucket, no backfill marker),
        // whose first start died after `chunks` steps of the backfill (one monitor each).
        async beforeRollups(rs: CheckResultRecord[], chunks: number) {
          const oldName = `${dbName}_old${others.length}`;
          others.push(oldName);
          const col = collectionsOf(client.db(oldName));
          await col.results.insertMany(rs.map((r) => toDoc(r)));
          const died = new Error('the process died here');
          await expect(
            backfillRollups(col, {
              monitorsPerChunk: 1,
              afterChunk: (n) => {
                if (n === chunks) throw died;
              },
            }),
          ).rejects.toBe(died);
          return stores.also(createMongoStore({ uri, dbName: oldName }));
        },
        async dispose() {
          await stores.closeAll();
          for (const name of [dbName, ...others]) await client.db(name).dropDatabase();
          await client.close();
        },
      };
    },
    { mongodb: true },
  ),
);
