import { AppError } from '@lookout/shared';
import type { IntegrationStore } from '../../domain/integrations/integration-store.js';
import type { Integration } from '../../domain/types.js';
import { bumpGuard, fromDoc, type IndexDecl, isDuplicate, type MongoContext, page, toDoc } from './db.js';

export const integrationIndexes: IndexDecl[] = [
  { on: 'integrations', key: { key_hash: 1 }, options: { unique: true } },
  { on: 'integrations', key: { workspace_id: 1, created_at: -1, _id: -1 } },
];

/**
 * Inbound integrations; the key hash is unique. An integration can name an escalation policy, so its
 * insert and update bump the workspace's guard in their transaction, as monitor and heartbeat writes
 * do: a policy delete checking for references then conflicts with them (routing.ts).
 */
export const mongoIntegrations = ({ col, inTransaction }: MongoContext): IntegrationStore => {
  const { workspaces, integrations } = col;
  return {
    async insertIntegration(integration) {
      try {
        await inTransaction(async (session) => {
          await bumpGuard(workspaces, integration.workspace_id, session);
          await integrations.insertOne(toDoc(integration), { session });
        });
      } catch (e) {
        if (isDuplicate(e)) throw new AppError('conflict', 'That service key is taken; try again.');
        throw e;
      }
    },
    async getIntegration(workspaceId, id) {
      return fromDoc<Integration>(await integrations.findOne({ workspace_id: workspaceId, _id: id }));
    },
    async findIntegrationByKeyHash(keyHash) {
      return fromDoc<Integration>(await integrations.findOne({ key_hash: keyHash }));
    },
    async listIntegrations(workspaceId, q) {
      return page<Integration>(integrations, { workspace_id: workspaceId }, q);
    },
    async updateIntegration(i) {
      return inTransaction(async (session) => {
        await bumpGuard(workspaces, i.workspace_id, session);
        const r = await integrations.updateOne(
          { workspace_id: i.workspace_id, _id: i.id },
          {
            $set: {
              name: i.name,
              escalation_policy_id: i.escalation_policy_id,
              key_hash: i.key_hash,
              key_last_four: i.key_last_four,
              updated_at: i.updated_at,
            },
          },
          { session },
        );
        return r.matchedCount === 1;
      });
    },
    async deleteIntegration(workspaceId, id) {
      return inTransaction(
        async (session) =>
          (await integrations.deleteOne({ workspace_id: workspaceId, _id: id }, { session })).deletedCount ===
          1,
      );
    },
  };
};
