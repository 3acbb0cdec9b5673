/**
 * The SLA report (`GET /api/v1/reports/sla`, its CSV, the web page, the monthly mail and the MCP tool
 * `get_sla_report` all show this one shape). A report covers whole UTC days [from, to] of one monitor,
 * a group, a tag, a status page's monitors or the whole workspace. Figures come from the daily rollups
 * (checks, checks during maintenance, the response-time histogram) and from the monitors' alerts,
 * never from raw results.
 *
 * - `uptime_percent`: successful checks / checks, leaving out the checks that ran while a maintenance
 *   window covered the monitor (as recorded when the result came in); `uptime_percent_with_maintenance`
 *   counts every check: the figure the status page shows for the same days.
 * - Downtime: the time the monitors' `down` alerts were open, clipped to the period, minus maintenance.
 *   A report over several monitors counts the time any of them was down once (the union).
 * - MTTA / MTTR: mean time from an incident's start to its acknowledgement / its resolution, over the
 *   incidents that started in the period and were acknowledged / resolved; null when there are none.
 * - Error budget: `allowed_downtime_seconds` = (100 − slo) % of the period outside maintenance (up to
 *   now for a period not over yet); left = allowed − downtime (negative when overspent).
 */

export type ReportScopeType = 'monitor' | 'group' | 'tag' | 'status_page' | 'workspace';

export interface ResponseTimes {
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/** The figures every level of the report has (the whole scope, each monitor, each day). */
export interface SlaFigures {
  uptime_percent: number | null;
  uptime_percent_with_maintenance: number | null;
  checks: { total: number; ok: number; in_maintenance: number; ok_in_maintenance: number };
  downtime_seconds: number;
  incident_count: number;
  mtta_seconds: number | null;
  mttr_seconds: number | null;
  response_time_ms: ResponseTimes;
}

export interface SlaIncident {
  alert_id: string;
  monitor_id: string;
  monitor_name: string;
  title: string;
  started_at: Date;
  acknowledged_at: Date | null;
  resolved_at: Date | null;
  /** Open time inside the period, maintenance left out. */
  downtime_seconds: number;
}

export interface SlaReport extends SlaFigures {
  scope: { type: ReportScopeType; id: string | null; name: string };
  /** First day's start, and the end of the last day (exclusive), UTC. */
  from: Date;
  to: Date;
  generated_at: Date;
  slo_percent: number;
  /** Seconds of the period (up to `generated_at` when the period is not over) and of maintenance in it. */
  period_seconds: number;
  maintenance_seconds: number;
  allowed_downtime_seconds: number;
  error_budget_seconds_left: number;
  /** The newest incidents first, at most MAX_REPORT_INCIDENTS (`incidents_truncated` says when more). */
  incidents: SlaIncident[];
  incidents_truncated: boolean;
  /** One entry per UTC day of the period, oldest first. */
  days: (Pick<SlaFigures, 'uptime_percent' | 'uptime_percent_with_maintenance' | 'downtime_seconds'> & {
    day: string;
  })[];
  /** One entry per monitor of the scope, by name. */
  monitors: (SlaFigures & {
    id: string;
    name: string;
    error_budget_seconds_left: number;
  })[];
}

/** A report lists at most this many incidents (newest first); the counts and figures take in all. */
export const MAX_REPORT_INCIDENTS = 500;
/** A report covers at most this many days and this many monitors (a bigger scope: 422, narrow it). */
export const MAX_REPORT_DAYS = 366;
export const MAX_REPORT_MONITORS = 5_000;
/** The SLO target when the request names none, in percent. */
export const DEFAULT_SLO_PERCENT = 99.9;
