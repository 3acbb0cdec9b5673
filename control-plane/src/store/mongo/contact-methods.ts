import type {
  ContactMethod,
  ContactMethodStore,
  SendAllowance,
} from '../../domain/contacts/contact-method-store.js';
import { fromDoc, fromDocs, type IndexDecl, type MongoContext, toDoc } from './db.js';

/**
 * Users' contact methods in MongoDB (`contact_methods`), one document each (the pending verification
 * nested, its times BSON dates); an update is a replaceOne filtered on `version` (compare-and-set).
 */
export const contactMethodIndexes: IndexDecl[] = [
  { on: 'contactMethods', key: { workspace_id: 1, user_id: 1, created_at: 1 } },
  // Code counters go once their window has ended (a counter's key names its window, so one the TTL
  // monitor has not removed yet is never counted again).
  { on: 'codeSendCounters', key: { expires_at: 1 }, options: { expireAfterSeconds: 0 } },
];

export const mongoContactMethods = ({ col, inTransaction }: MongoContext): ContactMethodStore => {
  const c = col.contactMethods;
  return {
    async listContactMethods(workspaceId, userId) {
      return fromDocs<ContactMethod>(
        await c
          .find({ workspace_id: workspaceId, user_id: userId })
          .sort({ created_at: 1, _id: 1 })
          .toArray(),
      );
    },
    async getContactMethod(workspaceId, userId, id) {
      return fromDoc<ContactMethod>(await c.findOne({ _id: id, workspace_id: workspaceId, user_id: userId }));
    },
    async insertContactMethod(method) {
      // In a transaction: the request's audit entry is written with it (db.ts `inTransaction`).
      await inTransaction((session) => c.insertOne(toDoc(method), { session }));
    },
    async updateContactMethod(method) {
      const next: ContactMethod = { ...method, version: method.version + 1 };
      // In a transaction: the request's audit entry is written with it (db.ts `inTransaction`).
      return inTransaction(
        async (session) =>
          (
            await c.replaceOne(
              {
                _id: method.id,
                workspace_id: method.workspace_id,
                user_id: method.user_id,
                version: method.version,
              },
              toDoc(next),
              { session },
            )
          ).matchedCount === 1,
      );
    },
    async deleteContactMethod(workspaceId, userId, id) {
      return inTransaction(
        async (session) =>
          (await c.deleteOne({ _id: id, workspace_id: workspaceId, user_id: userId }, { session }))
            .deletedCount === 1,
      );
    },
    async deleteUserContactMethods(workspaceId, userId) {
      return (await c.deleteMany({ workspace_id: workspaceId, user_id: userId })).deletedCount;
    },
    // Each counter is taken by one conditional increment (atomic on its document; an ended one, which
    // the TTL monitor has not removed yet, starts again at 1); a full one is not matched, so the upsert
    // collides with it (duplicate key). A collision can also be two first takes racing: tried once more,
    // the document then exists. Then, when one is full, the ones taken before are given back.
    async takeSendAllowance(allowances, now) {
      const counters = col.codeSendCounters;
      const live = { $gt: ['$expires_at', now] };
      const take = async (a: SendAllowance) => {
        try {
          const r = await counters.updateOne(
            { _id: a.key, $or: [{ n: { $lt: a.limit } }, { expires_at: { $lte: now } }] },
            [
              {
                $set: {
                  n: { $cond: [live, { $add: ['$n', 1] }, 1] },
                  expires_at: { $cond: [live, '$expires_at', a.expires_at] },
                },
              },
            ],
            { upsert: true },
          );
          return r.matchedCount + r.upsertedCount === 1;
        } catch (e) {
          if ((e as { code?: number }).code !== 11000) throw e;
          return null;
        }
      };
      const taken: string[] = [];
      for (const a of allowances) {
        const ok = (await take(a)) ?? (await take(a)) ?? false;
        if (!ok) {
          for (const key of taken) await counters.updateOne({ _id: key }, { $inc: { n: -1 } });
          return a;
        }
        taken.push(a.key);
      }
      return null;
    },
  };
};
