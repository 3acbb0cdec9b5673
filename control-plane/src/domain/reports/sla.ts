import type { AlertStore } from '../alerts/alert-store.js';
import { MAX_WINDOWS } from '../maintenance/cover.js';
import type { MaintenanceWindowStore } from '../maintenance/maintenance-store.js';
import { type LatencyCounts, mergeCounts, quantileMs } from '../results/latency-histogram.js';
import type { DailyRollup, ResultStore } from '../results/result-store.js';
import { DAY_MS } from '../results/uptime.js';
import { coveredSource } from '../status-pages/public-view.js';
import type { Alert, Workspace } from '../types.js';
import {
  checkFigures,
  countsAsIncident,
  errorBudget,
  incidentDowntime,
  meanTimes,
  seconds,
  unionDowntime,
} from './figures.js';
import { clip, type IntervalSet, intersect, total, union } from './intervals.js';
import { maintenanceOf, windowOccurrences } from './maintenance-periods.js';
import { type ReportScope, resolveScope, type ScopeStore } from './scope.js';
import {
  MAX_REPORT_INCIDENTS,
  type ResponseTimes,
  type SlaFigures,
  type SlaIncident,
  type SlaReport,
} from './sla-report.js';

/**
 * The SLA report of a scope over whole UTC days (sla-report.ts says what each figure means): one read
 * of the scope's monitors, one of their daily rollups, one of their alerts over the period and one of
 * the workspace's maintenance windows, then pure arithmetic (figures.ts, intervals.ts). Never reads raw
 * results. The same function serves the API, its CSV, the MCP tool and the monthly mail.
 */

/** The most alerts of the scope one report reads (newest first); past it the report says truncated. */
export const MAX_REPORT_ALERTS = 50_000;
/** Windows read for a period: the live ones (MAX_WINDOWS) and the ended one-off ones still listed. */
const WINDOWS_READ = MAX_WINDOWS * 5;
/** Monitors figured between two turns of the event loop. */
const YIELD_EVERY = 100;
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

export type ReportStore = ScopeStore &
  Pick<ResultStore, 'dailyRollups'> &
  Pick<AlertStore, 'listAlertsBetween'> &
  Pick<MaintenanceWindowStore, 'listLiveMaintenanceWindows'>;

export interface ReportRequest {
  workspace: Pick<Workspace, 'id' | 'name'>;
  scope: ReportScope;
  /** The first day's start and the end of the last day (exclusive), both whole UTC days. */
  from: Date;
  to: Date;
  /** Percent, 0 < slo < 100. */
  slo: number;
}

/**
 * The scope's daily rollups, READ_SLICE monitors a read with a turn of the event loop between reads:
 * one read of a whole workspace's 90 days holds the SQLite adapter (synchronous) for seconds on a busy
 * box (docs/benchmarks.md, "SLA report").
 */
const READ_SLICE = 100;
const rollupsOf = async (store: ReportStore, ws: string, ids: string[], from: number, to: number) => {
  const rows: DailyRollup[] = [];
  for (let i = 0; i < ids.length; i += READ_SLICE) {
    if (i > 0) await pause();
    rows.push(...(await store.dailyRollups(ws, ids.slice(i, i + READ_SLICE), from, to)));
  }
  return rows;
};

const dayText = (day: number) => new Date(day).toISOString().slice(0, 10);

const responseTimes = (counts: LatencyCounts): ResponseTimes => ({
  p50: quantileMs(counts, 0.5),
  p95: quantileMs(counts, 0.95),
  p99: quantileMs(counts, 0.99),
});

interface MonitorPart {
  downtime: IntervalSet;
  maintenance: IntervalSet;
  incidents: Alert[];
  latency: LatencyCounts;
}

export const buildSlaReport = async (
  store: ReportStore,
  req: ReportRequest,
  now: Date,
): Promise<SlaReport> => {
  const ws = req.workspace.id;
  const from = req.from.getTime();
  const to = req.to.getTime();
  // The period so far: a period not over yet counts up to now.
  const end = Math.max(from, Math.min(to, now.getTime()));
  const { name, monitors } = await resolveScope(store, req.workspace, req.scope);
  const ids = monitors.map((m) => m.id);
  const [rows, alerts, windows] = await Promise.all([
    rollupsOf(store, ws, ids, from, to),
    ids.length
      ? store.listAlertsBetween(
          ws,
          ids.map((id) => ({ type: 'monitor' as const, id })),
          new Date(from),
          new Date(Math.max(end, from + 1)),
          MAX_REPORT_ALERTS,
        )
      : Promise.resolve([] as Alert[]),
    store.listLiveMaintenanceWindows(ws, new Date(from), WINDOWS_READ),
  ]);
  const live = windows.filter((w) => w.starts_at.getTime() < end);
  const occurrences = await windowOccurrences(live, from, end);

  const rowsOf = new Map<string, DailyRollup[]>();
  for (const r of rows) {
    const list = rowsOf.get(r.monitor_id) ?? [];
    list.push(r);
    rowsOf.set(r.monitor_id, list);
  }
  const downOf = new Map<string, Alert[]>();
  for (const a of alerts) {
    if (a.cause !== 'down') continue;
    const list = downOf.get(a.source_id) ?? [];
    list.push(a);
    downOf.set(a.source_id, list);
  }

  const periodSeconds = seconds(end - from);
  const parts = new Map<string, MonitorPart>();
  const monitorRows: SlaReport['monitors'] = [];
  for (const [i, m] of monitors.entries()) {
    // The event loop is given back every YIELD_EVERY monitors (a workspace's report reads thousands).
    if (i > 0 && i % YIELD_EVERY === 0) await pause();
    const maintenance = maintenanceOf(live, occurrences, coveredSource('monitor', m));
    const down = downOf.get(m.id) ?? [];
    const incidents = down.filter((a) => countsAsIncident(a, from, end, maintenance));
    const downtime = union(incidents.flatMap((a) => incidentDowntime(a, from, end, maintenance)));
    const own = rowsOf.get(m.id) ?? [];
    const latency: LatencyCounts = new Map();
    for (const r of own) mergeCounts(latency, r.latency);
    parts.set(m.id, { downtime, maintenance, incidents, latency });
    const downtimeSeconds = seconds(total(downtime));
    monitorRows.push({
      id: m.id,
      name: m.display_name,
      ...checkFigures(own),
      downtime_seconds: downtimeSeconds,
      incident_count: incidents.length,
      ...meanTimes(incidents, from, to),
      response_time_ms: responseTimes(latency),
      error_budget_seconds_left: errorBudget(
        periodSeconds,
        seconds(total(maintenance)),
        downtimeSeconds,
        req.slo,
      ).error_budget_seconds_left,
    });
  }

  const all = [...parts.values()];
  const downtime = unionDowntime(all.map((p) => p.downtime));
  // The scope is in maintenance while every one of its monitors is.
  const maintenance =
    all.length === 0
      ? []
      : all.slice(1).reduce((acc, p) => intersect(acc, p.maintenance), all[0]!.maintenance);
  const incidents = all.flatMap((p) => p.incidents);
  const downtimeSeconds = seconds(total(downtime));
  const maintenanceSeconds = seconds(total(maintenance));
  const names = new Map(monitors.map((m) => [m.id, m.display_name]));
  const listed: SlaIncident[] = incidents
    .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1))
    .slice(0, MAX_REPORT_INCIDENTS)
    .map((a) => ({
      alert_id: a.id,
      monitor_id: a.source_id,
      monitor_name: names.get(a.source_id) ?? '',
      title: a.title,
      started_at: a.created_at,
      acknowledged_at: a.acknowledged_at,
      resolved_at: a.resolved_at,
      downtime_seconds: seconds(
        total(incidentDowntime(a, from, end, parts.get(a.source_id)?.maintenance ?? [])),
      ),
    }));

  const byDay = new Map<number, DailyRollup[]>();
  for (const r of rows) {
    const list = byDay.get(r.day) ?? [];
    list.push(r);
    byDay.set(r.day, list);
  }
  const days: SlaReport['days'] = [];
  for (let day = from; day < to; day += DAY_MS) {
    const c = checkFigures(byDay.get(day) ?? []);
    days.push({
      day: dayText(day),
      uptime_percent: c.uptime_percent,
      uptime_percent_with_maintenance: c.uptime_percent_with_maintenance,
      downtime_seconds: seconds(total(clip(downtime, day, day + DAY_MS))),
    });
  }

  const figures: SlaFigures = {
    ...checkFigures(rows),
    downtime_seconds: downtimeSeconds,
    incident_count: incidents.length,
    ...meanTimes(incidents, from, to),
    response_time_ms: responseTimes(all.reduce((acc, p) => mergeCounts(acc, p.latency), new Map())),
  };
  return {
    ...figures,
    scope: { type: req.scope.type, id: req.scope.type === 'workspace' ? null : req.scope.id, name },
    from: new Date(from),
    to: new Date(to),
    generated_at: now,
    slo_percent: req.slo,
    period_seconds: periodSeconds,
    maintenance_seconds: maintenanceSeconds,
    ...errorBudget(periodSeconds, maintenanceSeconds, downtimeSeconds, req.slo),
    incidents: listed,
    incidents_truncated: incidents.length > MAX_REPORT_INCIDENTS || alerts.length >= MAX_REPORT_ALERTS,
    days,
    monitors: monitorRows,
  };
};
