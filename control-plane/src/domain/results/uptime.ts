import type { CheckResultRecord } from '../types.js';
import type { ResultStore } from './result-store.js';

/**
 * Uptime from hourly rollups. `recordResults` adds every newly stored result (never a replayed one)
 * to its bucket — (monitor, location, hour of `scheduled_at`): total, ok, the sum of response times
 * and the newest successful check — in the transaction that stores it (MongoDB) or in a flush behind
 * it that every read completes with the results not yet written (SQLite), and to its daily bucket
 * (the same without the newest success; read by the dashboard's 30-day figure). Pruning results
 * leaves the buckets alone; they have their own retention (`rollupRetentionDays`).
 *
 * A window [since, until) is answered exactly: its whole hours from the buckets, the partial hours at
 * its two edges from the results themselves (an indexed range of at most an hour of one monitor on
 * each side). An edge hour older than the results' retention is taken whole from its bucket instead
 * (its results may be gone): the window is widened to the hour there.
 * The dashboard's `uptime_24h` / `uptime_30d` use bucket granularity: the 24 (720) buckets up to and
 * including the current hour (domain/monitors/monitor-status.ts).
 */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

const floorTo =
  (unit: number) =>
  (t: Date | number): number => {
    const ms = typeof t === 'number' ? t : t.getTime();
    return ms - (((ms % unit) + unit) % unit);
  };
export const hourOf = floorTo(HOUR_MS);
/** UTC day. */
export const dayOf = floorTo(DAY_MS);

/** The buckets are kept at least 31 days, and never less long than the results they summarise. */
export const rollupRetentionDays = (resultRetentionDays: number) => Math.max(35, resultRetentionDays + 1);

/**
 * The daily buckets are kept longer: a status page draws 90 daily bars from them (one bucket per
 * monitor, location and day: ~180 rows per monitor and location).
 */
export const dailyRollupRetentionDays = (resultRetentionDays: number) =>
  Math.max(92, rollupRetentionDays(resultRetentionDays));

/** Percent with 4 decimals, or null when there was nothing to count. */
export const percent = (ok: number, total: number): number | null =>
  total === 0 ? null : Math.round((ok / total) * 1_000_000) / 10_000;

/**
 * The dashboard's windows at `at`: 24 h and 30 d of hourly buckets, the current hour included. The
 * 30 days are read as daily buckets for the whole UTC days inside [fullDaysFrom, fullDaysTo) and hourly
 * buckets for the hours before and after them, so a page reads ~150 buckets per monitor, not 1,440.
 */
export const dashboardWindows = (at: Date) => {
  const current = hourOf(at);
  const from30d = current - 719 * HOUR_MS;
  const fullDaysFrom = dayOf(from30d) === from30d ? from30d : dayOf(from30d) + DAY_MS;
  return { from24h: current - 23 * HOUR_MS, from30d, fullDaysFrom, fullDaysTo: dayOf(current) };
};

/** One bucket's increment from newly stored results (what the adapters add in recordResults). */
export interface RollupDelta {
  workspace_id: string;
  monitor_id: string;
  location: string;
  hour: number;
  total: number;
  ok: number;
  response_ms_sum: number;
  /** The newest successful check among them (scheduled time) and its response time. */
  last_ok_at: number | null;
  last_ok_ms: number | null;
}

/**
 * The daily buckets' increments from hourly ones (hour = the UTC day's first ms; daily buckets keep
 * no newest success).
 */
export const dailyDeltas = (hourly: RollupDelta[]): RollupDelta[] => {
  const by = new Map<string, RollupDelta>();
  for (const h of hourly) {
    const day = dayOf(h.hour);
    const key = `${h.monitor_id}|${h.location}|${day}`;
    const d = by.get(key);
    if (!d) by.set(key, { ...h, hour: day, last_ok_at: null, last_ok_ms: null });
    else {
      d.total += h.total;
      d.ok += h.ok;
      d.response_ms_sum += h.response_ms_sum;
    }
  }
  return [...by.values()];
};

/** Groups newly stored results into bucket increments (one per monitor, location and hour). */
export const rollupDeltas = (stored: CheckResultRecord[]): RollupDelta[] => {
  const by = new Map<string, RollupDelta>();
  for (const r of stored) {
    const hour = hourOf(r.scheduled_at);
    const key = `${r.monitor_id}|${r.location}|${hour}`;
    let d = by.get(key);
    if (!d) {
      d = {
        workspace_id: r.workspace_id,
        monitor_id: r.monitor_id,
        location: r.location,
        hour,
        total: 0,
        ok: 0,
        response_ms_sum: 0,
        last_ok_at: null,
        last_ok_ms: null,
      };
      by.set(key, d);
    }
    d.total++;
    d.response_ms_sum += r.response_time_ms;
    if (r.ok) {
      d.ok++;
      const t = r.scheduled_at.getTime();
      if (d.last_ok_at === null || t >= d.last_ok_at) {
        d.last_ok_at = t;
        d.last_ok_ms = r.response_time_ms;
      }
    }
  }
  return [...by.values()];
};

export interface Uptime {
  total: number;
  ok: number;
}

/**
 * Checks and successful ones of a monitor in [since, until): at most three store reads (the whole
 * hours from the rollups, each partial edge hour from the results), whatever the window's length.
 * `resultsFrom`: results older than this may have been pruned.
 */
export const monitorUptime = async (
  store: Pick<ResultStore, 'countResults' | 'sumRollups'>,
  workspaceId: string,
  monitorId: string,
  since: Date,
  until: Date,
  resultsFrom: Date,
): Promise<Uptime> => {
  const s = since.getTime();
  const u = until.getTime();
  const kept = resultsFrom.getTime();
  const rollups = (a: number, b: number) =>
    store.sumRollups(workspaceId, monitorId, new Date(a), new Date(b));
  const results = (a: number, b: number) =>
    store.countResults(workspaceId, monitorId, new Date(a), new Date(b));
  // An edge hour is read from its results, or whole from its bucket when they may be pruned.
  const edge = (a: number, b: number) =>
    a >= kept ? results(a, b) : rollups(hourOf(a), hourOf(a) + HOUR_MS);
  const head = s % HOUR_MS === 0 ? s : hourOf(s) + HOUR_MS;
  const tail = hourOf(u);
  if (head > tail) return edge(s, u); // within one hour
  const parts = await Promise.all([
    head < tail ? rollups(head, tail) : null,
    s < head ? edge(s, head) : null,
    tail < u ? edge(tail, u) : null,
  ]);
  return parts.reduce<Uptime>((sum, p) => (p ? { total: sum.total + p.total, ok: sum.ok + p.ok } : sum), {
    total: 0,
    ok: 0,
  });
};

export const resultsKeptFrom = (now: Date, resultRetentionDays: number) =>
  new Date(now.getTime() - resultRetentionDays * DAY_MS);
