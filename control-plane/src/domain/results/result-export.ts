import type { ExportPosition } from '../alerts/alert-export.js';

/** Results in [from, to) of scheduled time, of the workspace's monitors or of the ones named (domain/alerts/alert-export.ts says how an export reads). */
export interface ResultExportFilter {
  /** Only these monitors (already checked to be the workspace's); none: every monitor of the workspace. */
  monitor_ids?: string[] | undefined;
  from: Date;
  to: Date;
  location?: string | undefined;
  ok?: boolean | undefined;
}

/**
 * Results are read monitor by monitor in monitor id order, then by scheduled time, then by id: the
 * page after `at` within `monitor_id`; `at` null once that monitor is done (the next page starts at
 * the next monitor).
 */
export interface ResultExportCursor {
  monitor_id: string;
  at: ExportPosition | null;
}

/** Monitors a results page goes past at most (those with no result in the window cost a read each). */
export const EXPORT_MONITORS_PER_PAGE = 200;

/** Whether a result passes the filters the index does not serve. */
export const matchesResult = (f: ResultExportFilter, r: { location: string; ok: boolean }) =>
  (f.location === undefined || r.location === f.location) && (f.ok === undefined || r.ok === f.ok);
