import type { ClientSession } from 'mongodb';
import type { Invitation, MemberStore, RemoveUserOutcome } from '../../domain/access/member-store.js';
import { withoutUser } from '../../domain/escalation/escalation-policies.js';
import type { EscalationPolicy, User } from '../../domain/types.js';
import {
  bumpGuard,
  fromDoc,
  fromDocs,
  type IndexDecl,
  isDuplicateOn,
  type MongoContext,
  retryOnDuplicate,
  toDoc,
} from './db.js';
import { removeFromSchedules } from './schedules.js';

/** Indexes for invitations, created at start with the others. */
export const memberIndexes: IndexDecl[] = [
  { on: 'invitations', key: { token_hash: 1 }, options: { unique: true } },
  { on: 'invitations', key: { user_id: 1, created_at: -1 } },
];

/**
 * Invitations, role changes and removal in MongoDB, each in one transaction. The last-admin rule reads
 * other users and writes one, which snapshot isolation alone would let two concurrent transactions both
 * pass (write skew: two admins demoting each other). So every transaction that checks the rule first
 * bumps the workspace's guard (db.ts): concurrent ones conflict on that document, and the driver's
 * withTransaction retries the loser (a write conflict is a TransientTransactionError), which then sees
 * the winner's change. The workspace document exists from the start, so nothing is upserted: an
 * upserted counter could be inserted by two first transactions at once, and the loser's insert is a
 * duplicate key, which withTransaction does not retry.
 */
export const mongoMembers = ({ col, inTransaction }: MongoContext): MemberStore => {
  const {
    workspaces,
    users,
    sessions,
    apiKeys,
    invitations,
    policies,
    signInDevices,
    signInActivity,
    passkeys,
  } = col;
  const { totpFactors, recoveryCodes, signInChallenges } = col;

  const serialize = (workspaceId: string, session: ClientSession) =>
    bumpGuard(workspaces, workspaceId, session);
  const isLastAdmin = async (user: User, session: ClientSession) =>
    user.role === 'admin' &&
    user.password_hash !== null &&
    (await users.countDocuments(
      {
        workspace_id: user.workspace_id,
        _id: { $ne: user.id },
        role: 'admin',
        password_hash: { $type: 'string' },
      },
      { session, limit: 1 },
    )) === 0;
  const getUser = async (workspaceId: string, id: string, session: ClientSession) =>
    fromDoc<User>(await users.findOne({ workspace_id: workspaceId, _id: id }, { session }));

  const invite = (user: User, invitation: Invitation) =>
    inTransaction(async (session) => {
      const existing = fromDoc<User>(
        await users.findOne({ workspace_id: user.workspace_id, email: user.email }, { session }),
      );
      if (existing?.password_hash) return { outcome: 'email_taken' as const };
      let invited = user;
      if (existing) {
        await users.updateOne({ _id: existing.id }, { $set: { role: user.role } }, { session });
        await invitations.deleteMany({ user_id: existing.id }, { session });
        invited = { ...existing, role: user.role };
      } else await users.insertOne(toDoc(user), { session });
      const inv = { ...invitation, user_id: invited.id };
      await invitations.insertOne(toDoc(inv), { session });
      return { outcome: 'invited' as const, user: invited, invitation: inv };
    });

  return {
    async inviteUser(user, invitation) {
      // Two invitations of one new email at once: the second's insert of the user can meet the first's
      // (committed after its snapshot) on the unique (workspace_id, email) index. Run again, it finds
      // that user: invited again if still pending, taken if joined. Any other duplicate is an error.
      return retryOnDuplicate(
        () => invite(user, invitation),
        5,
        (e) => isDuplicateOn(e, ['workspace_id', 'email']),
      );
    },
    async findInvitationByHash(tokenHash) {
      return fromDoc<Invitation>(await invitations.findOne({ token_hash: tokenHash }));
    },
    async listOpenInvitations(workspaceId, userIds) {
      if (userIds.length === 0) return [];
      const open = await invitations
        .find({ workspace_id: workspaceId, used_at: null, user_id: { $in: userIds } })
        .sort({ created_at: -1, _id: -1 })
        .toArray();
      const newest = new Map<string, Invitation>();
      for (const d of open) {
        const i = fromDoc<Invitation>(d)!;
        if (!newest.has(i.user_id)) newest.set(i.user_id, i);
      }
      return [...newest.values()];
    },
    async acceptInvitation({ invitation_id, password_hash, session: next, now }) {
      return inTransaction(async (session) => {
        const inv = fromDoc<Invitation>(await invitations.findOne({ _id: invitation_id }, { session }));
        if (!inv) return 'unknown' as const;
        if (inv.used_at) return 'used' as const;
        if (inv.expires_at.getTime() <= now.getTime()) return 'expired' as const;
        const set = await users.updateOne(
          { workspace_id: inv.workspace_id, _id: inv.user_id },
          { $set: { password_hash } },
          { session },
        );
        if (set.matchedCount !== 1) return 'unknown' as const;
        // The condition makes a concurrent accept of the same link conflict rather than both succeed.
        const used = await invitations.updateOne(
          { _id: inv.id, used_at: null },
          { $set: { used_at: now } },
          { session },
        );
        if (used.modifiedCount !== 1) return 'used' as const;
        await invitations.deleteMany({ user_id: inv.user_id, _id: { $ne: inv.id } }, { session });
        await sessions.insertOne(toDoc(next), { session });
        return 'accepted' as const;
      });
    },
    async changeUserRole(workspaceId, id, role) {
      return inTransaction(async (session) => {
        await serialize(workspaceId, session);
        const user = await getUser(workspaceId, id, session);
        if (!user) return 'not_found' as const;
        if (role !== 'admin' && (await isLastAdmin(user, session))) return 'last_admin' as const;
        await users.updateOne({ _id: id }, { $set: { role } }, { session });
        return 'changed' as const;
      });
    },
    async removeUser(workspaceId, id, now) {
      return inTransaction(async (session): Promise<RemoveUserOutcome> => {
        // The workspace's guard also orders this against a policy edit naming the user (as in
        // routing.ts): the two conflict instead of both committing.
        await serialize(workspaceId, session);
        const user = await getUser(workspaceId, id, session);
        if (!user) return { outcome: 'not_found' };
        if (await isLastAdmin(user, session)) return { outcome: 'last_admin' };
        const naming = fromDocs<EscalationPolicy>(
          await policies
            .find({ workspace_id: workspaceId, 'steps.notify_user_ids': id }, { session })
            .sort({ name: 1, _id: 1 })
            .toArray(),
        );
        const { blocking, updated } = withoutUser(naming, id, now);
        if (blocking.length > 0) return { outcome: 'only_target', policies: blocking };
        for (const p of updated)
          await policies.updateOne(
            { _id: p.id, workspace_id: workspaceId },
            { $set: { steps: p.steps, updated_at: p.updated_at } },
            { session },
          );
        await sessions.deleteMany({ workspace_id: workspaceId, user_id: id }, { session });
        await invitations.deleteMany({ user_id: id }, { session });
        await signInDevices.deleteMany({ workspace_id: workspaceId, user_id: id }, { session });
        await passkeys.deleteMany({ workspace_id: workspaceId, user_id: id }, { session });
        await signInActivity.deleteOne({ _id: id, workspace_id: workspaceId }, { session });
        for (const c of [totpFactors, recoveryCodes, signInChallenges])
          await c.deleteMany({ workspace_id: workspaceId, user_id: id }, { session });
        await apiKeys.updateMany(
          { workspace_id: workspaceId, user_id: id, revoked_at: null },
          { $set: { revoked_at: now } },
          { session },
        );
        const left = await removeFromSchedules(col, workspaceId, user, now, session);
        await users.deleteOne({ _id: id }, { session });
        return {
          outcome: 'removed',
          policies: updated.map((p) => ({ id: p.id, name: p.name })),
          schedules: left,
        };
      });
    },
  };
};
