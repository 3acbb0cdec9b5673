import type { Document } from 'mongodb';
import type { OAuthRecord, OAuthStore } from '../../domain/access/oauth-store.js';
import type { IndexDecl, MongoContext } from './db.js';

/** `_id` is the record's key: workspace, model and the id's hash (the id itself is never stored). */
const idOf = (workspaceId: string, model: string, keyHash: string) => `${workspaceId}:${model}:${keyHash}`;

const fromDoc = (d: Document | null): OAuthRecord | null => {
  if (!d) return null;
  const { _id, payload, ...rest } = d;
  return { ...rest, payload: JSON.parse(payload as string) } as OAuthRecord;
};

/**
 * Indexes for OAuth records. The TTL index (expireAfterSeconds 0 on the Date field expires_at) lets
 * the server delete a record after its expiry; documents with expires_at null (or missing) are never
 * deleted by it. The TTL monitor runs about once a minute, so readers still check expiry
 * (oidc-provider checks `exp` in every payload; listOAuthGrants filters).
 */
export const oauthIndexes: IndexDecl[] = [
  { on: 'oauthRecords', key: { workspace_id: 1, grant_id: 1 } },
  {
    on: 'oauthRecords',
    key: { workspace_id: 1, model: 1, uid: 1 },
    options: { partialFilterExpression: { uid: { $type: 'string' } } },
  },
  { on: 'oauthRecords', key: { workspace_id: 1, account_id: 1, model: 1, created_at: -1 } },
  { on: 'oauthRecords', key: { workspace_id: 1, model: 1, created_at: -1 } },
  { on: 'oauthRecords', key: { expires_at: 1 }, options: { expireAfterSeconds: 0 } },
];

/** The hosted connector's OAuth records in MongoDB: one document per record, single-document writes. */
export const mongoOAuth = ({ col, inTransaction }: MongoContext): OAuthStore => {
  const records = col.oauthRecords;
  return {
    async upsertOAuthRecord(r) {
      const _id = idOf(r.workspace_id, r.model, r.key_hash);
      // The payload is kept as JSON text: its keys include URLs (a grant's resources), and field
      // names with dots are best kept out of documents.
      const { created_at, payload, ...rest } = r;
      await records.updateOne(
        { _id },
        { $set: { ...rest, payload: JSON.stringify(payload) }, $setOnInsert: { created_at } },
        { upsert: true },
      );
    },
    async findOAuthRecord(workspaceId, model, keyHash) {
      return fromDoc(await records.findOne({ _id: idOf(workspaceId, model, keyHash) }));
    },
    async findOAuthRecordByUid(workspaceId, model, uid) {
      return fromDoc(await records.findOne({ workspace_id: workspaceId, model, uid }));
    },
    async consumeOAuthRecord(workspaceId, model, keyHash, at) {
      await records.updateOne(
        { _id: idOf(workspaceId, model, keyHash), consumed_at: null },
        { $set: { consumed_at: at } },
      );
    },
    async deleteOAuthRecord(workspaceId, model, keyHash) {
      await records.deleteOne({ _id: idOf(workspaceId, model, keyHash) });
    },
    async revokeOAuthGrant(workspaceId, grantId) {
      // In a transaction: the request's audit entry is written with it (db.ts `inTransaction`); the
      // step reports whether it deleted anything, so an unknown grant writes none.
      let n = 0;
      await inTransaction(async (session) => {
        n = (await records.deleteMany({ workspace_id: workspaceId, grant_id: grantId }, { session }))
          .deletedCount;
        return n > 0;
      });
      return n;
    },
    async listOAuthGrants(workspaceId, { accountId, clientId, inUse }, now) {
      const unexpired = { $or: [{ expires_at: null }, { expires_at: { $gt: now } }] };
      const grants = (
        await records
          .find({
            workspace_id: workspaceId,
            model: 'Grant',
            ...(accountId !== undefined && { account_id: accountId }),
            ...(clientId !== undefined && { client_id: clientId }),
            ...unexpired,
          })
          .sort({ created_at: -1, key_hash: -1 })
          .toArray()
      ).map((d) => fromDoc(d)!);
      if (!inUse || grants.length === 0) return grants;
      // `consumed_at: null` matches null and absent alike.
      const live = new Set(
        await records.distinct('grant_id', {
          workspace_id: workspaceId,
          grant_id: { $in: grants.map((g) => g.grant_id) },
          model: { $in: ['AccessToken', 'RefreshToken'] },
          consumed_at: null,
          ...unexpired,
        }),
      );
      return grants.filter((g) => live.has(g.grant_id));
    },
    async keepOAuthClient(workspaceId, keyHash) {
      await records.updateOne(
        { _id: idOf(workspaceId, 'Client', keyHash), expires_at: { $ne: null } },
        { $set: { expires_at: null } },
      );
    },
    async countOAuthClients(workspaceId, now) {
      const [r] = await records
        .aggregate<{ n: number; next: Date | null }>([
          {
            $match: {
              model: 'Client',
              ...(workspaceId !== null && { workspace_id: workspaceId }),
              $or: [{ expires_at: null }, { expires_at: { $gt: now } }],
            },
          },
          // $min ignores nulls: the first expiry among clients that expire.
          { $group: { _id: null, n: { $sum: 1 }, next: { $min: '$expires_at' } } },
        ])
        .toArray();
      return { count: r?.n ?? 0, next_expiry: r?.next ?? null };
    },
    async pruneOAuthRecords(now, limit) {
      const ids = (
        await records
          .find({ expires_at: { $lte: now } })
          .project({ _id: 1 })
          .limit(limit)
          .toArray()
      ).map((d) => d._id as string);
      if (ids.length === 0) return 0;
      return (await records.deleteMany({ _id: { $in: ids } })).deletedCount;
    },
  };
};
