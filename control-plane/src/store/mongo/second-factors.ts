import type {
  RecoveryCode,
  SecondFactorStore,
  SignInChallenge,
  TotpFactor,
} from '../../domain/access/second-factor-store.js';
import { fromDoc, fromDocs, type IndexDecl, type MongoContext, toDoc } from './db.js';

/**
 * Indexes: recovery codes by user; challenges by token hash (unique) and a TTL index deleting one at
 * its expiry (readers check expiry anyway). TOTP factors and workspace settings are keyed by `_id`.
 */
export const secondFactorIndexes: IndexDecl[] = [
  { on: 'recoveryCodes', key: { workspace_id: 1, user_id: 1 } },
  { on: 'signInChallenges', key: { token_hash: 1 }, options: { unique: true } },
  { on: 'signInChallenges', key: { expires_at: 1 }, options: { expireAfterSeconds: 0 } },
  { on: 'signInChallenges', key: { workspace_id: 1, user_id: 1 } },
];

const totpId = (workspaceId: string, userId: string) => `${workspaceId}:${userId}`;

/**
 * Second factors in MongoDB. Single-use steps are conditional single-document writes (the server
 * applies each atomically: only one caller matches); confirming a factor with its new codes is one
 * transaction.
 */
export const mongoSecondFactors = ({ col, inTransaction }: MongoContext): SecondFactorStore => {
  const { totpFactors, recoveryCodes, signInChallenges, workspaceSecurity, passkeys } = col;
  const totpOf = (doc: Record<string, unknown> | null): TotpFactor | null => {
    if (!doc) return null;
    const { _id, ...rest } = doc;
    return rest as unknown as TotpFactor;
  };
  return {
    async getSecondFactors(workspaceId, userId) {
      const [totp, left, keys] = await Promise.all([
        totpFactors.findOne({ _id: totpId(workspaceId, userId) }),
        recoveryCodes.countDocuments({ workspace_id: workspaceId, user_id: userId }),
        passkeys.countDocuments({ workspace_id: workspaceId, user_id: userId }),
      ]);
      return { totp: totpOf(totp), recovery_codes_left: left, passkeys: keys };
    },
    async putPendingTotp(factor) {
      const _id = totpId(factor.workspace_id, factor.user_id);
      try {
        // In a transaction (as every write a route makes on its own), so the request's audit entry rides it.
        const r = await inTransaction((session) =>
          totpFactors.updateOne(
            { _id, confirmed_at: null },
            { $set: { ...factor, confirmed_at: null, last_step: null } },
            { upsert: true, session },
          ),
        );
        return r.matchedCount + r.upsertedCount === 1;
      } catch (e) {
        // The upsert met the confirmed factor's _id: there is one, nothing changed.
        if ((e as { code?: number }).code === 11000) return false;
        throw e;
      }
    },
    async confirmTotp({ workspace_id, user_id, at, step, codes }) {
      return inTransaction(async (session) => {
        const r = await totpFactors.updateOne(
          { _id: totpId(workspace_id, user_id), confirmed_at: null },
          { $set: { confirmed_at: at, last_step: step } },
          { session },
        );
        if (r.modifiedCount !== 1) return false;
        await recoveryCodes.deleteMany({ workspace_id, user_id }, { session });
        if (codes.length > 0) await recoveryCodes.insertMany(codes.map(toDoc), { session });
        return true;
      });
    },
    async acceptTotpStep(workspaceId, userId, step) {
      const r = await totpFactors.updateOne(
        {
          _id: totpId(workspaceId, userId),
          confirmed_at: { $ne: null },
          $or: [{ last_step: null }, { last_step: { $lt: step } }],
        },
        { $set: { last_step: step } },
      );
      return r.modifiedCount === 1;
    },
    async deleteTotp(workspaceId, userId, keepRecoveryCodes) {
      await inTransaction(async (session) => {
        await totpFactors.deleteOne({ _id: totpId(workspaceId, userId) }, { session });
        if (!keepRecoveryCodes)
          await recoveryCodes.deleteMany({ workspace_id: workspaceId, user_id: userId }, { session });
      });
    },
    async replaceRecoveryCodes(workspaceId, userId, codes) {
      await inTransaction(async (session) => {
        await recoveryCodes.deleteMany({ workspace_id: workspaceId, user_id: userId }, { session });
        if (codes.length > 0) await recoveryCodes.insertMany(codes.map(toDoc), { session });
      });
    },
    async listRecoveryCodes(workspaceId, userId) {
      return fromDocs<RecoveryCode>(
        await recoveryCodes
          .find({ workspace_id: workspaceId, user_id: userId })
          .sort({ _id: 1 })
          .limit(50)
          .toArray(),
      );
    },
    async useRecoveryCode(workspaceId, userId, id) {
      const r = await recoveryCodes.deleteOne({ _id: id, workspace_id: workspaceId, user_id: userId });
      return r.deletedCount === 1;
    },
    async insertChallenge(challenge) {
      await inTransaction((session) => signInChallenges.insertOne(toDoc(challenge), { session }));
    },
    async findChallenge(tokenHash) {
      return fromDoc<SignInChallenge>(await signInChallenges.findOne({ token_hash: tokenHash }));
    },
    async countChallengeTry(id) {
      const doc = await signInChallenges.findOneAndUpdate(
        { _id: id },
        { $inc: { failures: 1 } },
        { returnDocument: 'after' },
      );
      return doc ? (doc.failures as number) : null;
    },
    async consumeChallenge(id) {
      return (await signInChallenges.deleteOne({ _id: id })).deletedCount === 1;
    },
    async pruneChallenges(now, limit) {
      const ids = (
        await signInChallenges
          .find({ expires_at: { $lte: now } })
          .project({ _id: 1 })
          .limit(limit)
          .toArray()
      ).map((d) => d._id);
      if (ids.length === 0) return 0;
      return (await signInChallenges.deleteMany({ _id: { $in: ids } })).deletedCount;
    },
    async getWorkspaceSecurity(workspaceId) {
      const doc = await workspaceSecurity.findOne({ _id: workspaceId });
      return { workspace_id: workspaceId, require_2fa: doc?.require_2fa === true };
    },
    async putWorkspaceSecurity({ workspace_id, require_2fa }) {
      await inTransaction((session) =>
        workspaceSecurity.updateOne(
          { _id: workspace_id },
          { $set: { require_2fa } },
          { upsert: true, session },
        ),
      );
    },
  };
};
