import { AppError } from '@lookout/shared';
import { z } from 'zod';
import type { ExportPosition } from '../../domain/alerts/alert-export.js';
import type { AlertStore } from '../../domain/alerts/alert-store.js';
import type { MonitorStore } from '../../domain/monitors/monitor-store.js';
import type { ResultExportCursor } from '../../domain/results/result-export.js';
import type { ResultStore } from '../../domain/results/result-store.js';
import { alertJson, alertResponse } from '../alerts/responses.js';
import { csvHeader, csvLine } from '../csv.js';
import { boolParam, isoTime } from '../query.js';
import { resultJson, resultResponse } from '../results/responses.js';
import { type ApiContext, type RouteDeps, route } from '../route.js';
import { pagedBody } from './body.js';

/** The widest window one export may ask for (results are kept far less: config result_retention_days). */
export const MAX_EXPORT_WINDOW_DAYS = 366;
/** Monitors one results export may name. */
export const MAX_EXPORT_MONITORS = 100;
/** Rows read from the store per page: a page's read and rendering take a few ms. */
export const EXPORT_PAGE_ROWS = 500;

const DAY_MS = 86_400_000;
const FORMATS = ['ndjson', 'csv'] as const;
const TYPES = { ndjson: 'application/x-ndjson', csv: 'text/csv; charset=utf-8' } as const;
const STATUSES = ['open', 'acknowledged', 'resolved'] as const;

/** A parameter that may be given once or repeated, as a list. */
const repeated = <T extends z.ZodType>(item: T, max: number) =>
  z.preprocess((v) => (Array.isArray(v) ? v : [v]), z.array(item).min(1).max(max));

const window = {
  from: isoTime.describe('From this time on (RFC 3339 with a zone), included.'),
  to: isoTime.describe('Before this time (RFC 3339 with a zone), after `from`.'),
  format: z.enum(FORMATS).default('ndjson').describe('`ndjson` (default): one JSON object a line; `csv`.'),
};

/** to after from, at most MAX_EXPORT_WINDOW_DAYS later (zod runs this even when a field failed: only Dates compared). */
const windowRule = (q: { from?: unknown; to?: unknown }, ctx: z.RefinementCtx) => {
  if (!(q.from instanceof Date) || !(q.to instanceof Date)) return;
  if (q.to.getTime() <= q.from.getTime())
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
  else if (q.to.getTime() - q.from.getTime() > MAX_EXPORT_WINDOW_DAYS * DAY_MS)
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      message: `must be at most ${MAX_EXPORT_WINDOW_DAYS} days after from`,
    });
};

const resultsQuery = z
  .strictObject({
    ...window,
    monitor_id: repeated(z.string().min(1).max(100), MAX_EXPORT_MONITORS)
      .optional()
      .describe(
        `Only this monitor; repeat for several (at most ${MAX_EXPORT_MONITORS}). Default: every monitor.`,
      ),
    location: z.string().min(1).max(64).optional(),
    ok: boolParam.optional().describe('`true`: successful checks only; `false`: failed ones only.'),
  })
  .superRefine(windowRule);

const alertsQuery = z
  .strictObject({
    ...window,
    status: z
      .preprocess(
        (v) => (Array.isArray(v) ? v.join(',') : v),
        z
          .string()
          .max(100)
          .transform((s, ctx) => {
            const values = s.split(',').map((x) => x.trim());
            if (values.some((x) => !(STATUSES as readonly string[]).includes(x))) {
              ctx.addIssue({
                code: 'custom',
                message: `must be one or more of ${STATUSES.join(', ')} (comma-separated)`,
              });
              return z.NEVER;
            }
            return [...new Set(values)] as (typeof STATUSES)[number][];
          }),
      )
      .optional()
      .describe('One or more of open, acknowledged, resolved (comma-separated).'),
    source_type: z.enum(['monitor', 'heartbeat', 'integration', 'region']).optional(),
    source_id: z.string().min(1).max(200).optional(),
  })
  .superRefine(windowRule);

const RESULT_COLUMNS = Object.keys(resultResponse.shape);
const ALERT_COLUMNS = Object.keys(alertResponse.shape);

/** `acme-results-20261201-20261208.csv`: the workspace, what, and the window's days. */
const fileName = (subdomain: string, what: string, from: Date, to: Date, format: string) => {
  const day = (d: Date) => d.toISOString().slice(0, 10).replaceAll('-', '');
  return `${subdomain}-${what}-${day(from)}-${day(to)}.${format}`;
};

const render = <R>(format: 'ndjson' | 'csv', columns: readonly string[], json: (r: R) => object) =>
  format === 'csv'
    ? (rows: R[]) => rows.map((r) => csvLine(columns, json(r) as Record<string, unknown>)).join('')
    : (rows: R[]) => rows.map((r) => `${JSON.stringify(json(r))}\n`).join('');

const startDownload = (ctx: ApiContext, format: 'ndjson' | 'csv', name: string) => {
  ctx.type = TYPES[format];
  ctx.set('Content-Disposition', `attachment; filename="${name}"`);
  ctx.set('Cache-Control', 'no-store');
};

/**
 * Exports of check results and alerts, NDJSON or CSV, streamed: read from the store a page at a time
 * (domain/alerts/alert-export.ts), the next page only once the client took the last (body.ts).
 */
export const exportRoutes = ({ store, logger }: RouteDeps<ResultStore & AlertStore & MonitorStore>) => [
  route({
    method: 'get',
    path: '/export/results',
    tag: 'Export',
    response: null,
    binary: [TYPES.ndjson, 'text/csv'],
    responses: { 404: 'A monitor_id names no monitor of this workspace' },
    summary: `Check results with \`scheduled_at\` in [\`from\`, \`to\`) (at most ${MAX_EXPORT_WINDOW_DAYS} days; results are kept config \`result_retention_days\`), monitor by monitor in monitor id order, then by scheduled time: NDJSON (default), one \`CheckResult\` a line as \`GET /monitors/{id}/results\` gives it, or CSV (\`format=csv\`) with those fields as columns (nested ones as JSON text). Filters: \`monitor_id\` (repeatable), \`location\`, \`ok\`. Streamed as a download, read from the store a page at a time.`,
    query: resultsQuery,
    async handler({ ctx, auth, query: q }) {
      const ws = auth.workspace.id;
      let named: string[] | undefined;
      if (q.monitor_id) {
        named = [...new Set(q.monitor_id.map((id) => id.toLowerCase()))];
        const found = new Set(
          (await store.getMonitorsByIds(named)).filter((m) => m.workspace_id === ws).map((m) => m.id),
        );
        const missing = named.filter((id) => !found.has(id));
        if (missing.length > 0)
          throw new AppError(
            'not_found',
            'No monitor with this id in the workspace.',
            missing.map((id) => ({
              field: 'monitor_id',
              message: `no monitor with id ${id} in the workspace`,
            })),
          );
      }
      const filter = { monitor_ids: named, from: q.from, to: q.to, location: q.location, ok: q.ok };
      const rows = render(q.format, RESULT_COLUMNS, resultJson);
      startDownload(ctx, q.format, fileName(auth.workspace.subdomain, 'results', q.from, q.to, q.format));
      const body = pagedBody<ResultExportCursor>(
        q.format === 'csv' ? csvHeader(RESULT_COLUMNS) : '',
        async (after) => {
          const p = await store.exportResultsPage(ws, filter, after, EXPORT_PAGE_ROWS);
          return { text: rows(p.data), next: p.next };
        },
      );
      // Headers are sent: cut the response, so the client sees an error rather than a short file.
      body.on('error', (err) => {
        logger.error({ err, workspace_id: ws }, 'results export failed');
        ctx.res.destroy();
      });
      return body;
    },
  }),
  route({
    method: 'get',
    path: '/export/alerts',
    tag: 'Export',
    response: null,
    binary: [TYPES.ndjson, 'text/csv'],
    summary: `Alerts created in [\`from\`, \`to\`) (at most ${MAX_EXPORT_WINDOW_DAYS} days), oldest first: NDJSON (default), one \`Alert\` a line as \`GET /alerts\` gives it, or CSV (\`format=csv\`) with those fields as columns (nested ones as JSON text). Filters as for \`GET /alerts\`: \`status\`, \`source_type\`, \`source_id\`. Streamed as a download, read from the store a page at a time.`,
    query: alertsQuery,
    async handler({ ctx, auth, query: q }) {
      const ws = auth.workspace.id;
      const filter = {
        from: q.from,
        to: q.to,
        status: q.status,
        source_type: q.source_type,
        source_id: q.source_id,
      };
      const rows = render(q.format, ALERT_COLUMNS, alertJson);
      startDownload(ctx, q.format, fileName(auth.workspace.subdomain, 'alerts', q.from, q.to, q.format));
      const body = pagedBody<ExportPosition>(
        q.format === 'csv' ? csvHeader(ALERT_COLUMNS) : '',
        async (after) => {
          const p = await store.exportAlertsPage(ws, filter, after, EXPORT_PAGE_ROWS);
          return { text: rows(p.data), next: p.next };
        },
      );
      // Headers are sent: cut the response, so the client sees an error rather than a short file.
      body.on('error', (err) => {
        logger.error({ err, workspace_id: ws }, 'alerts export failed');
        ctx.res.destroy();
      });
      return body;
    },
  }),
];
