import type { MonitorQuery } from './monitor-store.js';
import type { Monitor, Page } from './types.js';

/**
 * What a monitor record says about its state, in this order of precedence:
 * - `paused`: the monitor is paused (its checks do not run);
 * - `maintenance`: an active maintenance window covers it (its own, or the workspace's);
 * - `up` / `down`: the monitor-level verdict of its checks (the '*' location state, see
 *   domain/check-results.ts);
 * - `pending`: no verdict yet (a new monitor, or one whose alert was just resolved by hand while it
 *   was down: the next check decides).
 */
export const MONITOR_STATUSES = ['up', 'down', 'paused', 'pending', 'maintenance'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

export interface MonitorStatusInfo {
  status: MonitorStatus;
  /** When the newest check result of the monitor, from any location, arrived; null before the first. */
  last_checked_at: Date | null;
}

export type MonitorWithStatus = Monitor & MonitorStatusInfo;

export interface MonitorStatusQuery extends MonitorQuery {
  /** Only monitors with one of these statuses. */
  status?: MonitorStatus[] | undefined;
}

/**
 * Monitor status, derived in the store from the paused flag, the active maintenance windows and the
 * monitor-level ('*') state, so that listing and filtering a page costs a bounded number of store
 * reads (one on SQLite, two on MongoDB), never one per monitor.
 * Adapters: store/sqlite/monitor-status.ts, store/mongo/monitor-status.ts; contract
 * test/contract/monitor-status.ts.
 */
export interface MonitorStatusStore {
  /** Like `listMonitors` (newest first, the same cursor), with each monitor's status at `at`, filtered on it. */
  listMonitorsWithStatus(
    workspaceId: string,
    query: MonitorStatusQuery,
    at: Date,
  ): Promise<Page<MonitorWithStatus>>;
  /** The status at `at` of these monitors of the workspace (others are left out), in one read. */
  getMonitorStatuses(workspaceId: string, ids: string[], at: Date): Promise<Map<string, MonitorStatusInfo>>;
}
