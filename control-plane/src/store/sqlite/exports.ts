import { type ExportPosition, matchesAlert, positionAfter } from '../../domain/alerts/alert-export.js';
import type { AlertStore } from '../../domain/alerts/alert-store.js';
import {
  EXPORT_MONITORS_PER_PAGE,
  matchesResult,
  type ResultExportCursor,
} from '../../domain/results/result-export.js';
import type { ResultStore } from '../../domain/results/result-store.js';
import type { Alert, CheckResultRecord } from '../../domain/types.js';
import type { SqliteContext } from './db.js';
import { WAITING_CTE, waitingAfter } from './rollups.js';
import type { SqliteStateBook } from './state-book.js';
import { alerts, results } from './tables.js';

const COLUMNS = Object.keys(results.columns);
/** After (@t, @id) when @t is set, ascending (an index range, then a short filter at its first instant). */
const AFTER = '(@t IS NULL OR scheduled_at > @t OR (scheduled_at = @t AND id > @id))';
const RANGE = `workspace_id = @ws AND scheduled_at >= @lo AND scheduled_at < @to AND ${AFTER}`;
const ORDER = 'ORDER BY scheduled_at, id LIMIT @n';
/** A monitor's folded results: one range of check_results_monitor_time (monitor_id, scheduled_at DESC, id). */
const FOLDED = `SELECT * FROM check_results WHERE monitor_id = @m AND ${RANGE} ${ORDER}`;
/** Its results still waiting in the recent table (found by row id, as listResults does). */
const WAITING = `WITH ${WAITING_CTE} SELECT ${COLUMNS.map((c) => `r.${c}`).join(', ')} FROM check_results_recent r
  WHERE r.rid IN (SELECT value FROM json_each(@rids)) AND ${waitingAfter('r')} AND r.workspace_id = @ws
    AND r.scheduled_at >= @lo AND r.scheduled_at < @to
    AND (@t IS NULL OR r.scheduled_at > @t OR (r.scheduled_at = @t AND r.id > @id))
  ORDER BY r.scheduled_at, r.id LIMIT @n`;
/** The workspace's monitors in id order (the name-order index covers (workspace_id, …, id)). */
const MONITORS = `SELECT id FROM monitors WHERE workspace_id = @ws AND (id > @after OR (@from_it AND id = @after))
  ORDER BY id LIMIT @n`;
const ALERTS = `SELECT * FROM alerts WHERE workspace_id = @ws AND created_at >= @lo AND created_at < @to
  AND (@t IS NULL OR created_at > @t OR (created_at = @t AND id > @id)) ORDER BY created_at, id LIMIT @n`;

const pos = (r: CheckResultRecord): ExportPosition => ({ t: r.scheduled_at.getTime(), id: r.id });

/**
 * The export's pages (domain/alerts/alert-export.ts) on SQLite. Each page is one read transaction of a
 * few bounded statements; nothing is held between pages.
 *
 * A monitor's results are in two places (results.ts): folded into check_results, and still waiting in
 * check_results_recent. A page reads up to `limit` of each after the cursor in one snapshot and returns
 * the merge up to the first place either source may have more (its last row read when it returned
 * `limit`), so every result is returned once, whether the flush folded it before, between or after the
 * pages: a result is in exactly one of the two sources in any one snapshot, and the cursor is a
 * position, not a row.
 */
export const sqliteResultExport = (
  { st, many, read }: SqliteContext,
  book: SqliteStateBook,
): Pick<ResultStore, 'exportResultsPage'> => {
  /** The monitors from `after` on: the named ones, or the workspace's. */
  const monitorsFrom = (ws: string, named: string[] | undefined, after: ResultExportCursor | null) => {
    const first = after?.monitor_id ?? '';
    const inclusive = after === null || after.at !== null;
    if (named)
      return [...new Set(named)]
        .sort()
        .filter((m) => m > first || (inclusive && m === first))
        .slice(0, EXPORT_MONITORS_PER_PAGE);
    return (
      st(MONITORS).all({ ws, after: first, from_it: inclusive ? 1 : 0, n: EXPORT_MONITORS_PER_PAGE }) as {
        id: string;
      }[]
    ).map((r) => r.id);
  };
  return {
    async exportResultsPage(ws, f, after, limit) {
      return read(() => {
        const out: CheckResultRecord[] = [];
        const ids = monitorsFrom(ws, f.monitor_ids, after);
        for (const m of ids) {
          const at = after !== null && after.monitor_id === m ? after.at : null;
          const params = {
            m,
            ws,
            lo: Math.max(f.from.getTime(), at?.t ?? -Infinity),
            to: f.to.getTime(),
            t: at?.t ?? null,
            id: at?.id ?? null,
            n: limit,
            rids: book.recentRowIds([m]),
          };
          const folded = many<CheckResultRecord>(results, FOLDED, params);
          const waiting = many<CheckResultRecord>(results, WAITING, params);
          // The first place a source may have more than it returned: nothing after it is certain.
          let stop: ExportPosition | null = null;
          for (const src of [folded, waiting]) {
            if (src.length < limit) continue;
            const p = pos(src[src.length - 1]!);
            if (stop === null || positionAfter(stop, p)) stop = p;
          }
          const merged = [...folded, ...waiting]
            .filter((r) => stop === null || !positionAfter(pos(r), stop))
            .sort((a, b) => (positionAfter(pos(a), pos(b)) ? 1 : -1));
          for (const r of merged) if (matchesResult(f, r)) out.push(r);
          if (stop !== null) return { data: out, next: { monitor_id: m, at: stop } };
          // A page's worth read, or the last monitor this page may go past: the next starts after it.
          const lastOfFull = m === ids[ids.length - 1] && ids.length === EXPORT_MONITORS_PER_PAGE;
          if (out.length >= limit || lastOfFull) return { data: out, next: { monitor_id: m, at: null } };
        }
        return { data: out, next: null };
      });
    },
  };
};

/** Alerts oldest first: the workspace's created_at index (alerts_ws) read backwards. */
export const sqliteAlertExport = ({ many }: SqliteContext): Pick<AlertStore, 'exportAlertsPage'> => ({
  async exportAlertsPage(ws, f, after, limit) {
    const rows = many<Alert>(alerts, ALERTS, {
      ws,
      lo: f.from.getTime(),
      to: f.to.getTime(),
      t: after?.t ?? null,
      id: after?.id ?? null,
      n: limit,
    });
    const tail = rows[rows.length - 1];
    return {
      data: rows.filter((a) => matchesAlert(f, a)),
      next: rows.length < limit || !tail ? null : { t: tail.created_at.getTime(), id: tail.id },
    };
  },
});
