import type {
  EscalationPolicy,
  MaintenanceScope,
  MaintenanceWindow,
  NotificationChannel,
  Page,
  PageQuery,
} from '../types.js';

/** What can name an escalation policy, so that it cannot be deleted: the record kinds, in this order. */
export const POLICY_USERS = ['monitors', 'heartbeats', 'integrations'] as const;
export type PolicyUser = (typeof POLICY_USERS)[number];

/**
 * Routing configuration: escalation policies, notification channels, maintenance windows.
 * Adapters: store/sqlite/routing.ts, store/mongo/routing.ts.
 */
export interface RoutingStore {
  getEscalationPolicy(workspaceId: string, id: string): Promise<EscalationPolicy | null>;
  getDefaultEscalationPolicy(workspaceId: string): Promise<EscalationPolicy | null>;

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

  insertChannel(channel: NotificationChannel): Promise<void>;
  getChannel(workspaceId: string, id: string): Promise<NotificationChannel | null>;
  /** Newest first, paged. */
  listChannels(workspaceId: string, query: PageQuery): Promise<Page<NotificationChannel>>;
  /** Replaces the channel; false when it does not exist. */
  updateChannel(channel: NotificationChannel): Promise<boolean>;
  /** Refuses a channel that an escalation policy still notifies. */
  deleteChannel(workspaceId: string, id: string): Promise<'deleted' | 'not_found' | 'in_use'>;

  insertMaintenanceWindow(window: MaintenanceWindow): Promise<void>;
  getMaintenanceWindow(workspaceId: string, id: string): Promise<MaintenanceWindow | null>;
  /** Latest start first. */
  /** Latest start first, paged (the cursor is on `starts_at`). */
  listMaintenanceWindows(workspaceId: string, query: PageQuery): Promise<Page<MaintenanceWindow>>;
  /** Replaces name and times of the window (by workspace and id); false when there is none. */
  updateMaintenanceWindow(window: MaintenanceWindow): Promise<boolean>;
  deleteMaintenanceWindow(workspaceId: string, id: string): Promise<boolean>;
  /** A window covering `at` for the whole workspace or for this monitor/heartbeat, if any. */
  findActiveMaintenanceWindow(
    workspaceId: string,
    source: { type: MaintenanceScope | string; id: string },
    at: Date,
  ): Promise<MaintenanceWindow | null>;
}
