import type { IntegrationStore } from '../../domain/integrations/integration-store.js';
import type { Integration } from '../../domain/types.js';
import type { SqliteContext } from './db.js';
import { insertSql, integrations, toRow } from './tables.js';

/** Inbound integrations in SQLite, found by the hash of their service key (a unique index). */
export const sqliteIntegrations = ({
  st,
  one,
  page,
  unique,
  immediate,
}: SqliteContext): IntegrationStore => ({
  async insertIntegration(integration) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      unique(
        () => st(insertSql(integrations)).run(toRow(integrations, integration)),
        'That service key is taken; try again.',
      );
    });
  },
  async getIntegration(workspaceId, id) {
    return one<Integration>(
      integrations,
      'SELECT * FROM integrations WHERE workspace_id = ? AND id = ?',
      workspaceId,
      id,
    );
  },
  async findIntegrationByKeyHash(keyHash) {
    return one<Integration>(integrations, 'SELECT * FROM integrations WHERE key_hash = ?', keyHash);
  },
  async listIntegrations(workspaceId, q) {
    return page<Integration>(integrations, ['workspace_id = ?'], [workspaceId], q);
  },
  async updateIntegration(i) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      return (
        st(
          `UPDATE integrations SET name = @name, escalation_policy_id = @escalation_policy_id,
             key_hash = @key_hash, key_last_four = @key_last_four, updated_at = @updated_at
           WHERE workspace_id = @workspace_id AND id = @id`,
        ).run(toRow(integrations, i)).changes === 1
      );
    });
  },
  async deleteIntegration(workspaceId, id) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      return (
        st('DELETE FROM integrations WHERE workspace_id = ? AND id = ?').run(workspaceId, id).changes === 1
      );
    });
  },
});
