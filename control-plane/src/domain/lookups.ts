import type { EscalationPolicy, MaintenanceScope, MaintenanceWindow } from './types.js';

/**
 * The read ports that several folders share, for records kept by folders above them: a monitor,
 * heartbeat or integration checks the escalation policy it names, and a new alert starts under its
 * policy unless a maintenance window covers its source. The full ports extend these
 * (`escalation/escalation-policy-store.ts`, `maintenance/maintenance-store.ts`).
 */

/** The escalation policy a record names, or the workspace's default. */
export interface PolicyLookup {
  getEscalationPolicy(workspaceId: string, id: string): Promise<EscalationPolicy | null>;
  getDefaultEscalationPolicy(workspaceId: string): Promise<EscalationPolicy | null>;
}

/** The maintenance window covering a source now. */
export interface MaintenanceLookup {
  /**
   * A window active at `at` (one-off or an occurrence of a recurring one) whose scope takes in the
   * source: the whole workspace, this monitor/heartbeat, its group or one of its tags (both stores
   * answer through `windowOver` in maintenance/cover.ts).
   */
  findActiveMaintenanceWindow(
    workspaceId: string,
    source: {
      type: MaintenanceScope | string;
      id: string;
      group_id?: string | null | undefined;
      tags?: readonly string[] | undefined;
    },
    at: Date,
  ): Promise<MaintenanceWindow | null>;
}
