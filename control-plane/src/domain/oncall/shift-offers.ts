import { AppError, newId } from '@lookout/shared';
import { z } from 'zod';
import { hasRole } from '../tenancy/roles.js';
import type { ScheduleOverride } from '../types.js';
import { freeText, problemsIn, throwIfProblems, uuid } from '../validation.js';
import { type Caller, spanProblems } from './overrides.js';
import { isoInstant } from './schedule-body.js';
import { emailsOf, historyEntry, spanWords } from './schedule-history.js';
import { MAX_OPEN_OFFERS, type ScheduleStore, type ShiftOffer } from './schedule-store.js';
import { loadSchedule } from './schedules.js';
import { finalShiftsInSlices } from './shifts-in-slices.js';

/**
 * Shift trades: a user on call for a whole span offers it; another user takes it, or an admin assigns
 * it, and it becomes an override for them (the offer's compare-and-set, the override and the history
 * entry are one store step: two takers never both win). The offerer or an admin withdraws it.
 */

const isoTime = isoInstant();

export const offerBody = z.strictObject({
  starts_at: isoTime,
  ends_at: isoTime,
  note: freeText(500, 'one').optional().describe('Why, in a line (at most 500 characters).'),
});
export const assignBody = z.strictObject({ user_id: uuid().describe('Who takes the shift.') });

/** True when `userId` is on call in the schedule over the whole of [from, to). */
const onCallThroughout = async (
  store: ScheduleStore,
  workspaceId: string,
  scheduleId: string,
  userId: string,
  from: Date,
  to: Date,
) => {
  const schedule = await loadSchedule(store, workspaceId, scheduleId);
  const overrides = await store.listOverrides(workspaceId, scheduleId, from, to);
  let t = from.getTime();
  for (const s of await finalShiftsInSlices(schedule, overrides, from, to)) {
    if (s.starts_at.getTime() > t || s.user_id !== userId) return false;
    t = s.ends_at.getTime();
  }
  return t >= to.getTime();
};

export const offerShift = async (
  store: ScheduleStore,
  workspaceId: string,
  scheduleId: string,
  caller: Caller,
  body: unknown,
  now: Date,
): Promise<ShiftOffer> => {
  const parsed = problemsIn(offerBody, body);
  const problems = [...parsed.problems];
  const v = parsed.data;
  if (v) problems.push(...spanProblems(v.starts_at, v.ends_at, now));
  throwIfProblems(problems);
  const schedule = await loadSchedule(store, workspaceId, scheduleId);
  if (!(await onCallThroughout(store, workspaceId, schedule.id, caller.id, v!.starts_at, v!.ends_at)))
    throwIfProblems([
      { field: 'starts_at', message: 'you are not on call in this schedule for the whole span offered' },
    ]);
  const offer: ShiftOffer = {
    id: newId(),
    workspace_id: workspaceId,
    schedule_id: schedule.id,
    user_id: caller.id,
    starts_at: v!.starts_at,
    ends_at: v!.ends_at,
    note: v!.note?.trim() || null,
    status: 'open',
    taken_by: null,
    override_id: null,
    created_at: now,
    closed_at: null,
  };
  const emails = await emailsOf(store, workspaceId, [caller.id]);
  const detail = `${emails.get(caller.id)} offered their shift ${spanWords(offer.starts_at, offer.ends_at)}.`;
  const r = await store.insertOffer(offer, historyEntry(schedule, caller.id, 'shift_offered', detail, now), {
    maxOpen: MAX_OPEN_OFFERS,
  });
  if (r === 'not_found') throw new AppError('not_found', 'Schedule not found.');
  if (r === 'limit_reached')
    throw new AppError(
      'conflict',
      `A schedule holds at most ${MAX_OPEN_OFFERS} open offers; withdraw some first.`,
    );
  return offer;
};

const loadOffer = async (store: ScheduleStore, workspaceId: string, scheduleId: string, offerId: string) => {
  const o = await store.getOffer(workspaceId, scheduleId, offerId);
  if (!o) throw new AppError('not_found', 'Shift offer not found.');
  return o;
};

const notOpen = (o: ShiftOffer) =>
  new AppError('conflict', `This offer is ${o.status === 'open' ? 'no longer open' : o.status} already.`);

/** Take (by another user) or assign (by an admin, to `userId`): the offer becomes an override for them. */
const closeOffer = async (
  store: ScheduleStore,
  workspaceId: string,
  scheduleId: string,
  offerId: string,
  caller: Caller,
  to: string,
  status: 'taken' | 'assigned',
  now: Date,
): Promise<{ offer: ShiftOffer; override: ScheduleOverride }> => {
  const offer = await loadOffer(store, workspaceId, scheduleId, offerId);
  if (offer.status !== 'open') throw notOpen(offer);
  if (offer.ends_at.getTime() <= now.getTime())
    throw new AppError('conflict', 'This offer’s span has ended; it can no longer be taken.');
  const override: ScheduleOverride = {
    id: newId(),
    workspace_id: workspaceId,
    schedule_id: scheduleId,
    user_id: to,
    starts_at: offer.starts_at,
    ends_at: offer.ends_at,
    created_by: caller.id,
    offer_id: offer.id,
    created_at: now,
  };
  const emails = await emailsOf(store, workspaceId, [offer.user_id, to, caller.id]);
  const span = spanWords(offer.starts_at, offer.ends_at);
  const detail =
    status === 'taken'
      ? `${emails.get(to)} took the shift ${emails.get(offer.user_id)} offered, ${span}.`
      : `${emails.get(caller.id)} assigned the shift ${emails.get(offer.user_id)} offered to ${emails.get(to)}, ${span}.`;
  const action = status === 'taken' ? 'shift_taken' : 'shift_assigned';
  const r = await store.closeOffer({
    workspaceId,
    scheduleId,
    offerId,
    status,
    override,
    entry: historyEntry({ workspace_id: workspaceId, id: scheduleId }, caller.id, action, detail, now),
  });
  if (r === 'not_found') throw new AppError('not_found', 'Shift offer not found.');
  if (r === 'not_open') throw notOpen(await loadOffer(store, workspaceId, scheduleId, offerId));
  return {
    offer: { ...offer, status, taken_by: to, override_id: override.id, closed_at: now },
    override,
  };
};

export const takeOffer = async (
  store: ScheduleStore,
  workspaceId: string,
  scheduleId: string,
  offerId: string,
  caller: Caller,
  now: Date,
) => {
  const offer = await loadOffer(store, workspaceId, scheduleId, offerId);
  if (offer.user_id === caller.id)
    throw new AppError('conflict', 'You offered this shift; another user takes it (or withdraw the offer).');
  return closeOffer(store, workspaceId, scheduleId, offerId, caller, caller.id, 'taken', now);
};

export const assignOffer = async (
  store: ScheduleStore,
  workspaceId: string,
  scheduleId: string,
  offerId: string,
  caller: Caller,
  body: unknown,
  now: Date,
) => {
  const parsed = problemsIn(assignBody, body);
  const problems = [...parsed.problems];
  const userId = parsed.data?.user_id.toLowerCase();
  if (userId && (await store.getScheduleUsers(workspaceId, [userId])).length === 0)
    problems.push({ field: 'user_id', message: 'no user with this id in the workspace' });
  throwIfProblems(problems);
  const offer = await loadOffer(store, workspaceId, scheduleId, offerId);
  if (offer.user_id === userId)
    throwIfProblems([
      { field: 'user_id', message: 'is the user who offered the shift; assign it to someone else' },
    ]);
  return closeOffer(store, workspaceId, scheduleId, offerId, caller, userId!, 'assigned', now);
};

export const withdrawOffer = async (
  store: ScheduleStore,
  workspaceId: string,
  scheduleId: string,
  offerId: string,
  caller: Caller,
  now: Date,
): Promise<ShiftOffer> => {
  const offer = await loadOffer(store, workspaceId, scheduleId, offerId);
  if (offer.user_id !== caller.id && !hasRole(caller.role, 'admin'))
    throw new AppError('forbidden', 'Only the user who offered the shift, or an admin, may withdraw it.');
  if (offer.status !== 'open') throw notOpen(offer);
  const emails = await emailsOf(store, workspaceId, [offer.user_id, caller.id]);
  const detail = `${emails.get(caller.id)} withdrew the offer of ${emails.get(offer.user_id)}’s shift ${spanWords(offer.starts_at, offer.ends_at)}.`;
  const entry = historyEntry(
    { workspace_id: workspaceId, id: scheduleId },
    caller.id,
    'offer_withdrawn',
    detail,
    now,
  );
  const r = await store.withdrawOffer(workspaceId, scheduleId, offerId, entry);
  if (r === 'not_found') throw new AppError('not_found', 'Shift offer not found.');
  if (r === 'not_open') throw notOpen(await loadOffer(store, workspaceId, scheduleId, offerId));
  return { ...offer, status: 'withdrawn', closed_at: now };
};
