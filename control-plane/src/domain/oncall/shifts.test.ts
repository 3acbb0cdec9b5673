import { describe, expect, it } from 'vitest';
import type { Schedule, ScheduleLayer, ScheduleOverride } from '../types.js';
import { finalShifts, onCallAt, onCallShiftAt } from './shifts.js';

// Every expected instant below is written out by hand from the zone's rules (Europe/Berlin changes at
// 01:00Z on 2026-03-29 and 2026-10-25; America/New_York at 07:00Z on 2026-03-08 and 06:00Z on
// 2026-11-01; Australia/Lord_Howe from +11 to +10:30 at 02:00 local on 2026-04-05 and back at 02:00 on
// 2026-10-04; Asia/Kolkata is +05:30 all year). 2026-03-02 is a Monday.

const at = (iso: string) => new Date(iso);

const layer = (over: Partial<ScheduleLayer>): ScheduleLayer => ({
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

const schedule = (timezone: string, layers: ScheduleLayer[]): Schedule => ({
  id: 's',
  workspace_id: 'w',
  name: 'Ops',
  timezone,
  layers,
  created_at: at('2026-01-01T00:00:00Z'),
  updated_at: at('2026-01-01T00:00:00Z'),
});

const override = (id: string, user: string, from: string, to: string, created: string): ScheduleOverride => ({
  id,
  workspace_id: 'w',
  schedule_id: 's',
  user_id: user,
  starts_at: at(from),
  ends_at: at(to),
  created_by: 'admin',
  offer_id: null,
  created_at: at(created),
});

/** Shifts as [user, starts_at, ends_at] in ISO form. */
const rows = (s: Schedule, from: string, to: string, overrides: ScheduleOverride[] = []) =>
  finalShifts(s, overrides, at(from), at(to)).map((x) => [
    x.user_id,
    x.starts_at.toISOString(),
    x.ends_at.toISOString(),
  ]);

const answer = (s: Schedule, when: string, overrides: ScheduleOverride[] = []) => {
  const a = onCallAt(s, overrides, at(when));
  return {
    user: a.shift?.user_id ?? null,
    shift: a.shift ? [a.shift.starts_at.toISOString(), a.shift.ends_at.toISOString()] : null,
    until: a.until?.toISOString() ?? null,
    next: a.next ? [a.next.user_id, a.next.starts_at.toISOString()] : null,
  };
};

describe('daily handoffs are wall-clock times', () => {
  it('Europe/Berlin: the shift across the spring change lasts 23 hours, across the autumn one 25', () => {
    const spring = schedule('Europe/Berlin', [layer({ starts_at: at('2026-03-27T08:00:00Z') })]);
    expect(rows(spring, '2026-03-27T08:00:00Z', '2026-03-30T07:00:00Z')).toEqual([
      ['a', '2026-03-27T08:00:00.000Z', '2026-03-28T08:00:00.000Z'],
      ['b', '2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z'],
      ['c', '2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z'],
    ]);
    const autumn = schedule('Europe/Berlin', [layer({ starts_at: at('2026-10-23T07:00:00Z') })]);
    expect(rows(autumn, '2026-10-23T07:00:00Z', '2026-10-26T08:00:00Z')).toEqual([
      ['a', '2026-10-23T07:00:00.000Z', '2026-10-24T07:00:00.000Z'],
      ['b', '2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z'],
      ['c', '2026-10-25T08:00:00.000Z', '2026-10-26T08:00:00.000Z'],
    ]);
  });

  it('America/New_York: 23 hours on 2026-03-08, 25 hours on 2026-11-01', () => {
    const spring = schedule('America/New_York', [
      layer({ handoff: '08:00', starts_at: at('2026-03-06T13:00:00Z') }),
    ]);
    expect(rows(spring, '2026-03-07T13:00:00Z', '2026-03-09T12:00:00Z')).toEqual([
      ['b', '2026-03-07T13:00:00.000Z', '2026-03-08T12:00:00.000Z'],
      ['c', '2026-03-08T12:00:00.000Z', '2026-03-09T12:00:00.000Z'],
    ]);
    const autumn = schedule('America/New_York', [
      layer({ handoff: '08:00', starts_at: at('2026-10-30T12:00:00Z') }),
    ]);
    expect(rows(autumn, '2026-10-31T12:00:00Z', '2026-11-02T13:00:00Z')).toEqual([
      ['b', '2026-10-31T12:00:00.000Z', '2026-11-01T13:00:00.000Z'],
      ['c', '2026-11-01T13:00:00.000Z', '2026-11-02T13:00:00.000Z'],
    ]);
  });

  it('Australia/Lord_Howe: the half-hour change makes shifts of 24.5 and 23.5 hours', () => {
    const april = schedule('Australia/Lord_Howe', [layer({ starts_at: at('2026-04-02T22:00:00Z') })]);
    expect(rows(april, '2026-04-03T22:00:00Z', '2026-04-05T22:30:00Z')).toEqual([
      ['b', '2026-04-03T22:00:00.000Z', '2026-04-04T22:30:00.000Z'],
      ['c', '2026-04-04T22:30:00.000Z', '2026-04-05T22:30:00.000Z'],
    ]);
    const october = schedule('Australia/Lord_Howe', [layer({ starts_at: at('2026-10-01T22:30:00Z') })]);
    expect(rows(october, '2026-10-02T22:30:00Z', '2026-10-04T22:00:00Z')).toEqual([
      ['b', '2026-10-02T22:30:00.000Z', '2026-10-03T22:00:00.000Z'],
      ['c', '2026-10-03T22:00:00.000Z', '2026-10-04T22:00:00.000Z'],
    ]);
  });

  it('Asia/Kolkata: every shift 24 hours at 03:30Z', () => {
    const s = schedule('Asia/Kolkata', [layer({ users: ['a', 'b'], starts_at: at('2026-03-28T03:30:00Z') })]);
    expect(rows(s, '2026-03-28T03:30:00Z', '2026-03-31T03:30:00Z')).toEqual([
      ['a', '2026-03-28T03:30:00.000Z', '2026-03-29T03:30:00.000Z'],
      ['b', '2026-03-29T03:30:00.000Z', '2026-03-30T03:30:00.000Z'],
      ['a', '2026-03-30T03:30:00.000Z', '2026-03-31T03:30:00.000Z'],
    ]);
  });

  it('a layer that started a year ago answers without walking its shifts (363 days after H1: shift 364)', () => {
    // Starts Sunday 2025-03-30 09:00 CEST; H1 Monday 2025-03-31 09:00; 2026-03-29 is 363 days later.
    const s = schedule('Europe/Berlin', [layer({ starts_at: at('2025-03-30T07:00:00Z') })]);
    expect(answer(s, '2026-03-29T12:00:00Z')).toEqual({
      user: 'b',
      shift: ['2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z'],
      until: '2026-03-30T07:00:00.000Z',
      next: ['c', '2026-03-30T07:00:00.000Z'],
    });
  });
});

describe('layers that started long ago or start far ahead', () => {
  it('Kolkata from 2000-01-01: 9,557 days to 2026-03-02, shift 9,558; a layer starting in 9999 covers nobody yet', () => {
    const s = schedule('Asia/Kolkata', [
      layer({ starts_at: at('2000-01-01T00:00:00Z') }),
      layer({ name: 'Later', users: ['x'], starts_at: at('9999-01-01T00:00:00Z') }),
    ]);
    expect(answer(s, '2026-03-02T12:00:00Z')).toEqual({
      user: 'a',
      shift: ['2026-03-02T03:30:00.000Z', '2026-03-03T03:30:00.000Z'],
      until: '2026-03-03T03:30:00.000Z',
      next: ['b', '2026-03-03T03:30:00.000Z'],
    });
  });
});

describe('a handoff time inside the gap or the fold', () => {
  it('02:30 in Berlin: on the spring night at 03:00 CEST (first instant after the gap), on the autumn night at the first 02:30', () => {
    const spring = schedule('Europe/Berlin', [
      layer({ users: ['a', 'b'], handoff: '02:30', starts_at: at('2026-03-27T12:00:00Z') }),
    ]);
    expect(rows(spring, '2026-03-27T12:00:00Z', '2026-03-30T00:30:00Z')).toEqual([
      ['a', '2026-03-27T12:00:00.000Z', '2026-03-28T01:30:00.000Z'],
      ['b', '2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z'],
      ['a', '2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z'],
    ]);
    const autumn = schedule('Europe/Berlin', [
      layer({ users: ['a', 'b'], handoff: '02:30', starts_at: at('2026-10-23T12:00:00Z') }),
    ]);
    expect(rows(autumn, '2026-10-24T00:30:00Z', '2026-10-26T01:30:00Z')).toEqual([
      ['b', '2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z'],
      ['a', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z'],
    ]);
  });

  it('New York 02:30 springs to 03:00 EDT; 01:30 on 2026-11-01 is the first (EDT) one', () => {
    const spring = schedule('America/New_York', [
      layer({ users: ['a', 'b'], handoff: '02:30', starts_at: at('2026-03-07T12:00:00Z') }),
    ]);
    expect(answer(spring, '2026-03-08T06:00:00Z')).toEqual({
      user: 'a',
      shift: ['2026-03-07T12:00:00.000Z', '2026-03-08T07:00:00.000Z'],
      until: '2026-03-08T07:00:00.000Z',
      next: ['b', '2026-03-08T07:00:00.000Z'],
    });
    const autumn = schedule('America/New_York', [
      layer({ users: ['a', 'b'], handoff: '01:30', starts_at: at('2026-10-31T12:00:00Z') }),
    ]);
    expect(rows(autumn, '2026-10-31T12:00:00Z', '2026-11-02T06:30:00Z')).toEqual([
      ['a', '2026-10-31T12:00:00.000Z', '2026-11-01T05:30:00.000Z'],
      ['b', '2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z'],
    ]);
  });

  it('Lord Howe: 02:15 in the October gap is 02:30 +11; 01:45 in the April fold is the first, at +11', () => {
    const gap = schedule('Australia/Lord_Howe', [
      layer({ users: ['a', 'b'], handoff: '02:15', starts_at: at('2026-10-02T12:00:00Z') }),
    ]);
    expect(rows(gap, '2026-10-02T15:45:00Z', '2026-10-04T15:15:00Z')).toEqual([
      ['b', '2026-10-02T15:45:00.000Z', '2026-10-03T15:30:00.000Z'],
      ['a', '2026-10-03T15:30:00.000Z', '2026-10-04T15:15:00.000Z'],
    ]);
    const fold = schedule('Australia/Lord_Howe', [
      layer({ users: ['a', 'b'], handoff: '01:45', starts_at: at('2026-04-03T12:00:00Z') }),
    ]);
    expect(rows(fold, '2026-04-03T14:45:00Z', '2026-04-05T15:15:00Z')).toEqual([
      ['b', '2026-04-03T14:45:00.000Z', '2026-04-04T14:45:00.000Z'],
      ['a', '2026-04-04T14:45:00.000Z', '2026-04-05T15:15:00.000Z'],
    ]);
  });
});

describe('weekly and custom rotations', () => {
  it('weekly on Monday 09:00 in Berlin: 167 hours across the spring change; a start at the handoff keeps its first week', () => {
    const s = schedule('Europe/Berlin', [
      layer({
        users: ['a', 'b'],
        rotation: 'weekly',
        handoff_day: 'mon',
        starts_at: at('2026-03-20T12:00:00Z'),
      }),
    ]);
    expect(rows(s, '2026-03-20T12:00:00Z', '2026-04-06T07:00:00Z')).toEqual([
      ['a', '2026-03-20T12:00:00.000Z', '2026-03-23T08:00:00.000Z'],
      ['b', '2026-03-23T08:00:00.000Z', '2026-03-30T07:00:00.000Z'],
      ['a', '2026-03-30T07:00:00.000Z', '2026-04-06T07:00:00.000Z'],
    ]);
    const onTheDot = schedule('Europe/Berlin', [
      layer({
        users: ['a', 'b'],
        rotation: 'weekly',
        handoff_day: 'mon',
        starts_at: at('2026-03-23T08:00:00Z'),
      }),
    ]);
    expect(rows(onTheDot, '2026-03-23T08:00:00Z', '2026-04-06T07:00:00Z')).toEqual([
      ['a', '2026-03-23T08:00:00.000Z', '2026-03-30T07:00:00.000Z'],
      ['b', '2026-03-30T07:00:00.000Z', '2026-04-06T07:00:00.000Z'],
    ]);
  });

  it('weekly on Sunday 01:30 in New York: the fold week ends at the first 01:30 and the next lasts 169 hours', () => {
    const s = schedule('America/New_York', [
      layer({
        users: ['a', 'b'],
        rotation: 'weekly',
        handoff: '01:30',
        handoff_day: 'sun',
        starts_at: at('2026-10-20T00:00:00Z'),
      }),
    ]);
    expect(rows(s, '2026-10-25T05:30:00Z', '2026-11-08T06:30:00Z')).toEqual([
      ['b', '2026-10-25T05:30:00.000Z', '2026-11-01T05:30:00.000Z'],
      ['a', '2026-11-01T05:30:00.000Z', '2026-11-08T06:30:00.000Z'],
    ]);
  });

  it('custom 12-hour shifts count elapsed time from the first local 08:00: 09:00 CEST after the spring change, 07:00 CET after the autumn one', () => {
    const s = schedule('Europe/Berlin', [
      layer({
        rotation: 'custom',
        shift_seconds: 43_200,
        handoff: '08:00',
        starts_at: at('2026-03-28T00:00:00Z'),
      }),
    ]);
    expect(rows(s, '2026-03-28T00:00:00Z', '2026-03-29T19:00:00Z')).toEqual([
      ['a', '2026-03-28T00:00:00.000Z', '2026-03-28T07:00:00.000Z'],
      ['b', '2026-03-28T07:00:00.000Z', '2026-03-28T19:00:00.000Z'],
      ['c', '2026-03-28T19:00:00.000Z', '2026-03-29T07:00:00.000Z'],
      ['a', '2026-03-29T07:00:00.000Z', '2026-03-29T19:00:00.000Z'],
    ]);
    // Autumn: from the first 08:00 CEST, twelve hours on: 07:00 and 19:00 CET after the change.
    const autumn = schedule('Europe/Berlin', [
      layer({
        rotation: 'custom',
        shift_seconds: 43_200,
        handoff: '08:00',
        starts_at: at('2026-10-24T00:00:00Z'),
      }),
    ]);
    expect(rows(autumn, '2026-10-24T00:00:00Z', '2026-10-25T18:00:00Z')).toEqual([
      ['a', '2026-10-24T00:00:00.000Z', '2026-10-24T06:00:00.000Z'],
      ['b', '2026-10-24T06:00:00.000Z', '2026-10-24T18:00:00.000Z'],
      ['c', '2026-10-24T18:00:00.000Z', '2026-10-25T06:00:00.000Z'],
      ['a', '2026-10-25T06:00:00.000Z', '2026-10-25T18:00:00.000Z'],
    ]);
    // Thirty-one days (62 shifts) after H1: shift 63, users[0].
    expect(answer(s, '2026-04-28T08:00:00Z')).toEqual({
      user: 'a',
      shift: ['2026-04-28T07:00:00.000Z', '2026-04-28T19:00:00.000Z'],
      until: '2026-04-28T19:00:00.000Z',
      next: ['b', '2026-04-28T19:00:00.000Z'],
    });
  });
});

describe('layers', () => {
  const base = layer({ name: 'Round the clock', users: ['a'], starts_at: at('2026-03-01T00:00:00Z') });

  it('the later layer wins where it covers; the lower one shows through its gaps', () => {
    const day = layer({
      name: 'Office',
      users: ['x'],
      starts_at: at('2026-03-01T00:00:00Z'),
      restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' }],
    });
    const s = schedule('Asia/Kolkata', [base, day]);
    expect(rows(s, '2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z')).toEqual([
      ['a', '2026-03-02T00:00:00.000Z', '2026-03-02T03:30:00.000Z'],
      ['x', '2026-03-02T03:30:00.000Z', '2026-03-02T11:30:00.000Z'],
      ['a', '2026-03-02T11:30:00.000Z', '2026-03-03T00:00:00.000Z'],
    ]);
    const now = onCallAt(s, [], at('2026-03-02T04:00:00Z'));
    expect(now.shift?.source).toEqual({ kind: 'layer', layer: 2, layer_name: 'Office' });
    expect(onCallShiftAt(s, [], at('2026-03-02T12:00:00Z'))?.source).toEqual({
      kind: 'layer',
      layer: 1,
      layer_name: 'Round the clock',
    });
  });

  it('a layer starting in the future lets the lower one show until it starts', () => {
    const later = layer({ name: 'New', users: ['x', 'y'], starts_at: at('2026-03-10T00:00:00Z') });
    const s = schedule('Europe/Berlin', [base, later]);
    expect(answer(s, '2026-03-09T12:00:00Z')).toEqual({
      user: 'a',
      shift: ['2026-03-09T08:00:00.000Z', '2026-03-10T08:00:00.000Z'],
      until: '2026-03-10T00:00:00.000Z',
      next: ['x', '2026-03-10T00:00:00.000Z'],
    });
    expect(rows(s, '2026-03-09T12:00:00Z', '2026-03-11T12:00:00Z')).toEqual([
      ['a', '2026-03-09T12:00:00.000Z', '2026-03-10T00:00:00.000Z'],
      ['x', '2026-03-10T00:00:00.000Z', '2026-03-10T08:00:00.000Z'],
      ['y', '2026-03-10T08:00:00.000Z', '2026-03-11T08:00:00.000Z'],
      ['x', '2026-03-11T08:00:00.000Z', '2026-03-11T12:00:00.000Z'],
    ]);
  });

  it('a layer with no users covers nobody; an empty schedule answers nobody, never changing', () => {
    const s = schedule('Europe/Berlin', [base, layer({ users: [] })]);
    expect(onCallShiftAt(s, [], at('2026-03-05T12:00:00Z'))?.user_id).toBe('a');
    expect(answer(schedule('Europe/Berlin', []), '2026-03-05T12:00:00Z')).toEqual({
      user: null,
      shift: null,
      until: null,
      next: null,
    });
  });

  it('one user on call all the time: nothing changes within the look-ahead, so no until and no next', () => {
    const s = schedule('Europe/Berlin', [base]);
    const a = answer(s, '2026-03-05T12:00:00Z');
    expect([a.user, a.until, a.next]).toEqual(['a', null, null]);
    expect(rows(s, '2026-03-05T12:00:00Z', '2026-03-19T12:00:00Z')).toEqual([
      ['a', '2026-03-05T12:00:00.000Z', '2026-03-19T12:00:00.000Z'],
    ]);
  });
});

describe('overrides', () => {
  // Monday 09:00 CET start: a Monday, b Tuesday (03-03T08:00Z to 03-04T08:00Z), a Wednesday.
  const s = schedule('Europe/Berlin', [layer({ users: ['a', 'b'] })]);
  const z = override('o1', 'z', '2026-03-03T20:00:00Z', '2026-03-04T12:00:00Z', '2026-02-01T00:00:00Z');

  it('an override across a handoff splits the two shifts and beats the layer', () => {
    expect(rows(s, '2026-03-03T00:00:00Z', '2026-03-05T00:00:00Z', [z])).toEqual([
      ['a', '2026-03-03T00:00:00.000Z', '2026-03-03T08:00:00.000Z'],
      ['b', '2026-03-03T08:00:00.000Z', '2026-03-03T20:00:00.000Z'],
      ['z', '2026-03-03T20:00:00.000Z', '2026-03-04T12:00:00.000Z'],
      ['a', '2026-03-04T12:00:00.000Z', '2026-03-05T00:00:00.000Z'],
    ]);
    expect(answer(s, '2026-03-03T10:00:00Z', [z])).toEqual({
      user: 'b',
      shift: ['2026-03-03T08:00:00.000Z', '2026-03-04T08:00:00.000Z'],
      until: '2026-03-03T20:00:00.000Z',
      next: ['z', '2026-03-03T20:00:00.000Z'],
    });
    const during = onCallAt(s, [z], at('2026-03-04T09:00:00Z'));
    expect(during.shift?.source).toEqual({ kind: 'override', override_id: 'o1', created_by: 'admin' });
    expect([during.until?.toISOString(), during.next?.user_id]).toEqual(['2026-03-04T12:00:00.000Z', 'a']);
  });

  it('of overlapping overrides the most recently created wins', () => {
    const y = override('o2', 'y', '2026-03-04T06:00:00Z', '2026-03-04T09:00:00Z', '2026-02-02T00:00:00Z');
    expect(rows(s, '2026-03-03T18:00:00Z', '2026-03-04T14:00:00Z', [z, y])).toEqual([
      ['b', '2026-03-03T18:00:00.000Z', '2026-03-03T20:00:00.000Z'],
      ['z', '2026-03-03T20:00:00.000Z', '2026-03-04T06:00:00.000Z'],
      ['y', '2026-03-04T06:00:00.000Z', '2026-03-04T09:00:00.000Z'],
      ['z', '2026-03-04T09:00:00.000Z', '2026-03-04T12:00:00.000Z'],
      ['a', '2026-03-04T12:00:00.000Z', '2026-03-04T14:00:00.000Z'],
    ]);
    const older = { ...y, created_at: at('2026-01-15T00:00:00Z') };
    expect(rows(s, '2026-03-03T18:00:00Z', '2026-03-04T14:00:00Z', [z, older])).toEqual([
      ['b', '2026-03-03T18:00:00.000Z', '2026-03-03T20:00:00.000Z'],
      ['z', '2026-03-03T20:00:00.000Z', '2026-03-04T12:00:00.000Z'],
      ['a', '2026-03-04T12:00:00.000Z', '2026-03-04T14:00:00.000Z'],
    ]);
  });

  it("an override for the person already on call merges with the layer's shift, keeping the first source", () => {
    const early = override('o3', 'b', '2026-03-03T06:00:00Z', '2026-03-03T08:00:00Z', '2026-02-01T00:00:00Z');
    const shifts = finalShifts(s, [early], at('2026-03-03T06:00:00Z'), at('2026-03-04T08:00:00Z'));
    expect(shifts.map((x) => [x.user_id, x.starts_at.toISOString(), x.ends_at.toISOString()])).toEqual([
      ['b', '2026-03-03T06:00:00.000Z', '2026-03-04T08:00:00.000Z'],
    ]);
    expect(shifts[0]!.source).toEqual({ kind: 'override', override_id: 'o3', created_by: 'admin' });
  });
});
