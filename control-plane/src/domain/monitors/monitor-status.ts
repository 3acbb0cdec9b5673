import type { Monitor, MonitorLocationState, Page } from '../types.js';
import type { MonitorQuery } from './monitor-store.js';

/**
 * What a monitor record says about its state, in this order of precedence:
 * - `paused`: the monitor is paused (its checks do not run);
 * - `maintenance`: an active maintenance window covers it (its own, or the workspace's);
 * - `up` / `down`: the monitor-level verdict of its checks (the '*' location state, see
 *   `STATUS_OF_VERDICT`);
 * - `pending`: no verdict yet (a new monitor, one whose checks have not decided — failing below the
 *   threshold or short of the quorum, never successful — or one whose alert was just resolved by hand
 *   while it was down: the next check decides).
 */
export const MONITOR_STATUSES = ['up', 'down', 'paused', 'pending', 'maintenance'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

/**
 * The status each monitor-level ('*') row stands for; no row is `pending` too. The row holds the
 * verdict of the monitor's checks as `monitorRowStatus` (domain/results/evaluation.ts) moves it: `up` only
 * after a successful check, `down` once the threshold and quorum say so, `unknown` until then. Both
 * adapters build their status expression from this table.
 */
export const STATUS_OF_VERDICT = {
  up: 'up',
  down: 'down',
  unknown: 'pending',
} as const satisfies Record<MonitorLocationState['status'], MonitorStatus>;

/** One check as the list's bar of recent checks shows it. */
export interface RecentCheck {
  /** When the check was scheduled. */
  at: Date;
  ok: boolean;
  location: string;
  /** Null when no response arrived (a failed check without a status code). */
  response_time_ms: number | null;
}

/**
 * What the dashboard shows of a monitor's checks, from the hourly rollups (domain/results/uptime.ts) and one
 * bounded read of the newest results: never one read per monitor, never a scan of results.
 */
export interface MonitorChecksSummary {
  /** Percent of successful checks (4 decimals) in the 24 hourly buckets up to `at`; null: no checks. */
  uptime_24h: number | null;
  /** The same over 30 days (720 buckets). */
  uptime_30d: number | null;
  /** The newest successful check's response time within the rollups' retention, or null. */
  last_response_time_ms: number | null;
  /** Up to RECENT_CHECKS newest checks across locations, oldest first. */
  recent_checks: RecentCheck[];
}

export const RECENT_CHECKS = 30;

/** No checks known (a new monitor, or a list read with `checks: false`). */
export const NO_CHECKS: MonitorChecksSummary = {
  uptime_24h: null,
  uptime_30d: null,
  last_response_time_ms: null,
  recent_checks: [],
};

export interface MonitorStatusInfo extends MonitorChecksSummary {
  status: MonitorStatus;
  /** When the newest check result of the monitor, from any location, arrived; null before the first. */
  last_checked_at: Date | null;
}

export type MonitorWithStatus = Monitor & MonitorStatusInfo;

export interface MonitorStatusQuery extends MonitorQuery {
  /** Only monitors with one of these statuses. */
  status?: MonitorStatus[] | undefined;
  /**
   * False: leave the checks summary blank (NO_CHECKS) and skip its reads. Internal (the dashboard
   * benchmark compares the list with and without it); the API always asks for it.
   */
  checks?: boolean | undefined;
}

/**
 * Monitor status, derived in the store from the paused flag, the active maintenance windows and the
 * monitor-level ('*') state, with the checks summary (uptime from the hourly rollups, the newest
 * successful response time, the recent checks), so that listing and filtering a page costs a bounded
 * number of store reads (four on SQLite, two on MongoDB), never one per monitor.
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
  /** The status and checks summary at `at` of these monitors of the workspace (others are left out). */
  getMonitorStatuses(workspaceId: string, ids: string[], at: Date): Promise<Map<string, MonitorStatusInfo>>;
}
