import type { SecretStore, WorkspaceSecret } from '../../domain/secrets/secret-store.js';
import type { SqliteContext } from './db.js';
import { insertSql, secrets, toRow } from './tables.js';

/**
 * Workspace secrets in SQLite: one row per (workspace_id, name), the table's primary key. A put is
 * one upsert that keeps `created_at`; whether it created the row is read in the same IMMEDIATE
 * transaction.
 */
export const sqliteSecrets = ({ st, one, many, immediate }: SqliteContext): SecretStore => ({
  async putSecret(secret) {
    return immediate(() => {
      const had = st('SELECT 1 FROM secrets WHERE workspace_id = ? AND name = ?').get(
        secret.workspace_id,
        secret.name,
      );
      if (had)
        st(
          `UPDATE secrets SET sealed_value = ?, hint = ?, updated_at = ?, updated_by = ?
             WHERE workspace_id = ? AND name = ?`,
        ).run(
          secret.sealed_value,
          secret.hint,
          secret.updated_at.getTime(),
          secret.updated_by,
          secret.workspace_id,
          secret.name,
        );
      else st(insertSql(secrets)).run(toRow(secrets, secret));
      return !had;
    });
  },
  async getSecret(workspaceId, name) {
    return one<WorkspaceSecret>(
      secrets,
      'SELECT * FROM secrets WHERE workspace_id = ? AND name = ?',
      workspaceId,
      name,
    );
  },
  async listSecrets(workspaceId) {
    return many<WorkspaceSecret>(
      secrets,
      'SELECT * FROM secrets WHERE workspace_id = ? ORDER BY name',
      workspaceId,
    );
  },
  async getSecrets(workspaceId, names) {
    if (names.length === 0) return [];
    return many<WorkspaceSecret>(
      secrets,
      `SELECT * FROM secrets WHERE workspace_id = ? AND name IN (${names.map(() => '?').join(', ')}) ORDER BY name`,
      workspaceId,
      ...names,
    );
  },
  async deleteSecret(workspaceId, name) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      return (
        st('DELETE FROM secrets WHERE workspace_id = ? AND name = ?').run(workspaceId, name).changes === 1
      );
    });
  },
});
