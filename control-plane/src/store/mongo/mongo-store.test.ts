import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { storeContract } from '../contract.js';
import { requireReplicaSet } from './db.js';
import { createMongoStore } from './mongo-store.js';
import { describeMongoStore, mongoHosts } from './uri.js';

/**
 * The MongoDB adapter runs the same contract as SQLite whenever LOOKOUT_MONGODB_URI points at a
 * replica set (transactions need one; a single-node set is fine). CI does that in
 * .github/workflows/mongodb-contract.yml. Each scenario gets a fresh database, dropped afterwards.
 */
const uri = process.env.LOOKOUT_MONGODB_URI;

if (uri) {
  const dropDatabase = async (dbName: string) => {
    const c = new MongoClient(uri);
    await c.db(dbName).dropDatabase();
    await c.close();
  };
  storeContract(
    'mongodb',
    async () => {
      const dbName = `lookout_test_${randomUUID().slice(0, 8)}`;
      const store = createMongoStore({ uri, dbName });
      return {
        ...store,
        async close() {
          await dropDatabase(dbName);
          await store.close();
        },
      };
    },
    {
      at: (key, opts) => createMongoStore({ uri, dbName: `lookout_test_${key}`, ...opts }),
      drop: (key) => dropDatabase(`lookout_test_${key}`),
    },
  );
}

describe('MongoDB adapter without a server', () => {
  it('fails init with a connection error instead of hanging', async () => {
    const store = createMongoStore({
      uri: 'mongodb://127.0.0.1:1/',
      dbName: 'x',
      serverSelectionTimeoutMs: 300,
    });
    await expect(store.init()).rejects.toThrow(/ECONNREFUSED|Server selection timed out|connect/i);
    await store.close();
  });
});

describe('the replica-set check at init', () => {
  it('refuses a standalone server (no setName in hello) with a message that says what to do', () => {
    expect(() => requireReplicaSet({ isWritablePrimary: true, maxWireVersion: 21, ok: 1 })).toThrow(
      /standalone server.*needs a replica set.*--replSet.*rs\.initiate\(\)/s,
    );
  });
  it('accepts a replica-set member and a mongos', () => {
    expect(() => requireReplicaSet({ isWritablePrimary: true, setName: 'rs0', ok: 1 })).not.toThrow();
    expect(() => requireReplicaSet({ isWritablePrimary: true, msg: 'isdbgrid', ok: 1 })).not.toThrow();
  });
});

describe('where a MongoDB store is, without credentials', () => {
  it.each([
    ['mongodb://ops:s3cret@db1:27017,db2:27017/?replicaSet=rs0', 'mongodb://db1:27017,db2:27017'],
    [
      'mongodb+srv://ops:p%40ss@cluster0.example.net/lookout?retryWrites=true',
      'mongodb+srv://cluster0.example.net',
    ],
    ['mongodb://127.0.0.1:27017', 'mongodb://127.0.0.1:27017'],
  ])('%s → %s', (uri, hosts) => {
    expect(mongoHosts(uri)).toBe(hosts);
    expect(describeMongoStore(uri, 'lookout')).toBe(`database "lookout" on ${hosts} (MongoDB)`);
  });
});
