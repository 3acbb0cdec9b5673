import { Temporal } from 'temporal-polyfill';

/**
 * Wall-clock arithmetic in one IANA time zone, in plain numbers: a local day is a count of days since
 * 1970-01-01 (in wall time), a local time a minute of that day. The zone's offset changes are read
 * from Temporal once and kept (a sorted list per zone, extended as questions reach further), so
 * turning a local day and minute into an instant is a binary search, not a Temporal call.
 *
 * A wall-clock time that does not exist (a spring-forward gap) happens at the first instant after the
 * gap; one that happens twice (an autumn fold) at its FIRST occurrence (docs/decisions.md, "On-call").
 */

export const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** How far past a question the known offset changes reach, so nearby questions find them known. */
const MARGIN_MS = 400 * DAY_MS;
/** Offset changes kept per zone before the list starts over (a zone has about two a year). */
const MAX_TRANSITIONS = 2_000;

export interface ZoneClock {
  /** The local day (days since 1970-01-01 in wall time) and minute of the day of `ms`. */
  local(ms: number): { day: number; minute: number };
  /** The instant of local `minute` (0…1440) on local `day`: gaps forward to their end, folds the first. */
  instant(day: number, minute: number): number;
}

/** Monday 0 … Sunday 6 of a local day (1970-01-01 was a Thursday). */
export const weekdayOf = (day: number): number => (((day + 3) % 7) + 7) % 7;

class Zone implements ZoneClock {
  /** Offset changes in time order: at `at[i]` the offset becomes `after[i]`; before `at[0]`, `first`. */
  private at: number[] = [];
  private after: number[] = [];
  private first = 0;
  /** Every offset change inside [lo, hi] is in the list. */
  private lo = Number.POSITIVE_INFINITY;
  private hi = Number.NEGATIVE_INFINITY;

  constructor(private readonly timezone: string) {}

  private zdt(ms: number) {
    return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(this.timezone);
  }

  /** Makes [lo, hi] reach [from, to]: reads the offset changes it lacks from Temporal. */
  private cover(from: number, to: number): void {
    if (from >= this.lo && to <= this.hi) return;
    if (this.at.length > MAX_TRANSITIONS || !(this.lo <= this.hi)) {
      const start = Math.max(-8.64e15 + DAY_MS, from - MARGIN_MS);
      this.at = [];
      this.after = [];
      this.first = this.zdt(start).offsetNanoseconds / 1e6;
      this.lo = start;
      this.hi = start;
    }
    if (to > this.hi) {
      const target = Math.min(8.64e15 - DAY_MS, to + MARGIN_MS);
      let z = this.zdt(this.hi);
      while (true) {
        const next = z.getTimeZoneTransition('next');
        const ms = next ? next.epochMilliseconds : Number.POSITIVE_INFINITY;
        if (!next || ms > target) break;
        this.at.push(ms);
        this.after.push(next.offsetNanoseconds / 1e6);
        z = next;
      }
      this.hi = target;
    }
    if (from < this.lo) {
      const target = Math.max(-8.64e15 + DAY_MS, from - MARGIN_MS);
      const at: number[] = [];
      const after: number[] = [];
      let z = this.zdt(this.lo);
      let first = this.first;
      while (true) {
        const prev = z.getTimeZoneTransition('previous');
        if (!prev || prev.epochMilliseconds < target) break;
        at.unshift(prev.epochMilliseconds);
        after.unshift(first);
        first = prev.subtract({ nanoseconds: 1 }).offsetNanoseconds / 1e6;
        z = prev;
      }
      this.at = [...at, ...this.at];
      this.after = [...after, ...this.after];
      this.first = first;
      this.lo = target;
    }
  }

  /** The index of the last offset change at or before `ms`, -1 when none. */
  private changeIndex(ms: number): number {
    let a = 0;
    let b = this.at.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (this.at[mid]! <= ms) a = mid + 1;
      else b = mid;
    }
    return a - 1;
  }

  private offset(ms: number): number {
    const i = this.changeIndex(ms);
    return i < 0 ? this.first : this.after[i]!;
  }

  local(ms: number): { day: number; minute: number } {
    this.cover(ms, ms);
    const wall = ms + this.offset(ms);
    const day = Math.floor(wall / DAY_MS);
    return { day, minute: Math.floor((wall - day * DAY_MS) / MINUTE_MS) };
  }

  instant(day: number, minute: number): number {
    const wall = day * DAY_MS + minute * MINUTE_MS;
    // Offsets stay within ±1 day, so the instant lies within a day of the wall time read as UTC.
    this.cover(wall - 2 * DAY_MS, wall + 2 * DAY_MS);
    let best = Number.POSITIVE_INFINITY;
    const lo = this.changeIndex(wall - 2 * DAY_MS);
    const hi = this.changeIndex(wall + 2 * DAY_MS);
    // Each constant-offset stretch near the wall time: the wall time lies in it, or not.
    for (let i = lo; i <= hi; i++) {
      const offset = i < 0 ? this.first : this.after[i]!;
      const candidate = wall - offset;
      const from = i < 0 ? Number.NEGATIVE_INFINITY : this.at[i]!;
      const to = i + 1 < this.at.length ? this.at[i + 1]! : Number.POSITIVE_INFINITY;
      if (candidate >= from && candidate < to && candidate < best) best = candidate;
    }
    if (best !== Number.POSITIVE_INFINITY) return best;
    // A gap: the first instant after it is the offset change that jumped over the wall time.
    for (let i = Math.max(0, lo); i <= hi; i++) {
      const at = this.at[i]!;
      const before = i === 0 ? this.first : this.after[i - 1]!;
      if (at + before <= wall && wall < at + this.after[i]!) return at;
    }
    return wall - this.offset(wall);
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
  const m = /^(\d\d):(\d\d)$/.exec(hhmm);
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h === 24 && min === 0) return 1440;
  return h < 24 && min < 60 ? h * 60 + min : null;
};
