import { setImmediate as nextTurn } from 'node:timers/promises';
import { AppError, digestsEqual, hashSecret, newId, randomToken } from '@lookout/shared';
import type { TenancyStore } from '../tenancy/tenancy-store.js';
import type { Schedule, Shift, User } from '../types.js';
import type { CalendarFeed, CalendarFeedKind, CalendarFeedStore } from './calendar-feed-store.js';
import { type FeedEvent, renderCalendar } from './calendar-ics.js';
import { schedulesOfUser } from './on-call-questions.js';
import type { ScheduleStore } from './schedule-store.js';
import { MAX_WINDOW_DAYS } from './shifts.js';
import { finalShiftsInSlices } from './shifts-in-slices.js';

/**
 * Calendar feeds: a secret URL per schedule (every final shift) and per user (their shifts in every
 * schedule of the workspace), `<workspace URL>/calendars/<token>.ics`, served by http/calendar-feed.ts.
 * The token is 256 random bits, stored only as its SHA-256, looked up through a unique index and
 * compared in constant time; it is shown once. Making a new one replaces (revokes) the old one of the
 * same subject in one store step. A feed stops working when its schedule is deleted or when the user
 * who made it (the subscriber, for a user feed) leaves the workspace, and the job deletes it once unread
 * for FEED_UNUSED_DAYS. Unknown tokens are answered 404 through the failed-credential limit (the caller's).
 */

/** The feed's days: FEED_PAST_DAYS back, MAX_WINDOW_DAYS in all (the engine's bound). */
export const FEED_PAST_DAYS = 7;
/** A feed no calendar has read for this long (or, never read, made this long ago) is deleted. */
export const FEED_UNUSED_DAYS = 90;
/** `last_used_at` is written at most once per this long per feed. */
export const FEED_USE_RESOLUTION_MS = 3600_000;
/** At most this many events in one feed (the earliest kept): a user in 200 busy schedules stays bounded. */
export const MAX_FEED_EVENTS = 5_000;
const TOKEN_PREFIX = 'lcal.';
/** A token as randomToken makes it: the prefix and 32 bytes of base64url. Anything else is not looked up. */
const TOKEN_SHAPE = /^lcal\.[A-Za-z0-9_-]{43}$/;
const DAY_MS = 86_400_000;

/** The schedule reads a feed needs. */
export type ScheduleReads = Pick<
  ScheduleStore,
  'getSchedule' | 'listWorkspaceSchedules' | 'listOverrides' | 'listUserOverrides'
>;

export type CalendarFeedPorts = CalendarFeedStore & ScheduleReads & Pick<TenancyStore, 'getUser'>;

/** The path of a feed's URL below the workspace's base URL. */
export const calendarFeedPath = (token: string) => `/calendars/${token}.ics`;

/**
 * Makes the subject's feed (replacing the one it had) and returns its token: the caller shows it once,
 * in the URL, and never logs it. A schedule must be in the workspace (404 otherwise).
 */
export const createCalendarFeed = async (
  store: CalendarFeedStore & Pick<ScheduleReads, 'getSchedule'>,
  input: {
    workspaceId: string;
    kind: CalendarFeedKind;
    subjectId: string;
    createdBy: string | null;
    now: Date;
  },
): Promise<string> => {
  if (input.kind === 'schedule' && !(await store.getSchedule(input.workspaceId, input.subjectId)))
    throw new AppError('not_found', 'No schedule with this id in the workspace.');
  const token = randomToken(TOKEN_PREFIX);
  await store.replaceCalendarFeed({
    id: newId(),
    workspace_id: input.workspaceId,
    kind: input.kind,
    subject_id: input.subjectId,
    token_hash: hashSecret(token),
    created_by: input.createdBy,
    created_at: input.now,
    last_used_at: null,
  });
  return token;
};

/** Revokes the subject's feed; 404 when it has none (or the schedule is not in the workspace). */
export const revokeCalendarFeed = async (
  store: CalendarFeedStore & Pick<ScheduleReads, 'getSchedule'>,
  workspaceId: string,
  kind: CalendarFeedKind,
  subjectId: string,
) => {
  if (kind === 'schedule' && !(await store.getSchedule(workspaceId, subjectId)))
    throw new AppError('not_found', 'No schedule with this id in the workspace.');
  if (!(await store.deleteCalendarFeed(workspaceId, kind, subjectId)))
    throw new AppError(
      'not_found',
      kind === 'schedule'
        ? 'This schedule has no calendar URL.'
        : 'You have no calendar URL; make one with POST /me/ical-url.',
    );
};

/** The window a feed read at `now` covers: whole UTC days, so a shift cut at its start is cut the same all day. */
export const feedWindow = (now: Date) => {
  const from = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - FEED_PAST_DAYS * DAY_MS);
  return { from, to: new Date(from.getTime() + MAX_WINDOW_DAYS * DAY_MS) };
};

/** The feed `token` opens in the workspace, or null (unknown, another workspace's, or no longer valid). */
const findFeed = async (store: CalendarFeedPorts, workspaceId: string, token: string) => {
  if (!TOKEN_SHAPE.test(token)) return null;
  const hash = hashSecret(token);
  const feed = await store.findCalendarFeed(hash);
  if (!feed || !digestsEqual(feed.token_hash, hash) || feed.workspace_id !== workspaceId) return null;
  return feed;
};

const sourceText = (s: Shift, email: (id: string | null) => Promise<string | null>) =>
  s.source.kind === 'layer'
    ? Promise.resolve(`Layer ${s.source.layer}: ${s.source.layer_name}`)
    : email(s.source.created_by).then((by) => (by ? `Override made by ${by}` : 'Override'));

/**
 * The feed's calendar text for a request on the workspace's host, or null: the caller answers 404
 * and counts a failed credential. Writes `last_used_at` at most once an hour.
 */
export const readCalendarFeed = async (
  store: CalendarFeedPorts,
  input: { workspaceId: string; host: string; token: string; now: Date },
): Promise<string | null> => {
  const { workspaceId, now } = input;
  const feed = await findFeed(store, workspaceId, input.token);
  if (!feed) return null;
  const users = new Map<string, Promise<User | null>>();
  const userOf = (id: string) => {
    let u = users.get(id);
    if (!u) {
      u = store.getUser(workspaceId, id);
      users.set(id, u);
    }
    return u;
  };
  const email = async (id: string | null) => (id ? ((await userOf(id))?.email ?? null) : null);
  // Whoever made it has left: their URL dies with their membership (a user feed's subject is its maker).
  // Not deleted here (a delete by subject could take a newer feed made meanwhile): unread, the job
  // prunes it.
  if (feed.created_by && !(await userOf(feed.created_by))) return null;
  if (feed.kind === 'user' && !(await userOf(feed.subject_id))) return null;
  const { from, to } = feedWindow(now);
  const schedules =
    feed.kind === 'schedule'
      ? [await store.getSchedule(workspaceId, feed.subject_id)].filter((s): s is Schedule => s !== null)
      : await schedulesOfUser(store, workspaceId, feed.subject_id, from, to);
  if (feed.kind === 'schedule' && schedules.length === 0) return null;

  const events: FeedEvent[] = [];
  for (const schedule of schedules) {
    const overrides = await store.listOverrides(workspaceId, schedule.id, from, to);
    for (const s of await finalShiftsInSlices(schedule, overrides, from, to)) {
      if (feed.kind === 'user' && s.user_id !== feed.subject_id) continue;
      const who = (await email(s.user_id)) ?? 'a former member';
      events.push({
        uid: `${feed.kind}-${schedule.id}-${s.user_id}-${s.starts_at.getTime()}@${input.host}`,
        starts_at: s.starts_at,
        ends_at: s.ends_at,
        timezone: schedule.timezone,
        summary:
          feed.kind === 'schedule' ? `${who} on call — ${schedule.name}` : `On call — ${schedule.name}`,
        description: `${who} is on call in ${schedule.name}. ${await sourceText(s, email)}.`,
      });
    }
    // A user's feed computes each of their schedules: one at a time, never holding the loop.
    if (schedules.length > 1) await nextTurn();
  }
  events.sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime());
  const subject =
    feed.kind === 'schedule' ? schedules[0]!.name : ((await email(feed.subject_id)) ?? 'a member');
  const text = await renderCalendar({
    name: feed.kind === 'schedule' ? `${subject} on call` : `My on-call shifts (${subject})`,
    description:
      feed.kind === 'schedule'
        ? `Who is on call in ${subject}, from Lookout.`
        : `The on-call shifts of ${subject} in every schedule, from Lookout.`,
    now,
    events: events.slice(0, MAX_FEED_EVENTS),
    zones: schedules.map((s) => s.timezone),
  });
  if (!feed.last_used_at || now.getTime() - feed.last_used_at.getTime() >= FEED_USE_RESOLUTION_MS)
    await store.touchCalendarFeed(feed.id, now, new Date(now.getTime() - FEED_USE_RESOLUTION_MS + 1));
  return text;
};

export type { CalendarFeed };
