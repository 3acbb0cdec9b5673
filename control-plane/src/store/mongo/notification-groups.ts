import { groupDueAt } from '../../domain/escalation/group-window.js';
import type {
  GroupedItem,
  NotificationGroup,
  NotificationGroupStore,
} from '../../domain/escalation/notification-group-store.js';
import { deleteSome, fromDoc, fromDocs, type IndexDecl, type MongoContext, toDoc } from './db.js';

/**
 * Grouped notifications in MongoDB: `notification_groups` (due ones by a partial index on `due_at`)
 * and `notification_group_items` (by group, oldest first). Queueing and finishing are each one
 * transaction that writes the group's document, so the two conflict and one is retried: an item
 * queued while a flush finishes always leaves its group due.
 */
export const notificationGroupIndexes: IndexDecl[] = [
  {
    on: 'notificationGroups',
    key: { due_at: 1 },
    options: { partialFilterExpression: { due_at: { $type: 'date' } } },
  },
  { on: 'notificationGroups', key: { last_flush_at: 1 } },
  { on: 'notificationGroupItems', key: { group_id: 1, created_at: 1 } },
];

export const mongoNotificationGroups = ({ col, inTransaction }: MongoContext): NotificationGroupStore => ({
  async queueGroupedItem(item, group, { now, waitMs, intervalMs }) {
    return inTransaction(async (session) => {
      // The filter gives the new document its `_id`; $setOnInsert sets the rest.
      const { _id: _, ...fields } = toDoc(item);
      const added = await col.notificationGroupItems.updateOne(
        { _id: item.id },
        { $setOnInsert: fields },
        { upsert: true, session },
      );
      if (added.upsertedCount === 0) return false;
      const g = fromDoc<NotificationGroup>(
        await col.notificationGroups.findOne({ _id: item.group_id }, { session }),
      );
      if (!g) {
        const fresh: NotificationGroup = {
          id: item.group_id,
          workspace_id: item.workspace_id,
          policy_id: group.policy_id,
          recipient_key: group.recipient_key,
          due_at: groupDueAt(null, now, { waitMs, intervalMs }),
          last_flush_at: null,
          claim: null,
          updated_at: now,
        };
        await col.notificationGroups.insertOne(toDoc(fresh), { session });
      } else {
        // Written even when already due: the write is what makes a concurrent finish conflict.
        const due = groupDueAt(g, now, { waitMs, intervalMs });
        await col.notificationGroups.updateOne(
          { _id: g.id },
          { $set: { due_at: due, updated_at: now } },
          { session },
        );
      }
      return true;
    });
  },
  async listDueGroups(at, limit) {
    return fromDocs<NotificationGroup>(
      await col.notificationGroups
        .find({ due_at: { $type: 'date', $lte: at } })
        .sort({ due_at: 1 })
        .limit(limit)
        .toArray(),
    );
  },
  async claimGroup(id, expectedDueAt, claim, leaseUntil) {
    return fromDoc<NotificationGroup>(
      await col.notificationGroups.findOneAndUpdate(
        { _id: id, due_at: expectedDueAt },
        { $set: { claim, due_at: leaseUntil } },
        { returnDocument: 'after' },
      ),
    );
  },
  async listGroupItems(id, limit) {
    return fromDocs<GroupedItem>(
      await col.notificationGroupItems
        .find({ group_id: id })
        .sort({ created_at: 1, _id: 1 })
        .limit(limit)
        .toArray(),
    );
  },
  async finishGroup(id, claim, { itemIds, at, intervalMs }) {
    return inTransaction(async (session) => {
      const g = await col.notificationGroups.findOne({ _id: id, claim }, { session });
      if (!g) return false;
      if (itemIds.length > 0)
        await col.notificationGroupItems.deleteMany({ _id: { $in: itemIds }, group_id: id }, { session });
      const waiting = await col.notificationGroupItems.findOne({ group_id: id }, { session });
      await col.notificationGroups.updateOne(
        { _id: id, claim },
        {
          $set: {
            claim: null,
            last_flush_at: at,
            due_at: waiting ? new Date(at.getTime() + intervalMs) : null,
            updated_at: at,
          },
        },
        { session },
      );
      return true;
    });
  },
  async pruneNotificationGroups(before, limit) {
    return deleteSome(col.notificationGroups, { due_at: null, last_flush_at: { $lt: before } }, limit);
  },
});
