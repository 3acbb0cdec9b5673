import { validationError } from '@lookout/shared';
import type { Schedule, Shift } from '../types.js';
import type { ScheduleStore } from './schedule-store.js';
import { loadSchedule } from './schedules.js';
import { MAX_WINDOW_DAYS, type OnCallAnswer, onCallAt } from './shifts.js';
import { finalShiftsInSlices } from './shifts-in-slices.js';

/**
 * The questions asked of schedules: who is on call at an instant, the final shifts of a window (at most
 * MAX_WINDOW_DAYS), and a user's next shifts across the workspace's schedules. Computed from the stored
 * layers and the overrides of the window, never stored.
 */

const DAY_MS = 86_400_000;
/** `GET /me/shifts`: default and most days ahead. */
export const MY_SHIFTS_DAYS = 30;
export const MAX_MY_SHIFTS_DAYS = 90;
/** The most shifts `myShifts` answers (the earliest). */
export const MAX_MY_SHIFTS = 1000;
/** `GET …/shifts` without `to`: this many days from `from`. */
export const DEFAULT_SHIFT_DAYS = 14;

export const onCallIn = async (
  store: Pick<ScheduleStore, 'getSchedule' | 'listOverrides'>,
  workspaceId: string,
  scheduleId: string,
  at: Date,
): Promise<OnCallAnswer> => {
  const schedule = await loadSchedule(store, workspaceId, scheduleId);
  // The overrides that can matter: those over `at` and the look-ahead (bounded by the store's cap).
  const overrides = await store.listOverrides(
    workspaceId,
    scheduleId,
    at,
    new Date(at.getTime() + MAX_WINDOW_DAYS * DAY_MS),
  );
  return onCallAt(schedule, overrides, at);
};

/** Checks a window: `to` after `from`, at most MAX_WINDOW_DAYS (422 naming `to`). */
export const checkWindow = (from: Date, to: Date) => {
  if (to.getTime() <= from.getTime()) throw validationError([{ field: 'to', message: 'must be after from' }]);
  if (to.getTime() - from.getTime() > MAX_WINDOW_DAYS * DAY_MS)
    throw validationError([{ field: 'to', message: `must be at most ${MAX_WINDOW_DAYS} days after from` }]);
};

export const shiftsIn = async (
  store: Pick<ScheduleStore, 'getSchedule' | 'listOverrides'>,
  workspaceId: string,
  scheduleId: string,
  from: Date,
  to: Date,
): Promise<Shift[]> => {
  checkWindow(from, to);
  const schedule = await loadSchedule(store, workspaceId, scheduleId);
  return finalShiftsInSlices(
    schedule,
    await store.listOverrides(workspaceId, scheduleId, from, to),
    from,
    to,
  );
};

/** The schedules a user can be on call in over [from, to): a layer names them, or an override does. */
export const schedulesOfUser = async (
  store: Pick<ScheduleStore, 'listWorkspaceSchedules' | 'listUserOverrides'>,
  workspaceId: string,
  userId: string,
  from: Date,
  to: Date,
): Promise<Schedule[]> => {
  const overridden = new Set(
    (await store.listUserOverrides(workspaceId, userId, from, to)).map((o) => o.schedule_id),
  );
  return (await store.listWorkspaceSchedules(workspaceId)).filter(
    (s) => overridden.has(s.id) || s.layers.some((l) => l.users.includes(userId)),
  );
};

/**
 * My shifts over the next `days` across the workspace's schedules, in time order, the first
 * MAX_MY_SHIFTS. Each schedule's window is computed in slices (`finalShiftsInSlices`), the event loop
 * let go between them.
 */
export const myShifts = async (
  store: Pick<ScheduleStore, 'listWorkspaceSchedules' | 'listOverrides' | 'listUserOverrides'>,
  workspaceId: string,
  userId: string,
  now: Date,
  days: number,
): Promise<{ schedule: Schedule; shift: Shift }[]> => {
  const to = new Date(now.getTime() + Math.min(days, MAX_MY_SHIFTS_DAYS) * DAY_MS);
  const out: { schedule: Schedule; shift: Shift }[] = [];
  for (const schedule of await schedulesOfUser(store, workspaceId, userId, now, to)) {
    const overrides = await store.listOverrides(workspaceId, schedule.id, now, to);
    for (const shift of await finalShiftsInSlices(schedule, overrides, now, to))
      if (shift.user_id === userId) out.push({ schedule, shift });
  }
  return out
    .sort((a, b) => a.shift.starts_at.getTime() - b.shift.starts_at.getTime())
    .slice(0, MAX_MY_SHIFTS);
};
