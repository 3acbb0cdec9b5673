import { describe, expect, it } from 'vitest';
import {
  localTime,
  MAX_SHIFT_LINES,
  myShiftsText,
  onCallLine,
  onCallText,
  sourceText,
} from './oncall-text.js';

const alice = { id: 'u1', email: 'alice@example.com' };
const bob = { id: 'u2', email: 'bob@example.com' };
const primary = { id: 's1', name: 'Primary', timezone: 'Europe/Berlin' };

describe('on-call answers in words', () => {
  it('a time reads in the schedule’s zone, daylight saving included, then as the ISO instant', () => {
    expect(localTime('2026-12-07T08:00:00.000Z', 'Europe/Berlin')).toBe(
      'Mon 7 Dec 2026, 09:00 CET (2026-12-07T08:00:00.000Z)',
    );
    expect(localTime('2026-07-06T07:00:00.000Z', 'Europe/Berlin')).toBe(
      'Mon 6 Jul 2026, 09:00 CEST (2026-07-06T07:00:00.000Z)',
    );
    expect(localTime('2026-03-08T06:59:00.000Z', 'America/New_York')).toBe(
      'Sun 8 Mar 2026, 01:59 EST (2026-03-08T06:59:00.000Z)',
    );
    expect(localTime('2026-03-08T07:00:00.000Z', 'America/New_York')).toBe(
      'Sun 8 Mar 2026, 03:00 EDT (2026-03-08T07:00:00.000Z)',
    );
    expect(localTime('2026-10-04T15:30:00.000Z', 'Australia/Lord_Howe')).toBe(
      'Mon 5 Oct 2026, 02:30 GMT+11 (2026-10-04T15:30:00.000Z)',
    );
    expect(localTime('2026-12-07T03:30:00.000Z', 'Asia/Kolkata')).toBe(
      'Mon 7 Dec 2026, 09:00 GMT+5:30 (2026-12-07T03:30:00.000Z)',
    );
  });

  it('says who, until when, why and who is next', () => {
    const text = onCallText(
      primary,
      {
        user: alice,
        until: '2026-12-14T08:00:00.000Z',
        next: { user: bob, starts_at: '2026-12-14T08:00:00.000Z' },
        source: { kind: 'layer', layer: 2, layer_name: 'Weekdays' },
      },
      '2026-12-08T12:00:00.000Z',
    );
    expect(text.split('\n')).toEqual([
      'Primary (Europe/Berlin, schedule id s1), at Tue 8 Dec 2026, 13:00 CET (2026-12-08T12:00:00.000Z):',
      'On call: alice@example.com until Mon 14 Dec 2026, 09:00 CET (2026-12-14T08:00:00.000Z).',
      'Why: layer 2 "Weekdays".',
      'Next: bob@example.com from Mon 14 Dec 2026, 09:00 CET (2026-12-14T08:00:00.000Z).',
    ]);
  });

  it('names the override and its maker; says plainly when nobody is on call and what that means', () => {
    expect(sourceText({ kind: 'override', override_id: 'o1', created_by: bob })).toBe(
      'an override by bob@example.com',
    );
    expect(sourceText({ kind: 'override', override_id: 'o1', created_by: null })).toBe('an override');
    const nobody = onCallText(
      primary,
      {
        user: null,
        until: '2026-12-08T08:00:00.000Z',
        next: { user: alice, starts_at: '2026-12-08T08:00:00.000Z' },
        source: null,
      },
      undefined,
    );
    expect(nobody).toContain('Primary (Europe/Berlin, schedule id s1), now:');
    expect(nobody).toContain('Nobody is on call until Tue 8 Dec 2026, 09:00 CET');
    expect(nobody).toContain('an escalation step naming this schedule reaches no one through it now');
    expect(nobody).toContain('Next: alice@example.com from Tue 8 Dec 2026, 09:00 CET');
    expect(onCallText(primary, { user: null, until: null, next: null, source: null }, undefined)).toContain(
      'nobody within the next 90 days',
    );
  });

  it('one line per schedule for the overview', () => {
    expect(
      onCallLine(primary, {
        user: alice,
        until: '2026-12-14T08:00:00.000Z',
        next: null,
        source: { kind: 'override', override_id: 'o', created_by: alice },
      }),
    ).toBe(
      '- Primary (Europe/Berlin, schedule id s1): alice@example.com until Mon 14 Dec 2026, 09:00 CET (2026-12-14T08:00:00.000Z), an override by alice@example.com',
    );
  });

  it('lists my shifts in each schedule’s own zone, or says there are none', () => {
    expect(myShiftsText('alice@example.com', 30, [], new Map())).toBe(
      'alice@example.com has no on-call shifts in the next 30 days.',
    );
    const text = myShiftsText(
      'alice@example.com',
      7,
      [
        {
          schedule: { id: 's2', name: 'Follow the sun' },
          starts_at: '2026-12-07T03:30:00.000Z',
          ends_at: '2026-12-07T11:30:00.000Z',
          source: { kind: 'layer', layer: 1, layer_name: 'India' },
        },
      ],
      new Map([['s2', 'Asia/Kolkata']]),
    );
    const many = Array.from({ length: 130 }, (_, i) => ({
      schedule: { id: 's2', name: 'Follow the sun' },
      starts_at: new Date(Date.UTC(2026, 11, 7, i)).toISOString(),
      ends_at: new Date(Date.UTC(2026, 11, 7, i, 30)).toISOString(),
      source: { kind: 'layer' as const, layer: 1, layer_name: 'India' },
    }));
    const long = myShiftsText('alice@example.com', 90, many, new Map()).split('\n');
    expect(long[0]).toBe('alice@example.com has 130 on-call shifts in the next 90 days:');
    expect(long).toHaveLength(1 + MAX_SHIFT_LINES + 1);
    expect(long.at(-1)).toBe('… and 30 more (ask for fewer days to see them).');
    expect(text.split('\n')).toEqual([
      'alice@example.com has 1 on-call shift in the next 7 days:',
      '- Follow the sun (schedule id s2): from Mon 7 Dec 2026, 09:00 GMT+5:30 (2026-12-07T03:30:00.000Z) to Mon 7 Dec 2026, 17:00 GMT+5:30 (2026-12-07T11:30:00.000Z), layer 1 "India"',
    ]);
  });
});
