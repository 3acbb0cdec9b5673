import type { FieldProblem } from '@lookout/shared';
import type { Schedule, ScheduleLayer, ScheduleOverride, ScheduleRestriction, Shift } from '../types.js';

/**
 * Who is on call, pure and computed (never stored): from a schedule's layers (later wins where it
 * covers the time) and the overrides over the window (an override beats every layer). CONTRACT STUB:
 * the signatures are the contract; the bodies are filled in by the engine's own commit.
 */

/** The longest window `finalShifts` answers (the shifts endpoint and the calendar feeds stay inside it). */
export const MAX_WINDOW_DAYS = 93;
/** How far ahead `onCallAt` looks for `until` and `next`. */
export const LOOK_AHEAD_DAYS = 90;

export interface OnCallAnswer {
  /** The shift covering `at` (as placed by its layer or override, not merged), null when nobody is on call. */
  shift: Shift | null;
  /** When the on-call person (or the gap) changes; null when nothing changes within LOOK_AHEAD_DAYS. */
  until: Date | null;
  /** The next person on call after `until`; null when nobody is within LOOK_AHEAD_DAYS. */
  next: { user_id: string; starts_at: Date } | null;
}

/** Who is on call at `at`: O(layers + overrides) for `shift`; `until`/`next` walk the boundaries after it. */
export const onCallAt = (_schedule: Schedule, _overrides: ScheduleOverride[], _at: Date): OnCallAnswer => {
  throw new Error('not implemented');
};

/**
 * The final shifts over [from, to) (at most MAX_WINDOW_DAYS), overrides applied, clipped to the window,
 * adjacent shifts of the same user merged (the merged shift keeps the first one's source), in time order.
 */
export const finalShifts = (
  _schedule: Schedule,
  _overrides: ScheduleOverride[],
  _from: Date,
  _to: Date,
): Shift[] => {
  throw new Error('not implemented');
};

/** The spans of [from, to) where nobody is on call, in time order. */
export const scheduleGaps = (
  _schedule: Schedule,
  _overrides: ScheduleOverride[],
  _from: Date,
  _to: Date,
): { starts_at: Date; ends_at: Date }[] => {
  throw new Error('not implemented');
};

/** What zod cannot see in one layer's restrictions (overlaps, empty intervals), fields under `prefix`. */
export const restrictionProblems = (
  _restrictions: ScheduleRestriction[],
  _prefix: string,
): FieldProblem[] => {
  throw new Error('not implemented');
};

/**
 * The schedule once user `userId` has left the workspace at `now`: they drop out of every layer from
 * then on, the person on call in each layer at `now` stays on call (if it was them, the next in turn
 * takes over at once) and the turn order continues. Null when no layer names them.
 */
export const withoutUserInSchedule = (_schedule: Schedule, _userId: string, _now: Date): Schedule | null => {
  throw new Error('not implemented');
};

export type { ScheduleLayer };
