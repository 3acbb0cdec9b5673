import type { SignInActivity, SignInDevice, SignInStore } from '../../domain/access/sign-in-store.js';
import type { SqliteContext } from './db.js';
import { insertSql, signInActivity, signInDevices, toRow } from './tables.js';

/**
 * A failure in one statement. The current run of failures began after the sign-in `failed_since`; when
 * the user has signed in since (last_sign_in_at moved), this failure starts a new run, counted from 1
 * since that sign-in. Otherwise it is one more.
 */
const NEW_RUN = 'failed_count = 0 OR failed_since IS NOT last_sign_in_at';
const RECORD_FAILURE = `INSERT INTO sign_in_activity (workspace_id, user_id, last_sign_in_at, failed_count,
    failed_since, last_failed_at, last_failed_address) VALUES (?, ?, NULL, 1, NULL, ?, ?)
  ON CONFLICT (workspace_id, user_id) DO UPDATE SET
    failed_count = CASE WHEN ${NEW_RUN} THEN 1 ELSE failed_count + 1 END,
    failed_since = CASE WHEN ${NEW_RUN} THEN last_sign_in_at ELSE failed_since END,
    last_failed_at = excluded.last_failed_at,
    last_failed_address = excluded.last_failed_address`;

const RECORD_SUCCESS = `INSERT INTO sign_in_activity (workspace_id, user_id, last_sign_in_at, failed_count)
    VALUES (?, ?, ?, 0)
  ON CONFLICT (workspace_id, user_id) DO UPDATE SET last_sign_in_at = max(coalesce(last_sign_in_at, 0), excluded.last_sign_in_at)`;

/** Sign-in devices and activity in SQLite; a successful sign-in is one IMMEDIATE transaction. */
export const sqliteSignIns = ({ st, one, many, immediate }: SqliteContext): SignInStore => ({
  async recordSignIn({ workspace_id, user_id, at, device, replaces, keep }) {
    immediate(() => {
      st(RECORD_SUCCESS).run(workspace_id, user_id, at.getTime());
      if (replaces)
        st('DELETE FROM sign_in_devices WHERE id = ? AND workspace_id = ? AND user_id = ?').run(
          replaces,
          workspace_id,
          user_id,
        );
      st(insertSql(signInDevices)).run(toRow(signInDevices, device));
      st(
        `DELETE FROM sign_in_devices WHERE workspace_id = ? AND user_id = ? AND id NOT IN
           (SELECT id FROM sign_in_devices WHERE workspace_id = ? AND user_id = ?
            ORDER BY created_at DESC, id DESC LIMIT ?)`,
      ).run(workspace_id, user_id, workspace_id, user_id, keep);
    });
  },
  async recordFailedSignIn(workspaceId, userId, at, address) {
    st(RECORD_FAILURE).run(workspaceId, userId, at.getTime(), address);
  },
  async findSignInDevice(tokenHash) {
    return one<SignInDevice>(signInDevices, 'SELECT * FROM sign_in_devices WHERE token_hash = ?', tokenHash);
  },
  async listSignInActivity(workspaceId, userIds) {
    if (userIds.length === 0) return [];
    return many<SignInActivity>(
      signInActivity,
      `SELECT * FROM sign_in_activity WHERE workspace_id = ? AND user_id IN (SELECT value FROM json_each(?))`,
      workspaceId,
      JSON.stringify(userIds),
    );
  },
  async pruneSignInDevices(now, limit) {
    return st(
      'DELETE FROM sign_in_devices WHERE id IN (SELECT id FROM sign_in_devices WHERE expires_at <= ? LIMIT ?)',
    ).run(now.getTime(), limit).changes;
  },
});
