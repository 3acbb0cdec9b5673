import type { OAuthRecord, OAuthStore } from '../../domain/access/oauth-store.js';
import type { SqliteContext } from './db.js';

interface Row {
  workspace_id: string;
  model: string;
  key_hash: string;
  payload: string;
  grant_id: string | null;
  account_id: string | null;
  client_id: string | null;
  uid: string | null;
  created_at: number;
  expires_at: number | null;
  consumed_at: number | null;
}

const fromRow = (r: Row | undefined): OAuthRecord | null =>
  r
    ? {
        ...r,
        payload: JSON.parse(r.payload) as Record<string, unknown>,
        created_at: new Date(r.created_at),
        expires_at: r.expires_at === null ? null : new Date(r.expires_at),
        consumed_at: r.consumed_at === null ? null : new Date(r.consumed_at),
      }
    : null;

const KEY = 'workspace_id = ? AND model = ? AND key_hash = ?';

/** The hosted connector's OAuth records in SQLite (table oauth_records, created by migrations/0008-oauth-records.ts). */
export const sqliteOAuth = ({ st, immediate }: Pick<SqliteContext, 'st' | 'immediate'>): OAuthStore => ({
  async upsertOAuthRecord(r) {
    st(
      `INSERT INTO oauth_records (workspace_id, model, key_hash, payload, grant_id, account_id, client_id, uid,
         created_at, expires_at, consumed_at)
       VALUES (@workspace_id, @model, @key_hash, @payload, @grant_id, @account_id, @client_id, @uid,
         @created_at, @expires_at, @consumed_at)
       ON CONFLICT (workspace_id, model, key_hash) DO UPDATE SET payload = excluded.payload,
         grant_id = excluded.grant_id, account_id = excluded.account_id, client_id = excluded.client_id,
         uid = excluded.uid, expires_at = excluded.expires_at, consumed_at = excluded.consumed_at`,
    ).run({
      ...r,
      payload: JSON.stringify(r.payload),
      created_at: r.created_at.getTime(),
      expires_at: r.expires_at?.getTime() ?? null,
      consumed_at: r.consumed_at?.getTime() ?? null,
    });
  },
  async findOAuthRecord(workspaceId, model, keyHash) {
    return fromRow(
      st(`SELECT * FROM oauth_records WHERE ${KEY}`).get(workspaceId, model, keyHash) as Row | undefined,
    );
  },
  async findOAuthRecordByUid(workspaceId, model, uid) {
    return fromRow(
      st('SELECT * FROM oauth_records WHERE workspace_id = ? AND model = ? AND uid = ?').get(
        workspaceId,
        model,
        uid,
      ) as Row | undefined,
    );
  },
  async consumeOAuthRecord(workspaceId, model, keyHash, at) {
    st(`UPDATE oauth_records SET consumed_at = ? WHERE ${KEY} AND consumed_at IS NULL`).run(
      at.getTime(),
      workspaceId,
      model,
      keyHash,
    );
  },
  async deleteOAuthRecord(workspaceId, model, keyHash) {
    st(`DELETE FROM oauth_records WHERE ${KEY}`).run(workspaceId, model, keyHash);
  },
  async revokeOAuthGrant(workspaceId, grantId) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(
      () =>
        st('DELETE FROM oauth_records WHERE workspace_id = ? AND grant_id = ?').run(workspaceId, grantId)
          .changes,
    );
  },
  async listOAuthGrants(workspaceId, { accountId, clientId, inUse }, now) {
    const at = now.getTime();
    const where = [
      "g.workspace_id = @workspaceId AND g.model = 'Grant' AND (g.expires_at IS NULL OR g.expires_at > @at)",
    ];
    if (accountId !== undefined) where.push('g.account_id = @accountId');
    if (clientId !== undefined) where.push('g.client_id = @clientId');
    if (inUse)
      where.push(`EXISTS (SELECT 1 FROM oauth_records t WHERE t.workspace_id = g.workspace_id
        AND t.grant_id = g.grant_id AND t.model IN ('AccessToken', 'RefreshToken') AND t.consumed_at IS NULL
        AND (t.expires_at IS NULL OR t.expires_at > @at))`);
    return (
      st(
        `SELECT g.* FROM oauth_records g WHERE ${where.join(' AND ')} ORDER BY g.created_at DESC, g.key_hash DESC`,
      ).all({
        workspaceId,
        at,
        ...(accountId !== undefined && { accountId }),
        ...(clientId !== undefined && { clientId }),
      }) as Row[]
    ).map((r) => fromRow(r)!);
  },
  async keepOAuthClient(workspaceId, keyHash) {
    st(`UPDATE oauth_records SET expires_at = NULL WHERE ${KEY} AND expires_at IS NOT NULL`).run(
      workspaceId,
      'Client',
      keyHash,
    );
  },
  async countOAuthClients(workspaceId, now) {
    const r = st(
      `SELECT COUNT(*) n, MIN(expires_at) next FROM oauth_records WHERE model = 'Client'
         AND (expires_at IS NULL OR expires_at > @at)${workspaceId === null ? '' : ' AND workspace_id = @workspaceId'}`,
    ).get({ at: now.getTime(), ...(workspaceId !== null && { workspaceId }) }) as {
      n: number;
      next: number | null;
    };
    return { count: r.n, next_expiry: r.next === null ? null : new Date(r.next) };
  },
  async pruneOAuthRecords(now, limit) {
    return st(
      `DELETE FROM oauth_records WHERE rowid IN
         (SELECT rowid FROM oauth_records WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT ?)`,
    ).run(now.getTime(), limit).changes;
  },
});
