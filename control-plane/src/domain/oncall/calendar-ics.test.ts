import { describe, expect, it } from 'vitest';
import { parseFeed } from '../../../../test/support/icalendar.js';
import { EVENT_SLICE, type FeedEvent, renderCalendar, vtimezoneOf } from './calendar-ics.js';

const ev = (over: Partial<FeedEvent> & Pick<FeedEvent, 'starts_at' | 'ends_at' | 'timezone'>): FeedEvent => ({
  uid: `u-${over.starts_at.getTime()}@acme.example.test`,
  summary: 'On call — Primary',
  description: 'Layer 1',
  ...over,
});
const now = new Date('2026-10-20T12:00:00Z');

describe('renderCalendar', () => {
  it('writes each shift in its schedule’s zone with a matching VTIMEZONE, across DST changes', async () => {
    const events = [
      // Berlin, the night DST ends (25 h): 00:00 CEST → 00:00 CET.
      ev({
        starts_at: new Date('2026-10-24T22:00:00Z'),
        ends_at: new Date('2026-10-25T23:00:00Z'),
        timezone: 'Europe/Berlin',
      }),
      // New York, the night DST ends a week later.
      ev({
        starts_at: new Date('2026-10-31T13:00:00Z'),
        ends_at: new Date('2026-11-01T14:00:00Z'),
        timezone: 'America/New_York',
      }),
      // A zone the data knows by another name (an alias) and UTC.
      ev({
        starts_at: new Date('2026-11-02T00:00:00Z'),
        ends_at: new Date('2026-11-03T00:00:00Z'),
        timezone: 'UTC',
      }),
    ];
    const text = await renderCalendar({ name: 'Primary, on call; ours', description: 'd', now, events });
    const cal = parseFeed(text);
    expect(cal.props['X-WR-CALNAME']).toBe('Primary, on call; ours');
    // Calendar properties come before the components (RFC 5545: icalbody = calprops component).
    expect(text.indexOf('X-WR-CALNAME')).toBeLessThan(text.indexOf('BEGIN:VTIMEZONE'));
    expect(text.lastIndexOf('END:VEVENT\r\nEND:VCALENDAR')).toBe(
      text.length - 'END:VEVENT\r\nEND:VCALENDAR'.length,
    );
    expect(cal.props['REFRESH-INTERVAL']).toBe('PT1H');
    expect(cal.props['X-PUBLISHED-TTL']).toBe('PT1H');
    expect(cal.props.METHOD).toBe('PUBLISH');
    expect(cal.tzids.sort()).toEqual(['America/New_York', 'Etc/UTC', 'Europe/Berlin']);
    expect(cal.events.map((e) => [e.tzid, e.start, e.end])).toEqual(
      events.map((e) => [vtimezoneOf(e.timezone)!.tzid, e.starts_at, e.ends_at]),
    );
    expect(cal.events[0]!.startText).toBe('DTSTART;TZID=Europe/Berlin:20261025T000000');
    expect(cal.events[1]!.startText).toBe('DTSTART;TZID=America/New_York:20261031T090000');
    expect(cal.events.every((e) => e.dtstamp.startsWith('2026-10-20T12:00:00'))).toBe(true);
  });

  it('escapes and folds text as RFC 5545 says, whatever a name holds', async () => {
    const summary = `${'x'.repeat(80)}, ; \\ — ☎ ${'é'.repeat(40)}`;
    const text = await renderCalendar({
      name: 'N',
      description: 'd',
      now,
      events: [
        ev({
          starts_at: now,
          ends_at: new Date(now.getTime() + 3600_000),
          timezone: 'Asia/Kolkata',
          summary,
        }),
      ],
    });
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(parseFeed(text).events[0]!.summary).toBe(summary);
  });

  it('a zone without VTIMEZONE data is written in UTC, never as a TZID it does not define', async () => {
    expect(vtimezoneOf('Mars/Olympus_Mons')).toBeNull();
    const text = await renderCalendar({
      name: 'N',
      description: 'd',
      now,
      events: [
        ev({ starts_at: now, ends_at: new Date(now.getTime() + 60_000), timezone: 'Mars/Olympus_Mons' }),
      ],
    });
    const [e] = parseFeed(text).events;
    expect(e!.tzid).toBeNull();
    expect(e!.start).toEqual(now);
  });

  it('a feed of several slices is one calendar: every event once, in order, each zone defined once', async () => {
    const n = EVENT_SLICE * 2 + 7;
    const events = Array.from({ length: n }, (_, i) =>
      ev({
        starts_at: new Date(now.getTime() + i * 1800_000),
        ends_at: new Date(now.getTime() + (i + 1) * 1800_000),
        timezone: i % 2 ? 'Australia/Lord_Howe' : 'Asia/Kolkata',
      }),
    );
    const text = await renderCalendar({ name: 'N', description: 'd', now, events });
    const cal = parseFeed(text);
    expect(cal.tzids.sort()).toEqual(['Asia/Kolkata', 'Australia/Lord_Howe']);
    expect(cal.events.map((e) => [e.uid, e.start, e.end])).toEqual(
      events.map((e) => [e.uid, e.starts_at, e.ends_at]),
    );
    expect(text.match(/BEGIN:VCALENDAR/g)).toHaveLength(1);
    expect(text.match(/END:VCALENDAR/g)).toHaveLength(1);
  });

  it('with no events it still defines the zones asked for, so the calendar has a component', async () => {
    const text = await renderCalendar({
      name: 'N',
      description: 'd',
      now,
      events: [],
      zones: ['Europe/Berlin'],
    });
    const cal = parseFeed(text);
    expect(cal.tzids).toEqual(['Europe/Berlin']);
    expect(cal.events).toEqual([]);
  });
});
