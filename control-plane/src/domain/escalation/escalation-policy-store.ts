import type { PolicyLookup } from '../lookups.js';
import type { EscalationPolicy, Page, PageQuery } from '../types.js';

/** What can name an escalation policy, so that it cannot be deleted: the record kinds, in this order. */
export const POLICY_USERS = ['monitors', 'heartbeats', 'integrations'] as const;
export type PolicyUser = (typeof POLICY_USERS)[number];

/**
 * Escalation policies. Adapters: store/sqlite/routing.ts, store/mongo/routing.ts (with the channel and
 * maintenance window ports); contract test/contract/routing.test.ts.
 */
export interface EscalationPolicyStore extends PolicyLookup {
  /** Newest first, paged. */
  listEscalationPolicies(workspaceId: string, query: PageQuery): Promise<Page<EscalationPolicy>>;
  /** When `policy.is_default`, the workspace's previous default stops being one, atomically. */
  insertEscalationPolicy(policy: EscalationPolicy): Promise<void>;
  /** Replaces the policy; false when it does not exist. Same default rule as insert. */
  updateEscalationPolicy(policy: EscalationPolicy): Promise<boolean>;
  /**
   * Refuses the default policy, and one that monitors, heartbeats or integrations still use (saying
   * which kinds), atomically with the check.
   */
  deleteEscalationPolicy(
    workspaceId: string,
    id: string,
  ): Promise<'deleted' | 'not_found' | 'is_default' | { in_use: PolicyUser[] }>;
}
