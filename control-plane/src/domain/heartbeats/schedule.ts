import { Cron } from 'croner';
import type { Heartbeat } from '../types.js';

/**
 * Cron schedules of heartbeats: five fields (minute hour day-of-month month day-of-week) or one of the
 * nicknames, read in an IANA time zone. The calendar arithmetic is croner's (docs/decisions.md,
 * "Heartbeats"): it follows Vixie cron across DST changes, so a fixed-time job (a single minute and
 * hour, e.g. `30 2 * * *`) runs once on a fall-back night (at the first 02:30) and, on a
 * spring-forward night whose 02:30 does not exist, at the first valid time after the gap.
 */

export const NICKNAMES: Record<string, string> = {
  '@hourly': '0 * * * *',
  '@daily': '0 0 * * *',
  '@weekly': '0 0 * * 0',
  '@monthly': '0 0 1 * *',
};

/** The five fields a schedule stands for (a nickname's expansion, or the expression with single spaces). */
export const cronFields = (schedule: string): string =>
  NICKNAMES[schedule.trim().toLowerCase()] ?? schedule.trim().split(/\s+/).join(' ');

const crons = new Map<string, Cron>();

/** The parsed schedule, cached (bounded) by expression and zone: parsing is the costly part. */
const cronOf = (schedule: string, timezone: string): Cron => {
  const key = `${schedule}\u0000${timezone}`;
  let c = crons.get(key);
  if (!c) {
    c = new Cron(cronFields(schedule), { timezone, paused: true });
    if (crons.size >= 10_000) crons.delete(crons.keys().next().value as string);
    crons.set(key, c);
  }
  return c;
};

/** Why a schedule is not one we take, or null when it is. */
export const scheduleProblem = (schedule: string): string | null => {
  const s = schedule.trim();
  if (s.startsWith('@')) {
    return NICKNAMES[s.toLowerCase()]
      ? null
      : `must be five cron fields or one of ${Object.keys(NICKNAMES).join(', ')}`;
  }
  if (s.split(/\s+/).length !== 5)
    return 'must have five fields: minute hour day-of-month month day-of-week (e.g. "0 3 * * 1-5")';
  try {
    // A schedule that never fires (30 February) would never expect a ping.
    return cronOf(s, 'UTC').nextRun(new Date(0)) ? null : 'never fires (no such date)';
  } catch (e) {
    return `is not a valid cron expression (${(e as Error).message.replace(/^CronPattern: /, '')})`;
  }
};

/**
 * A time zone as stored: null when the runtime does not know it; its runtime spelling when that is
 * the same name in other letter case (`europe/berlin` → `Europe/Berlin`); else as given (ICU resolves
 * some current names to older aliases, `Asia/Kolkata` → `Asia/Calcutta`: the name given is kept).
 */
export const canonicalTimezone = (timezone: string): string | null => {
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === timezone.toLowerCase() ? resolved : timezone;
  } catch {
    return null;
  }
};

/** The first time the schedule fires strictly after `after`, in real (UTC) time; null if never. */
export const nextRunAfter = (schedule: string, timezone: string, after: Date): Date | null =>
  cronOf(schedule, timezone).nextRun(after);

/**
 * The deadline rule: when the next ping is expected after a ping at `last`. A cron heartbeat expects
 * the schedule's next run after the ping; a period heartbeat, the ping plus the period. The heartbeat
 * is late from then, and down once the grace has passed as well.
 */
export const nextExpectedAfter = (
  h: Pick<Heartbeat, 'schedule' | 'timezone' | 'period_seconds'>,
  last: Date,
): Date | null =>
  h.schedule
    ? nextRunAfter(h.schedule, h.timezone || 'UTC', last)
    : new Date(last.getTime() + h.period_seconds * 1000);

/** How many times the heartbeat is expected to ping in (from, to]; stops counting at `cap`. */
export const expectedRunsBetween = (
  h: Pick<Heartbeat, 'schedule' | 'timezone' | 'period_seconds'>,
  from: Date,
  to: Date,
  cap = 50,
): number => {
  if (!h.schedule)
    return Math.min(cap, Math.floor((to.getTime() - from.getTime()) / (h.period_seconds * 1000)));
  let n = 0;
  let t: Date | null = from;
  while (n < cap) {
    t = nextRunAfter(h.schedule, h.timezone || 'UTC', t);
    if (!t || t > to) break;
    n++;
  }
  return n;
};
