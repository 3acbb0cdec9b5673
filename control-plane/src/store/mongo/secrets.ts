import type { Document } from 'mongodb';
import type { SecretStore, WorkspaceSecret } from '../../domain/secrets/secret-store.js';
import type { IndexDecl, MongoContext } from './db.js';

/**
 * Workspace secrets in MongoDB (`secrets`): `_id` is `workspace_id:name` (a name has no `:`), with a
 * unique index on (workspace_id, name) as well. A put is one `updateOne` with `upsert: true`: the
 * driver reports `upsertedCount` 1 when it inserted, and `$setOnInsert` keeps `created_at` on a
 * replace. Two concurrent upserts of one new name cannot both insert (the `_id`); the server retries
 * the one that lost on the duplicate key, since its filter is an equality on the unique `_id`.
 */
export const secretIndexes: IndexDecl[] = [
  { on: 'secrets', key: { workspace_id: 1, name: 1 }, options: { unique: true } },
];

const keyOf = (workspaceId: string, name: string) => `${workspaceId}:${name}`;

const fromDoc = (doc: Document | null): WorkspaceSecret | null => {
  if (!doc) return null;
  const { _id, ...rest } = doc;
  return rest as WorkspaceSecret;
};

export const mongoSecrets = ({ col, inTransaction }: MongoContext): SecretStore => ({
  async putSecret(secret) {
    const { created_at, ...rest } = secret;
    // In a transaction: the request's audit entry is written with it (db.ts `inTransaction`).
    const r = await inTransaction((session) =>
      col.secrets.updateOne(
        { _id: keyOf(secret.workspace_id, secret.name) },
        { $set: rest, $setOnInsert: { created_at } },
        { upsert: true, session },
      ),
    );
    return r.upsertedCount === 1;
  },
  async getSecret(workspaceId, name) {
    return fromDoc(await col.secrets.findOne({ _id: keyOf(workspaceId, name) }));
  },
  async listSecrets(workspaceId) {
    const docs = await col.secrets.find({ workspace_id: workspaceId }).sort({ name: 1 }).toArray();
    return docs.map((d) => fromDoc(d)!);
  },
  async getSecrets(workspaceId, names) {
    if (names.length === 0) return [];
    const docs = await col.secrets
      .find({ _id: { $in: names.map((n) => keyOf(workspaceId, n)) } })
      .sort({ name: 1 })
      .toArray();
    return docs.map((d) => fromDoc(d)!);
  },
  async deleteSecret(workspaceId, name) {
    return inTransaction(
      async (session) =>
        (await col.secrets.deleteOne({ _id: keyOf(workspaceId, name) }, { session })).deletedCount === 1,
    );
  },
});
