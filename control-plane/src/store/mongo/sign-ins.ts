import type { Document } from 'mongodb';
import type { SignInActivity, SignInDevice, SignInStore } from '../../domain/access/sign-in-store.js';
import { deleteSome, fromDoc, type IndexDecl, type MongoContext, retryOnDuplicate, toDoc } from './db.js';

/**
 * Indexes for sign-in devices: by token hash (unique), by user (newest first, to keep the newest few),
 * and a TTL index deleting a device at its expiry (readers check expiry anyway). Activity documents are
 * keyed by the user's id (`_id`), so they need none.
 */
export const signInIndexes: IndexDecl[] = [
  { on: 'signInDevices', key: { token_hash: 1 }, options: { unique: true } },
  { on: 'signInDevices', key: { workspace_id: 1, user_id: 1, created_at: -1 } },
  { on: 'signInDevices', key: { expires_at: 1 }, options: { expireAfterSeconds: 0 } },
];

/** The current value of a field, null when it is missing (documents always carry all of them). */
const field = (name: string) => ({ $ifNull: [`$${name}`, null] });

/**
 * A failure starts a new run (count 1, since the last sign-in) when the user has signed in since the
 * run began (last_sign_in_at is no longer failed_since), or when there is none; see sqlite/sign-ins.ts.
 */
const NEW_RUN = {
  $or: [
    { $eq: [{ $ifNull: ['$failed_count', 0] }, 0] },
    { $ne: [field('failed_since'), field('last_sign_in_at')] },
  ],
};

/**
 * Sign-in devices and activity in MongoDB. Activity is updated by pipeline updates (every expression of
 * a `$set` stage reads the document as it was before it), upserted by `_id` alone so that the server
 * retries a concurrent first insert itself; a successful sign-in is one transaction.
 */
export const mongoSignIns = ({ col, inTransaction }: MongoContext): SignInStore => {
  const { signInDevices: devices, signInActivity: activity } = col;
  return {
    async recordSignIn({ workspace_id, user_id, at, device, replaces, keep }) {
      await retryOnDuplicate(() =>
        inTransaction(async (session) => {
          await activity.updateOne(
            { _id: user_id },
            [
              {
                $set: {
                  workspace_id,
                  // $max ignores null and missing: the time never moves back.
                  last_sign_in_at: { $max: ['$last_sign_in_at', at] },
                  failed_count: { $ifNull: ['$failed_count', 0] },
                  failed_since: field('failed_since'),
                  last_failed_at: field('last_failed_at'),
                  last_failed_address: field('last_failed_address'),
                },
              },
            ],
            { upsert: true, session },
          );
          if (replaces) await devices.deleteOne({ _id: replaces, workspace_id, user_id }, { session });
          await devices.insertOne(toDoc(device), { session });
          const beyond = await devices
            .find({ workspace_id, user_id }, { session })
            .sort({ created_at: -1, _id: -1 })
            .skip(keep)
            .project({ _id: 1 })
            .toArray();
          if (beyond.length > 0)
            await devices.deleteMany({ _id: { $in: beyond.map((d) => d._id) } }, { session });
        }),
      );
    },
    async recordFailedSignIn(workspaceId, userId, at, address) {
      await activity.updateOne(
        { _id: userId },
        [
          {
            $set: {
              workspace_id: workspaceId,
              last_sign_in_at: field('last_sign_in_at'),
              failed_count: { $cond: [NEW_RUN, 1, { $add: ['$failed_count', 1] }] },
              failed_since: { $cond: [NEW_RUN, field('last_sign_in_at'), field('failed_since')] },
              last_failed_at: { $literal: at },
              last_failed_address: { $literal: address },
            },
          },
        ],
        { upsert: true },
      );
    },
    async findSignInDevice(tokenHash) {
      return fromDoc<SignInDevice>(await devices.findOne({ token_hash: tokenHash }));
    },
    async listSignInActivity(workspaceId, userIds) {
      if (userIds.length === 0) return [];
      const docs = await activity.find({ _id: { $in: userIds }, workspace_id: workspaceId }).toArray();
      return docs.map(
        (d: Document): SignInActivity => ({
          workspace_id: d.workspace_id,
          user_id: d._id,
          last_sign_in_at: d.last_sign_in_at ?? null,
          failed_count: d.failed_count ?? 0,
          failed_since: d.failed_since ?? null,
          last_failed_at: d.last_failed_at ?? null,
          last_failed_address: d.last_failed_address ?? null,
        }),
      );
    },
    async pruneSignInDevices(now, limit) {
      return deleteSome(devices, { expires_at: { $lte: now } }, limit);
    },
  };
};
