import type { CoverOfWorkspace } from '../results/result-maintenance.js';
import type { MaintenanceWindow } from '../types.js';
import { MAX_WINDOWS, windowOver } from './cover.js';
import type { MaintenanceWindowStore } from './maintenance-store.js';

/**
 * Whether a result came in under maintenance (ingestion's `in_maintenance`, domain/results/check-results.ts):
 * the windows of its workspace as this process last read them, asked at the result's `scheduled_at`
 * (`windowOver`, maintenance/cover.ts: every scope and recurring windows as everywhere else).
 *
 * A workspace's windows are read at most once per `ttlMs` (default 5 s) of the ingestion's clock,
 * concurrent asks sharing the read; a window made or changed shows within that time on every
 * replica. A workspace without windows answers null from the cache: its results cost one map
 * lookup, nothing per result. The read takes the windows that had not ended `lateMs` (default 1 h)
 * before now, so a result that arrives late is still judged by a window that ended meanwhile. The
 * map keeps at most `maxWorkspaces` workspaces (default 50,000), the longest unread going first.
 */
export interface ResultCoverOptions {
  ttlMs?: number;
  lateMs?: number;
  maxWorkspaces?: number;
}

interface Entry {
  readAt: number;
  windows: MaintenanceWindow[] | null;
  pending: Promise<void> | null;
}

export const createResultCover = (
  store: Pick<MaintenanceWindowStore, 'listLiveMaintenanceWindows'>,
  opts: ResultCoverOptions = {},
): CoverOfWorkspace => {
  const ttlMs = opts.ttlMs ?? 5_000;
  const lateMs = opts.lateMs ?? 3_600_000;
  const maxWorkspaces = opts.maxWorkspaces ?? 50_000;
  const cache = new Map<string, Entry>();

  /** The answer of an entry read: null (no window), else the test per monitor and time. */
  const answer = (e: Entry) => {
    const windows = e.windows;
    if (!windows || windows.length === 0) return null;
    // The scope first (a few string compares), the time only for a window whose scope takes it in:
    // `windowOver`, as MaintenanceLookup answers (no cover built per result).
    return (monitor: { id: string; group_id: string | null; tags: readonly string[] }, at: Date) =>
      windowOver(
        windows,
        { type: 'monitor', id: monitor.id, group_id: monitor.group_id, tags: monitor.tags },
        at,
      ) !== null;
  };

  const read = (workspaceId: string, e: Entry, now: Date) => {
    e.pending ??= store
      .listLiveMaintenanceWindows(workspaceId, new Date(now.getTime() - lateMs), MAX_WINDOWS * 2)
      .then((windows) => {
        e.windows = windows.length === 0 ? null : windows;
        e.readAt = now.getTime();
      })
      .finally(() => {
        e.pending = null;
      });
    return e.pending;
  };

  return (workspaceId, now) => {
    let e = cache.get(workspaceId);
    const t = now.getTime();
    if (e && e.pending === null && t - e.readAt < ttlMs && t >= e.readAt) return answer(e);
    if (!e) {
      if (cache.size >= maxWorkspaces) cache.delete(cache.keys().next().value as string);
      e = { readAt: Number.NEGATIVE_INFINITY, windows: null, pending: null };
      cache.set(workspaceId, e);
    } else {
      // Read again: it moves to the end of the map (the longest unread go first).
      cache.delete(workspaceId);
      cache.set(workspaceId, e);
    }
    const entry = e;
    return read(workspaceId, entry, now).then(() => answer(entry));
  };
};
