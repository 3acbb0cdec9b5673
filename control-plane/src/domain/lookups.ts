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
  /** A window covering `at` for the whole workspace or for this monitor/heartbeat, if any. */
  findActiveMaintenanceWindow(
    workspaceId: string,
    source: { type: MaintenanceScope | string; id: string },
    at: Date,
  ): Promise<MaintenanceWindow | null>;
  /**
   * The workspace's windows that may cover `at` (one-off windows active at `at`; at most
   * MAX_COVERING_WINDOWS), for `coverAt` (domain/maintenance/cover.ts).
   */
  listCoveringWindows(workspaceId: string, at: Date): Promise<MaintenanceWindow[]>;
}

/** A bound on the windows read for one cover (a workspace has a handful active at once). */
export const MAX_COVERING_WINDOWS = 1000;
