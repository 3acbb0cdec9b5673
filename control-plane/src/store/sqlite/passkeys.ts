import type { Passkey, PasskeyChallenge, PasskeyStore } from '../../domain/access/passkey-store.js';
import type { SqliteContext } from './db.js';
import { insertSql, passkeyChallenges, passkeys, toRow } from './tables.js';

const isUniqueViolation = (e: unknown) =>
  e instanceof Error && 'code' in e && (e as { code: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';

/**
 * Passkeys in SQLite. The user's count is read in the IMMEDIATE transaction that inserts, so two adds
 * never pass the cap together; a challenge is taken by one DELETE … RETURNING (atomic: a second take
 * finds nothing); the counter moves by a compare-and-set UPDATE.
 */
export const sqlitePasskeys = ({ st, one, many, immediate }: SqliteContext): PasskeyStore => ({
  async insertPasskey(passkey, { maxPerUser }) {
    return immediate(() => {
      const { n } = st('SELECT count(*) n FROM passkeys WHERE workspace_id = ? AND user_id = ?').get(
        passkey.workspace_id,
        passkey.user_id,
      ) as { n: number };
      if (n >= maxPerUser) return 'limit_reached' as const;
      try {
        st(insertSql(passkeys)).run(toRow(passkeys, passkey));
      } catch (e) {
        if (isUniqueViolation(e)) return 'taken' as const;
        throw e;
      }
      return 'inserted' as const;
    });
  },
  async listPasskeys(workspaceId, userId) {
    return many<Passkey>(
      passkeys,
      'SELECT * FROM passkeys WHERE workspace_id = ? AND user_id = ? ORDER BY created_at, id',
      workspaceId,
      userId,
    );
  },
  async findPasskeyByCredentialId(workspaceId, credentialId) {
    return one<Passkey>(
      passkeys,
      'SELECT * FROM passkeys WHERE workspace_id = ? AND credential_id = ?',
      workspaceId,
      credentialId,
    );
  },
  async deletePasskey(workspaceId, userId, id) {
    // In a transaction, so the request's audit entry commits with the removal.
    return immediate(
      () =>
        st('DELETE FROM passkeys WHERE id = ? AND workspace_id = ? AND user_id = ?').run(
          id,
          workspaceId,
          userId,
        ).changes > 0,
    );
  },
  async usePasskey(workspaceId, id, { expected, counter, at }) {
    return (
      st(
        'UPDATE passkeys SET counter = ?, last_used_at = ? WHERE id = ? AND workspace_id = ? AND counter = ?',
      ).run(counter, at.getTime(), id, workspaceId, expected).changes > 0
    );
  },
  async insertPasskeyChallenge(challenge) {
    st(insertSql(passkeyChallenges)).run(toRow(passkeyChallenges, challenge));
  },
  async takePasskeyChallenge(workspaceId, id, now) {
    return one<PasskeyChallenge>(
      passkeyChallenges,
      'DELETE FROM passkey_challenges WHERE id = ? AND workspace_id = ? AND expires_at > ? RETURNING *',
      id,
      workspaceId,
      now.getTime(),
    );
  },
  async prunePasskeyChallenges(now, limit) {
    return st(
      'DELETE FROM passkey_challenges WHERE id IN (SELECT id FROM passkey_challenges WHERE expires_at <= ? LIMIT ?)',
    ).run(now.getTime(), limit).changes;
  },
});
