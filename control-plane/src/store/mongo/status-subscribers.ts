import type {
  IncidentMailEvent,
  StatusSubscriber,
  StatusSubscriberStore,
  SubscriberMail,
} from '../../domain/status-pages/subscriber-store.js';
import { fromDoc, fromDocs, type IndexDecl, isDuplicate, type MongoContext, page, toDoc } from './db.js';

export const statusSubscriberIndexes: IndexDecl[] = [
  { on: 'subscribers', key: { page_id: 1, email: 1 }, options: { unique: true } },
  { on: 'subscribers', key: { page_id: 1, created_at: -1, _id: -1 } },
  { on: 'subscribers', key: { unsubscribe_hash: 1 }, options: { unique: true } },
  {
    on: 'subscribers',
    key: { confirm_hash: 1 },
    options: { partialFilterExpression: { confirm_hash: { $type: 'string' } } },
  },
  {
    on: 'subscribers',
    key: { created_at: 1 },
    options: { partialFilterExpression: { status: 'pending' } },
  },
  { on: 'mailEvents', key: { created_at: 1, _id: 1 } },
  { on: 'mailOutbox', key: { due_at: 1, _id: 1 } },
  { on: 'mailOutbox', key: { subscriber_id: 1 } },
  { on: 'recipientBudgets', key: { window_start: 1 } },
];

/**
 * Subscribers (`status_subscribers`, one per page and email by a unique index), incident mail events
 * and the outbox (`_id` the idempotency key: an upsert with `$setOnInsert` stores a mail once).
 */
export const mongoStatusSubscribers = ({ col, inTransaction }: MongoContext): StatusSubscriberStore => {
  const { subscribers, mailEvents, mailOutbox, recipientBudgets } = col;
  return {
    async addSubscriber(s) {
      try {
        await subscribers.insertOne(toDoc(s));
      } catch (e) {
        if (!isDuplicate(e)) throw e;
      }
      return fromDoc<StatusSubscriber>(await subscribers.findOne({ page_id: s.page_id, email: s.email }))!;
    },
    async getSubscriber(workspaceId, pageId, id) {
      return fromDoc<StatusSubscriber>(
        await subscribers.findOne({ _id: id, workspace_id: workspaceId, page_id: pageId }),
      );
    },
    async getSubscriberByUnsubscribeHash(hash) {
      return fromDoc<StatusSubscriber>(await subscribers.findOne({ unsubscribe_hash: hash }));
    },
    async getSubscriberByConfirmHash(hash) {
      return fromDoc<StatusSubscriber>(await subscribers.findOne({ confirm_hash: hash }));
    },
    async requestConfirmation(subscriberId, now, since, mail, budget) {
      return inTransaction(async (session) => {
        const b = await recipientBudgets.findOne({ _id: budget.key }, { session });
        const fresh = !b || (b.window_start as Date) < budget.windowStart;
        if (!fresh && (b.count as number) >= budget.max) return false;
        const r = await subscribers.updateOne(
          {
            _id: subscriberId,
            status: 'pending',
            $or: [{ confirm_sent_at: null }, { confirm_sent_at: { $lt: since } }],
          },
          { $set: { confirm_sent_at: now } },
          { session },
        );
        if (r.modifiedCount !== 1) return false;
        // Written in the transaction after the read: two racing for the last place conflict, one retries.
        await recipientBudgets.updateOne(
          { _id: budget.key },
          fresh ? { $set: { window_start: now, count: 1 } } : { $inc: { count: 1 } },
          { upsert: true, session },
        );
        await mailOutbox.replaceOne({ _id: mail.id }, toDoc(mail), { upsert: true, session });
        return true;
      });
    },
    async setConfirmToken(subscriberId, hash, expiresAt) {
      const r = await subscribers.updateOne(
        { _id: subscriberId, status: 'pending' },
        { $set: { confirm_hash: hash, confirm_expires_at: expiresAt } },
      );
      return r.matchedCount === 1;
    },
    async confirmSubscriber(confirmHash, pageId, now) {
      const doc = await subscribers.findOneAndUpdate(
        { confirm_hash: confirmHash, page_id: pageId, status: 'pending', confirm_expires_at: { $gt: now } },
        {
          $set: { status: 'confirmed', confirmed_at: now, confirm_hash: null, confirm_expires_at: null },
        },
        { returnDocument: 'after' },
      );
      return fromDoc<StatusSubscriber>(doc);
    },
    async deleteSubscriber(workspaceId, pageId, id) {
      return inTransaction(async (session) => {
        const gone =
          (await subscribers.deleteOne({ _id: id, workspace_id: workspaceId, page_id: pageId }, { session }))
            .deletedCount === 1;
        if (gone) await mailOutbox.deleteMany({ subscriber_id: id }, { session });
        return gone;
      });
    },
    async listSubscribers(workspaceId, pageId, q) {
      return page<StatusSubscriber>(subscribers, { page_id: pageId, workspace_id: workspaceId }, q);
    },
    async countSubscribers(workspaceId, pageId) {
      return subscribers.countDocuments({ page_id: pageId, workspace_id: workspaceId, status: 'confirmed' });
    },
    async prunePendingSubscribers(before, limit) {
      const ids = (
        await subscribers
          .find({ status: 'pending', created_at: { $lt: before } }, { projection: { _id: 1 } })
          .limit(limit)
          .toArray()
      ).map((d) => d._id);
      if (ids.length === 0) return 0;
      await mailOutbox.deleteMany({ subscriber_id: { $in: ids } });
      return (await subscribers.deleteMany({ _id: { $in: ids }, status: 'pending' })).deletedCount;
    },
    async pruneRecipientBudgets(before, limit) {
      const ids = (
        await recipientBudgets
          .find({ window_start: { $lt: before } }, { projection: { _id: 1 } })
          .limit(limit)
          .toArray()
      ).map((d) => d._id);
      if (ids.length === 0) return 0;
      return (await recipientBudgets.deleteMany({ _id: { $in: ids }, window_start: { $lt: before } }))
        .deletedCount;
    },

    async listMailEvents(limit) {
      return fromDocs<IncidentMailEvent>(
        await mailEvents.find({}).sort({ created_at: 1, _id: 1 }).limit(limit).toArray(),
      );
    },
    async fanOutMailEvent(e, now) {
      return inTransaction(async (session) => {
        const subs = await subscribers
          .find(
            {
              page_id: e.page_id,
              workspace_id: e.workspace_id,
              status: 'confirmed',
              confirmed_at: { $lte: e.created_at },
            },
            { projection: { _id: 1 }, session },
          )
          .toArray();
        let n = 0;
        if (subs.length > 0) {
          const r = await mailOutbox.bulkWrite(
            subs.map((s) => {
              const mail: SubscriberMail = {
                id: `${s._id}:${e.id}`,
                workspace_id: e.workspace_id,
                page_id: e.page_id,
                subscriber_id: s._id as string,
                kind: 'incident',
                incident_id: e.incident_id,
                update_id: e.id,
                due_at: now,
                attempts: 0,
                created_at: now,
              };
              const { _id, ...rest } = toDoc(mail);
              return { updateOne: { filter: { _id }, update: { $setOnInsert: rest }, upsert: true } };
            }),
            { session, ordered: false },
          );
          n = r.upsertedCount;
        }
        await mailEvents.deleteOne({ _id: e.id }, { session });
        return n;
      });
    },
    async listDueMails(now, limit) {
      return fromDocs<SubscriberMail>(
        await mailOutbox
          .find({ due_at: { $lte: now } })
          .sort({ due_at: 1, _id: 1 })
          .limit(limit)
          .toArray(),
      );
    },
    async claimMail(m, until) {
      const r = await mailOutbox.updateOne(
        { _id: m.id, due_at: m.due_at },
        { $set: { due_at: until }, $inc: { attempts: 1 } },
      );
      return r.modifiedCount === 1;
    },
    async finishMail(id) {
      await mailOutbox.deleteOne({ _id: id });
    },
    async retryMail(id, dueAt) {
      await mailOutbox.updateOne({ _id: id }, { $set: { due_at: dueAt } });
    },
  };
};
