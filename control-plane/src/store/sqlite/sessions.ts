import type { Session, SessionStore } from '../../domain/access/sessions.js';
import type { SqliteContext } from './db.js';
import { insertSql, sessions, toRow } from './tables.js';

/** Web app sessions in SQLite. Changing a password and ending the user's sessions is one IMMEDIATE transaction. */
export const sqliteSessions = ({ st, one, immediate }: SqliteContext): SessionStore => ({
  async insertSession(session) {
    st(insertSql(sessions)).run(toRow(sessions, session));
  },
  async findSessionByHash(tokenHash) {
    const s = one<Session>(sessions, 'SELECT * FROM sessions WHERE token_hash = ?', tokenHash);
    // two_factor_setup is in the record only when true (domain/access/sessions.ts).
    if (s && s.two_factor_setup !== true) delete s.two_factor_setup;
    return s;
  },
  async touchSession(id, at) {
    st('UPDATE sessions SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?').run(
      at.getTime(),
      id,
      at.getTime(),
    );
  },
  async deleteSession(id) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      st('DELETE FROM sessions WHERE id = ?').run(id);
    });
  },
  async changePassword({ workspace_id, user_id, password_hash, next }) {
    return immediate(() => {
      const r = st('UPDATE users SET password_hash = ? WHERE workspace_id = ? AND id = ?').run(
        password_hash,
        workspace_id,
        user_id,
      );
      if (r.changes !== 1) return false;
      st('DELETE FROM sessions WHERE workspace_id = ? AND user_id = ?').run(workspace_id, user_id);
      st(insertSql(sessions)).run(toRow(sessions, next));
      return true;
    });
  },
  async pruneSessions(now, idleBefore, limit) {
    return st(
      `DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= ? LIMIT ?)
         OR id IN (SELECT id FROM sessions WHERE last_seen_at <= ? LIMIT ?)`,
    ).run(now.getTime(), limit, idleBefore.getTime(), limit).changes;
  },
});
