import { matchesAlert } from '../../domain/alerts/alert-export.js';
import type { AlertStore } from '../../domain/alerts/alert-store.js';
import {
  EXPORT_MONITORS_PER_PAGE,
  matchesResult,
  type ResultExportCursor,
} from '../../domain/results/result-export.js';
import type { ResultStore } from '../../domain/results/result-store.js';
import type { Alert, CheckResultRecord } from '../../domain/types.js';
import { fromDocs, type MongoContext } from './db.js';

/** After position (t, id) in (field, _id) order, ascending. */
const after = (field: string, at: { t: number; id: string } | null) =>
  at === null
    ? {}
    : { $or: [{ [field]: { $gt: new Date(at.t) } }, { [field]: new Date(at.t), _id: { $gt: at.id } }] };

/**
 * The export's pages (domain/alerts/alert-export.ts) on MongoDB: one bounded find per monitor, in the
 * order of an index read backwards (results: monitor_id, scheduled_at -1, _id -1; alerts: workspace_id,
 * created_at -1, _id -1), the filters the index does not serve applied to the documents read.
 */
export const mongoResultExport = ({ col }: MongoContext): Pick<ResultStore, 'exportResultsPage'> => {
  const monitorsFrom = async (ws: string, named: string[] | undefined, from: ResultExportCursor | null) => {
    const first = from?.monitor_id ?? '';
    const inclusive = from === null || from.at !== null;
    if (named)
      return [...new Set(named)]
        .sort()
        .filter((m) => m > first || (inclusive && m === first))
        .slice(0, EXPORT_MONITORS_PER_PAGE);
    const docs = await col.monitors
      .find(
        { workspace_id: ws, _id: inclusive ? { $gte: first } : { $gt: first } },
        {
          projection: { _id: 1 },
          sort: { _id: 1 },
          limit: EXPORT_MONITORS_PER_PAGE,
          // The workspace's monitors (a bounded set), never the whole collection's _id index.
          hint: { workspace_id: 1, name_key: 1, _id: 1 },
        },
      )
      .toArray();
    return docs.map((d) => d._id as string);
  };
  return {
    async exportResultsPage(ws, f, from, limit) {
      const out: CheckResultRecord[] = [];
      const ids = await monitorsFrom(ws, f.monitor_ids, from);
      for (const m of ids) {
        const at = from !== null && from.monitor_id === m ? from.at : null;
        const rows = fromDocs<CheckResultRecord>(
          await col.results
            .find(
              {
                monitor_id: m,
                workspace_id: ws,
                scheduled_at: { $gte: new Date(Math.max(f.from.getTime(), at?.t ?? -Infinity)), $lt: f.to },
                ...after('scheduled_at', at),
              },
              { sort: { scheduled_at: 1, _id: 1 }, limit },
            )
            .toArray(),
        );
        for (const r of rows) if (matchesResult(f, r)) out.push(r);
        const tail = rows[rows.length - 1];
        if (rows.length === limit && tail)
          return { data: out, next: { monitor_id: m, at: { t: tail.scheduled_at.getTime(), id: tail.id } } };
        const lastOfFull = m === ids[ids.length - 1] && ids.length === EXPORT_MONITORS_PER_PAGE;
        if (out.length >= limit || lastOfFull) return { data: out, next: { monitor_id: m, at: null } };
      }
      return { data: out, next: null };
    },
  };
};

export const mongoAlertExport = ({ col }: MongoContext): Pick<AlertStore, 'exportAlertsPage'> => ({
  async exportAlertsPage(ws, f, from, limit) {
    const rows = fromDocs<Alert>(
      await col.alerts
        .find(
          { workspace_id: ws, created_at: { $gte: f.from, $lt: f.to }, ...after('created_at', from) },
          { sort: { created_at: 1, _id: 1 }, limit },
        )
        .toArray(),
    );
    const tail = rows[rows.length - 1];
    return {
      data: rows.filter((a) => matchesAlert(f, a)),
      next: rows.length < limit || !tail ? null : { t: tail.created_at.getTime(), id: tail.id },
    };
  },
});
