import { describe, expect, it } from 'vitest';
import type { Schedule, ScheduleLayer, ScheduleOverride, ScheduleRestriction, Weekday } from '../types.js';
import { finalShifts, onCallAt, onCallShiftAt, scheduleGaps } from './shifts.js';
import { finalShiftsInSlices, gapsBetween } from './shifts-in-slices.js';

/**
 * Two ways to the same answer: `onCallAt(t)` starts at t and walks forward; `finalShifts` starts at the
 * window's beginning and merges. Over random schedules (several layers, restrictions, overrides, near
 * the DST changes of four zones, from a seeded generator) they must agree at every instant tried.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const DAYS: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const ZONES: [string, string][] = [
  ['Europe/Berlin', '2026-03-29T01:00:00Z'],
  ['Europe/Berlin', '2026-10-25T01:00:00Z'],
  ['America/New_York', '2026-03-08T07:00:00Z'],
  ['America/New_York', '2026-11-01T06:00:00Z'],
  ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
  ['Australia/Lord_Howe', '2026-10-03T15:30:00Z'],
  ['Asia/Kolkata', '2026-06-01T00:00:00Z'],
  // Two-hour changes (+00 to +02) and Casablanca's Ramadan change, for good measure.
  ['Antarctica/Troll', '2026-03-29T01:00:00Z'],
  ['Antarctica/Troll', '2026-10-25T01:00:00Z'],
  ['Africa/Casablanca', '2026-02-15T02:00:00Z'],
];
const TIMES = [
  '00:00',
  '01:30',
  '01:45',
  '02:15',
  '02:30',
  '08:00',
  '09:00',
  '12:00',
  '17:00',
  '22:00',
  '23:30',
];

/** mulberry32: a small seeded generator, so a failure repeats. */
const generator = (seed: number) => {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick };
};

const randomSchedule = (g: ReturnType<typeof generator>, timezone: string, from: number): Schedule => {
  const layers: ScheduleLayer[] = Array.from({ length: 1 + g.int(4) }, (_, i) => {
    const rotation = g.pick(['daily', 'weekly', 'custom'] as const);
    const restrictions: ScheduleRestriction[] = Array.from({ length: g.pick([0, 0, 1, 2]) }, () => {
      const start = g.pick(TIMES);
      const end = g.pick([...TIMES, '24:00'].filter((t) => t !== start));
      return { days: DAYS.filter(() => g.next() < 0.5), start, end };
    });
    return {
      name: `L${i + 1}`,
      users: ['u1', 'u2', 'u3', 'u4', 'u5'].filter(() => g.next() < 0.45),
      rotation,
      shift_seconds: rotation === 'custom' ? g.pick([5_400, 6 * 3_600, 43_200, 2 * 86_400]) : null,
      handoff: g.pick(TIMES),
      handoff_day: rotation === 'weekly' ? g.pick(DAYS) : null,
      // Mostly long started, sometimes starting inside the window.
      starts_at: new Date(
        from + (g.next() < 0.8 ? -g.int(800) * DAY : g.int(10 * 24) * HOUR) + g.int(60) * 60_000,
      ),
      restrictions,
    };
  });
  return {
    id: 's',
    workspace_id: 'w',
    name: 'Random',
    timezone,
    layers,
    created_at: new Date(0),
    updated_at: new Date(0),
  };
};

const randomOverrides = (g: ReturnType<typeof generator>, from: number): ScheduleOverride[] =>
  Array.from({ length: g.int(6) }, (_, i) => {
    const start = from + g.int(14 * 24 * 4) * 15 * 60_000;
    return {
      id: `o${i}`,
      workspace_id: 'w',
      schedule_id: 's',
      user_id: g.pick(['u1', 'u2', 'u6']),
      starts_at: new Date(start),
      ends_at: new Date(start + (1 + g.int(72)) * HOUR),
      created_by: null,
      offer_id: null,
      created_at: new Date(g.int(1_000) * 60_000),
    };
  });

describe('onCallAt agrees with finalShifts', () => {
  it('at 400 instants over 40 random schedules near DST changes', () => {
    const g = generator(55);
    let changes = 0;
    for (let n = 0; n < 40; n++) {
      const [timezone, change] = g.pick(ZONES);
      const from = Date.parse(change) - g.int(7 * 24) * HOUR - g.int(60) * 60_000;
      const to = from + 14 * DAY;
      const schedule = randomSchedule(g, timezone, from);
      const overrides = randomOverrides(g, from);
      const shifts = finalShifts(schedule, overrides, new Date(from), new Date(to));
      for (let i = 1; i < shifts.length; i++) {
        expect(shifts[i]!.starts_at.getTime()).toBeGreaterThanOrEqual(shifts[i - 1]!.ends_at.getTime());
        if (shifts[i]!.starts_at.getTime() === shifts[i - 1]!.ends_at.getTime())
          expect(shifts[i]!.user_id).not.toBe(shifts[i - 1]!.user_id);
      }
      for (let k = 0; k < 10; k++) {
        // Sometimes exactly on a shift's edge, else anywhere in the window.
        const t =
          shifts.length > 0 && g.next() < 0.3
            ? g.pick(shifts).starts_at.getTime()
            : from + g.int(14 * 24 * 60) * 60_000 + g.int(60_000);
        const answer = onCallAt(schedule, overrides, new Date(t));
        const label = `${timezone} ${JSON.stringify(schedule.layers)} ${JSON.stringify(overrides)} at ${new Date(t).toISOString()}`;
        const i = shifts.findIndex((s) => s.starts_at.getTime() <= t && t < s.ends_at.getTime());
        const covering = i >= 0 ? shifts[i]! : null;
        expect(answer.shift?.user_id ?? null, label).toBe(covering?.user_id ?? null);
        expect(onCallShiftAt(schedule, overrides, new Date(t)), label).toEqual(answer.shift);
        // When the answer changes inside the window: the merged shift's end, or the next shift's start.
        const after = covering ? shifts[i + 1] : shifts.find((s) => s.starts_at.getTime() > t);
        const change = covering ? covering.ends_at.getTime() : after?.starts_at.getTime();
        if (change === undefined || change >= to) continue;
        expect(answer.until?.toISOString(), label).toBe(new Date(change).toISOString());
        if (after) {
          expect(answer.next?.user_id, label).toBe(after.user_id);
          expect(answer.next?.starts_at.toISOString(), label).toBe(after.starts_at.toISOString());
        }
        changes++;
      }
    }
    // The generator reaches the interesting cases: most instants had a change to check inside the window.
    expect(changes).toBeGreaterThan(200);
  });

  it('a window started later is the same shifts, cut at its start; the gaps are the rest', () => {
    const g = generator(2413);
    const spans = (xs: { starts_at: Date; ends_at: Date }[]) =>
      xs.map((x) => `${x.starts_at.toISOString()} ${x.ends_at.toISOString()}`);
    for (let n = 0; n < 40; n++) {
      const [timezone, change] = g.pick(ZONES);
      const from = Date.parse(change) - g.int(7 * 24) * HOUR;
      const to = from + 14 * DAY;
      const schedule = randomSchedule(g, timezone, from);
      const overrides = randomOverrides(g, from);
      const whole = finalShifts(schedule, overrides, new Date(from), new Date(to));
      const later = from + g.int(14 * 24 * 60) * 60_000;
      const cut = whole
        .filter((s) => s.ends_at.getTime() > later)
        .map((s) => [
          s.user_id,
          new Date(Math.max(later, s.starts_at.getTime())).toISOString(),
          s.ends_at.toISOString(),
        ]);
      const label = `${timezone} ${JSON.stringify(schedule.layers)} ${JSON.stringify(overrides)} from ${new Date(later).toISOString()}`;
      expect(
        finalShifts(schedule, overrides, new Date(later), new Date(to)).map((s) => [
          s.user_id,
          s.starts_at.toISOString(),
          s.ends_at.toISOString(),
        ]),
        label,
      ).toEqual(cut);
      // Shifts and gaps tile the window exactly.
      const tiles = [
        ...spans(whole),
        ...spans(scheduleGaps(schedule, overrides, new Date(from), new Date(to))),
      ].sort();
      let t = from;
      for (const tile of tiles) {
        const [a, b] = tile.split(' ') as [string, string];
        expect(Date.parse(a), label).toBe(t);
        t = Date.parse(b);
      }
      expect(t).toBe(to);
    }
  });
});

describe('a window computed in slices', () => {
  it('gives the shifts and gaps of one call over the whole window, over 30 random schedules', async () => {
    const g = generator(93);
    for (let n = 0; n < 30; n++) {
      const [timezone, change] = g.pick(ZONES);
      const from = new Date(Date.parse(change) - g.int(10 * 24) * HOUR - g.int(60) * 60_000);
      const to = new Date(from.getTime() + (8 + g.int(30)) * DAY + g.int(24) * HOUR);
      const schedule = randomSchedule(g, timezone, from.getTime());
      const overrides = randomOverrides(g, from.getTime() + g.int(7) * DAY);
      const whole = finalShifts(schedule, overrides, from, to);
      const sliced = await finalShiftsInSlices(schedule, overrides, from, to);
      expect(sliced).toEqual(whole);
      expect(gapsBetween(sliced, from, to)).toEqual(scheduleGaps(schedule, overrides, from, to));
    }
  });
});
