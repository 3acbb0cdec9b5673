import type {
  RecoveryCode,
  SecondFactorStore,
  SignInChallenge,
  TotpFactor,
} from '../../domain/access/second-factor-store.js';
import type { SqliteContext } from './db.js';
import { insertSql, recoveryCodes, signInChallenges, toRow, totpFactors } from './tables.js';

/**
 * Second factors, sign-in challenges and the workspace's require_2fa in SQLite. Each method is one
 * statement or one IMMEDIATE transaction; the single-use steps (a code, a challenge, a time step) are
 * conditional writes whose change count says who won.
 */
export const sqliteSecondFactors = ({ st, one, many, immediate }: SqliteContext): SecondFactorStore => {
  const insertCodes = (workspaceId: string, userId: string, codes: RecoveryCode[]) => {
    st('DELETE FROM recovery_codes WHERE workspace_id = ? AND user_id = ?').run(workspaceId, userId);
    for (const c of codes) st(insertSql(recoveryCodes)).run(toRow(recoveryCodes, c));
  };
  return {
    async getSecondFactors(workspaceId, userId) {
      const totp = one<TotpFactor>(
        totpFactors,
        'SELECT * FROM totp_factors WHERE workspace_id = ? AND user_id = ?',
        workspaceId,
        userId,
      );
      const { codes, keys } = st(
        `SELECT (SELECT count(*) FROM recovery_codes WHERE workspace_id = @w AND user_id = @u) codes,
                (SELECT count(*) FROM passkeys WHERE workspace_id = @w AND user_id = @u) keys`,
      ).get({ w: workspaceId, u: userId }) as { codes: number; keys: number };
      return { totp, recovery_codes_left: codes, passkeys: keys };
    },
    async putPendingTotp(factor) {
      // In a transaction (as every write a route makes on its own), so the request's audit entry rides it.
      const r = immediate(() =>
        st(
          `INSERT INTO totp_factors (workspace_id, user_id, secret_sealed, created_at, confirmed_at, last_step)
           VALUES (@workspace_id, @user_id, @secret_sealed, @created_at, NULL, NULL)
         ON CONFLICT (workspace_id, user_id) DO UPDATE SET secret_sealed = excluded.secret_sealed,
           created_at = excluded.created_at WHERE confirmed_at IS NULL`,
        ).run(toRow(totpFactors, factor)),
      );
      return r.changes === 1;
    },
    async confirmTotp({ workspace_id, user_id, at, step, codes }) {
      return immediate(() => {
        const r = st(
          `UPDATE totp_factors SET confirmed_at = ?, last_step = ?
             WHERE workspace_id = ? AND user_id = ? AND confirmed_at IS NULL`,
        ).run(at.getTime(), step, workspace_id, user_id);
        if (r.changes !== 1) return false;
        insertCodes(workspace_id, user_id, codes);
        return true;
      });
    },
    async acceptTotpStep(workspaceId, userId, step) {
      return (
        st(
          `UPDATE totp_factors SET last_step = ? WHERE workspace_id = ? AND user_id = ?
             AND confirmed_at IS NOT NULL AND (last_step IS NULL OR last_step < ?)`,
        ).run(step, workspaceId, userId, step).changes === 1
      );
    },
    async deleteTotp(workspaceId, userId, keepRecoveryCodes) {
      immediate(() => {
        st('DELETE FROM totp_factors WHERE workspace_id = ? AND user_id = ?').run(workspaceId, userId);
        if (!keepRecoveryCodes)
          st('DELETE FROM recovery_codes WHERE workspace_id = ? AND user_id = ?').run(workspaceId, userId);
      });
    },
    async replaceRecoveryCodes(workspaceId, userId, codes) {
      immediate(() => insertCodes(workspaceId, userId, codes));
    },
    async listRecoveryCodes(workspaceId, userId) {
      return many<RecoveryCode>(
        recoveryCodes,
        'SELECT * FROM recovery_codes WHERE workspace_id = ? AND user_id = ? ORDER BY id LIMIT 50',
        workspaceId,
        userId,
      );
    },
    async useRecoveryCode(workspaceId, userId, id) {
      return (
        st('DELETE FROM recovery_codes WHERE id = ? AND workspace_id = ? AND user_id = ?').run(
          id,
          workspaceId,
          userId,
        ).changes === 1
      );
    },
    async insertChallenge(challenge) {
      immediate(() => st(insertSql(signInChallenges)).run(toRow(signInChallenges, challenge)));
    },
    async findChallenge(tokenHash) {
      return one<SignInChallenge>(
        signInChallenges,
        'SELECT * FROM sign_in_challenges WHERE token_hash = ?',
        tokenHash,
      );
    },
    async countChallengeTry(id) {
      const row = st(
        'UPDATE sign_in_challenges SET failures = failures + 1 WHERE id = ? RETURNING failures',
      ).get(id) as { failures: number } | undefined;
      return row?.failures ?? null;
    },
    async consumeChallenge(id) {
      return st('DELETE FROM sign_in_challenges WHERE id = ?').run(id).changes === 1;
    },
    async pruneChallenges(now, limit) {
      return st(
        'DELETE FROM sign_in_challenges WHERE id IN (SELECT id FROM sign_in_challenges WHERE expires_at <= ? LIMIT ?)',
      ).run(now.getTime(), limit).changes;
    },
    async getWorkspaceSecurity(workspaceId) {
      const row = st('SELECT require_2fa FROM workspace_security WHERE workspace_id = ?').get(workspaceId) as
        | { require_2fa: number }
        | undefined;
      return { workspace_id: workspaceId, require_2fa: row?.require_2fa === 1 };
    },
    async putWorkspaceSecurity({ workspace_id, require_2fa }) {
      immediate(() =>
        st(
          `INSERT INTO workspace_security (workspace_id, require_2fa) VALUES (?, ?)
           ON CONFLICT (workspace_id) DO UPDATE SET require_2fa = excluded.require_2fa`,
        ).run(workspace_id, require_2fa ? 1 : 0),
      );
    },
  };
};
