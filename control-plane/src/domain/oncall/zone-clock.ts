import { Temporal } from 'temporal-polyfill';

/**
 * Wall-clock arithmetic in one IANA time zone, in plain numbers: a local day is a count of days since
 * 1970-01-01 (in wall time), a local time a minute of that day. The zone's offset changes are read
 * from Temporal once and kept (sorted lists over a few stretches of time per zone, each grown as
 * questions reach a little further), so turning a local day and minute into an instant is a binary
 * search, not a Temporal call. A question far from every known stretch starts a new one (the least
 * recently used goes), so a layer that started in 1990 or one asked about in 2090 costs the offset
 * changes around it, never a scan of the years between.
 *
 * A wall-clock time that does not exist (a spring-forward gap) happens at the first instant after the
 * gap; one that happens twice (an autumn fold) at its FIRST occurrence (docs/decisions.md, "On-call").
 */

export const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** How far past a question a new stretch reaches, so nearby questions find it known. */
const MARGIN_MS = 60 * DAY_MS;
/** A question within this distance of a stretch grows it; farther, it starts a new one. */
const NEAR_MS = 800 * DAY_MS;
/** Stretches kept per zone, and offset changes per stretch before it starts over. */
const MAX_STRETCHES = 8;
const MAX_TRANSITIONS = 1_000;
/** Temporal's range of instants, less a margin. */
const LIMIT = 8.64e15 - 10 * DAY_MS;

export interface ZoneClock {
  readonly timezone: string;
  /** The local day (days since 1970-01-01 in wall time) and minute of the day of `ms`. */
  local(ms: number): { day: number; minute: number };
  /** The instant of local `minute` (0…1440) on local `day`: gaps forward to their end, folds the first. */
  instant(day: number, minute: number): number;
}

/** Monday 0 … Sunday 6 of a local day (1970-01-01 was a Thursday). */
export const weekdayOf = (day: number): number => (((day + 3) % 7) + 7) % 7;

/** The offset changes of a zone over [lo, hi]: at `at[i]` the offset becomes `after[i]`; before `at[0]`, `first`. */
class Stretch {
  at: number[] = [];
  after: number[] = [];
  first: number;
  lo: number;
  hi: number;

  constructor(
    private readonly zone: Zone,
    start: number,
  ) {
    this.first = zone.zdt(start).offsetNanoseconds / 1e6;
    this.lo = start;
    this.hi = start;
  }

  /** Grows [lo, hi] to reach [from, to], reading the offset changes it lacks. */
  grow(from: number, to: number): void {
    const zone = this.zone;
    let z = this.hi < to ? zone.zdt(this.hi) : null;
    while (z && this.hi < to) {
      const next = this.hi >= zone.noneAfter ? null : z.getTimeZoneTransition('next');
      if (!next) {
        zone.noneAfter = Math.min(zone.noneAfter, this.hi);
        this.hi = Number.POSITIVE_INFINITY;
        break;
      }
      this.at.push(next.epochMilliseconds);
      this.after.push(next.offsetNanoseconds / 1e6);
      this.hi = next.epochMilliseconds;
      z = next;
    }
    z = this.lo > from ? zone.zdt(this.lo) : null;
    const at: number[] = [];
    const after: number[] = [];
    while (z && this.lo > from) {
      const prev = this.lo <= zone.noneBefore ? null : z.getTimeZoneTransition('previous');
      if (!prev) {
        zone.noneBefore = Math.max(zone.noneBefore, this.lo);
        this.lo = Number.NEGATIVE_INFINITY;
        break;
      }
      at.push(prev.epochMilliseconds);
      after.push(this.first);
      this.first = prev.subtract({ nanoseconds: 1 }).offsetNanoseconds / 1e6;
      this.lo = prev.epochMilliseconds;
      z = prev;
    }
    if (at.length > 0) {
      this.at = [...at.reverse(), ...this.at];
      this.after = [...after.reverse(), ...this.after];
    }
  }

  /** The index of the last offset change at or before `ms`, -1 when none. */
  changeIndex(ms: number): number {
    let a = 0;
    let b = this.at.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (this.at[mid]! <= ms) a = mid + 1;
      else b = mid;
    }
    return a - 1;
  }

  offset(ms: number): number {
    const i = this.changeIndex(ms);
    return i < 0 ? this.first : this.after[i]!;
  }
}

class Zone implements ZoneClock {
  /** Most recently used first. */
  private stretches: Stretch[] = [];
  /** No offset change after `noneAfter` nor before `noneBefore` (learnt when Temporal finds none). */
  noneAfter = Number.POSITIVE_INFINITY;
  noneBefore = Number.NEGATIVE_INFINITY;

  constructor(readonly timezone: string) {}

  zdt(ms: number) {
    return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(this.timezone);
  }

  /** A stretch knowing every offset change in [from, to]. */
  private stretch(from: number, to: number): Stretch {
    const f = Math.max(-LIMIT, Math.min(LIMIT, from));
    const t = Math.max(-LIMIT, Math.min(LIMIT, to));
    const list = this.stretches;
    const last = list[0];
    if (last && last.lo <= f && t <= last.hi) return last;
    let i = list.findIndex((s) => s.lo <= f && t <= s.hi);
    if (i < 0)
      i = list.findIndex((s) => s.lo - NEAR_MS <= f && t <= s.hi + NEAR_MS && s.at.length < MAX_TRANSITIONS);
    let s: Stretch;
    if (i < 0) {
      s = new Stretch(this, Math.max(-LIMIT, f - MARGIN_MS));
      if (list.length >= MAX_STRETCHES) list.pop();
    } else {
      s = list[i]!;
      list.splice(i, 1);
    }
    list.unshift(s);
    if (f < s.lo || t > s.hi) s.grow(Math.max(-LIMIT, f - MARGIN_MS), Math.min(LIMIT, t + MARGIN_MS));
    return s;
  }

  local(ms: number): { day: number; minute: number } {
    const wall = ms + this.stretch(ms, ms).offset(ms);
    const day = Math.floor(wall / DAY_MS);
    return { day, minute: Math.floor((wall - day * DAY_MS) / MINUTE_MS) };
  }

  instant(day: number, minute: number): number {
    const wall = day * DAY_MS + minute * MINUTE_MS;
    // Offsets stay within ±1 day, so the instant lies within a day of the wall time read as UTC.
    const s = this.stretch(wall - 2 * DAY_MS, wall + 2 * DAY_MS);
    let best = Number.POSITIVE_INFINITY;
    const lo = s.changeIndex(wall - 2 * DAY_MS);
    const hi = s.changeIndex(wall + 2 * DAY_MS);
    // Each constant-offset span near the wall time: the wall time lies in it, or not.
    for (let i = lo; i <= hi; i++) {
      const offset = i < 0 ? s.first : s.after[i]!;
      const candidate = wall - offset;
      const from = i < 0 ? Number.NEGATIVE_INFINITY : s.at[i]!;
      const to = i + 1 < s.at.length ? s.at[i + 1]! : Number.POSITIVE_INFINITY;
      if (candidate >= from && candidate < to && candidate < best) best = candidate;
    }
    if (best !== Number.POSITIVE_INFINITY) return best;
    // A gap: the first instant after it is the offset change that jumped over the wall time.
    for (let i = Math.max(0, lo); i <= hi; i++) {
      const at = s.at[i]!;
      const before = i === 0 ? s.first : s.after[i - 1]!;
      if (at + before <= wall && wall < at + s.after[i]!) return at;
    }
    return wall - s.offset(wall);
  }
}

const zones = new Map<string, Zone>();

/** The clock of `timezone` (an IANA name the runtime knows), kept in a bounded map. */
export const zoneClock = (timezone: string): ZoneClock => {
  let z = zones.get(timezone);
  if (!z) {
    if (zones.size >= 1_000) zones.clear();
    z = new Zone(timezone);
    zones.set(timezone, z);
  }
  return z;
};

/** Minutes of the day of `HH:MM` (`24:00` is 1440), or null when it is not one. */
export const minutesOf = (hhmm: string): number | null => {
  if (hhmm.length !== 5 || hhmm.charCodeAt(2) !== 58) return null;
  const digit = (i: number) => {
    const c = hhmm.charCodeAt(i) - 48;
    return c >= 0 && c <= 9 ? c : Number.NaN;
  };
  const h = digit(0) * 10 + digit(1);
  const min = digit(3) * 10 + digit(4);
  if (h === 24 && min === 0) return 1440;
  return h < 24 && min < 60 ? h * 60 + min : null;
};
