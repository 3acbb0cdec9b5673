import type { Integration, Page, PageQuery } from '../types.js';

/**
 * Inbound integrations (alert sources with their service keys).
 * Adapters: store/sqlite/integrations.ts, store/mongo/integrations.ts.
 */
export interface IntegrationStore {
  /** Throws conflict when the key hash is taken (never in practice: keys are random). */
  insertIntegration(integration: Integration): Promise<void>;
  getIntegration(workspaceId: string, id: string): Promise<Integration | null>;
  findIntegrationByKeyHash(keyHash: string): Promise<Integration | null>;
  listIntegrations(workspaceId: string, query: PageQuery): Promise<Page<Integration>>;
  /** Replaces name, policy, key hash and updated_at; false when it does not exist. */
  updateIntegration(integration: Integration): Promise<boolean>;
  deleteIntegration(workspaceId: string, id: string): Promise<boolean>;
}
