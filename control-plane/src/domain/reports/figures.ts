import { percent } from '../results/uptime.js';
import type { Alert } from '../types.js';
import { clip, type IntervalSet, subtract, total, union } from './intervals.js';
import type { SlaFigures } from './sla-report.js';

/**
 * The report's figures from their parts, pure (sla-report.ts says what each one means): checks and
 * uptime from daily rollup counts, downtime and incidents from `down` alerts less maintenance, MTTA
 * and MTTR, and the error budget. Times are epoch ms inside; seconds are whole (rounded) outside.
 */

/** What a daily rollup row holds that the check figures need (ResultStore.dailyRollups). */
export interface RollupCounts {
  total: number;
  ok: number;
  maint_total: number;
  maint_ok: number;
}

export const seconds = (ms: number) => Math.round(ms / 1000);

/** Checks and both uptimes over some rollup rows: maintenance left out, and every check counted. */
export const checkFigures = (
  rows: Iterable<RollupCounts>,
): Pick<SlaFigures, 'checks' | 'uptime_percent' | 'uptime_percent_with_maintenance'> => {
  let t = 0;
  let ok = 0;
  let mt = 0;
  let mok = 0;
  for (const r of rows) {
    t += r.total;
    ok += r.ok;
    mt += r.maint_total;
    mok += r.maint_ok;
  }
  return {
    checks: { total: t, ok, in_maintenance: mt, ok_in_maintenance: mok },
    uptime_percent: percent(ok - mok, t - mt),
    uptime_percent_with_maintenance: percent(ok, t),
  };
};

/** An alert's open time [created, resolved or `end`) inside [from, end), as a set. */
export const openTime = (a: Pick<Alert, 'created_at' | 'resolved_at'>, from: number, end: number) =>
  clip([[a.created_at.getTime(), a.resolved_at ? a.resolved_at.getTime() : end]], from, end);

/** One incident's open time in the period less the maintenance of its monitor. */
export const incidentDowntime = (
  a: Pick<Alert, 'created_at' | 'resolved_at'>,
  from: number,
  end: number,
  maintenance: IntervalSet,
): IntervalSet => subtract(openTime(a, from, end), maintenance);

/**
 * Whether an alert counts as an incident of the period: it was open in it (at an instant at least, for
 * one resolved as it was raised) and not only while its monitor was in maintenance.
 */
export const countsAsIncident = (
  a: Pick<Alert, 'created_at' | 'resolved_at'>,
  from: number,
  end: number,
  maintenance: IntervalSet,
): boolean => {
  const open = openTime(a, from, end);
  if (open.length === 0) {
    const at = a.created_at.getTime();
    return at >= from && at < end && !maintenance.some(([s, e]) => s <= at && at < e);
  }
  return total(subtract(open, maintenance)) > 0;
};

/** Mean of some durations in whole seconds; null when there are none. */
export const meanSeconds = (durations: number[]): number | null =>
  durations.length === 0 ? null : seconds(durations.reduce((a, b) => a + b, 0) / durations.length);

/** MTTA and MTTR over the incidents that started in [from, to) and were acknowledged / resolved. */
export const meanTimes = (
  incidents: Pick<Alert, 'created_at' | 'acknowledged_at' | 'resolved_at'>[],
  from: number,
  to: number,
): Pick<SlaFigures, 'mtta_seconds' | 'mttr_seconds'> => {
  const started = incidents.filter((a) => a.created_at.getTime() >= from && a.created_at.getTime() < to);
  const since = (a: Pick<Alert, 'created_at'>, d: Date | null) =>
    d ? [d.getTime() - a.created_at.getTime()] : [];
  return {
    mtta_seconds: meanSeconds(started.flatMap((a) => since(a, a.acknowledged_at))),
    mttr_seconds: meanSeconds(started.flatMap((a) => since(a, a.resolved_at))),
  };
};

/**
 * The error budget: (100 − slo) % of the period outside maintenance is allowed down; what is left is
 * that less the downtime (negative when overspent). Whole seconds.
 */
export const errorBudget = (
  periodSeconds: number,
  maintenanceSeconds: number,
  downtimeSeconds: number,
  slo: number,
) => {
  const allowed = Math.round(((100 - slo) / 100) * Math.max(0, periodSeconds - maintenanceSeconds));
  return { allowed_downtime_seconds: allowed, error_budget_seconds_left: allowed - downtimeSeconds };
};

/** Downtime of several monitors: the time any of them was down, counted once. */
export const unionDowntime = (perMonitor: IntervalSet[]): IntervalSet => union(perMonitor.flat());
