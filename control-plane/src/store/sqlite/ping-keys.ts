import type { PingKeyRecord, PingKeyStore } from '../../domain/heartbeats/ping-key-store.js';
import type { SqliteContext } from './db.js';
import { insertSql, pingKeys, toRow } from './tables.js';

/** Ping keys in SQLite: one row per workspace, found by the key's hash (unique index). */
export const sqlitePingKeys = ({ st, one, immediate }: SqliteContext): PingKeyStore => {
  const get = (workspaceId: string) =>
    one<PingKeyRecord>(pingKeys, 'SELECT * FROM ping_keys WHERE workspace_id = ?', workspaceId);
  return {
    async getPingKey(workspaceId) {
      return get(workspaceId);
    },
    async createPingKey(key) {
      st(insertSql(pingKeys).replace(/^INSERT /, 'INSERT OR IGNORE ')).run(toRow(pingKeys, key));
      return get(key.workspace_id)!;
    },
    async replacePingKey(key) {
      // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
      return immediate(() => {
        st(insertSql(pingKeys).replace(/^INSERT /, 'INSERT OR REPLACE ')).run(toRow(pingKeys, key));
      });
    },
    async findPingKey(keyHash) {
      return one<PingKeyRecord>(pingKeys, 'SELECT * FROM ping_keys WHERE key_hash = ?', keyHash);
    },
  };
};
