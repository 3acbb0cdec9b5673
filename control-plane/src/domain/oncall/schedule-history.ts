import { newId } from '@lookout/shared';
import type { ScheduleAction, ScheduleHistoryEntry, ScheduleStore } from './schedule-store.js';

/**
 * A schedule's history: one entry per change (written by the store in the same step as the change),
 * its `detail` in words a person reads. Times in details are UTC ISO strings.
 */

export const historyEntry = (
  schedule: { workspace_id: string; id: string },
  actorId: string | null,
  action: ScheduleAction,
  detail: string,
  at: Date,
): ScheduleHistoryEntry => ({
  id: newId(),
  workspace_id: schedule.workspace_id,
  schedule_id: schedule.id,
  at,
  actor_id: actorId,
  action,
  detail,
});

/** A span in words: "from 2026-03-02T09:00:00.000Z to 2026-03-03T09:00:00.000Z". */
export const spanWords = (from: Date, to: Date) => `from ${from.toISOString()} to ${to.toISOString()}`;

/** Each id's email (or the id when the user is gone), from one batched read. */
export const emailsOf = async (
  store: Pick<ScheduleStore, 'getScheduleUsers'>,
  workspaceId: string,
  ids: (string | null)[],
): Promise<Map<string, string>> => {
  const wanted = [...new Set(ids.filter((x): x is string => x !== null))];
  const found = await store.getScheduleUsers(workspaceId, wanted);
  const m = new Map(wanted.map((id) => [id, id]));
  for (const u of found) m.set(u.id, u.email);
  return m;
};

/** Retention: overrides ended and offers closed (or past) this long ago, and history this old, are pruned. */
export const OVERRIDE_RETENTION_DAYS = 90;
export const OFFER_RETENTION_DAYS = 90;
export const HISTORY_RETENTION_DAYS = 400;

/** The cuts of `ScheduleStore.pruneSchedules` at `now`. */
export const scheduleRetentionCuts = (now: Date) => {
  const ago = (days: number) => new Date(now.getTime() - days * 86_400_000);
  return {
    overridesBefore: ago(OVERRIDE_RETENTION_DAYS),
    offersBefore: ago(OFFER_RETENTION_DAYS),
    historyBefore: ago(HISTORY_RETENTION_DAYS),
  };
};
