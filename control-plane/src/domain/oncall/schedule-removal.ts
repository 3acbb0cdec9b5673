import type { Schedule, ScheduleOverride } from '../types.js';
import { historyEntry } from './schedule-history.js';
import type { ScheduleHistoryEntry, ScheduleLeftByUser, ShiftOffer } from './schedule-store.js';
import { withoutUserInSchedule } from './shifts.js';

/**
 * What removing a user from the workspace does to its schedules, computed for the member removal's own
 * transaction (store/sqlite/members.ts, store/mongo/members.ts): each schedule naming them is rewritten
 * by `withoutUserInSchedule` (the turn order continues without them from `now`), their overrides from
 * `now` on go (one in progress ends at `now`), their open offers go, and every schedule touched gets a
 * `user_removed` history entry. `left` names each rewritten schedule and the layers it left with no
 * users, so the removal's answer warns of the gap instead of leaving it silent.
 */
export const schedulesWithoutUser = (input: {
  user: { id: string; email: string };
  naming: Schedule[];
  overrides: ScheduleOverride[];
  offers: ShiftOffer[];
  now: Date;
}): {
  updated: Schedule[];
  /** Overrides to delete (they start at or after `now`). */
  deleteOverrideIds: string[];
  /** Overrides in progress, to end at `now`. */
  endOverrideIds: string[];
  deleteOfferIds: string[];
  entries: ScheduleHistoryEntry[];
  left: ScheduleLeftByUser[];
} => {
  const { user, naming, overrides, offers, now } = input;
  const t = now.getTime();
  const updated: Schedule[] = [];
  const left: ScheduleLeftByUser[] = [];
  const words = new Map<string, { ws: string; parts: string[] }>();
  const note = (ws: string, scheduleId: string, part: string) => {
    const w = words.get(scheduleId) ?? { ws, parts: [] };
    w.parts.push(part);
    words.set(scheduleId, w);
  };
  for (const s of naming) {
    const next = withoutUserInSchedule(s, user.id, now);
    if (!next) continue;
    updated.push({ ...next, updated_at: now });
    const layers = s.layers.flatMap((l, i) => (l.users.includes(user.id) ? [i + 1] : []));
    const empty = next.layers.flatMap((l, i) => (l.users.length === 0 ? [i + 1] : []));
    left.push({ id: s.id, name: s.name, empty_layers: empty });
    note(
      s.workspace_id,
      s.id,
      `taken out of layer${layers.length === 1 ? '' : 's'} ${layers.join(', ')}${
        empty.length > 0
          ? ` (layer${empty.length === 1 ? '' : 's'} ${empty.join(', ')} now cover${empty.length === 1 ? 's' : ''} nobody)`
          : ''
      }`,
    );
  }
  const future = overrides.filter((o) => o.ends_at.getTime() > t);
  const deleteOverrideIds = future.filter((o) => o.starts_at.getTime() >= t).map((o) => o.id);
  const endOverrideIds = future.filter((o) => o.starts_at.getTime() < t).map((o) => o.id);
  for (const o of future)
    note(
      o.workspace_id,
      o.schedule_id,
      `their override ${o.starts_at.toISOString()} to ${o.ends_at.toISOString()} ended`,
    );
  const open = offers.filter((o) => o.status === 'open');
  for (const o of open)
    note(
      o.workspace_id,
      o.schedule_id,
      `their open shift offer ${o.starts_at.toISOString()} to ${o.ends_at.toISOString()} withdrawn`,
    );
  const entries = [...words].map(([scheduleId, w]) =>
    historyEntry(
      { workspace_id: w.ws, id: scheduleId },
      null,
      'user_removed',
      `${user.email} left the workspace: ${w.parts.join('; ')}.`,
      now,
    ),
  );
  return { updated, deleteOverrideIds, endOverrideIds, deleteOfferIds: open.map((o) => o.id), entries, left };
};
