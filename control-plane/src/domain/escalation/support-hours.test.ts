import { describe, expect, it } from 'vitest';
import type { SupportHours } from '../types.js';
import {
  checkSupportHours,
  nextSupportStart,
  supportHoursBody,
  withinSupportHours,
} from './support-hours.js';

/** The wall-clock date and time of an instant in a zone: `2026-03-29 09:00`. */
const local = (d: Date, timeZone: string) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(d);

const office: SupportHours = {
  timezone: 'Europe/Berlin',
  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  start: '09:00',
  end: '18:00',
};

describe('support hours', () => {
  it('a weekday range: inside from start up to (not including) end, on the listed days only', () => {
    // 2026-06-01 is a Monday; Berlin is UTC+2 in summer.
    expect(withinSupportHours(office, new Date('2026-06-01T06:59:00Z'))).toBe(false);
    expect(withinSupportHours(office, new Date('2026-06-01T07:00:00Z'))).toBe(true);
    expect(withinSupportHours(office, new Date('2026-06-01T15:59:00Z'))).toBe(true);
    expect(withinSupportHours(office, new Date('2026-06-01T16:00:00Z'))).toBe(false);
    expect(withinSupportHours(office, new Date('2026-06-06T10:00:00Z'))).toBe(false); // Saturday
  });

  it('outside, the next start is the next listed day at start, local time; inside, now', () => {
    const fridayEvening = new Date('2026-06-05T17:00:00Z'); // Fri 19:00 in Berlin
    expect(local(nextSupportStart(office, fridayEvening), 'Europe/Berlin')).toBe('2026-06-08 09:00');
    const inside = new Date('2026-06-03T10:00:00Z');
    expect(nextSupportStart(office, inside)).toEqual(inside);
  });

  it('keeps local hours across the spring-forward and fall-back changes', () => {
    // Berlin: clocks go 02:00 → 03:00 on Sunday 2026-03-29 and 03:00 → 02:00 on Sunday 2026-10-25.
    const sat = new Date('2026-03-28T12:00:00Z');
    expect(local(nextSupportStart(office, sat), 'Europe/Berlin')).toBe('2026-03-30 09:00');
    expect(nextSupportStart(office, sat).toISOString()).toBe('2026-03-30T07:00:00.000Z'); // now UTC+2
    const autumn = new Date('2026-10-24T12:00:00Z');
    expect(nextSupportStart(office, autumn).toISOString()).toBe('2026-10-26T08:00:00.000Z'); // UTC+1 again
    // The evening before each change, and the morning after, by the local clock.
    expect(withinSupportHours(office, new Date('2026-03-30T07:00:00Z'))).toBe(true);
    expect(withinSupportHours(office, new Date('2026-03-30T06:30:00Z'))).toBe(false);
    expect(withinSupportHours(office, new Date('2026-10-26T07:30:00Z'))).toBe(false);
    expect(withinSupportHours(office, new Date('2026-10-26T08:00:00Z'))).toBe(true);
  });

  it('a start inside the spring-forward gap begins at the first time after it', () => {
    const night: SupportHours = { timezone: 'Europe/Berlin', days: ['sun'], start: '02:30', end: '05:00' };
    const next = nextSupportStart(night, new Date('2026-03-28T12:00:00Z'));
    expect(local(next, 'Europe/Berlin')).toBe('2026-03-29 03:00');
    expect(withinSupportHours(night, next)).toBe(true);
  });

  it('a range past midnight covers the evening of a listed day and the morning after it', () => {
    const nights: SupportHours = {
      timezone: 'America/New_York',
      days: ['fri'],
      start: '22:00',
      end: '06:00',
    };
    // 2026-06-05 is a Friday; New York is UTC-4 in summer.
    expect(withinSupportHours(nights, new Date('2026-06-06T01:59:00Z'))).toBe(false); // Fri 21:59
    expect(withinSupportHours(nights, new Date('2026-06-06T02:00:00Z'))).toBe(true); // Fri 22:00
    expect(withinSupportHours(nights, new Date('2026-06-06T09:59:00Z'))).toBe(true); // Sat 05:59
    expect(withinSupportHours(nights, new Date('2026-06-06T10:00:00Z'))).toBe(false); // Sat 06:00
    expect(withinSupportHours(nights, new Date('2026-06-07T03:00:00Z'))).toBe(false); // Sat 23:00
    expect(local(nextSupportStart(nights, new Date('2026-06-06T12:00:00Z')), 'America/New_York')).toBe(
      '2026-06-12 22:00',
    );
  });

  it('names every bad field, and keeps the time zone’s spelling and the days in week order', () => {
    const bad = supportHoursBody.safeParse({
      timezone: 'Mars/Olympus',
      days: ['mon', 'funday'],
      start: '9:00',
      end: '24:00',
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'days.1',
      'end',
      'start',
      'timezone',
    ]);
    const twice = supportHoursBody.safeParse({
      timezone: 'UTC',
      days: ['mon', 'mon'],
      start: '09:00',
      end: '17:00',
    });
    expect(twice.error!.issues.map((i) => i.path.join('.'))).toEqual(['days']);
    expect(
      checkSupportHours({
        timezone: 'Mars/Olympus',
        days: ['mon', 'mon'],
        start: '09:00',
        end: '09:00',
      }).problems.map((p) => p.field),
    ).toEqual(['support_hours.timezone', 'support_hours.days', 'support_hours.end']);
    expect(
      checkSupportHours({ timezone: 'europe/berlin', days: ['fri', 'mon'], start: '09:00', end: '18:00' })
        .value,
    ).toEqual({ timezone: 'Europe/Berlin', days: ['mon', 'fri'], start: '09:00', end: '18:00' });
  });
});
