/**
 * Wall-clock times in a schedule's time zone with the browser's Intl (no date library in the bundle):
 * the parts of an instant there, the instant of a local time there, midnights for a timeline's days.
 */

const parts = new Map<string, Intl.DateTimeFormat>();
/** One formatter per zone, kept (a workspace has at most a few hundred schedules). */
const partsFormat = (tz: string) => {
  let f = parts.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
    });
    if (parts.size > 500) parts.clear();
    parts.set(tz, f);
  }
  return f;
};

/** Whether the browser knows this IANA zone. */
export const knownZone = (tz: string) => {
  try {
    partsFormat(tz);
    return true;
  } catch {
    return false;
  }
};

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 'mon' … 'sun'. */
  weekday: string;
}

export const wallTime = (at: Date, tz: string): WallTime => {
  const p: Record<string, string> = {};
  for (const x of partsFormat(tz).formatToParts(at)) p[x.type] = x.value;
  return {
    year: Number(p.year),
    month: Number(p.month),
    day: Number(p.day),
    hour: Number(p.hour) % 24,
    minute: Number(p.minute),
    weekday: (p.weekday ?? '').slice(0, 3).toLowerCase(),
  };
};

/** How far the zone's clock is ahead of UTC at `at`, in ms. */
const offsetAt = (at: number, tz: string) => {
  const w = wallTime(new Date(at), tz);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - Math.floor(at / 60_000) * 60_000;
};

/** The instant a local time in `tz` names (month 1-based; a day past the month's end rolls over). */
export const zonedInstant = (
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  tz: string,
) => {
  const guess = Date.UTC(year, month - 1, day, hour, minute);
  const first = guess - offsetAt(guess, tz);
  return new Date(guess - offsetAt(first, tz));
};

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-12-07T09:00` for a datetime-local field, as the clock in `tz` reads at `iso`. */
export const toLocalInput = (iso: string, tz: string) => {
  const w = wallTime(new Date(iso), knownZone(tz) ? tz : 'UTC');
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
};

/** The ISO instant a datetime-local value names in `tz` ('' when the field is empty or not a time). */
export const fromLocalInput = (value: string, tz: string) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!m) return '';
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  return zonedInstant(y, mo, d, h, mi, knownZone(tz) ? tz : 'UTC').toISOString();
};

/** The midnights in `tz` from the one that starts `now`'s day, `days` + 1 of them. */
export const midnights = (now: Date, tz: string, days: number) => {
  const w = wallTime(now, tz);
  return Array.from({ length: days + 1 }, (_, i) => zonedInstant(w.year, w.month, w.day + i, 0, 0, tz));
};

const formats = new Map<string, Intl.DateTimeFormat>();
const format = (tz: string, kind: 'day' | 'when' | 'time') => {
  const key = `${kind}:${tz}`;
  let f = formats.get(key);
  if (!f) {
    const opts: Intl.DateTimeFormatOptions =
      kind === 'day'
        ? { weekday: 'short', day: 'numeric' }
        : kind === 'time'
          ? { hour: '2-digit', minute: '2-digit' }
          : { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' };
    f = new Intl.DateTimeFormat(undefined, { ...opts, timeZone: knownZone(tz) ? tz : 'UTC' });
    if (formats.size > 500) formats.clear();
    formats.set(key, f);
  }
  return f;
};

/** "Mon 7" */
export const dayLabel = (at: Date, tz: string) => format(tz, 'day').format(at);
/** "Mon, Dec 7, 09:00" as the clock in `tz` reads. */
export const whenIn = (iso: string, tz: string) => format(tz, 'when').format(new Date(iso));
/** "09:00" */
export const timeIn = (iso: string, tz: string) => format(tz, 'time').format(new Date(iso));
/** "Mon, Dec 7, 09:00 – Tue, Dec 8, 09:00" (the end's day left out when the same). */
export const spanIn = (from: string, to: string, tz: string) => {
  const a = whenIn(from, tz);
  const b = whenIn(to, tz);
  const sameDay =
    dayLabel(new Date(from), tz) === dayLabel(new Date(to), tz) &&
    new Date(to).getTime() - new Date(from).getTime() < 86_400_000;
  return `${a} – ${sameDay ? timeIn(to, tz) : b}`;
};
