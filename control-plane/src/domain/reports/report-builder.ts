import { DAY_MS } from '../results/uptime.js';
import type { ReportBuilder } from './monthly-report.js';
import { buildSlaReport, type ReportStore } from './sla.js';

/** The monthly mail's report, built by the function `GET /reports/sla` uses: the same figures. */
export const slaReportBuilder =
  (store: ReportStore): ReportBuilder =>
  (workspace, request, now) =>
    buildSlaReport(
      store,
      {
        workspace,
        scope: request.scope,
        from: new Date(`${request.from}T00:00:00Z`),
        to: new Date(Date.parse(`${request.to}T00:00:00Z`) + DAY_MS),
        slo: request.slo,
      },
      now,
    );
