import { reportQuery, reportRequestOf } from '../../domain/reports/report-query.js';
import { buildSlaReport, type ReportStore } from '../../domain/reports/sla.js';
import { MAX_REPORT_DAYS, MAX_REPORT_MONITORS } from '../../domain/reports/sla-report.js';
import { idOf } from '../query.js';
import { type RouteDeps, route } from '../route.js';
import { slaReportCsv, slaReportJson, slaReportResponse } from './responses.js';

/** Whether the client asked for the CSV: `format=csv`, or `Accept: text/csv` without `format=json`. */
const wantsCsv = (format: string | undefined, accept: string | undefined) =>
  format === 'csv' || (format === undefined && /\btext\/csv\b/i.test(accept ?? ''));

export const reportRoutes = ({ store, clock }: RouteDeps<ReportStore>) => [
  route({
    method: 'get',
    path: '/reports/sla',
    tag: 'Reports',
    response: slaReportResponse,
    binary: ['text/csv'],
    summary: `The SLA report of one monitor (\`monitor_id\`), a group (\`group_id\`), a tag (\`tag\`), a status page's monitors (\`status_page_id\`) or, with none of them, the whole workspace, over whole UTC days \`from\`..\`to\` (YYYY-MM-DD, both included, at most ${MAX_REPORT_DAYS} days; default the current month so far): uptime with maintenance left out and with it counted (what the status page shows), downtime (the time \`down\` alerts were open, maintenance left out; several monitors' downtime counted once), incidents, MTTA and MTTR, response time p50/p95/p99, and the error budget left for \`slo\` (percent, default 99.9), for the scope, each day and each monitor. From the daily rollups and the alerts, never from raw results. \`Accept: text/csv\` or \`format=csv\`: one row per monitor then a row \`TOTAL\`. A scope of more than ${MAX_REPORT_MONITORS} monitors is a 422.`,
    query: reportQuery,
    responses: {
      404: 'No monitor, group or status page with this id in the workspace',
      422: 'A bad date, period, SLO, or more than one scope selector (each named)',
    },
    async handler({ ctx, auth, query }) {
      const now = clock.now();
      const report = await buildSlaReport(
        store,
        { workspace: auth.workspace, ...reportRequestOf(query, now, idOf) },
        now,
      );
      if (wantsCsv(query.format, ctx.get('accept'))) {
        ctx.type = 'text/csv; charset=utf-8';
        const day = (d: Date) => d.toISOString().slice(0, 10);
        const last = new Date(report.to.getTime() - 1);
        ctx.set('Content-Disposition', `attachment; filename="sla-${day(report.from)}-${day(last)}.csv"`);
        return Buffer.from(slaReportCsv(report), 'utf8');
      }
      return slaReportJson(report);
    },
  }),
];
