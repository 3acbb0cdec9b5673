import { AppError, newId } from '@lookout/shared';
import type { Schedule, ScheduleOverride, Shift } from '../types.js';
import { throwIfProblems } from '../validation.js';
import {
  createScheduleBody,
  layersOf,
  previewBody,
  scheduleBodyProblems,
  timezoneOf,
  updateScheduleBody,
} from './schedule-body.js';
import { historyEntry } from './schedule-history.js';
import type { SchedulePolicyLookup } from './schedule-policy-lookup.js';
import { MAX_SCHEDULES, type ScheduleStore } from './schedule-store.js';
import { finalShiftsInSlices, gapsBetween } from './shifts-in-slices.js';

/**
 * Schedules (docs/decisions.md, "On-call schedules"): create, edit and delete, each with its history
 * entry; the gaps of the next days (the warning a newcomer sees) and the editor's preview of unsaved
 * layers. A name is unique in the workspace ignoring case; a workspace holds at most MAX_SCHEDULES.
 */

/** How far ahead `gaps` and the preview look. */
export const PREVIEW_DAYS = 14;
/** The most gaps answered. */
export const MAX_GAPS = 50;
const DAY_MS = 86_400_000;

const nameTaken = (name: string) =>
  new AppError('conflict', `Another schedule in this workspace is named "${name}".`, [
    { field: 'name', message: 'is taken by another schedule in this workspace (names ignore case)' },
  ]);
const notFound = () => new AppError('not_found', 'Schedule not found.');

export const loadSchedule = async (
  store: Pick<ScheduleStore, 'getSchedule'>,
  workspaceId: string,
  id: string,
) => {
  const s = await store.getSchedule(workspaceId, id);
  if (!s) throw notFound();
  return s;
};

const layerWords = (s: Schedule) =>
  `${s.layers.length} layer${s.layers.length === 1 ? '' : 's'} in ${s.timezone}`;

export const createSchedule = async (
  store: ScheduleStore,
  workspaceId: string,
  actorId: string | null,
  body: unknown,
  now: Date,
): Promise<Schedule> => {
  const { data, problems } = await scheduleBodyProblems(store, workspaceId, createScheduleBody, body);
  throwIfProblems(problems);
  const v = data!;
  const schedule: Schedule = {
    id: newId(),
    workspace_id: workspaceId,
    name: v.name,
    timezone: timezoneOf(v.timezone),
    layers: layersOf(v.layers),
    created_at: now,
    updated_at: now,
  };
  const entry = historyEntry(
    schedule,
    actorId,
    'created',
    `Created “${schedule.name}”: ${layerWords(schedule)}.`,
    now,
  );
  const outcome = await store.insertSchedule(schedule, entry, { maxSchedules: MAX_SCHEDULES });
  if (outcome === 'name_taken') throw nameTaken(schedule.name);
  if (outcome === 'limit_reached')
    throw new AppError(
      'conflict',
      `A workspace holds at most ${MAX_SCHEDULES} schedules; delete one you no longer use first.`,
    );
  return schedule;
};

/** Validates the body before looking the schedule up, so a bad body is a 422 whatever the id. */
export const updateSchedule = async (
  store: ScheduleStore,
  workspaceId: string,
  actorId: string | null,
  id: string,
  body: unknown,
  now: Date,
): Promise<Schedule> => {
  const { data, problems } = await scheduleBodyProblems(store, workspaceId, updateScheduleBody, body);
  throwIfProblems(problems);
  const patch = data!;
  const existing = await loadSchedule(store, workspaceId, id);
  const next: Schedule = {
    ...existing,
    name: patch.name ?? existing.name,
    timezone: patch.timezone === undefined ? existing.timezone : timezoneOf(patch.timezone),
    layers: patch.layers ? layersOf(patch.layers) : existing.layers,
    updated_at: now,
  };
  const changed = [
    next.name !== existing.name ? `renamed “${existing.name}” to “${next.name}”` : null,
    next.timezone !== existing.timezone ? `time zone ${existing.timezone} → ${next.timezone}` : null,
    patch.layers ? `layers replaced (${layerWords(next)})` : null,
  ].filter((x) => x !== null);
  const detail = changed.length > 0 ? `Edited: ${changed.join('; ')}.` : 'Saved without changes.';
  const outcome = await store.updateSchedule(next, historyEntry(next, actorId, 'updated', detail, now));
  if (outcome === 'name_taken') throw nameTaken(next.name);
  if (outcome === 'not_found') throw notFound();
  return next;
};

/**
 * Refused (409, naming them) while escalation policies page this schedule, as a channel a policy
 * notifies is; a policy saved in the instant between the check and the delete finds nobody on call
 * there and moves on (domain/escalation/on-call-targets.ts).
 */
export const deleteSchedule = async (
  store: Pick<ScheduleStore, 'deleteSchedule' | 'getSchedule'> & SchedulePolicyLookup,
  workspaceId: string,
  id: string,
) => {
  if (!(await store.getSchedule(workspaceId, id))) throw notFound();
  const policies = await store.policiesNamingSchedule(workspaceId, id, 5);
  if (policies.length > 0)
    throw new AppError(
      'conflict',
      `Escalation policies page whoever is on call in this schedule (${policies
        .map((p) => `“${p.name}”`)
        .join(', ')}); remove it from their steps first.`,
    );
  if (!(await store.deleteSchedule(workspaceId, id))) throw notFound();
};

/** The spans of the next PREVIEW_DAYS where nobody is on call (at most MAX_GAPS). */
export const upcomingGaps = async (schedule: Schedule, overrides: ScheduleOverride[], now: Date) => {
  const to = new Date(now.getTime() + PREVIEW_DAYS * DAY_MS);
  return gapsBetween(await finalShiftsInSlices(schedule, overrides, now, to), now, to).slice(0, MAX_GAPS);
};

/** The schedule's overrides over the next PREVIEW_DAYS. */
export const upcomingOverrides = (store: Pick<ScheduleStore, 'listOverrides'>, s: Schedule, now: Date) =>
  store.listOverrides(s.workspace_id, s.id, now, new Date(now.getTime() + PREVIEW_DAYS * DAY_MS));

/**
 * The editor's live preview: a create body (validated the same) and optionally a saved schedule whose
 * overrides apply, as the final shifts and gaps of the next PREVIEW_DAYS. Stores nothing.
 */
export const previewSchedule = async (
  store: ScheduleStore,
  workspaceId: string,
  body: unknown,
  now: Date,
): Promise<{ shifts: Shift[]; gaps: { starts_at: Date; ends_at: Date }[] }> => {
  const { data, problems } = await scheduleBodyProblems(store, workspaceId, previewBody, body);
  throwIfProblems(problems);
  const v = data!;
  const schedule: Schedule = {
    id: v.schedule_id?.toLowerCase() ?? newId(),
    workspace_id: workspaceId,
    name: v.name ?? 'Preview',
    timezone: timezoneOf(v.timezone),
    layers: layersOf(v.layers),
    created_at: now,
    updated_at: now,
  };
  if (v.schedule_id && !(await store.getSchedule(workspaceId, schedule.id)))
    throwIfProblems([{ field: 'schedule_id', message: 'no schedule with this id in the workspace' }]);
  const overrides = v.schedule_id ? await upcomingOverrides(store, schedule, now) : [];
  const to = new Date(now.getTime() + PREVIEW_DAYS * DAY_MS);
  const shifts = await finalShiftsInSlices(schedule, overrides, now, to);
  return { shifts, gaps: gapsBetween(shifts, now, to).slice(0, MAX_GAPS) };
};
