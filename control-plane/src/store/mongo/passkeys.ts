import type { Passkey, PasskeyChallenge, PasskeyStore } from '../../domain/access/passkey-store.js';
import {
  bumpGuard,
  deleteSome,
  fromDoc,
  fromDocs,
  type IndexDecl,
  isDuplicate,
  type MongoContext,
  toDoc,
} from './db.js';

/**
 * Passkeys: the credential id unique per workspace, listed by user. Challenges: `_id` is the
 * challenge's SHA-256; a TTL index deletes them after expiry (takers check expiry anyway).
 */
export const passkeyIndexes: IndexDecl[] = [
  { on: 'passkeys', key: { workspace_id: 1, credential_id: 1 }, options: { unique: true } },
  { on: 'passkeys', key: { workspace_id: 1, user_id: 1, created_at: 1 } },
  { on: 'passkeyChallenges', key: { expires_at: 1 }, options: { expireAfterSeconds: 0 } },
];

/**
 * Passkeys in MongoDB. An insert counts the user's passkeys in a transaction that first bumps the user's
 * guard, so two concurrent adds conflict (one retried) instead of both passing the cap. A challenge is
 * taken by one findOneAndDelete (atomic on its document); the counter moves by a filtered updateOne.
 */
export const mongoPasskeys = ({ col, inTransaction }: MongoContext): PasskeyStore => {
  const { passkeys, passkeyChallenges: challenges, users } = col;
  return {
    async insertPasskey(passkey, { maxPerUser }) {
      try {
        return await inTransaction(async (session) => {
          await bumpGuard(users, passkey.user_id, session);
          const n = await passkeys.countDocuments(
            { workspace_id: passkey.workspace_id, user_id: passkey.user_id },
            { session },
          );
          if (n >= maxPerUser) return 'limit_reached' as const;
          await passkeys.insertOne(toDoc(passkey), { session });
          return 'inserted' as const;
        });
      } catch (e) {
        if (isDuplicate(e)) return 'taken';
        throw e;
      }
    },
    async listPasskeys(workspaceId, userId) {
      return fromDocs<Passkey>(
        await passkeys
          .find({ workspace_id: workspaceId, user_id: userId })
          .sort({ created_at: 1, _id: 1 })
          .toArray(),
      );
    },
    async findPasskeyByCredentialId(workspaceId, credentialId) {
      return fromDoc<Passkey>(
        await passkeys.findOne({ workspace_id: workspaceId, credential_id: credentialId }),
      );
    },
    async deletePasskey(workspaceId, userId, id) {
      // In a transaction, so the request's audit entry commits with the removal.
      return inTransaction(
        async (session) =>
          (await passkeys.deleteOne({ _id: id, workspace_id: workspaceId, user_id: userId }, { session }))
            .deletedCount > 0,
      );
    },
    async usePasskey(workspaceId, id, { expected, counter, at }) {
      const r = await passkeys.updateOne(
        { _id: id, workspace_id: workspaceId, counter: expected },
        { $set: { counter, last_used_at: at } },
      );
      return r.matchedCount > 0;
    },
    async insertPasskeyChallenge(challenge) {
      await challenges.insertOne(toDoc(challenge));
    },
    async takePasskeyChallenge(workspaceId, id, now) {
      const doc = await challenges.findOneAndDelete({
        _id: id,
        workspace_id: workspaceId,
        expires_at: { $gt: now },
      });
      return fromDoc<PasskeyChallenge>(doc);
    },
    async prunePasskeyChallenges(now, limit) {
      return deleteSome(challenges, { expires_at: { $lte: now } }, limit);
    },
  };
};
