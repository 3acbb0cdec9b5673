import { nextRunAfter } from '../heartbeats/schedule.js';
import { type CoveredSource, scopeCovers } from '../maintenance/cover.js';
import type { MaintenanceWindow } from '../types.js';
import { type Interval, type IntervalSet, union } from './intervals.js';

/**
 * Maintenance over a report's period: every occurrence of the workspace's windows inside [from, to)
 * (one-off windows as they are, recurring ones stepped along their schedule as cover.ts reads them:
 * an occurrence from each run of the schedule, for `duration_seconds`, none before the window's
 * `starts_at`), then, per monitor, the union of the windows whose scope takes it in (its group and
 * tags as they are now). Bounded: at most MAX_OCCURRENCES steps of a schedule per report, the event
 * loop given back every YIELD_EVERY steps (docs/decisions.md, "Reports").
 */
export const MAX_OCCURRENCES = 20_000;
const YIELD_EVERY = 500;

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Each window's occurrences inside [from, to), clipped to it, by window id. */
export const windowOccurrences = async (
  windows: MaintenanceWindow[],
  from: number,
  to: number,
): Promise<Map<string, IntervalSet>> => {
  const out = new Map<string, IntervalSet>();
  let steps = 0;
  for (const w of windows) {
    const found: Interval[] = [];
    if (w.schedule === null || w.duration_seconds === null) {
      if (w.ends_at) found.push([w.starts_at.getTime(), w.ends_at.getTime()]);
    } else {
      const ms = w.duration_seconds * 1000;
      let after = new Date(Math.max(from - ms, w.starts_at.getTime() - 1));
      while (steps < MAX_OCCURRENCES) {
        const start = nextRunAfter(w.schedule, w.timezone ?? 'UTC', after);
        steps++;
        if (steps % YIELD_EVERY === 0) await pause();
        if (!start || start.getTime() >= to) break;
        found.push([start.getTime(), start.getTime() + ms]);
        after = start;
      }
    }
    const clipped = union(found.map(([s, e]) => [Math.max(s, from), Math.min(e, to)] as const));
    if (clipped.length > 0) out.set(w.id, clipped);
  }
  return out;
};

/** The maintenance of one monitor: the union of the occurrences of the windows covering it. */
export const maintenanceOf = (
  windows: MaintenanceWindow[],
  occurrences: Map<string, IntervalSet>,
  source: CoveredSource,
): IntervalSet => {
  const parts: Interval[] = [];
  for (const w of windows) {
    const o = occurrences.get(w.id);
    if (o && scopeCovers(w, source)) parts.push(...o);
  }
  return union(parts);
};
