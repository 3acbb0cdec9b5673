import { z } from 'zod';
import type { SlaFigures, SlaReport } from '../../domain/reports/sla-report.js';
import { csvCell } from '../csv.js';
import { iso, responseSchemas, time, uuidString } from '../responses.js';

/**
 * The SLA report as JSON (SlaReport with dates as ISO strings) and as CSV: both from the one report
 * object, so the numbers are the same.
 */

const pct = z.number().nullable();
const seconds = z.number().int();

const figures = {
  uptime_percent: pct.describe('Successful checks / checks, maintenance left out; null without checks.'),
  uptime_percent_with_maintenance: pct.describe('Every check counted: what the status page shows.'),
  checks: z.strictObject({
    total: z.number().int(),
    ok: z.number().int(),
    in_maintenance: z.number().int(),
    ok_in_maintenance: z.number().int(),
  }),
  downtime_seconds: seconds.describe('Time `down` alerts were open in the period, maintenance left out.'),
  incident_count: z.number().int(),
  mtta_seconds: seconds.nullable(),
  mttr_seconds: seconds.nullable(),
  response_time_ms: z.strictObject({ p50: pct, p95: pct, p99: pct }),
};

export const slaReportResponse = z
  .strictObject({
    ...figures,
    scope: z.strictObject({
      type: z.enum(['monitor', 'group', 'tag', 'status_page', 'workspace']),
      id: z.string().nullable(),
      name: z.string(),
    }),
    from: time,
    to: time,
    generated_at: time,
    slo_percent: z.number(),
    period_seconds: seconds,
    maintenance_seconds: seconds,
    allowed_downtime_seconds: seconds,
    error_budget_seconds_left: seconds,
    incidents: z.array(
      z.strictObject({
        alert_id: uuidString,
        monitor_id: uuidString,
        monitor_name: z.string(),
        title: z.string(),
        started_at: time,
        acknowledged_at: time.nullable(),
        resolved_at: time.nullable(),
        downtime_seconds: seconds,
      }),
    ),
    incidents_truncated: z.boolean(),
    days: z.array(
      z.strictObject({
        day: z.string().describe('YYYY-MM-DD (UTC).'),
        uptime_percent: pct,
        uptime_percent_with_maintenance: pct,
        downtime_seconds: seconds,
      }),
    ),
    monitors: z.array(
      z.strictObject({ id: uuidString, name: z.string(), ...figures, error_budget_seconds_left: seconds }),
    ),
  })
  .register(responseSchemas, { id: 'SlaReport' });

export type SlaReportJson = z.output<typeof slaReportResponse>;

const figuresJson = (f: SlaFigures) => ({
  uptime_percent: f.uptime_percent,
  uptime_percent_with_maintenance: f.uptime_percent_with_maintenance,
  checks: { ...f.checks },
  downtime_seconds: f.downtime_seconds,
  incident_count: f.incident_count,
  mtta_seconds: f.mtta_seconds,
  mttr_seconds: f.mttr_seconds,
  response_time_ms: { ...f.response_time_ms },
});

export const slaReportJson = (r: SlaReport): SlaReportJson => ({
  ...figuresJson(r),
  scope: { ...r.scope },
  from: iso(r.from),
  to: iso(r.to),
  generated_at: iso(r.generated_at),
  slo_percent: r.slo_percent,
  period_seconds: r.period_seconds,
  maintenance_seconds: r.maintenance_seconds,
  allowed_downtime_seconds: r.allowed_downtime_seconds,
  error_budget_seconds_left: r.error_budget_seconds_left,
  incidents: r.incidents.map((i) => ({
    alert_id: i.alert_id,
    monitor_id: i.monitor_id,
    monitor_name: i.monitor_name,
    title: i.title,
    started_at: iso(i.started_at),
    acknowledged_at: iso(i.acknowledged_at),
    resolved_at: iso(i.resolved_at),
    downtime_seconds: i.downtime_seconds,
  })),
  incidents_truncated: r.incidents_truncated,
  days: r.days.map((d) => ({ ...d })),
  monitors: r.monitors.map((m) => ({
    id: m.id,
    name: m.name,
    ...figuresJson(m),
    error_budget_seconds_left: m.error_budget_seconds_left,
  })),
});

export const CSV_COLUMNS = [
  'monitor_id',
  'monitor_name',
  'uptime_percent',
  'uptime_percent_with_maintenance',
  'checks',
  'checks_in_maintenance',
  'downtime_seconds',
  'incidents',
  'mtta_seconds',
  'mttr_seconds',
  'p50_ms',
  'p95_ms',
  'p99_ms',
  'error_budget_seconds_left',
] as const;

const csvRow = (id: string, name: string, f: SlaFigures, budgetLeft: number) =>
  [
    id,
    name,
    f.uptime_percent,
    f.uptime_percent_with_maintenance,
    f.checks.total,
    f.checks.in_maintenance,
    f.downtime_seconds,
    f.incident_count,
    f.mtta_seconds,
    f.mttr_seconds,
    f.response_time_ms.p50,
    f.response_time_ms.p95,
    f.response_time_ms.p99,
    budgetLeft,
  ]
    .map(csvCell)
    .join(',');

/** The CSV: a header, one row per monitor, then the scope's row `TOTAL`. */
export const slaReportCsv = (r: SlaReport): string =>
  [
    CSV_COLUMNS.join(','),
    ...r.monitors.map((m) => csvRow(m.id, m.name, m, m.error_budget_seconds_left)),
    csvRow('TOTAL', r.scope.name, r, r.error_budget_seconds_left),
  ]
    .map((line) => `${line}\r\n`)
    .join('');
