import type { PasswordReset, PasswordResetStore } from '../../domain/access/password-reset.js';
import type { SqliteContext } from './db.js';
import { insertSql, passwordResets, toRow } from './tables.js';

/**
 * Password reset links in SQLite. Taking a link, setting the password and ending the user's sessions
 * is one IMMEDIATE transaction: the conditional UPDATE of used_at is the single-use claim.
 */
export const sqlitePasswordResets = ({ st, one, immediate }: SqliteContext): PasswordResetStore => ({
  async insertPasswordReset(reset, keep) {
    immediate(() => {
      st(insertSql(passwordResets)).run(toRow(passwordResets, reset));
      st(
        `DELETE FROM password_resets WHERE workspace_id = ? AND user_id = ? AND id NOT IN
           (SELECT id FROM password_resets WHERE workspace_id = ? AND user_id = ?
             ORDER BY created_at DESC, id DESC LIMIT ?)`,
      ).run(reset.workspace_id, reset.user_id, reset.workspace_id, reset.user_id, keep);
    });
  },
  async findPasswordResetByHash(tokenHash) {
    return one<PasswordReset>(
      passwordResets,
      'SELECT * FROM password_resets WHERE token_hash = ?',
      tokenHash,
    );
  },
  async completePasswordReset({ workspace_id, token_hash, password_hash, now }) {
    return immediate(() => {
      const reset = one<PasswordReset>(
        passwordResets,
        `SELECT * FROM password_resets WHERE token_hash = ? AND workspace_id = ?
           AND used_at IS NULL AND expires_at > ?`,
        token_hash,
        workspace_id,
        now.getTime(),
      );
      if (!reset) return null;
      const user = st('UPDATE users SET password_hash = ? WHERE workspace_id = ? AND id = ?').run(
        password_hash,
        workspace_id,
        reset.user_id,
      );
      if (user.changes !== 1) return null;
      st('UPDATE password_resets SET used_at = ? WHERE id = ?').run(now.getTime(), reset.id);
      st('DELETE FROM sessions WHERE workspace_id = ? AND user_id = ?').run(workspace_id, reset.user_id);
      return { user_id: reset.user_id };
    });
  },
  async prunePasswordResets(before, limit) {
    return st(
      'DELETE FROM password_resets WHERE id IN (SELECT id FROM password_resets WHERE expires_at < ? LIMIT ?)',
    ).run(before.getTime(), limit).changes;
  },
});
