import { z } from 'zod';
import type { MemberStore } from '../access/member-store.js';
import type { ContactMethodStore } from '../contacts/contact-method-store.js';
import { type ContactServices, contactTarget } from '../contacts/contact-methods.js';
import {
  type Dispatcher,
  emailTarget,
  type OutgoingMessage,
  type Target,
} from '../notifications/messages.js';
import type { TenancyStore } from '../tenancy/tenancy-store.js';
import type { Schedule, Shift, User } from '../types.js';
import { parseOrThrow } from '../validation.js';
import type { HandoffNoticeStore, HandoffSettings } from './handoff-notice-store.js';
import type { ScheduleStore } from './schedule-store.js';
import { finalShiftsInSlices } from './shifts-in-slices.js';

/**
 * Handoff notices: each on-call user hears `lead_minutes` before each of their shifts starts, and again
 * when it starts, through their verified contact methods and account email. Shifts are the final ones
 * (layers merged, overrides applied), so a user whose shift merely continues hears nothing new.
 *
 * Cost: one cursor per schedule says when its next notice is due (an index on due_at). A pass reads
 * only the due cursors; each due schedule costs one finalShifts over [now − grace, now + 7 days +
 * 1 day] and one override read, then its cursor moves to its next notice (or HANDOFF_RESYNC_MS ahead,
 * whichever is sooner). A schedule or override write moves its cursor to now; a user's new lead moves
 * their workspace's cursors to now. Exactly once: each notice is claimed by its unique key before it
 * is sent (a replica that dies between the claim and the send loses that one notice: at most once).
 */

export const HANDOFF_DEFAULTS = { enabled: true, lead_minutes: 60 } as const;
export const MIN_LEAD_MINUTES = 5;
export const MAX_LEAD_MINUTES = 10_080;
/** A notice found due longer ago than this (every replica was down) is no longer sent. */
export const HANDOFF_GRACE_MS = 15 * 60_000;
/** Each schedule is looked at again at least this often, whatever its cursor says. */
export const HANDOFF_RESYNC_MS = 6 * 3_600_000;
/** Sent notices are kept this long (their keys keep a notice from being sent twice). */
export const HANDOFF_NOTICE_RETENTION_DAYS = 30;

const DAY = 86_400_000;

export const handoffSettingsBody = z.strictObject({
  enabled: z.boolean().optional(),
  lead_minutes: z.int().min(MIN_LEAD_MINUTES).max(MAX_LEAD_MINUTES).optional(),
});

/** A user's settings, the defaults when never set. */
export const handoffSettingsOf = async (
  store: Pick<HandoffNoticeStore, 'getHandoffSettings'>,
  workspaceId: string,
  userId: string,
): Promise<Pick<HandoffSettings, 'enabled' | 'lead_minutes'>> =>
  (await store.getHandoffSettings(workspaceId, userId)) ?? HANDOFF_DEFAULTS;

/** PUT: fields left out keep their value; a new lead makes the workspace's schedules be looked at again. */
export const putHandoffSettings = async (
  store: Pick<HandoffNoticeStore, 'getHandoffSettings' | 'putHandoffSettings' | 'advanceHandoffCursors'>,
  workspaceId: string,
  userId: string,
  body: unknown,
  now: Date,
): Promise<HandoffSettings> => {
  const v = parseOrThrow(handoffSettingsBody, body);
  const was = await handoffSettingsOf(store, workspaceId, userId);
  const next: HandoffSettings = {
    workspace_id: workspaceId,
    user_id: userId,
    enabled: v.enabled ?? was.enabled,
    lead_minutes: v.lead_minutes ?? was.lead_minutes,
    updated_at: now,
  };
  await store.putHandoffSettings(next);
  if (next.enabled && (!was.enabled || next.lead_minutes !== was.lead_minutes))
    await store.advanceHandoffCursors(workspaceId, now);
  return next;
};

export type HandoffJobStore = HandoffNoticeStore &
  Pick<TenancyStore, 'getUser' | 'getWorkspace'> &
  Pick<ContactMethodStore, 'listContactMethods'> &
  Pick<ScheduleStore, 'getSchedule' | 'listOverrides'>;

export const noticeKey = (scheduleId: string, userId: string, startsAt: Date, kind: 'before' | 'start') =>
  `${scheduleId}:${userId}:${startsAt.getTime()}:${kind}`;

/** "Mon 7 Dec 09:00 (Europe/Berlin)". */
export const localTime = (d: Date, timezone: string): string => {
  const f = new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const p = Object.fromEntries(f.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.weekday} ${p.day} ${p.month} ${p.hour}:${p.minute} (${timezone})`;
};

/** The words of a notice. `openEnded`: the shift runs past the window looked at. */
export const noticeMessage = (
  subdomain: string,
  schedule: Pick<Schedule, 'name' | 'timezone'>,
  shift: Pick<Shift, 'starts_at' | 'ends_at'>,
  kind: 'before' | 'start',
  key: string,
  openEnded: boolean,
): OutgoingMessage => {
  const until = `${openEnded ? 'at least ' : ''}${localTime(shift.ends_at, schedule.timezone)}`;
  const text =
    kind === 'before'
      ? `You are on call in ${schedule.name} from ${localTime(shift.starts_at, schedule.timezone)} until ${until}.`
      : `You are on call in ${schedule.name} now, until ${until}.`;
  const subject =
    kind === 'before'
      ? `[Lookout ${subdomain}] On call in ${schedule.name} from ${localTime(shift.starts_at, schedule.timezone)}`
      : `[Lookout ${subdomain}] You are on call in ${schedule.name} now`;
  return {
    event: 'test',
    subject,
    text,
    dedup_key: key,
    alert: null,
    payload: {
      event: 'handoff_notice',
      kind,
      schedule: schedule.name,
      starts_at: shift.starts_at.toISOString(),
      ends_at: shift.ends_at.toISOString(),
    },
  };
};

/** A user's account email and each verified contact method whose service is set up. */
const userTargets = async (
  store: Pick<ContactMethodStore, 'listContactMethods'>,
  services: ContactServices,
  user: User,
): Promise<Target[]> => {
  const out = [emailTarget([user.email], user.workspace_id)];
  for (const m of await store.listContactMethods(user.workspace_id, user.id)) {
    const t = m.verified_at ? contactTarget(m, services) : null;
    if (t) out.push(t);
  }
  return out;
};

/**
 * Sends the notices of one schedule due at `now` (each claimed by its key first) and returns when
 * the next one is due (at most HANDOFF_RESYNC_MS ahead), or null when the schedule is gone.
 */
export const noticeSchedule = async (
  deps: { store: HandoffJobStore; dispatcher: Dispatcher; services: ContactServices },
  workspaceId: string,
  scheduleId: string,
  now: Date,
): Promise<Date | null> => {
  const { store } = deps;
  const schedule = await store.getSchedule(workspaceId, scheduleId);
  if (!schedule) return null;
  const t = now.getTime();
  const from = new Date(t - HANDOFF_GRACE_MS);
  const to = new Date(t + MAX_LEAD_MINUTES * 60_000 + DAY);
  const overrides = await store.listOverrides(workspaceId, scheduleId, from, to);
  const shifts = await finalShiftsInSlices(schedule, overrides, from, to);
  const settings = new Map<string, Pick<HandoffSettings, 'enabled' | 'lead_minutes'>>();
  let next = t + HANDOFF_RESYNC_MS;
  const sends: Promise<unknown>[] = [];
  for (const shift of shifts) {
    const start = shift.starts_at.getTime();
    // Clipped by the window: it began before, so its start is not now.
    if (start <= from.getTime()) continue;
    if (!settings.has(shift.user_id))
      settings.set(shift.user_id, await handoffSettingsOf(store, workspaceId, shift.user_id));
    const s = settings.get(shift.user_id)!;
    if (!s.enabled) continue;
    const due = [
      { kind: 'before' as const, at: start - s.lead_minutes * 60_000, until: start },
      { kind: 'start' as const, at: start, until: start + HANDOFF_GRACE_MS },
    ];
    for (const d of due) {
      if (d.at > t) {
        next = Math.min(next, d.at);
        continue;
      }
      if (t >= d.until) continue;
      const key = noticeKey(scheduleId, shift.user_id, shift.starts_at, d.kind);
      const claimed = await store.claimHandoffNotice({
        key,
        workspace_id: workspaceId,
        schedule_id: scheduleId,
        user_id: shift.user_id,
        shift_starts_at: shift.starts_at,
        kind: d.kind,
        sent_at: now,
      });
      if (!claimed) continue;
      const user = await store.getUser(workspaceId, shift.user_id);
      const ws = await store.getWorkspace(workspaceId);
      if (!user || !ws) continue;
      const message = noticeMessage(ws.subdomain, schedule, shift, d.kind, key, shift.ends_at >= to);
      for (const target of await userTargets(store, deps.services, user))
        sends.push(
          deps.dispatcher
            .send(target, message, `${key}:${deps.dispatcher.describe(target)}`, async () => {})
            .catch(() => {}),
        );
    }
  }
  await Promise.all(sends);
  return new Date(Math.max(next, t + 1_000));
};

/**
 * One pass of the handoff job on this replica: the due cursors, each claimed by compare-and-set (one
 * replica wins; the claim moves it to the end of a lease), its notices sent, then moved to its next
 * notice. A replica that dies holding one leaves it due again when the lease ends.
 */
export const runHandoffNotices = async (
  deps: { store: HandoffJobStore; dispatcher: Dispatcher; services: ContactServices },
  now: Date,
  opts: { leaseMs: number; batch?: number },
): Promise<number> => {
  const { store } = deps;
  let sent = 0;
  for (const c of await store.listDueHandoffCursors(now, opts.batch ?? 100)) {
    const lease = new Date(now.getTime() + opts.leaseMs);
    if (!(await store.claimHandoffCursor(c.workspace_id, c.schedule_id, c.due_at, lease))) continue;
    const next = await noticeSchedule(deps, c.workspace_id, c.schedule_id, now);
    if (next) await store.setHandoffCursor({ ...c, due_at: next });
    else await store.deleteHandoffCursor(c.workspace_id, c.schedule_id);
    sent++;
  }
  return sent;
};

/**
 * The store as the process writes through it (process/wiring.ts): every write that changes who is on
 * call in a schedule (the schedule, an override, a trade, a user's removal) also moves that schedule's handoff cursor to
 * now, so its notices are worked out again on the next pass.
 */
export const touchingHandoffCursors = <
  S extends ScheduleStore & Pick<HandoffNoticeStore, 'setHandoffCursor'> & Pick<MemberStore, 'removeUser'>,
>(
  store: S,
  now: () => Date,
): S => {
  const touch = (workspace_id: string, schedule_id: string) =>
    store.setHandoffCursor({ workspace_id, schedule_id, due_at: now() });
  return {
    ...store,
    async insertSchedule(s, entry, limit) {
      const r = await store.insertSchedule(s, entry, limit);
      if (r === 'inserted') await touch(s.workspace_id, s.id);
      return r;
    },
    async updateSchedule(s, entry) {
      const r = await store.updateSchedule(s, entry);
      if (r === 'updated') await touch(s.workspace_id, s.id);
      return r;
    },
    async insertOverride(o, entry, limit) {
      const r = await store.insertOverride(o, entry, limit);
      if (r === 'inserted') await touch(o.workspace_id, o.schedule_id);
      return r;
    },
    async deleteOverride(workspaceId, scheduleId, id, entry) {
      const r = await store.deleteOverride(workspaceId, scheduleId, id, entry);
      if (r) await touch(workspaceId, scheduleId);
      return r;
    },
    // A removed user leaves the schedules that named them (in the removal's own step).
    async removeUser(workspaceId, id, at) {
      const r = await store.removeUser(workspaceId, id, at);
      if (r.outcome === 'removed') for (const sc of r.schedules) await touch(workspaceId, sc.id);
      return r;
    },
    async closeOffer(input) {
      const r = await store.closeOffer(input);
      if (r === 'closed') await touch(input.workspaceId, input.scheduleId);
      return r;
    },
  };
};
