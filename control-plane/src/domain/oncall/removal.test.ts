import { describe, expect, it } from 'vitest';
import type { Schedule, ScheduleLayer } from '../types.js';
import { finalShifts, onCallAt, withoutUserInSchedule } from './shifts.js';

// Daily at 09:00 Europe/Berlin (08:00Z in March before the change) from Monday 2026-03-02: a Monday,
// b Tuesday, c Wednesday, a Thursday 03-05 (shift 3), b Friday, c Saturday, a Sunday.

const at = (iso: string) => new Date(iso);
const NOW = at('2026-03-05T12:00:00Z');

const layer = (over: Partial<ScheduleLayer> = {}): ScheduleLayer => ({
  name: 'Primary',
  users: ['a', 'b', 'c'],
  rotation: 'daily',
  shift_seconds: null,
  handoff: '09:00',
  handoff_day: null,
  starts_at: at('2026-03-02T08:00:00Z'),
  restrictions: [],
  ...over,
});

const schedule = (layers: ScheduleLayer[]): Schedule => ({
  id: 's',
  workspace_id: 'w',
  name: 'Ops',
  timezone: 'Europe/Berlin',
  layers,
  created_at: at('2026-01-01T00:00:00Z'),
  updated_at: at('2026-01-01T00:00:00Z'),
});

const rows = (s: Schedule, from: Date, to: string) =>
  finalShifts(s, [], from, at(to)).map((x) => [
    x.user_id,
    x.starts_at.toISOString(),
    x.ends_at.toISOString(),
  ]);

describe('withoutUserInSchedule', () => {
  it('someone not on call drops out; the person on call stays and the order goes on without them', () => {
    const after = withoutUserInSchedule(schedule([layer()]), 'b', NOW)!;
    expect(after.layers[0]!.users).toEqual(['c', 'a']);
    expect(rows(after, NOW, '2026-03-08T08:00:00Z')).toEqual([
      ['a', '2026-03-05T12:00:00.000Z', '2026-03-06T08:00:00.000Z'],
      ['c', '2026-03-06T08:00:00.000Z', '2026-03-07T08:00:00.000Z'],
      ['a', '2026-03-07T08:00:00.000Z', '2026-03-08T08:00:00.000Z'],
    ]);
  });

  it('the person on call right now is replaced at once by the next in turn, then the order goes on', () => {
    const after = withoutUserInSchedule(schedule([layer()]), 'a', NOW)!;
    expect(after.layers[0]!.users).toEqual(['c', 'b']);
    const now = onCallAt(after, [], NOW);
    expect([now.shift?.user_id, now.until?.toISOString(), now.next?.user_id]).toEqual([
      'b',
      '2026-03-06T08:00:00.000Z',
      'c',
    ]);
    expect(rows(after, NOW, '2026-03-08T08:00:00Z')).toEqual([
      ['b', '2026-03-05T12:00:00.000Z', '2026-03-06T08:00:00.000Z'],
      ['c', '2026-03-06T08:00:00.000Z', '2026-03-07T08:00:00.000Z'],
      ['b', '2026-03-07T08:00:00.000Z', '2026-03-08T08:00:00.000Z'],
    ]);
  });

  it('a layer left with nobody keeps users: [] and the layer below shows; a layer not started just loses them', () => {
    const below = layer({ name: 'Backup', users: ['x'] });
    const solo = layer({ name: 'Solo', users: ['a'] });
    const future = layer({
      name: 'Next month',
      users: ['a', 'b', 'c'],
      starts_at: at('2026-04-01T00:00:00Z'),
    });
    const after = withoutUserInSchedule(schedule([below, solo, future]), 'a', NOW)!;
    expect(after.layers.map((l) => l.users)).toEqual([['x'], [], ['b', 'c']]);
    expect(after.layers[0]).toBe(below);
    expect(onCallAt(after, [], NOW).shift?.user_id).toBe('x');
  });

  it('is null when no layer names the user', () => {
    expect(withoutUserInSchedule(schedule([layer()]), 'z', NOW)).toBeNull();
  });
});

describe('withoutUserInSchedule keeps the turn order', () => {
  it('for every position of the removed user and every moment: the old order without them, from now on', () => {
    const users = ['a', 'b', 'c', 'd', 'e'];
    const turns = (s: Schedule, from: Date) =>
      finalShifts(s, [], from, new Date(from.getTime() + 12 * 86_400_000))
        .map((x) => x.user_id)
        .filter((u, i, xs) => i === 0 || xs[i - 1] !== u);
    for (const removed of users) {
      for (let hour = 0; hour < 10 * 24; hour += 7) {
        const now = new Date(Date.parse('2026-03-02T08:00:00Z') + hour * 3_600_000);
        const before = schedule([layer({ users })]);
        const expected = turns(before, now)
          .filter((u) => u !== removed)
          .filter((u, i, xs) => i === 0 || xs[i - 1] !== u);
        const after = withoutUserInSchedule(before, removed, now)!;
        expect(turns(after, now).slice(0, 8), `${removed} at ${now.toISOString()}`).toEqual(
          expected.slice(0, 8),
        );
      }
    }
  });
});
