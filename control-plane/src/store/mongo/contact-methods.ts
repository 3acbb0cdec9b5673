import type { ContactMethod, ContactMethodStore } from '../../domain/contacts/contact-method-store.js';
import { fromDoc, fromDocs, type IndexDecl, type MongoContext, toDoc } from './db.js';

/**
 * Users' contact methods in MongoDB (`contact_methods`), one document each (the pending verification
 * nested, its times BSON dates); an update is a replaceOne filtered on `version` (compare-and-set).
 */
export const contactMethodIndexes: IndexDecl[] = [
  { on: 'contactMethods', key: { workspace_id: 1, user_id: 1, created_at: 1 } },
];

export const mongoContactMethods = ({ col }: MongoContext): ContactMethodStore => {
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
      await c.insertOne(toDoc(method));
    },
    async updateContactMethod(method) {
      const next: ContactMethod = { ...method, version: method.version + 1 };
      const r = await c.replaceOne(
        {
          _id: method.id,
          workspace_id: method.workspace_id,
          user_id: method.user_id,
          version: method.version,
        },
        toDoc(next),
      );
      return r.matchedCount === 1;
    },
    async deleteContactMethod(workspaceId, userId, id) {
      return (await c.deleteOne({ _id: id, workspace_id: workspaceId, user_id: userId })).deletedCount === 1;
    },
    async deleteUserContactMethods(workspaceId, userId) {
      return (await c.deleteMany({ workspace_id: workspaceId, user_id: userId })).deletedCount;
    },
  };
};
