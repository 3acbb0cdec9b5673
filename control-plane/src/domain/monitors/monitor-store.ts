import type { Monitor, MonitorChange, MonitorLocationState, MonitorType, Page, PageQuery } from '../types.js';

export interface MonitorQuery extends PageQuery {
  monitor_type?: MonitorType | undefined;
  paused?: boolean | undefined;
  /** Case-insensitive substring of display_name or url. */
  search?: string | undefined;
  /** Only monitors carrying this tag (the whole `key` or `key:value`, exactly). */
  tag?: string | undefined;
  /** Only monitors of this group; `none`: only monitors in no group. */
  group_id?: string | undefined;
}

/**
 * Monitors, the monitor feed every replica follows, and the per-location states.
 * Adapters: store/sqlite/monitors.ts, store/mongo/monitors.ts.
 */
export interface MonitorStore {
  /** Inserts unless the workspace already has `maxMonitors` monitors. */
  insertMonitor(monitor: Monitor, limit: { maxMonitors: number }): Promise<'inserted' | 'limit_reached'>;
  /**
   * Inserts all of `monitors` (one workspace) or none, atomically: one transaction that moves the
   * plan counter by their number (refused as a whole, 'limit_reached', when they do not all fit
   * under `maxMonitors`), inserts them and appends one feed entry each. A failure of any insert
   * rolls every one of them back.
   */
  insertMonitors(monitors: Monitor[], limit: { maxMonitors: number }): Promise<'inserted' | 'limit_reached'>;
  getMonitor(workspaceId: string, id: string): Promise<Monitor | null>;
  /** How many monitors the workspace has (the plan cap's counter; 0 for an unknown workspace). */
  countMonitors(workspaceId: string): Promise<number>;
  listMonitors(workspaceId: string, query: MonitorQuery): Promise<Page<Monitor>>;
  /** Compare-and-set on `version`: stores `next` only if the stored version is `expectedVersion`. */
  updateMonitor(next: Monitor, expectedVersion: number): Promise<'updated' | 'conflict' | 'not_found'>;
  deleteMonitor(workspaceId: string, id: string): Promise<boolean>;
  /**
   * Bulk actions' one store step (domain/monitors/monitor-bulk.ts): writes `fields` of every `next`
   * (one workspace), with its `version` and `updated_at`, or none, in one transaction, each only if
   * its stored version is `expectedVersion`, with one feed entry each. Any miss (changed or deleted
   * meanwhile) rolls all back: 'conflict'. Only the fields named are written (a bulk action changes a
   * few; rewriting whole records made the step several times longer).
   */
  updateMonitors(
    changes: { next: Monitor; expectedVersion: number }[],
    fields: readonly (keyof Monitor)[],
  ): Promise<'updated' | 'conflict'>;
  /**
   * Deletes every one of `monitors` (one workspace, each at its `version`) or none, in one
   * transaction that moves the plan counter by their number and appends one feed entry each. Any
   * miss (changed or deleted meanwhile) rolls all back: 'conflict'.
   */
  deleteMonitors(
    workspaceId: string,
    monitors: { id: string; version: number }[],
  ): Promise<'deleted' | 'conflict'>;

  /** Every monitor that runs in `region`: not paused, `region` in check_locations. Across workspaces. */
  listRegionMonitors(region: string): Promise<Monitor[]>;
  /** Monitors by id across workspaces (the agent service resolves results to monitors). */
  getMonitorsByIds(ids: string[]): Promise<Monitor[]>;
  /** All monitors of all workspaces in id order, `limit` after `afterId` (loading the monitor catalog). */
  scanMonitors(afterId: string | null, limit: number): Promise<Monitor[]>;

  /** Entries with seq > `afterSeq`, oldest first, at most `limit`. */
  listMonitorChanges(afterSeq: number, limit: number): Promise<MonitorChange[]>;
  /** The newest seq (0 while the feed is empty). */
  latestMonitorChange(): Promise<number>;
  /** Appends 'run' entries: each asks the agent running the monitor in `location` to check it now. */
  requestRuns(runs: Omit<MonitorChange, 'seq' | 'kind'>[]): Promise<void>;
  /** Deletes up to `limit` entries older than `before`; the newest entry is always kept. */
  pruneMonitorChanges(before: Date, limit: number): Promise<number>;

  /**
   * Compare-and-set of monitor-level ('*') states, all in one transaction (one fsync on SQLite, however
   * many): each `next` is written only if its stored version is `expectedVersion` (0: no row yet).
   * Answers, in order, which were written. The states of real locations are moved by recordResults
   * only (ResultStore); a write of one here is refused.
   */
  putMonitorStates(writes: { next: MonitorLocationState; expectedVersion: number }[]): Promise<boolean[]>;
}

/** putMonitorStates' rule: monitor-level ('*') rows only (a programming error otherwise). */
export const assertMonitorLevel = (writes: { next: MonitorLocationState }[]) => {
  const bad = writes.find((w) => w.next.location !== '*');
  if (bad)
    throw new Error(`putMonitorStates writes monitor-level rows only, not location ${bad.next.location}`);
};
