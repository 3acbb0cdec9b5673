/**
 * Reads a calendar feed with ical.js (Mozilla's RFC 5545 parser, the one Thunderbird uses), as a
 * subscribing calendar would: every DTSTART/DTEND with a TZID is resolved through the VTIMEZONE of that
 * TZID in the feed itself (never the test machine's zone data), and a TZID without one fails.
 */
import ICAL from 'ical.js';

export interface ParsedEvent {
  uid: string;
  summary: string;
  description: string | null;
  tzid: string | null;
  /** The DTSTART value as written (wall clock in its TZID). */
  startText: string;
  start: Date;
  end: Date;
  dtstamp: string;
}

export interface ParsedCalendar {
  props: Record<string, string>;
  tzids: string[];
  events: ParsedEvent[];
}

// The calendar properties Apple and Google read are TEXT (escaped as such by every producer); ical.js
// leaves an X- property it does not know as written.
for (const name of ['x-wr-calname', 'x-wr-caldesc', 'x-wr-timezone'])
  ICAL.design.icalendar.property[name] = { defaultType: 'text' };

export const parseFeed = (text: string): ParsedCalendar => {
  const cal = new ICAL.Component(ICAL.parse(text));
  if (cal.name !== 'vcalendar') throw new Error(`not a VCALENDAR: ${cal.name}`);
  const props: Record<string, string> = {};
  for (const p of cal.getAllProperties()) props[p.name.toUpperCase()] = String(p.getFirstValue());
  for (const required of ['VERSION', 'PRODID'])
    if (!props[required]) throw new Error(`the calendar has no ${required}`);
  const zones = new Map<string, ICAL.Timezone>();
  for (const vtz of cal.getAllSubcomponents('vtimezone')) {
    const tz = new ICAL.Timezone(vtz);
    if (zones.has(tz.tzid)) throw new Error(`VTIMEZONE ${tz.tzid} twice`);
    zones.set(tz.tzid, tz);
  }
  const instant = (comp: ICAL.Component, name: string) => {
    const prop = comp.getFirstProperty(name);
    if (!prop) throw new Error(`an event has no ${name}`);
    const tzid = prop.getParameter('tzid') as string | undefined;
    const time = (prop.getFirstValue() as ICAL.Time).clone();
    if (tzid) {
      const zone = zones.get(tzid);
      if (!zone) throw new Error(`${name} names TZID ${tzid}, which the feed does not define`);
      time.zone = zone;
    } else if (time.zone !== ICAL.Timezone.utcTimezone) {
      throw new Error(`${name} is floating (no TZID, no Z)`);
    }
    return { date: time.toJSDate(), tzid: tzid ?? null, text: String(prop.toICALString()) };
  };
  const events = cal.getAllSubcomponents('vevent').map((ve) => {
    const uid = ve.getFirstPropertyValue('uid');
    const dtstamp = ve.getFirstProperty('dtstamp');
    if (!uid) throw new Error('an event has no UID');
    if (!dtstamp) throw new Error(`event ${uid} has no DTSTAMP`);
    if (!String(dtstamp.toICALString()).endsWith('Z'))
      throw new Error(`event ${uid}: DTSTAMP is not UTC: ${dtstamp.toICALString()}`);
    const s = instant(ve, 'dtstart');
    const e = instant(ve, 'dtend');
    return {
      uid: String(uid),
      summary: String(ve.getFirstPropertyValue('summary') ?? ''),
      description: (ve.getFirstPropertyValue('description') as string | null) ?? null,
      tzid: s.tzid,
      startText: s.text,
      start: s.date,
      end: e.date,
      dtstamp: String(dtstamp.getFirstValue()),
    };
  });
  return { props, tzids: [...zones.keys()], events };
};
