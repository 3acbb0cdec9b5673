import type { FieldProblem } from '@lookout/shared';
import type { ScheduleRestriction, Weekday } from '../types.js';
import { minutesOf, weekdayOf, type ZoneClock } from './zone-clock.js';

/**
 * A layer's restrictions: the parts of the week it covers, the union of its intervals. Each interval
 * starts on each of its `days` at local `start` and ends at local `end` the same day, or the next day
 * when `start` is after `end` (22:00–06:00); `end` may be `24:00`. Both edges are wall-clock times,
 * resolved as handoffs are (a gap forwards to its end, a fold takes the first occurrence).
 */

const DAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const WEEK_MINUTES = 7 * 1440;

interface Interval {
  /** Weekday indexes (Monday 0) the interval starts on. */
  days: Set<number>;
  start: number;
  end: number;
}

/** Whether the mask covers an instant, the covered span around it, and its next edge. */
export interface MaskAnswer {
  covered: boolean;
  from: number;
  to: number;
  /** The next instant the mask may change (an edge, or where the computed stretch ends). */
  next: number;
}

export interface RestrictionMask {
  at(t: number): MaskAnswer;
}

/** Whether the intervals cover the whole week (then they mask nothing). */
const wholeWeek = (intervals: Interval[]): boolean => {
  let total = 0;
  for (const iv of intervals)
    total += (iv.end > iv.start ? iv.end - iv.start : 1440 - iv.start + iv.end) * iv.days.size;
  if (total < WEEK_MINUTES) return false;
  const spans: [number, number][] = [];
  for (const iv of intervals) {
    const length = iv.end > iv.start ? iv.end - iv.start : 1440 - iv.start + iv.end;
    for (const day of iv.days) {
      const from = day * 1440 + iv.start;
      spans.push([from, from + length], [from - WEEK_MINUTES, from + length - WEEK_MINUTES]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  let reach = 0;
  for (const [from, to] of spans) if (from <= reach) reach = Math.max(reach, to);
  return reach >= WEEK_MINUTES;
};

/**
 * The restrictions as a mask over time in `clock`'s zone (null when they cover the whole week); empty
 * intervals cover nothing.
 */
export const restrictionMask = (
  restrictions: ScheduleRestriction[],
  clock: ZoneClock,
): RestrictionMask | null => {
  const intervals: Interval[] = [];
  for (const r of restrictions) {
    const start = minutesOf(r.start);
    const end = minutesOf(r.end);
    if (start === null || end === null || start >= 1440 || start === end) continue;
    intervals.push({ days: new Set(r.days.map((d) => DAYS.indexOf(d))), start, end });
  }
  if (intervals.length > 0 && wholeWeek(intervals)) return null;
  // The instants of the intervals starting on one local day, kept for the days a walk passes (bounded).
  const byDay = new Map<number, [number, number][]>();
  const spansOn = (day: number): [number, number][] => {
    let spans = byDay.get(day);
    if (!spans) {
      spans = [];
      for (const iv of intervals) {
        if (!iv.days.has(weekdayOf(day))) continue;
        const s = clock.instant(day, iv.start);
        const e = iv.end > iv.start ? clock.instant(day, iv.end) : clock.instant(day + 1, iv.end);
        if (e > s) spans.push([s, e]);
      }
      if (byDay.size >= 64) byDay.clear();
      byDay.set(day, spans);
    }
    return spans;
  };
  /** The union's span holding `t` among the intervals starting on the local day of `t` or the day before. */
  const holding = (t: number, span: [number, number]): boolean => {
    const day = clock.local(t).day;
    let found = false;
    for (const spans of [spansOn(day - 1), spansOn(day)]) {
      for (const [s, e] of spans) {
        if (s <= t && t < e) {
          if (!found || s < span[0]) span[0] = s;
          if (!found || e > span[1]) span[1] = e;
          found = true;
        }
      }
    }
    return found;
  };
  const span: [number, number] = [0, 0];
  const more: [number, number] = [0, 0];
  return {
    at(t: number): MaskAnswer {
      if (holding(t, span)) {
        let [from, to] = span;
        // The union: intervals that meet the one holding `t` on either side (a few at most).
        for (let n = 0; n < 16 && holding(to, more); n++) to = more[1];
        for (let n = 0; n < 16 && holding(from - 1, more); n++) from = more[0];
        return { covered: true, from, to, next: to };
      }
      // Not covered: the next interval to start (days later start later; a week holds every weekday).
      const day = clock.local(t).day;
      let next = Number.POSITIVE_INFINITY;
      for (let d = day - 1; d <= day + 8 && next === Number.POSITIVE_INFINITY; d++) {
        for (const [s] of spansOn(d)) if (s > t && s < next) next = s;
      }
      return { covered: false, from: t, to: t, next: Math.min(next, clock.instant(day + 9, 0)) };
    },
  };
};

const label = (day: number, start: number, end: number) => {
  const hhmm = (m: number) =>
    `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return `${DAYS[day]} ${hhmm(start)}–${hhmm(end)}`;
};

/**
 * What zod cannot see in one layer's restrictions, fields under `prefix`: an empty interval (start
 * equal to end), `24:00` as a start, and two intervals that overlap (past midnight and across Sunday
 * into Monday too), named on the later one.
 */
export const restrictionProblems = (restrictions: ScheduleRestriction[], prefix: string): FieldProblem[] => {
  const problems: FieldProblem[] = [];
  // Each interval as week minutes [from, from + length), Monday 00:00 being 0, wrapping at the week's end.
  const ranges: { day: number; start: number; end: number; from: number; length: number }[][] = [];
  restrictions.forEach((r, i) => {
    ranges.push([]);
    const start = minutesOf(r.start);
    const end = minutesOf(r.end);
    if (start === 1440) {
      problems.push({
        field: `${prefix}[${i}].start`,
        message: 'must be 00:00 to 23:59 (24:00 is only an end)',
      });
      return;
    }
    if (start === null || end === null) return;
    if (start === end) {
      problems.push({
        field: `${prefix}[${i}].end`,
        message: 'must differ from start (an interval past midnight, e.g. 22:00 to 06:00, is allowed)',
      });
      return;
    }
    const length = end > start ? end - start : 1440 - start + end;
    for (const d of new Set(r.days)) {
      const day = DAYS.indexOf(d);
      if (day >= 0) ranges[i]!.push({ day, start, end, from: day * 1440 + start, length });
    }
  });
  const overlap = (a: { from: number; length: number }, b: { from: number; length: number }) =>
    (b.from - a.from + WEEK_MINUTES) % WEEK_MINUTES < a.length ||
    (a.from - b.from + WEEK_MINUTES) % WEEK_MINUTES < b.length;
  for (let j = 1; j < ranges.length; j++) {
    found: for (let i = 0; i < j; i++) {
      for (const a of ranges[i]!) {
        for (const b of ranges[j]!) {
          if (!overlap(a, b)) continue;
          problems.push({
            field: `${prefix}[${j}]`,
            message: `overlaps restrictions[${i}] (${label(b.day, b.start, b.end)} and ${label(a.day, a.start, a.end)})`,
          });
          break found;
        }
      }
    }
  }
  return problems;
};
