import type { AlertSourceType, AlertStatus } from '../types.js';

/**
 * The streamed export's reads (GET /export/results, /export/alerts): keyset pages in a fixed order, each
 * one bounded read of the store, so an export of any size holds one page in memory and no read
 * transaction lasts longer than a page. A page may hold fewer rows than asked for, even none, while
 * `next` is not null: filters the index cannot serve (location, ok, status, source) are applied to the
 * rows a page read, so a page's work is bounded by `limit` whatever share of the rows match.
 */

/** Where a position in a time-ordered list is: its time (ms) and, between equal times, its id. */
export interface ExportPosition {
  t: number;
  id: string;
}

export interface ExportPage<T, C> {
  data: T[];
  /** Where the next page starts; null: nothing left. */
  next: C | null;
}

/** (time, id) order, ids as code units: the order both adapters read in. */
export const positionAfter = (a: ExportPosition, b: ExportPosition) =>
  a.t > b.t || (a.t === b.t && a.id > b.id);

/** Alerts created in [from, to), oldest first, with the filters of GET /alerts. */
export interface AlertExportFilter {
  from: Date;
  to: Date;
  status?: AlertStatus[] | undefined;
  source_type?: AlertSourceType | undefined;
  source_id?: string | undefined;
}

/** Whether an alert passes the filters the index does not serve. */
export const matchesAlert = (
  f: AlertExportFilter,
  a: { status: AlertStatus; source_type: AlertSourceType; source_id: string },
) =>
  (f.status === undefined || f.status.length === 0 || f.status.includes(a.status)) &&
  (f.source_type === undefined || a.source_type === f.source_type) &&
  (f.source_id === undefined || a.source_id === f.source_id);
