import type { CalendarFeed, CalendarFeedStore } from '../../domain/oncall/calendar-feed-store.js';
import type { SqliteContext } from './db.js';
import { calendarFeeds, insertSql, toRow } from './tables.js';

/**
 * Calendar feeds in SQLite: found by the token's hash (unique index); one per subject (unique index),
 * replaced by a delete and an insert in one IMMEDIATE transaction; pruned through an index on the
 * last use (or, never used, the making).
 */
export const sqliteCalendarFeeds = ({ st, one, immediate }: SqliteContext): CalendarFeedStore => ({
  async replaceCalendarFeed(feed) {
    immediate(() => {
      st('DELETE FROM calendar_feeds WHERE workspace_id = ? AND kind = ? AND subject_id = ?').run(
        feed.workspace_id,
        feed.kind,
        feed.subject_id,
      );
      st(insertSql(calendarFeeds)).run(toRow(calendarFeeds, feed));
    });
  },
  async findCalendarFeed(tokenHash) {
    return one<CalendarFeed>(calendarFeeds, 'SELECT * FROM calendar_feeds WHERE token_hash = ?', tokenHash);
  },
  async getCalendarFeed(workspaceId, kind, subjectId) {
    return one<CalendarFeed>(
      calendarFeeds,
      'SELECT * FROM calendar_feeds WHERE workspace_id = ? AND kind = ? AND subject_id = ?',
      workspaceId,
      kind,
      subjectId,
    );
  },
  async deleteCalendarFeed(workspaceId, kind, subjectId) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      return (
        st('DELETE FROM calendar_feeds WHERE workspace_id = ? AND kind = ? AND subject_id = ?').run(
          workspaceId,
          kind,
          subjectId,
        ).changes === 1
      );
    });
  },
  async touchCalendarFeed(id, at, staleBefore) {
    return (
      st(
        'UPDATE calendar_feeds SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
      ).run(at.getTime(), id, staleBefore.getTime()).changes === 1
    );
  },
  async pruneCalendarFeeds(unusedBefore, limit) {
    return st(
      `DELETE FROM calendar_feeds WHERE id IN (SELECT id FROM calendar_feeds
         WHERE coalesce(last_used_at, created_at) < ? LIMIT ?)`,
    ).run(unusedBefore.getTime(), limit).changes;
  },
});
