import type { PasswordReset, PasswordResetStore } from '../../domain/access/password-reset.js';
import { deleteSome, fromDoc, type IndexDecl, type MongoContext, toDoc } from './db.js';

/**
 * Password reset links in MongoDB (`password_resets`): found by the token's hash (unique index);
 * expired ones pruned by the job (an index on `expires_at`; no TTL index, so pruning is one rule on
 * both adapters).
 */
export const passwordResetIndexes: IndexDecl[] = [
  { on: 'passwordResets', key: { token_hash: 1 }, options: { unique: true } },
  { on: 'passwordResets', key: { workspace_id: 1, user_id: 1, created_at: -1 } },
  { on: 'passwordResets', key: { expires_at: 1 } },
];

/** Thrown inside the transaction to abort it when the user is gone (nothing is written). */
class NoUser extends Error {}

/**
 * Taking a link is one transaction: `findOneAndUpdate` on (hash, workspace, used_at null, expires_at
 * after now) is the single-use claim (two takers: one matches, the other's write conflicts and its
 * retry finds used_at set); the password and the end of the user's sessions commit with it.
 */
export const mongoPasswordResets = ({ col, inTransaction }: MongoContext): PasswordResetStore => {
  const { passwordResets, users, sessions } = col;
  return {
    async insertPasswordReset(reset, keep) {
      await passwordResets.insertOne(toDoc(reset));
      const older = await passwordResets
        .find({ workspace_id: reset.workspace_id, user_id: reset.user_id })
        .sort({ created_at: -1, _id: -1 })
        .skip(keep)
        .project({ _id: 1 })
        .limit(100)
        .toArray();
      if (older.length > 0) await passwordResets.deleteMany({ _id: { $in: older.map((d) => d._id) } });
    },
    async findPasswordResetByHash(tokenHash) {
      return fromDoc<PasswordReset>(await passwordResets.findOne({ token_hash: tokenHash }));
    },
    async completePasswordReset({ workspace_id, token_hash, password_hash, now }) {
      try {
        return await inTransaction(async (session) => {
          const reset = await passwordResets.findOneAndUpdate(
            { token_hash, workspace_id, used_at: null, expires_at: { $gt: now } },
            { $set: { used_at: now } },
            { session },
          );
          if (!reset) return null;
          const user_id = reset.user_id as string;
          const r = await users.updateOne(
            { workspace_id, _id: user_id },
            { $set: { password_hash } },
            { session },
          );
          if (r.matchedCount !== 1) throw new NoUser();
          await sessions.deleteMany({ workspace_id, user_id }, { session });
          return { user_id };
        });
      } catch (e) {
        if (e instanceof NoUser) return null;
        throw e;
      }
    },
    async prunePasswordResets(before, limit) {
      return deleteSome(passwordResets, { expires_at: { $lt: before } }, limit);
    },
  };
};
