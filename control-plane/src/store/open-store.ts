import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Store } from './port.js';
import { createSqliteStore } from './sqlite/sqlite-store.js';

/** The store the configuration asks for: MongoDB when LOOKOUT_MONGODB_URI is set, else the SQLite file. */
export const openStore = async (config: Config): Promise<Store> => {
  const store = config.mongodb_uri
    ? (await import('./mongo/mongo-store.js')).createMongoStore({
        uri: config.mongodb_uri,
        dbName: config.mongodb_db,
      })
    : createSqliteStore({ path: join(config.data_dir, 'lookout.db') });
  await store.init();
  return store;
};

export const describeStore = (config: Config) =>
  config.mongodb_uri ? `MongoDB (${config.mongodb_db})` : `SQLite ${join(config.data_dir, 'lookout.db')}`;
