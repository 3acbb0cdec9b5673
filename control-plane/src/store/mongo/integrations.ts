import { AppError } from '@lookout/shared';
import type { IntegrationStore } from '../../domain/integration-store.js';
import type { Integration } from '../../domain/types.js';
import { fromDoc, type IndexDecl, isDuplicate, type MongoContext, page, toDoc } from './db.js';

export const integrationIndexes: IndexDecl[] = [
  { on: 'integrations', key: { key_hash: 1 }, options: { unique: true } },
  { on: 'integrations', key: { workspace_id: 1, created_at: -1, _id: -1 } },
];

/** Inbound integrations: single-document writes; the key hash is unique. */
export const mongoIntegrations = ({ col }: MongoContext): IntegrationStore => {
  const { integrations } = col;
  return {
    async insertIntegration(integration) {
      try {
        await integrations.insertOne(toDoc(integration));
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
      );
      return r.matchedCount === 1;
    },
    async deleteIntegration(workspaceId, id) {
      return (await integrations.deleteOne({ workspace_id: workspaceId, _id: id })).deletedCount === 1;
    },
  };
};
