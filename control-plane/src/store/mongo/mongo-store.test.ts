import { describe, expect, it } from 'vitest';
import { createMongoStore } from './mongo-store.js';

// The store contract runs against MongoDB from test/contract/ (one suite per port) whenever
// LOOKOUT_MONGODB_URI points at a replica set; see test/contract/stores.ts.

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
