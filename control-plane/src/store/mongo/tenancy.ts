import { AppError } from '@lookout/shared';
import type { Filter } from 'mongodb';
import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import type { ApiKey, User, Workspace } from '../../domain/types.js';
import {
  bumpGuard,
  type Doc,
  fromDoc,
  type IndexDecl,
  isDuplicate,
  type MongoContext,
  page,
  toDoc,
} from './db.js';

export const tenancyIndexes: IndexDecl[] = [
  { on: 'workspaces', key: { subdomain: 1 }, options: { unique: true } },
  { on: 'users', key: { workspace_id: 1, email: 1 }, options: { unique: true } },
  { on: 'apiKeys', key: { key_hash: 1 }, options: { unique: true } },
  { on: 'apiKeys', key: { workspace_id: 1, user_id: 1, kind: 1 } },
];

const activeKeyFilter = (workspaceId: string, userId: string, now: Date): Filter<Doc> => ({
  workspace_id: workspaceId,
  user_id: userId,
  kind: 'named',
  revoked_at: null,
  $or: [{ expires_at: null }, { expires_at: { $gt: now } }],
});

/**
 * Workspaces, users and API keys. Creating a workspace is one transaction; the per-user key cap and
 * the legacy key swap bump the user's guard first, so two concurrent ones conflict and one retries
 * (without it both would pass the count, or both keep a legacy key).
 */
export const mongoTenancy = ({ col, inTransaction }: MongoContext): TenancyStore => {
  const { workspaces, users, apiKeys, policies } = col;
  const getApiKey = async (workspaceId: string, id: string) =>
    fromDoc<ApiKey>(await apiKeys.findOne({ workspace_id: workspaceId, _id: id }));
  return {
    async createWorkspace({ workspace, admin, defaultPolicy }) {
      try {
        await inTransaction(async (session) => {
          await workspaces.insertOne({ ...toDoc(workspace), monitor_count: 0 }, { session });
          await users.insertOne(toDoc(admin), { session });
          await policies.insertOne(toDoc(defaultPolicy), { session });
        });
      } catch (e) {
        if (isDuplicate(e)) throw new AppError('conflict', `Subdomain "${workspace.subdomain}" is taken.`);
        throw e;
      }
    },
    async getWorkspace(id) {
      return fromDoc<Workspace>(await workspaces.findOne({ _id: id }));
    },
    async getWorkspaceBySubdomain(subdomain) {
      return fromDoc<Workspace>(await workspaces.findOne({ subdomain }));
    },
    async getOnlyWorkspace() {
      const two = await workspaces.find({}).limit(2).toArray();
      return two.length === 1 ? fromDoc<Workspace>(two[0]!) : null;
    },

    async createUser(user) {
      try {
        await users.insertOne(toDoc(user));
      } catch (e) {
        if (isDuplicate(e)) throw new AppError('conflict', `A user with email ${user.email} exists.`);
        throw e;
      }
    },
    async getUser(workspaceId, id) {
      return fromDoc<User>(await users.findOne({ workspace_id: workspaceId, _id: id }));
    },
    async getUserByEmail(workspaceId, email) {
      return fromDoc<User>(await users.findOne({ workspace_id: workspaceId, email }));
    },
    async listUsers(workspaceId, q) {
      return page<User>(users, { workspace_id: workspaceId }, q);
    },

    async insertApiKey(key, { maxActive, now }) {
      return inTransaction(async (session) => {
        await bumpGuard(users, key.user_id, session);
        const n = await apiKeys.countDocuments(activeKeyFilter(key.workspace_id, key.user_id, now), {
          session,
        });
        if (n >= maxActive) return 'limit_reached' as const;
        await apiKeys.insertOne(toDoc(key), { session });
        return 'inserted' as const;
      });
    },
    async replaceLegacyKey(key, now) {
      await inTransaction(async (session) => {
        await bumpGuard(users, key.user_id, session);
        await apiKeys.updateMany(
          { workspace_id: key.workspace_id, user_id: key.user_id, kind: 'legacy', revoked_at: null },
          { $set: { revoked_at: now } },
          { session },
        );
        await apiKeys.insertOne(toDoc(key), { session });
      });
    },
    async findApiKeyByHash(keyHash) {
      return fromDoc<ApiKey>(await apiKeys.findOne({ key_hash: keyHash }));
    },
    getApiKey,
    async listApiKeys(workspaceId, q) {
      const f: Filter<Doc> = { workspace_id: workspaceId };
      if (q.userId !== undefined) f.user_id = q.userId;
      if (q.kind !== undefined) f.kind = q.kind;
      return page<ApiKey>(apiKeys, f, q);
    },
    async revokeApiKey(workspaceId, id, now) {
      // In a transaction: the request's audit entry is written with it (db.ts `inTransaction`).
      await inTransaction(
        async (session) =>
          (
            await apiKeys.updateOne(
              { workspace_id: workspaceId, _id: id, revoked_at: null },
              { $set: { revoked_at: now } },
              { session },
            )
          ).matchedCount === 1,
      );
      return getApiKey(workspaceId, id);
    },
    async recordApiKeyUse(id, at, from) {
      await apiKeys.updateOne(
        { _id: id, $or: [{ last_used_at: null }, { last_used_at: { $lt: at } }] },
        { $set: { last_used_at: at, last_used_from: from } },
      );
    },
  };
};
