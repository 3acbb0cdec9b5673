import { Cron } from 'croner';
import { z } from 'zod';
import { canonicalTimezone } from '../heartbeats/schedule.js';
import type { SupportHours, Weekday } from '../types.js';

/**
 * Support hours of an escalation policy, pure: when a `warning` alert may notify (a `critical` one
 * always does; PagerDuty's high and low urgency). `days` are the days a range STARTS on, local times
 * `HH:MM` in `timezone`; a `start` after its `end` runs past midnight (22:00–06:00 on `fri` covers
 * Friday 22:00 to Saturday 06:00). Both ends are wall-clock times, so a range keeps its local hours
 * across DST; when does the next range begin is croner's arithmetic (as heartbeat schedules,
 * heartbeats/schedule.ts): a start that falls in a spring-forward gap begins at the first time after it.
 */

export const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const CRON_DAY: Record<Weekday, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export const supportHoursBody = z.strictObject({
  timezone: z
    .string()
    .min(1)
    .max(64)
    .refine((tz) => canonicalTimezone(tz) !== null, 'is not an IANA time zone (e.g. Europe/Berlin)'),
  days: z
    .array(z.enum(WEEKDAYS as [Weekday, ...Weekday[]]))
    .min(1)
    .max(7)
    .refine((d) => new Set(d).size === d.length, 'names a day twice'),
  start: z.string().regex(HHMM, 'must be a local time HH:MM, 00:00 to 23:59'),
  end: z.string().regex(HHMM, 'must be a local time HH:MM, 00:00 to 23:59'),
});

/** The problems zod cannot see, each naming its field; the value as stored (time zone's spelling, days in order). */
export const checkSupportHours = (
  v: z.output<typeof supportHoursBody>,
  prefix = 'support_hours',
): { value: SupportHours | null; problems: { field: string; message: string }[] } => {
  const problems: { field: string; message: string }[] = [];
  const tz = canonicalTimezone(v.timezone);
  if (!tz)
    problems.push({ field: `${prefix}.timezone`, message: 'is not an IANA time zone (e.g. Europe/Berlin)' });
  if (new Set(v.days).size !== v.days.length)
    problems.push({ field: `${prefix}.days`, message: 'names a day twice' });
  if (v.start === v.end)
    problems.push({
      field: `${prefix}.end`,
      message: 'must differ from start (a range past midnight, e.g. 22:00 to 06:00, is allowed)',
    });
  if (problems.length > 0 || !tz) return { value: null, problems };
  const days = WEEKDAYS.filter((d) => v.days.includes(d));
  return { value: { timezone: tz, days, start: v.start, end: v.end }, problems };
};

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The local weekday and minute of the day of `at` in `timezone`. */
const localTime = (timezone: string, at: Date): { day: Weekday; minute: number } => {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    if (formatters.size >= 1000) formatters.clear();
    formatters.set(timezone, f);
  }
  let day = 'mon';
  let h = 0;
  let m = 0;
  for (const p of f.formatToParts(at)) {
    if (p.type === 'weekday') day = p.value.toLowerCase().slice(0, 3);
    else if (p.type === 'hour') h = Number(p.value);
    else if (p.type === 'minute') m = Number(p.value);
  }
  return { day: day as Weekday, minute: h * 60 + m };
};

const previous = (d: Weekday) => WEEKDAYS[(WEEKDAYS.indexOf(d) + 6) % 7]!;

/** Whether `at` is inside the support hours. */
export const withinSupportHours = (sh: SupportHours, at: Date): boolean => {
  const { day, minute } = localTime(sh.timezone, at);
  const start = minutes(sh.start);
  const end = minutes(sh.end);
  if (start < end) return sh.days.includes(day) && minute >= start && minute < end;
  // Past midnight: the evening of a listed day, or the morning after one.
  return (sh.days.includes(day) && minute >= start) || (sh.days.includes(previous(day)) && minute < end);
};

/** When a notification held at `at` may go: `at` itself inside support hours, else when they next begin. */
export const nextSupportStart = (sh: SupportHours, at: Date): Date => {
  if (withinSupportHours(sh, at)) return at;
  const [h, m] = sh.start.split(':').map(Number) as [number, number];
  const cron = new Cron(`${m} ${h} * * ${sh.days.map((d) => CRON_DAY[d]).join(',')}`, {
    timezone: sh.timezone,
    paused: true,
  });
  // A start always comes within a week; the fallback only guards a calendar croner cannot place.
  return cron.nextRun(at) ?? new Date(at.getTime() + 7 * 86_400_000);
};
