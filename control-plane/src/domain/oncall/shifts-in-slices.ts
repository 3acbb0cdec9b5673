import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Schedule, ScheduleOverride, Shift } from '../types.js';
import { finalShifts } from './shifts.js';

/** The longest slice computed in one turn of the event loop: about 4 ms for the costliest schedule allowed. */
export const SLICE_DAYS = 7;
const DAY_MS = 86_400_000;

/**
 * `finalShifts` over [from, to), computed SLICE_DAYS at a time with the event loop let go between
 * slices, so that a 93-day window of a schedule at its limits (ten layers of 30-minute shifts, 500
 * overrides: ~60 ms in one go) never holds a request's neighbours. A shift cut at a seam is joined
 * again when the same user goes on (keeping the first part's source, as `finalShifts` merges), so the
 * answer equals one call over the whole window.
 */
export const finalShiftsInSlices = async (
  schedule: Schedule,
  overrides: ScheduleOverride[],
  from: Date,
  to: Date,
): Promise<Shift[]> => {
  const out: Shift[] = [];
  for (let start = from.getTime(); start < to.getTime(); start += SLICE_DAYS * DAY_MS) {
    if (start > from.getTime()) await nextTurn();
    const end = Math.min(start + SLICE_DAYS * DAY_MS, to.getTime());
    for (const shift of finalShifts(schedule, overrides, new Date(start), new Date(end))) {
      const last = out.at(-1);
      if (last && last.user_id === shift.user_id && last.ends_at.getTime() === shift.starts_at.getTime())
        out[out.length - 1] = { ...last, ends_at: shift.ends_at };
      else out.push(shift);
    }
  }
  return out;
};

/** The spans of [from, to) no shift covers (`shifts` in time order, inside the window). */
export const gapsBetween = (shifts: Shift[], from: Date, to: Date): { starts_at: Date; ends_at: Date }[] => {
  const gaps: { starts_at: Date; ends_at: Date }[] = [];
  let at = from.getTime();
  for (const s of shifts) {
    if (s.starts_at.getTime() > at) gaps.push({ starts_at: new Date(at), ends_at: s.starts_at });
    at = Math.max(at, s.ends_at.getTime());
  }
  if (at < to.getTime()) gaps.push({ starts_at: new Date(at), ends_at: to });
  return gaps;
};
