import type { FieldProblem } from '@lookout/shared';
import type { Schedule, ScheduleLayer, ScheduleOverride, ScheduleRestriction, Shift } from '../types.js';
import { LayerRotation, type LayerState } from './layer-rotation.js';
import { restrictionProblems as problemsOfRestrictions } from './restrictions.js';
import { DAY_MS, zoneClock } from './zone-clock.js';

/**
 * Who is on call, pure and computed (never stored): from a schedule's layers (later wins where it
 * covers the time) and the overrides over the window (an override beats every layer; of overlapping
 * overrides the most recently created wins). Each layer answers in O(1) which shift covers an instant
 * and when its answer next changes (layer-rotation.ts); `until`, `next` and the shifts of a window walk
 * those changes in time order, skipping the layers hidden under the one that answers.
 */

/** The longest window `finalShifts` answers (the shifts endpoint and the calendar feeds stay inside it). */
export const MAX_WINDOW_DAYS = 93;
/** How far ahead `onCallAt` looks for `until` and `next`. */
export const LOOK_AHEAD_DAYS = 90;

export interface OnCallAnswer {
  /** The shift covering `at` (as placed by its layer or override, not merged), null when nobody is on call. */
  shift: Shift | null;
  /** When the on-call person (or the gap) changes; null when nothing changes within LOOK_AHEAD_DAYS. */
  until: Date | null;
  /** The next person on call after `until`; null when nobody is within LOOK_AHEAD_DAYS. */
  next: { user_id: string; starts_at: Date } | null;
}

/** The schedule's answer at one instant as numbers: who, from where, over which span. */
interface Placed {
  user: string;
  from: number;
  to: number;
  source: Shift['source'];
}

/**
 * The schedule walked forward through time: each layer's state and the overrides in force. A walk
 * keeps the overrides' edges sorted and those in force in a list, so a step costs O(layers + overrides
 * in force), not a scan of them all.
 */
class Walker {
  private readonly rotations: LayerRotation[];
  private readonly states: LayerState[];
  private readonly overrides: ScheduleOverride[];
  /** The overrides in force at `t`. */
  private active: ScheduleOverride[];
  /** For a walk (made at its first step): overrides yet to start by start, every edge ascending. */
  private upcoming: ScheduleOverride[] = [];
  private nextUp = 0;
  private edges: Float64Array | null = null;
  private edge = 0;

  constructor(
    private readonly schedule: Schedule,
    overrides: ScheduleOverride[],
    private t: number,
  ) {
    const clock = zoneClock(schedule.timezone);
    this.rotations = schedule.layers.map((layer) => new LayerRotation(layer, clock));
    // Asked when first read (a layer hidden under the one answering is never asked).
    this.states = this.rotations.map(() => UNKNOWN);
    this.overrides = overrides.filter((o) => o.ends_at.getTime() > o.starts_at.getTime());
    this.active = this.overrides.filter((o) => o.starts_at.getTime() <= t && t < o.ends_at.getTime());
  }

  private prepareWalk(): Float64Array {
    if (!this.edges) {
      const t = this.t;
      this.upcoming = this.overrides
        .filter((o) => o.starts_at.getTime() > t)
        .sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime());
      const edges = new Float64Array(2 * this.overrides.length);
      this.overrides.forEach((o, i) => {
        edges[2 * i] = o.starts_at.getTime();
        edges[2 * i + 1] = o.ends_at.getTime();
      });
      this.edges = edges.sort();
    }
    return this.edges;
  }

  /** The first override edge after the walker's instant, Infinity when none. */
  private nextEdge(): number {
    const edges = this.prepareWalk();
    while (this.edge < edges.length && edges[this.edge]! <= this.t) this.edge++;
    return this.edge < edges.length ? edges[this.edge]! : Number.POSITIVE_INFINITY;
  }

  /** Who is on call at the walker's instant, null for nobody. */
  answer(): Placed | null {
    let best: ScheduleOverride | null = null;
    for (const o of this.active) if (!best || newer(o, best)) best = o;
    if (best) {
      return {
        user: best.user_id,
        from: best.starts_at.getTime(),
        to: best.ends_at.getTime(),
        source: { kind: 'override', override_id: best.id, created_by: best.created_by },
      };
    }
    for (let i = this.states.length - 1; i >= 0; i--) {
      const s = this.state(i);
      if (s.user === null) continue;
      const layer = this.schedule.layers[i]!;
      return {
        user: s.user,
        from: s.from,
        to: s.to,
        source: { kind: 'layer', layer: i + 1, layer_name: layer.name },
      };
    }
    return null;
  }

  /**
   * The next instant after the walker's where the answer may change: an override edge; while no override
   * is in force, also the next change of each layer from the top down to the one that answers (the
   * layers below it are hidden, so their handoffs are skipped).
   */
  nextChange(): number {
    let b = this.nextEdge();
    if (this.active.length > 0) return b;
    for (let i = this.states.length - 1; i >= 0; i--) {
      const s = this.state(i);
      if (s.next < b) b = s.next;
      if (s.user !== null) break;
    }
    return b;
  }

  /** Layer i at the walker's instant: its state, asked again only once the instant passed its next change. */
  private state(i: number): LayerState {
    let s = this.states[i]!;
    if (s.next <= this.t) {
      s = this.rotations[i]!.at(this.t);
      this.states[i] = s;
    }
    return s;
  }

  /**
   * Moves to `b` (after the walker's instant). Layers are brought up to date when read: those hidden
   * under an override or a higher layer are not asked at all while hidden.
   */
  advance(b: number): void {
    // Every layer and override edge lies after the instant it was asked at; a walk that stands still is a bug.
    if (!(b > this.t)) throw new Error(`on-call walk stuck at ${new Date(this.t).toISOString()}`);
    this.prepareWalk();
    this.t = b;
    this.active = this.active.filter((o) => o.ends_at.getTime() > b);
    for (; this.nextUp < this.upcoming.length; this.nextUp++) {
      const o = this.upcoming[this.nextUp]!;
      if (o.starts_at.getTime() > b) break;
      if (o.ends_at.getTime() > b) this.active.push(o);
    }
  }
}

/** A layer's state not yet asked: its next change has passed whenever it is read. */
const UNKNOWN: LayerState = { user: null, shift: -1, from: 0, to: 0, next: Number.NEGATIVE_INFINITY };

/** Of two overlapping overrides, whether `a` was created after `b` (the later one wins; ties by id). */
const newer = (a: ScheduleOverride, b: ScheduleOverride) =>
  a.created_at.getTime() !== b.created_at.getTime()
    ? a.created_at.getTime() > b.created_at.getTime()
    : a.id > b.id;

const toShift = (p: Placed): Shift => ({
  user_id: p.user,
  starts_at: new Date(p.from),
  ends_at: new Date(p.to),
  source: p.source,
});

/** Who is on call at `at`, without `until` and `next`: O(layers + overrides). */
export const onCallShiftAt = (schedule: Schedule, overrides: ScheduleOverride[], at: Date): Shift | null => {
  const placed = new Walker(schedule, overrides, at.getTime()).answer();
  return placed ? toShift(placed) : null;
};

/** Who is on call at `at`: O(layers + overrides) for `shift`; `until`/`next` walk the boundaries after it. */
export const onCallAt = (schedule: Schedule, overrides: ScheduleOverride[], at: Date): OnCallAnswer => {
  const t = at.getTime();
  const horizon = t + LOOK_AHEAD_DAYS * DAY_MS;
  const walker = new Walker(schedule, overrides, t);
  const now = walker.answer();
  const shift = now ? toShift(now) : null;
  const who = now?.user ?? null;
  let until: Date | null = null;
  for (;;) {
    const b = walker.nextChange();
    if (b > horizon) return { shift, until, next: null };
    walker.advance(b);
    const then = walker.answer();
    if (until === null && (then?.user ?? null) !== who) until = new Date(b);
    if (until !== null && then) return { shift, until, next: { user_id: then.user, starts_at: new Date(b) } };
  }
};

/** Checks a window's length (callers validate it first; this guards the computation's bound). */
const windowOf = (from: Date, to: Date): [number, number] => {
  const f = from.getTime();
  const e = to.getTime();
  if (e - f > MAX_WINDOW_DAYS * DAY_MS) throw new Error(`a window of at most ${MAX_WINDOW_DAYS} days`);
  return [f, e];
};

/**
 * The final shifts over [from, to) (at most MAX_WINDOW_DAYS), overrides applied, clipped to the window,
 * adjacent shifts of the same user merged (the merged shift keeps the first one's source), in time order.
 */
export const finalShifts = (
  schedule: Schedule,
  overrides: ScheduleOverride[],
  from: Date,
  to: Date,
): Shift[] => {
  const [f, e] = windowOf(from, to);
  const shifts: Shift[] = [];
  if (e <= f) return shifts;
  const walker = new Walker(schedule, overrides, f);
  let t = f;
  while (t < e) {
    const b = Math.min(walker.nextChange(), e);
    const placed = walker.answer();
    if (placed) {
      const last = shifts[shifts.length - 1];
      if (last && last.user_id === placed.user && last.ends_at.getTime() === t) last.ends_at = new Date(b);
      else
        shifts.push({
          user_id: placed.user,
          starts_at: new Date(t),
          ends_at: new Date(b),
          source: placed.source,
        });
    }
    if (b >= e) break;
    walker.advance(b);
    t = b;
  }
  return shifts;
};

/** The spans of [from, to) where nobody is on call, in time order. */
export const scheduleGaps = (
  schedule: Schedule,
  overrides: ScheduleOverride[],
  from: Date,
  to: Date,
): { starts_at: Date; ends_at: Date }[] => {
  const [f, e] = windowOf(from, to);
  const gaps: { starts_at: Date; ends_at: Date }[] = [];
  let t = f;
  for (const s of finalShifts(schedule, overrides, from, to)) {
    if (s.starts_at.getTime() > t) gaps.push({ starts_at: new Date(t), ends_at: s.starts_at });
    t = s.ends_at.getTime();
  }
  if (t < e) gaps.push({ starts_at: new Date(t), ends_at: new Date(e) });
  return gaps;
};

/** What zod cannot see in one layer's restrictions (overlaps, empty intervals), fields under `prefix`. */
export const restrictionProblems = (restrictions: ScheduleRestriction[], prefix: string): FieldProblem[] =>
  problemsOfRestrictions(restrictions, prefix);

/**
 * The schedule once user `userId` has left the workspace at `now`: they drop out of every layer from
 * then on, the person on call in each layer at `now` stays on call (if it was them, the next in turn
 * takes over at once) and the turn order continues. Null when no layer names them.
 *
 * The remaining users are rotated so that the shift covering `now` keeps its number and falls to the
 * person who stays (or takes over); a layer that has not started yet just loses them, and one left
 * with nobody keeps `users: []` (it covers nobody; the schedule's gaps warn).
 */
export const withoutUserInSchedule = (schedule: Schedule, userId: string, now: Date): Schedule | null => {
  if (!schedule.layers.some((l) => l.users.includes(userId))) return null;
  const clock = zoneClock(schedule.timezone);
  const t = now.getTime();
  const layers = schedule.layers.map((layer): ScheduleLayer => {
    if (!layer.users.includes(userId)) return layer;
    const remaining = layer.users.filter((u) => u !== userId);
    if (remaining.length === 0 || t < layer.starts_at.getTime()) return { ...layer, users: remaining };
    const n = layer.users.length;
    const k = new LayerRotation(layer, clock).shiftAt(t);
    // The position (in the old order) of whoever is on call now, or takes over: the next who stays.
    let pos = k % n;
    while (layer.users[pos] === userId) pos = (pos + 1) % n;
    const p = layer.users.slice(0, pos).filter((u) => u !== userId).length;
    const m = remaining.length;
    const users = remaining.map((_, i) => remaining[(((i - k + p) % m) + m) % m]!);
    return { ...layer, users };
  });
  return { ...schedule, layers };
};

export type { ScheduleLayer };
