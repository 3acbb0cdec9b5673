import type { CalendarFeed, CalendarFeedStore } from '../../domain/oncall/calendar-feed-store.js';
import { deleteSome, fromDoc, type IndexDecl, type MongoContext, toDoc } from './db.js';

/**
 * Calendar feeds in MongoDB (`calendar_feeds`): found by the token's hash (unique index); one per
 * subject (unique index), replaced by a delete and an insert in one transaction.
 */
export const calendarFeedIndexes: IndexDecl[] = [
  { on: 'calendarFeeds', key: { token_hash: 1 }, options: { unique: true } },
  { on: 'calendarFeeds', key: { workspace_id: 1, kind: 1, subject_id: 1 }, options: { unique: true } },
  { on: 'calendarFeeds', key: { last_used_at: 1, created_at: 1 } },
];

export const mongoCalendarFeeds = ({ col, inTransaction }: MongoContext): CalendarFeedStore => ({
  async replaceCalendarFeed(feed) {
    await inTransaction(async (session) => {
      await col.calendarFeeds.deleteOne(
        { workspace_id: feed.workspace_id, kind: feed.kind, subject_id: feed.subject_id },
        { session },
      );
      await col.calendarFeeds.insertOne(toDoc(feed), { session });
    });
  },
  async findCalendarFeed(tokenHash) {
    return fromDoc<CalendarFeed>(await col.calendarFeeds.findOne({ token_hash: tokenHash }));
  },
  async getCalendarFeed(workspaceId, kind, subjectId) {
    return fromDoc<CalendarFeed>(
      await col.calendarFeeds.findOne({ workspace_id: workspaceId, kind, subject_id: subjectId }),
    );
  },
  async deleteCalendarFeed(workspaceId, kind, subjectId) {
    return inTransaction(
      async (session) =>
        (
          await col.calendarFeeds.deleteOne(
            { workspace_id: workspaceId, kind, subject_id: subjectId },
            { session },
          )
        ).deletedCount === 1,
    );
  },
  async touchCalendarFeed(id, at, staleBefore) {
    const r = await col.calendarFeeds.updateOne(
      { _id: id, $or: [{ last_used_at: null }, { last_used_at: { $lt: staleBefore } }] },
      { $set: { last_used_at: at } },
    );
    return r.modifiedCount === 1;
  },
  async pruneCalendarFeeds(unusedBefore, limit) {
    return deleteSome(
      col.calendarFeeds,
      {
        $or: [
          { last_used_at: { $lt: unusedBefore } },
          { last_used_at: null, created_at: { $lt: unusedBefore } },
        ],
      },
      limit,
    );
  },
});
