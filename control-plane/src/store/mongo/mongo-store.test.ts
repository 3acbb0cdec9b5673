import { describe, expect, it } from 'vitest';
import { requireReplicaSet } from './db.js';
import { createMongoStore } from './mongo-store.js';
import { describeMongoStore, mongoHosts } from './uri.js';

// The store contract runs against MongoDB from test/contract/ (one suite per port) whenever
// LOOKOUT_MONGODB_URI points at a replica set; see test/contract/stores.ts (opening a store with
// mustExist: test/contract/lifecycle.test.ts).

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
