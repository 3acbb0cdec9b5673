import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import type { ApiKey, User, Workspace } from '../../domain/types.js';
import type { SqliteContext } from './db.js';
import { apiKeys, insertSql, policies, toRow, users, workspaces } from './tables.js';

/** Workspaces, users and API keys in SQLite. The key cap is counted and kept in one IMMEDIATE transaction. */
export const sqliteTenancy = ({ st, one, immediate, page, unique }: SqliteContext): TenancyStore => {
  const getApiKey = (workspaceId: string, id: string) =>
    one<ApiKey>(apiKeys, 'SELECT * FROM api_keys WHERE workspace_id = ? AND id = ?', workspaceId, id);
  return {
    async createWorkspace({ workspace, admin, defaultPolicy }) {
      unique(
        () =>
          immediate(() => {
            st(insertSql(workspaces)).run(toRow(workspaces, workspace));
            st(insertSql(users)).run(toRow(users, admin));
            st(insertSql(policies)).run(toRow(policies, defaultPolicy));
          }),
        `Subdomain "${workspace.subdomain}" is taken.`,
      );
    },
    async getWorkspace(id) {
      return one<Workspace>(workspaces, 'SELECT * FROM workspaces WHERE id = ?', id);
    },
    async getWorkspaceBySubdomain(subdomain) {
      return one<Workspace>(workspaces, 'SELECT * FROM workspaces WHERE subdomain = ?', subdomain);
    },
    async getOnlyWorkspace() {
      const { n } = st('SELECT COUNT(*) n FROM (SELECT 1 FROM workspaces LIMIT 2)').get() as { n: number };
      return n === 1 ? one<Workspace>(workspaces, 'SELECT * FROM workspaces LIMIT 1') : null;
    },

    async createUser(user) {
      unique(() => st(insertSql(users)).run(toRow(users, user)), `A user with email ${user.email} exists.`);
    },
    async getUser(workspaceId, id) {
      return one<User>(users, 'SELECT * FROM users WHERE workspace_id = ? AND id = ?', workspaceId, id);
    },
    async getUserByEmail(workspaceId, email) {
      return one<User>(users, 'SELECT * FROM users WHERE workspace_id = ? AND email = ?', workspaceId, email);
    },
    async listUsers(workspaceId, q) {
      return page<User>(users, ['workspace_id = ?'], [workspaceId], q);
    },

    async insertApiKey(key, { maxActive, now }) {
      return immediate(() => {
        const { n } = st(
          `SELECT count(*) n FROM api_keys WHERE workspace_id = ? AND user_id = ? AND kind = 'named'
             AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`,
        ).get(key.workspace_id, key.user_id, now.getTime()) as { n: number };
        if (n >= maxActive) return 'limit_reached' as const;
        st(insertSql(apiKeys)).run(toRow(apiKeys, key));
        return 'inserted' as const;
      });
    },
    async replaceLegacyKey(key, now) {
      immediate(() => {
        st(
          `UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND user_id = ? AND kind = 'legacy' AND revoked_at IS NULL`,
        ).run(now.getTime(), key.workspace_id, key.user_id);
        st(insertSql(apiKeys)).run(toRow(apiKeys, key));
      });
    },
    async findApiKeyByHash(keyHash) {
      return one<ApiKey>(apiKeys, 'SELECT * FROM api_keys WHERE key_hash = ?', keyHash);
    },
    async getApiKey(workspaceId, id) {
      return getApiKey(workspaceId, id);
    },
    async listApiKeys(workspaceId, q) {
      const where = ['workspace_id = ?'];
      const params: unknown[] = [workspaceId];
      if (q.userId !== undefined) {
        where.push('user_id = ?');
        params.push(q.userId);
      }
      if (q.kind !== undefined) {
        where.push('kind = ?');
        params.push(q.kind);
      }
      return page<ApiKey>(apiKeys, where, params, q);
    },
    async revokeApiKey(workspaceId, id, now) {
      // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
      return immediate(() => {
        st('UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND id = ? AND revoked_at IS NULL').run(
          now.getTime(),
          workspaceId,
          id,
        );
        return getApiKey(workspaceId, id);
      });
    },
    async recordApiKeyUse(id, at, from) {
      st(
        'UPDATE api_keys SET last_used_at = ?, last_used_from = ? WHERE id = ? AND coalesce(last_used_at, 0) < ?',
      ).run(at.getTime(), from, id, at.getTime());
    },
  };
};
