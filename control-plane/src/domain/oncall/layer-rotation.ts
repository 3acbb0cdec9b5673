import type { ScheduleLayer, Weekday } from '../types.js';
import { type RestrictionMask, restrictionMask } from './restrictions.js';
import { DAY_MS, minutesOf, weekdayOf, type ZoneClock } from './zone-clock.js';

/**
 * One layer's rotation as numbers. Shift 0 runs from `starts_at` to the first handoff strictly after
 * it (H1); shift k ≥ 1 from handoff k to handoff k + 1; its user is `users[k mod n]`. Handoff j of a
 * daily layer is the local `handoff` j − 1 days after H1's local day, of a weekly one 7(j − 1) days
 * after, of a custom one H1 + (j − 1)·shift_seconds of elapsed time. Which shift covers an instant is
 * a local-day difference or a division (O(1)), never a walk from `starts_at`.
 */

const WEEKDAY_INDEX: Record<Weekday, number> = { mon: 0, tue: 1, wed: 2, thu: 3, fri: 4, sat: 5, sun: 6 };

/** What one layer says about an instant, and until when it says it. */
export interface LayerState {
  /** The user the layer puts on call, null when it covers nobody there. */
  user: string | null;
  /** The rotation's shift number (−1 before the layer starts). */
  shift: number;
  /** The span the layer places `user` in (its shift cut by the restriction interval), when covered. */
  from: number;
  to: number;
  /** The first instant after the question where the layer's answer may change (Infinity: never). */
  next: number;
}

/** H1's local day and instant by zone, start and handoff. */
const FIRST_HANDOFFS = new Map<string, [number, number]>();

export class LayerRotation {
  readonly start: number;
  readonly users: readonly string[];
  private readonly handoffMinute: number;
  private readonly stepDays: number;
  private readonly shiftMs: number;
  /** H1, and its local day (daily and weekly layers count handoffs in local days from it). */
  private readonly h1: number = 0;
  private readonly h1Day: number = 0;
  readonly mask: RestrictionMask | null;

  constructor(
    layer: ScheduleLayer,
    private readonly clock: ZoneClock,
  ) {
    this.start = layer.starts_at.getTime();
    this.users = layer.users;
    this.handoffMinute = minutesOf(layer.handoff) ?? 0;
    this.stepDays = layer.rotation === 'weekly' ? 7 : 1;
    this.shiftMs =
      layer.rotation === 'custom' ? Math.max(60, Math.floor(layer.shift_seconds ?? DAY_MS / 1000)) * 1000 : 0;
    // H1 depends on the zone, the start and the handoff only: remembered (bounded), so a question about
    // a layer that started long ago does not read the zone's offsets around its start every time.
    const key = `${clock.timezone}|${this.start}|${layer.rotation}|${layer.handoff}|${layer.handoff_day}`;
    let first = FIRST_HANDOFFS.get(key);
    if (!first) {
      const { day } = clock.local(this.start);
      let d = day;
      if (layer.rotation === 'weekly') {
        const want = WEEKDAY_INDEX[layer.handoff_day ?? 'mon'];
        d += (want - weekdayOf(day) + 7) % 7;
      }
      while (clock.instant(d, this.handoffMinute) <= this.start) d += this.stepDays;
      first = [d, clock.instant(d, this.handoffMinute)];
      if (FIRST_HANDOFFS.size >= 10_000) FIRST_HANDOFFS.clear();
      FIRST_HANDOFFS.set(key, first);
    }
    [this.h1Day, this.h1] = first;
    this.mask = layer.restrictions.length > 0 ? restrictionMask(layer.restrictions, clock) : null;
  }

  /** Handoff j (j ≥ 1): when shift j begins. */
  handoff(j: number): number {
    if (this.shiftMs > 0) return this.h1 + (j - 1) * this.shiftMs;
    return this.clock.instant(this.h1Day + (j - 1) * this.stepDays, this.handoffMinute);
  }

  /** The number of the shift covering `t` (t ≥ start). */
  shiftAt(t: number): number {
    if (t < this.h1) return 0;
    if (this.shiftMs > 0) return Math.floor((t - this.h1) / this.shiftMs) + 1;
    let j = Math.floor((this.clock.local(t).day - this.h1Day) / this.stepDays) + 1;
    // The local day puts j at most one off (a fold around midnight); settle it on the handoffs.
    while (j > 1 && this.handoff(j) > t) j--;
    while (this.handoff(j + 1) <= t) j++;
    return Math.max(j, 1);
  }

  /** When shift k begins. */
  shiftStart(k: number): number {
    return k === 0 ? this.start : this.handoff(k);
  }

  /** When the user changes after shift k: the first later handoff giving the turn to someone else. */
  private userChange(k: number): number {
    const n = this.users.length;
    const user = this.users[k % n];
    for (let j = k + 1; j <= k + n; j++) if (this.users[j % n] !== user) return this.handoff(j);
    return Number.POSITIVE_INFINITY;
  }

  /**
   * The layer at `t`: who it covers (and the span it places them in), and the next instant its user
   * may change (a handoff to someone else, a restriction edge, its start), so a walk skips handoffs
   * between turns of the same person.
   */
  at(t: number): LayerState {
    const n = this.users.length;
    if (n === 0) return { user: null, shift: -1, from: t, to: t, next: Number.POSITIVE_INFINITY };
    if (t < this.start) return { user: null, shift: -1, from: t, to: t, next: this.start };
    const k = this.shiftAt(t);
    const from = this.shiftStart(k);
    const to = this.handoff(k + 1);
    const user = this.users[k % n]!;
    if (!this.mask) return { user, shift: k, from, to, next: this.userChange(k) };
    const inside = this.mask.at(t);
    // Outside the restrictions only their next start matters; inside, their end or the next turn.
    if (!inside.covered) return { user: null, shift: k, from: t, to: t, next: inside.next };
    const next = Math.min(inside.next, this.userChange(k));
    return { user, shift: k, from: Math.max(from, inside.from), to: Math.min(to, inside.to), next };
  }
}
