import type { MaintenanceCover, Monitor, MonitorLocationState, Page } from '../types.js';
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

/** The order of the list sorted by status (the default): what needs a look first. */
export const STATUS_ORDER = [
  'down',
  'pending',
  'maintenance',
  'paused',
  'up',
] as const satisfies readonly MonitorStatus[];

/** The list's orders (`sort`). */
export const MONITOR_SORTS = ['status', 'name', 'last_change', 'response_time'] as const;
export type MonitorSort = (typeof MONITOR_SORTS)[number];

/**
 * The folded name the list sorts by, as every adapter stores it beside the name: the same folding as
 * the search (`q`), so names sort as people read them whatever their case.
 */
export const nameKey = (name: string) => name.toLowerCase();

/** What the monitor record keeps of its '*' row (`STATUS_OF_VERDICT`'s values but maintenance and paused). */
export type MonitorVerdict = 'up' | 'down' | 'pending';

/** The fields the status is derived from, as every adapter stores them on the monitor record. */
export interface StatusInputs {
  paused: boolean;
  /** The monitor-level ('*') row's status as STATUS_OF_VERDICT reads it; `pending` without a row. */
  verdict: MonitorVerdict;
}

/**
 * The one derivation of a monitor's status (the list, its counts and a single monitor all follow it;
 * the adapters' queries select the same buckets): paused, then maintenance (`covered`: whether the
 * workspace's maintenance cover takes it in, `isCovered` in domain/maintenance/cover.ts), then the verdict.
 */
export const statusOf = (m: StatusInputs, covered: boolean): MonitorStatus =>
  m.paused ? 'paused' : covered ? 'maintenance' : m.verdict;

/** How many monitors have each status, and all of them (`GET /monitors/counts`). */
export type MonitorCounts = Record<MonitorStatus | 'total', number>;

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
} as const satisfies Record<MonitorLocationState['status'], MonitorVerdict>;

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

/** The list's filters (the list and its counts take the same). */
export interface MonitorFilter {
  monitor_type?: Monitor['monitor_type'] | undefined;
  paused?: boolean | undefined;
  /** Case-insensitive substring of display_name or url. */
  search?: string | undefined;
  /** Only monitors with one of these statuses. */
  status?: MonitorStatus[] | undefined;
  /** Only monitors carrying this tag (`key` or `key:value`). */
  tag?: string | undefined;
  /** Only monitors of this group; `none`: those in no group. */
  group_id?: string | undefined;
  /** Only monitors checked from this region. */
  region?: string | undefined;
}

export interface MonitorStatusQuery extends MonitorQuery, MonitorFilter {
  /**
   * The order (default `status`); the cursor is bound to it. `created` (newest first) is internal: the
   * dashboard benchmark's baseline and tests; the API offers MONITOR_SORTS.
   */
  sort?: MonitorSort | 'created' | undefined;
  /**
   * False: leave the checks summary blank (NO_CHECKS) and skip its reads. Internal (the dashboard
   * benchmark compares the list with and without it); the API always asks for it.
   */
  checks?: boolean | undefined;
}

/**
 * Monitor status, derived in the store from the paused flag, the maintenance cover (domain/maintenance/cover.ts,
 * read once by the caller) and the monitor-level verdict kept on the monitor record, with the checks summary (uptime from the hourly rollups, the newest
 * successful response time, the recent checks), so that listing and filtering a page costs a bounded
 * number of store reads (four on SQLite, two on MongoDB), never one per monitor.
 * Adapters: store/sqlite/monitor-status.ts, store/mongo/monitor-status.ts; contract
 * test/contract/monitor-status.ts.
 */
export interface MonitorStatusStore {
  /**
   * A page of the workspace's monitors in `query.sort`'s order, with each one's status under `cover`
   * (`statusOf`) and its checks summary at `at`. Keyset cursors, bound to the sort (another sort's
   * cursor, or one this API did not make, is a 422). Orders: `status` (STATUS_ORDER, then name), `name`
   * (folded, then id), `last_change` (newest change of verdict or pause first), `response_time` (the
   * newest successful check's, slowest first, none last).
   */
  listMonitorsWithStatus(
    workspaceId: string,
    query: MonitorStatusQuery,
    at: Date,
    cover: MaintenanceCover,
  ): Promise<Page<MonitorWithStatus>>;
  /** How many of the workspace's monitors matching `filter` have each status under `cover`. */
  countMonitorsByStatus(
    workspaceId: string,
    filter: MonitorFilter,
    cover: MaintenanceCover,
  ): Promise<MonitorCounts>;
  /** The status under `cover` and checks summary at `at` of these monitors of the workspace (others are left out). */
  getMonitorStatuses(
    workspaceId: string,
    ids: string[],
    at: Date,
    cover: MaintenanceCover,
  ): Promise<Map<string, MonitorStatusInfo>>;
}
