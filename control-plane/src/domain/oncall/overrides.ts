import { AppError, newId } from '@lookout/shared';
import { z } from 'zod';
import { hasRole } from '../tenancy/roles.js';
import type { Role, ScheduleOverride } from '../types.js';
import { problemsIn, throwIfProblems, uuid } from '../validation.js';
import { isoInstant } from './schedule-body.js';
import { emailsOf, historyEntry, spanWords } from './schedule-history.js';
import { MAX_OVERRIDE_DAYS, MAX_UPCOMING_OVERRIDES, type ScheduleStore } from './schedule-store.js';
import { loadSchedule } from './schedules.js';

/**
 * Overrides: a user takes a span of a schedule, beating every layer. A span ends after it starts, is
 * at most MAX_OVERRIDE_DAYS long, does not end in the past and starts within MAX_AHEAD_DAYS; the user
 * is one of the workspace. A member may place only themself, an admin anyone; an override is removed
 * by an admin, by whoever made it or by its user.
 */

/** How far ahead an override or offer may start. */
export const MAX_AHEAD_DAYS = 366;
const DAY_MS = 86_400_000;

const isoTime = isoInstant();

export const overrideBody = z.strictObject({
  user_id: uuid().describe('Who is on call over the span.'),
  starts_at: isoTime,
  ends_at: isoTime,
});

export interface Caller {
  id: string;
  role: Role;
}

/** The rules of a span (an override's or an offer's), fields `starts_at` and `ends_at`. */
export const spanProblems = (starts: Date, ends: Date, now: Date) => {
  const problems: { field: string; message: string }[] = [];
  const ms = ends.getTime() - starts.getTime();
  if (ms <= 0) problems.push({ field: 'ends_at', message: 'must be after starts_at' });
  else if (ms > MAX_OVERRIDE_DAYS * DAY_MS)
    problems.push({ field: 'ends_at', message: `must be at most ${MAX_OVERRIDE_DAYS} days after starts_at` });
  if (ends.getTime() <= now.getTime()) problems.push({ field: 'ends_at', message: 'must be in the future' });
  if (starts.getTime() > now.getTime() + MAX_AHEAD_DAYS * DAY_MS)
    problems.push({ field: 'starts_at', message: `must be within ${MAX_AHEAD_DAYS} days from now` });
  return problems;
};

export const createOverride = async (
  store: ScheduleStore,
  workspaceId: string,
  scheduleId: string,
  caller: Caller,
  body: unknown,
  now: Date,
): Promise<ScheduleOverride> => {
  const parsed = problemsIn(overrideBody, body);
  const problems = [...parsed.problems];
  const v = parsed.data;
  const userId = v?.user_id.toLowerCase();
  if (v) problems.push(...spanProblems(v.starts_at, v.ends_at, now));
  if (userId && (await store.getScheduleUsers(workspaceId, [userId])).length === 0)
    problems.push({ field: 'user_id', message: 'no user with this id in the workspace' });
  throwIfProblems(problems);
  const schedule = await loadSchedule(store, workspaceId, scheduleId);
  if (!hasRole(caller.role, 'admin') && userId !== caller.id)
    throw new AppError(
      'forbidden',
      'A member may create an override only for themself; an admin may for anyone.',
    );
  const override: ScheduleOverride = {
    id: newId(),
    workspace_id: workspaceId,
    schedule_id: schedule.id,
    user_id: userId!,
    starts_at: v!.starts_at,
    ends_at: v!.ends_at,
    created_by: caller.id,
    offer_id: null,
    created_at: now,
  };
  const emails = await emailsOf(store, workspaceId, [override.user_id]);
  const detail = `Override: ${emails.get(override.user_id)} on call ${spanWords(override.starts_at, override.ends_at)}.`;
  const r = await store.insertOverride(
    override,
    historyEntry(schedule, caller.id, 'override_added', detail, now),
    {
      maxUpcoming: MAX_UPCOMING_OVERRIDES,
    },
  );
  if (r === 'not_found') throw new AppError('not_found', 'Schedule not found.');
  if (r === 'limit_reached')
    throw new AppError(
      'conflict',
      `A schedule holds at most ${MAX_UPCOMING_OVERRIDES} overrides not yet ended; remove some first.`,
    );
  return override;
};

export const deleteOverride = async (
  store: ScheduleStore,
  workspaceId: string,
  scheduleId: string,
  overrideId: string,
  caller: Caller,
  now: Date,
) => {
  const o = await store.getOverride(workspaceId, scheduleId, overrideId);
  if (!o) throw new AppError('not_found', 'Override not found.');
  if (!hasRole(caller.role, 'admin') && o.created_by !== caller.id && o.user_id !== caller.id)
    throw new AppError('forbidden', 'Only an admin, whoever made the override or its user may remove it.');
  const emails = await emailsOf(store, workspaceId, [o.user_id]);
  const detail = `Removed the override of ${emails.get(o.user_id)} ${spanWords(o.starts_at, o.ends_at)}.`;
  const entry = historyEntry(
    { workspace_id: workspaceId, id: scheduleId },
    caller.id,
    'override_removed',
    detail,
    now,
  );
  if (!(await store.deleteOverride(workspaceId, scheduleId, overrideId, entry)))
    throw new AppError('not_found', 'Override not found.');
};
