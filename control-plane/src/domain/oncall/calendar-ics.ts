import ical, { ICalCalendarMethod, escape as icalText } from 'ical-generator';
import { Temporal } from 'temporal-polyfill';
import { tzlib_get_ical_block, tzlib_get_timezones } from 'timezones-ical-library';

/**
 * A calendar feed as RFC 5545 text, written by ical-generator (escaping, folding, line ends) with the
 * VTIMEZONE components of timezones-ical-library (docs/decisions.md, "Calendar feeds"). Pure: the
 * caller computes the events (domain/oncall/calendar-feeds.ts).
 *
 * Each event's DTSTART/DTEND carries the TZID of its schedule's time zone, written as that zone's wall
 * clock, and the calendar holds a VTIMEZONE for every TZID an event names (a user's feed spans
 * schedules in several zones). A zone the VTIMEZONE data does not know is written in UTC (`Z`), never
 * as a TZID without its definition.
 */

/** What a calendar is asked to refresh at (REFRESH-INTERVAL, X-PUBLISHED-TTL): on-call changes by the hour. */
export const FEED_REFRESH_SECONDS = 3600;

export interface FeedEvent {
  /** Stable across fetches: the same shift always gives the same UID. */
  uid: string;
  starts_at: Date;
  ends_at: Date;
  /** IANA zone of the schedule the shift belongs to. */
  timezone: string;
  summary: string;
  description: string;
}

let known: Set<string> | undefined;

/**
 * The VTIMEZONE for `zone` and the TZID it declares (the data's canonical name: `UTC` is `Etc/UTC`,
 * `US/Eastern` is `America/New_York`), or null when the data has no such zone.
 */
export const vtimezoneOf = (zone: string): { tzid: string; vtimezone: string } | null => {
  // Asked first: the data logs to the console for a name it does not know.
  known ??= new Set(tzlib_get_timezones() as string[]);
  if (!known.has(zone)) return null;
  const block = tzlib_get_ical_block(zone);
  if (!Array.isArray(block) || block.length < 2 || !block[0]) return null;
  const tzid = /^TZID=(.+)$/.exec(block[1] ?? '')?.[1];
  return tzid ? { tzid, vtimezone: block[0] } : null;
};

const instant = (d: Date) => Temporal.Instant.fromEpochMilliseconds(d.getTime());

/** The feed's text; `now` is every event's DTSTAMP. */
export const renderCalendar = (opts: {
  name: string;
  description: string;
  now: Date;
  events: FeedEvent[];
}) => {
  const zones = new Map<string, string>();
  const tzidOf = (zone: string) => {
    const known = vtimezoneOf(zone);
    if (known) zones.set(known.tzid, known.vtimezone);
    return known?.tzid ?? null;
  };
  const cal = ical({
    prodId: { company: 'Lookout', product: 'On-call schedules', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    ttl: FEED_REFRESH_SECONDS,
    // No calendar-wide zone (its DTSTAMP would then be written as local time, not UTC); the generator
    // adds one VTIMEZONE per zone the events name.
    timezone: { name: null, generator: (tzid) => zones.get(tzid) ?? null },
    // NAME, X-WR-CALNAME and X-WR-CALDESC: the library writes these as given, so its own TEXT escaping
    // first (its x() properties would be escaped, but written after the events, against RFC 5545's order).
    name: icalText(opts.name, false),
    description: icalText(opts.description, false),
  });
  for (const e of opts.events) {
    cal.createEvent({
      id: e.uid,
      start: instant(e.starts_at),
      end: instant(e.ends_at),
      timezone: tzidOf(e.timezone),
      stamp: opts.now,
      summary: e.summary,
      description: e.description,
    });
  }
  return cal.toString();
};
