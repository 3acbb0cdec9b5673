import { setImmediate as nextTurn } from 'node:timers/promises';
import { TZDate } from '@date-fns/tz';
import ical, { foldLines, ICalCalendarMethod, escape as icalText } from 'ical-generator';
import { tzlib_get_ical_block, tzlib_get_timezones } from 'timezones-ical-library';

/**
 * A calendar feed as RFC 5545 text, written by ical-generator (escaping, folding, line ends) with the
 * VTIMEZONE components of timezones-ical-library (docs/decisions.md, "Calendar feeds"). The caller
 * computes the events (domain/oncall/calendar-feeds.ts).
 *
 * Each event's DTSTART/DTEND carries the TZID of its schedule's time zone, written as that zone's wall
 * clock (a TZDate of @date-fns/tz, which the generator reads as such), and the calendar holds a
 * VTIMEZONE for every TZID an event names (a user's feed spans schedules in several zones). A zone the
 * VTIMEZONE data does not know is written in UTC (`Z`), never as a TZID without its definition.
 *
 * Written EVENT_SLICE events at a time with a yield to the event loop between (one slice costs a few
 * ms): the generator's calendar properties, then the VTIMEZONEs, then each slice's VEVENTs as the
 * generator wrote and folded them, then END:VCALENDAR.
 */

/** What a calendar is asked to refresh at (REFRESH-INTERVAL, X-PUBLISHED-TTL): on-call changes by the hour. */
export const FEED_REFRESH_SECONDS = 3600;
/** Events written between two yields to the event loop. */
export const EVENT_SLICE = 50;

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

const END = 'END:VCALENDAR';

/** The calendar's text; `now` is every event's DTSTAMP. */
export const renderCalendar = async (opts: {
  name: string;
  description: string;
  now: Date;
  events: FeedEvent[];
  /** Zones whose VTIMEZONE is written even with no event in them (RFC 5545 wants one component at least). */
  zones?: string[];
}): Promise<string> => {
  const head = ical({
    prodId: { company: 'Lookout', product: 'On-call schedules', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    ttl: FEED_REFRESH_SECONDS,
    // NAME, X-WR-CALNAME and X-WR-CALDESC are written as given: the generator's own TEXT escaping first.
    name: icalText(opts.name, false),
    description: icalText(opts.description, false),
  }).toString();
  const parts = [head.slice(0, head.lastIndexOf(END))];
  const zones = new Map<string, string>();
  const zoneOf = new Map<string, string | null>();
  for (const zone of [...(opts.zones ?? []), ...opts.events.map((e) => e.timezone)]) {
    if (zoneOf.has(zone)) continue;
    const z = vtimezoneOf(zone);
    zoneOf.set(zone, z?.tzid ?? null);
    if (z) zones.set(z.tzid, z.vtimezone);
  }
  for (const vtimezone of zones.values()) parts.push(`${foldLines(vtimezone.replace(/\r?\n/g, '\r\n'))}\r\n`);
  for (let i = 0; i < opts.events.length; i += EVENT_SLICE) {
    if (i > 0) await nextTurn();
    // No calendar-wide zone: the generator would then write DTSTAMP as local time, not UTC.
    const slice = ical();
    for (const e of opts.events.slice(i, i + EVENT_SLICE)) {
      const tzid = zoneOf.get(e.timezone) ?? null;
      slice.createEvent({
        id: e.uid,
        start: tzid ? new TZDate(e.starts_at.getTime(), tzid) : e.starts_at,
        end: tzid ? new TZDate(e.ends_at.getTime(), tzid) : e.ends_at,
        timezone: tzid,
        stamp: opts.now,
        summary: e.summary,
        description: e.description,
      });
    }
    const text = slice.toString();
    parts.push(text.slice(text.indexOf('BEGIN:VEVENT'), text.lastIndexOf(END)));
  }
  parts.push(END);
  return parts.join('');
};
