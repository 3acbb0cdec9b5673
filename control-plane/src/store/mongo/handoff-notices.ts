import type {
  HandoffCursor,
  HandoffNoticeStore,
  HandoffSettings,
} from '../../domain/oncall/handoff-notice-store.js';
import { deleteSome, type IndexDecl, isDuplicate, type MongoContext } from './db.js';

export const handoffNoticeIndexes: IndexDecl[] = [
  { on: 'handoffCursors', key: { due_at: 1 } },
  { on: 'handoffCursors', key: { workspace_id: 1, due_at: 1 } },
  { on: 'handoffNotices', key: { sent_at: 1 } },
];

const pair = (a: string, b: string) => `${a}:${b}`;

/**
 * Handoff notices in MongoDB: settings and cursors keyed by `_id` workspace:user and workspace:schedule
 * (upserts by `_id`); a cursor is claimed by updateOne matching its due_at (the compare-and-set); a
 * notice is claimed by inserting its key as `_id` (a duplicate key: another replica has it).
 */
export const mongoHandoffNotices = ({ col, inTransaction }: MongoContext): HandoffNoticeStore => ({
  async getHandoffSettings(workspaceId, userId) {
    const d = await col.handoffSettings.findOne({ _id: pair(workspaceId, userId) });
    if (!d) return null;
    const { _id, ...rest } = d;
    return rest as unknown as HandoffSettings;
  },
  async putHandoffSettings(s) {
    // In a transaction: the request's audit entry is written with it (db.ts `inTransaction`).
    await inTransaction((session) =>
      col.handoffSettings.replaceOne(
        { _id: pair(s.workspace_id, s.user_id) },
        { ...s },
        { upsert: true, session },
      ),
    );
  },
  async setHandoffCursor(c) {
    await col.handoffCursors.updateOne(
      { _id: pair(c.workspace_id, c.schedule_id) },
      { $set: { workspace_id: c.workspace_id, schedule_id: c.schedule_id, due_at: c.due_at } },
      { upsert: true },
    );
  },
  async advanceHandoffCursors(workspaceId, dueAt) {
    await col.handoffCursors.updateMany(
      { workspace_id: workspaceId, due_at: { $gt: dueAt } },
      { $set: { due_at: dueAt } },
    );
  },
  async listDueHandoffCursors(now, limit) {
    const docs = await col.handoffCursors
      .find({ due_at: { $lte: now } })
      .sort({ due_at: 1 })
      .limit(limit)
      .toArray();
    return docs.map(
      (d): HandoffCursor => ({ workspace_id: d.workspace_id, schedule_id: d.schedule_id, due_at: d.due_at }),
    );
  },
  async claimHandoffCursor(workspaceId, scheduleId, dueAt, leaseUntil) {
    const r = await col.handoffCursors.updateOne(
      { _id: pair(workspaceId, scheduleId), due_at: dueAt },
      { $set: { due_at: leaseUntil } },
    );
    return r.matchedCount === 1;
  },
  async deleteHandoffCursor(workspaceId, scheduleId) {
    await col.handoffCursors.deleteOne({ _id: pair(workspaceId, scheduleId) });
  },
  async claimHandoffNotice(n) {
    const { key, ...rest } = n;
    try {
      await col.handoffNotices.insertOne({ _id: key, ...rest });
      return true;
    } catch (e) {
      if (isDuplicate(e)) return false;
      throw e;
    }
  },
  async pruneHandoffNotices(before, limit) {
    return deleteSome(col.handoffNotices, { sent_at: { $lt: before } }, limit);
  },
});
