import type { CatalogMonitor, CheckResultRecord } from '../types.js';

/**
 * Whether a monitor was in maintenance at a time, as its workspace's windows stood when asked; null:
 * no window of the workspace can cover anything (then nothing is asked per result).
 */
export type MonitorCovered =
  | ((monitor: Pick<CatalogMonitor, 'id' | 'group_id' | 'tags'>, at: Date) => boolean)
  | null;
/** The maintenance test of a workspace's results at `now` (domain/maintenance/result-cover.ts). */
export type CoverOfWorkspace = (workspaceId: string, now: Date) => MonitorCovered | Promise<MonitorCovered>;

/**
 * Marks the results covered by maintenance at their scheduled time (`in_maintenance`), asking `cover`
 * once per workspace of the batch (all at once).
 */
export const markMaintenance = async (
  cover: CoverOfWorkspace,
  records: CheckResultRecord[],
  monitors: Map<string, CatalogMonitor>,
  now: Date,
) => {
  const of = new Map<string, MonitorCovered>();
  const waiting: Promise<void>[] = [];
  for (const r of records) {
    if (of.has(r.workspace_id)) continue;
    const c = cover(r.workspace_id, now);
    if (c instanceof Promise) {
      of.set(r.workspace_id, null);
      const ws = r.workspace_id;
      waiting.push(
        c.then((v) => {
          of.set(ws, v);
        }),
      );
    } else of.set(r.workspace_id, c);
  }
  if (waiting.length > 0) await Promise.all(waiting);
  for (const r of records) {
    const covered = of.get(r.workspace_id);
    if (covered?.(monitors.get(r.monitor_id)!, r.scheduled_at)) r.in_maintenance = true;
  }
};
