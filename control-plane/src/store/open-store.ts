import { join } from 'node:path';
import type { Config } from '../config.js';
import type { MonitorSlots } from '../domain/monitors/monitor-slots.js';
import { describeMongoStore } from './mongo/uri.js';
import type { Store } from './port.js';
import { createSqliteStore } from './sqlite/sqlite-store.js';

/**
 * The store the configuration asks for: MongoDB when LOOKOUT_MONGODB_URI is set, else the SQLite file.
 * With `mustExist`, a store that was never made is not created: StoreMissingError names where it
 * looked (the admin CLI opens it so; only `workspace create` may start a new store).
 */
export const openStore = async (
  config: Config,
  opts: { mustExist?: boolean; monitorSlots?: MonitorSlots } = {},
): Promise<Store> => {
  const mustExist = opts.mustExist === true;
  const store = config.mongodb_uri
    ? (await import('./mongo/mongo-store.js')).createMongoStore({
        uri: config.mongodb_uri,
        dbName: config.mongodb_db,
        mustExist,
      })
    : createSqliteStore({
        path: join(config.data_dir, 'lookout.db'),
        mustExist,
        ...(opts.monitorSlots ? { monitorSlots: opts.monitorSlots } : {}),
      });
  try {
    await store.init();
  } catch (e) {
    await store.close().catch(() => {});
    throw e;
  }
  return store;
};

/** Where the configured store is, for logs and messages (no credentials). */
export const describeStore = (config: Config) =>
  config.mongodb_uri
    ? describeMongoStore(config.mongodb_uri, config.mongodb_db)
    : `SQLite ${join(config.data_dir, 'lookout.db')}`;
