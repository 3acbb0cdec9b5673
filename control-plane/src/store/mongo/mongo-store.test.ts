import { MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { isDuplicateOn, requireReplicaSet, retryOnDuplicate } from './db.js';
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

describe('duplicate keys (E11000), as the driver reports a write error', () => {
  const dup = (index: string, keyPattern?: Record<string, number>) =>
    new MongoServerError({
      index: 0,
      code: 11000,
      errmsg: `E11000 duplicate key error collection: lookout.users index: ${index} dup key: { }`,
      ...(keyPattern ? { keyPattern, keyValue: {} } : {}),
    });
  it('are told apart by the index they hit (keyPattern; the message on servers without it)', () => {
    expect(
      isDuplicateOn(dup('workspace_id_1_email_1', { workspace_id: 1, email: 1 }), ['workspace_id', 'email']),
    ).toBe(true);
    expect(isDuplicateOn(dup('token_hash_1', { token_hash: 1 }), ['workspace_id', 'email'])).toBe(false);
    expect(isDuplicateOn(dup('workspace_id_1_email_1'), ['workspace_id', 'email'])).toBe(true);
    expect(isDuplicateOn(dup('_id_'), ['workspace_id', 'email'])).toBe(false);
    expect(isDuplicateOn(new Error('E11000'), ['workspace_id', 'email'])).toBe(false);
  });
  it('run a transaction again only for the duplicates named, a few times at most', async () => {
    const email = dup('workspace_id_1_email_1', { workspace_id: 1, email: 1 });
    let runs = 0;
    const failingTwice = () => (++runs <= 2 ? Promise.reject(email) : Promise.resolve('done'));
    const onEmail = (e: unknown) => isDuplicateOn(e, ['workspace_id', 'email']);
    await expect(retryOnDuplicate(failingTwice, 5, onEmail)).resolves.toBe('done');
    expect(runs).toBe(3);
    runs = 0;
    const token = dup('token_hash_1', { token_hash: 1 });
    const always = (e: unknown) => async () => {
      runs++;
      throw e;
    };
    await expect(retryOnDuplicate(always(token), 5, onEmail)).rejects.toBe(token);
    expect(runs).toBe(1);
    runs = 0;
    await expect(retryOnDuplicate(always(email), 3, onEmail)).rejects.toBe(email);
    expect(runs).toBe(3);
  });
});
