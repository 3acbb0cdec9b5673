import type {
  HandoffCursor,
  HandoffNoticeStore,
  HandoffSettings,
} from '../../domain/oncall/handoff-notice-store.js';
import type { SqliteContext } from './db.js';
import { handoffCursors, handoffNotices, handoffSettings, insertSql, toRow } from './tables.js';

/**
 * Handoff notices in SQLite: settings by (workspace, user); cursors by (workspace, schedule) with an
 * index on due_at; a notice is claimed by inserting its key (the primary key: a second insert is
 * ignored, so only one replica sends it).
 */
export const sqliteHandoffNotices = ({ st, one, many, immediate }: SqliteContext): HandoffNoticeStore => ({
  async getHandoffSettings(workspaceId, userId) {
    return one<HandoffSettings>(
      handoffSettings,
      'SELECT * FROM handoff_settings WHERE workspace_id = ? AND user_id = ?',
      workspaceId,
      userId,
    );
  },
  async putHandoffSettings(s) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      st(insertSql(handoffSettings).replace(/^INSERT/, 'INSERT OR REPLACE')).run(toRow(handoffSettings, s));
    });
  },
  async setHandoffCursor(c) {
    st(
      `INSERT INTO handoff_cursors (workspace_id, schedule_id, due_at) VALUES (?, ?, ?)
       ON CONFLICT (workspace_id, schedule_id) DO UPDATE SET due_at = excluded.due_at`,
    ).run(c.workspace_id, c.schedule_id, c.due_at.getTime());
  },
  async advanceHandoffCursors(workspaceId, dueAt) {
    st('UPDATE handoff_cursors SET due_at = ? WHERE workspace_id = ? AND due_at > ?').run(
      dueAt.getTime(),
      workspaceId,
      dueAt.getTime(),
    );
  },
  async listDueHandoffCursors(now, limit) {
    return many<HandoffCursor>(
      handoffCursors,
      'SELECT * FROM handoff_cursors WHERE due_at <= ? ORDER BY due_at LIMIT ?',
      now.getTime(),
      limit,
    );
  },
  async claimHandoffCursor(workspaceId, scheduleId, dueAt, leaseUntil) {
    return (
      st(
        'UPDATE handoff_cursors SET due_at = ? WHERE workspace_id = ? AND schedule_id = ? AND due_at = ?',
      ).run(leaseUntil.getTime(), workspaceId, scheduleId, dueAt.getTime()).changes === 1
    );
  },
  async deleteHandoffCursor(workspaceId, scheduleId) {
    st('DELETE FROM handoff_cursors WHERE workspace_id = ? AND schedule_id = ?').run(workspaceId, scheduleId);
  },
  async claimHandoffNotice(n) {
    return (
      st(insertSql(handoffNotices).replace(/^INSERT/, 'INSERT OR IGNORE')).run(toRow(handoffNotices, n))
        .changes === 1
    );
  },
  async pruneHandoffNotices(before, limit) {
    return st(
      'DELETE FROM handoff_notices WHERE key IN (SELECT key FROM handoff_notices WHERE sent_at < ? LIMIT ?)',
    ).run(before.getTime(), limit).changes;
  },
});
