import { describe, expect, it } from 'vitest';
import type { Schedule, ScheduleLayer, ScheduleRestriction } from '../types.js';
import { finalShifts, MAX_WINDOW_DAYS, onCallAt, restrictionProblems, scheduleGaps } from './shifts.js';

// Expected instants written out by hand: Europe/Berlin is +01:00 until 2026-03-29 01:00Z, +02:00
// after; Asia/Kolkata +05:30. 2026-03-02 and 2026-03-23 are Mondays.

const at = (iso: string) => new Date(iso);
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri'] as ScheduleRestriction['days'];

const schedule = (timezone: string, over: Partial<ScheduleLayer>): Schedule => ({
  id: 's',
  workspace_id: 'w',
  name: 'Ops',
  timezone,
  layers: [
    {
      name: 'Office',
      users: ['a', 'b', 'c'],
      rotation: 'daily',
      shift_seconds: null,
      handoff: '08:00',
      handoff_day: null,
      starts_at: at('2026-03-02T07:00:00Z'),
      restrictions: [{ days: WEEKDAYS, start: '09:00', end: '17:00' }],
      ...over,
    },
  ],
  created_at: at('2026-01-01T00:00:00Z'),
  updated_at: at('2026-01-01T00:00:00Z'),
});

const rows = (s: Schedule, from: string, to: string) =>
  finalShifts(s, [], at(from), at(to)).map((x) => [
    x.user_id,
    x.starts_at.toISOString(),
    x.ends_at.toISOString(),
  ]);

describe('restrictions mask a layer; its rotation keeps counting through them', () => {
  it('weekdays 09:00–17:00 with an 08:00 handoff: Monday after the restricted weekend is the turn after Sunday (OneUptime #2413)', () => {
    // Daily from Monday 2026-03-23 08:00 CET: a Mon, b Tue, c Wed, a Thu, b Fri, c Sat, a Sun, b Mon 03-30.
    const s = schedule('Europe/Berlin', { starts_at: at('2026-03-23T07:00:00Z') });
    expect(rows(s, '2026-03-27T00:00:00Z', '2026-03-31T00:00:00Z')).toEqual([
      ['b', '2026-03-27T08:00:00.000Z', '2026-03-27T16:00:00.000Z'],
      ['b', '2026-03-30T07:00:00.000Z', '2026-03-30T15:00:00.000Z'],
    ]);
    expect(
      [onCallAt(s, [], at('2026-03-28T12:00:00Z'))].map((a) => [
        a.shift,
        a.until?.toISOString(),
        a.next?.user_id,
        a.next?.starts_at.toISOString(),
      ]),
    ).toEqual([[null, '2026-03-30T07:00:00.000Z', 'b', '2026-03-30T07:00:00.000Z']]);
  });

  it('a 12:00 handoff inside the interval splits the working day between two people', () => {
    // Daily from Monday 12:00 CET: a Mon 12:00 to Tue 12:00, b Tue 12:00 to Wed 12:00.
    const s = schedule('Europe/Berlin', {
      users: ['a', 'b'],
      handoff: '12:00',
      starts_at: at('2026-03-02T11:00:00Z'),
    });
    expect(rows(s, '2026-03-03T00:00:00Z', '2026-03-05T00:00:00Z')).toEqual([
      ['a', '2026-03-03T08:00:00.000Z', '2026-03-03T11:00:00.000Z'],
      ['b', '2026-03-03T11:00:00.000Z', '2026-03-03T16:00:00.000Z'],
      ['b', '2026-03-04T08:00:00.000Z', '2026-03-04T11:00:00.000Z'],
      ['a', '2026-03-04T11:00:00.000Z', '2026-03-04T16:00:00.000Z'],
    ]);
    const morning = onCallAt(s, [], at('2026-03-03T09:00:00Z'));
    expect([
      morning.shift?.user_id,
      morning.shift?.starts_at.toISOString(),
      morning.shift?.ends_at.toISOString(),
      morning.until?.toISOString(),
      morning.next?.user_id,
    ]).toEqual([
      'a',
      '2026-03-03T08:00:00.000Z',
      '2026-03-03T11:00:00.000Z',
      '2026-03-03T11:00:00.000Z',
      'b',
    ]);
    const evening = onCallAt(s, [], at('2026-03-03T16:30:00Z'));
    expect([evening.shift, evening.until?.toISOString(), evening.next?.user_id]).toEqual([
      null,
      '2026-03-04T08:00:00.000Z',
      'b',
    ]);
  });

  it('past midnight and to 24:00: Friday 22:00–06:00 and Saturday 18:00–24:00 in Kolkata', () => {
    const s = schedule('Asia/Kolkata', {
      users: ['a'],
      restrictions: [
        { days: ['fri'], start: '22:00', end: '06:00' },
        { days: ['sat'], start: '18:00', end: '24:00' },
      ],
    });
    expect(rows(s, '2026-03-05T18:30:00Z', '2026-03-08T18:30:00Z')).toEqual([
      ['a', '2026-03-06T16:30:00.000Z', '2026-03-07T00:30:00.000Z'],
      ['a', '2026-03-07T12:30:00.000Z', '2026-03-07T18:30:00.000Z'],
    ]);
  });

  it('intervals that cover the whole week mask nothing: shifts end at handoffs, not at midnight', () => {
    const s = schedule('Europe/Berlin', {
      users: ['a', 'b'],
      restrictions: [
        { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start: '00:00', end: '12:00' },
        { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start: '12:00', end: '24:00' },
      ],
    });
    // Daily at 08:00 CET from Monday 2026-03-02 08:00: a until Tuesday 08:00, b until Wednesday 08:00.
    expect(rows(s, '2026-03-03T00:00:00Z', '2026-03-04T12:00:00Z')).toEqual([
      ['a', '2026-03-03T00:00:00.000Z', '2026-03-03T07:00:00.000Z'],
      ['b', '2026-03-03T07:00:00.000Z', '2026-03-04T07:00:00.000Z'],
      ['a', '2026-03-04T07:00:00.000Z', '2026-03-04T12:00:00.000Z'],
    ]);
    expect(onCallAt(s, [], at('2026-03-03T12:00:00Z')).until?.toISOString()).toBe('2026-03-04T07:00:00.000Z');
  });

  it('an interval starting in the spring-forward gap begins when the gap ends', () => {
    const s = schedule('Europe/Berlin', {
      users: ['a'],
      restrictions: [{ days: ['sun'], start: '02:30', end: '04:00' }],
    });
    expect(rows(s, '2026-03-28T00:00:00Z', '2026-03-30T00:00:00Z')).toEqual([
      ['a', '2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z'],
    ]);
  });
});

describe('windows', () => {
  // Weekdays 09:00–17:00 CET (08:00Z to 16:00Z), one shift a weekday.
  const s = schedule('Europe/Berlin', { starts_at: at('2026-03-02T08:00:00Z'), handoff: '09:00' });

  it('gaps are the complement of the shifts within the window', () => {
    expect(scheduleGaps(s, [], at('2026-03-06T00:00:00Z'), at('2026-03-10T00:00:00Z'))).toEqual([
      { starts_at: at('2026-03-06T00:00:00Z'), ends_at: at('2026-03-06T08:00:00Z') },
      { starts_at: at('2026-03-06T16:00:00Z'), ends_at: at('2026-03-09T08:00:00Z') },
      { starts_at: at('2026-03-09T16:00:00Z'), ends_at: at('2026-03-10T00:00:00Z') },
    ]);
  });

  it(`answers windows of up to ${MAX_WINDOW_DAYS} days (67 weekdays from 2026-03-02) and refuses longer ones`, () => {
    const from = at('2026-03-02T00:00:00Z');
    expect(finalShifts(s, [], from, at('2026-06-03T00:00:00Z'))).toHaveLength(67);
    expect(() => finalShifts(s, [], from, at('2026-06-03T00:00:01Z'))).toThrow(/93 days/);
    expect(finalShifts(s, [], from, from)).toEqual([]);
  });
});

describe('restrictionProblems', () => {
  const P = 'layers[1].restrictions';

  it('takes intervals that touch without overlapping, past midnight and across the week end too', () => {
    expect(
      restrictionProblems(
        [
          { days: WEEKDAYS, start: '09:00', end: '12:00' },
          { days: WEEKDAYS, start: '12:00', end: '17:00' },
          { days: ['sun'], start: '22:00', end: '24:00' },
          { days: ['mon'], start: '00:00', end: '06:00' },
          { days: ['sat'], start: '20:00', end: '02:00' },
        ],
        P,
      ),
    ).toEqual([]);
  });

  it('refuses an empty interval and 24:00 as a start', () => {
    expect(
      restrictionProblems(
        [
          { days: ['mon'], start: '09:00', end: '09:00' },
          { days: ['tue'], start: '24:00', end: '06:00' },
        ],
        P,
      ).map((p) => p.field),
    ).toEqual([`${P}[0].end`, `${P}[1].start`]);
  });

  it('names the later of two overlapping intervals, with both spans', () => {
    expect(
      restrictionProblems(
        [
          { days: WEEKDAYS, start: '09:00', end: '17:00' },
          { days: ['wed'], start: '16:00', end: '18:00' },
        ],
        P,
      ),
    ).toEqual([
      { field: `${P}[1]`, message: 'overlaps restrictions[0] (wed 16:00–18:00 and wed 09:00–17:00)' },
    ]);
  });

  it('sees overlaps past midnight and across Sunday into Monday', () => {
    expect(
      restrictionProblems(
        [
          { days: ['mon'], start: '22:00', end: '06:00' },
          { days: ['tue'], start: '05:00', end: '09:00' },
          { days: ['sun'], start: '23:00', end: '01:00' },
          { days: ['mon'], start: '00:30', end: '02:00' },
        ],
        P,
      ),
    ).toEqual([
      { field: `${P}[1]`, message: 'overlaps restrictions[0] (tue 05:00–09:00 and mon 22:00–06:00)' },
      { field: `${P}[3]`, message: 'overlaps restrictions[2] (mon 00:30–02:00 and sun 23:00–01:00)' },
    ]);
  });
});
