/**
 * The on-call tools' answers in words a person reads (who_is_on_call, list_my_shifts): people by email,
 * every time in the schedule's own zone followed by its ISO instant, and why someone is on call (which
 * layer, or whose override). Plain functions of the API's JSON, so they are tested without a server.
 */

export interface UserRef {
  id: string;
  email: string;
}
export type ShiftSource =
  | { kind: 'layer'; layer: number; layer_name: string }
  | { kind: 'override'; override_id: string; created_by: UserRef | null };

/** `GET /schedules/{id}/on-call` */
export interface OnCallJson {
  user: UserRef | null;
  until: string | null;
  next: { user: UserRef; starts_at: string } | null;
  source: ShiftSource | null;
}
export interface ScheduleJson {
  id: string;
  name: string;
  timezone: string;
}
/** One item of `GET /me/shifts` */
export interface MyShiftJson {
  schedule: { id: string; name: string };
  starts_at: string;
  ends_at: string;
  source: ShiftSource;
}

const formats = new Map<string, { time: Intl.DateTimeFormat; us: Intl.DateTimeFormat }>();
/** Two formatters per zone, kept (a workspace has at most 200 schedules; zones are far fewer). */
const formatIn = (timeZone: string) => {
  let f = formats.get(timeZone);
  if (!f) {
    if (formats.size >= 500) formats.clear();
    f = {
      time: new Intl.DateTimeFormat('en-GB', {
        timeZone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZoneName: 'short',
      }),
      // British English names European zones (CET, BST), American English American ones (EST, PDT).
      us: new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }),
    };
    formats.set(timeZone, f);
  }
  return f;
};

const zoneName = (f: { us: Intl.DateTimeFormat }, at: Date, gb: string) =>
  /^GMT[+-]/.test(gb) ? (f.us.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? gb) : gb;

/**
 * `Mon 7 Dec 2026, 09:00 CET (2026-12-07T08:00:00.000Z)`: the local time in `zone` with the zone's
 * abbreviation where English has one (else its offset, `GMT+5:30`), then the instant.
 */
export const localTime = (iso: string, zone: string): string => {
  const f = formatIn(zone);
  const at = new Date(iso);
  const parts = Object.fromEntries(f.time.formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute} ${zoneName(f, at, parts.timeZoneName!)} (${iso})`;
};

/** Why someone is on call: `layer 2 "Weekdays"`, or `an override by bob@example.com`. */
export const sourceText = (source: ShiftSource | null): string => {
  if (!source) return '';
  if (source.kind === 'layer') return `layer ${source.layer} "${source.layer_name}"`;
  return source.created_by ? `an override by ${source.created_by.email}` : 'an override';
};

/** A schedule's heading: `Primary (Europe/Berlin, id …)`. */
const heading = (s: ScheduleJson) => `${s.name} (${s.timezone}, schedule id ${s.id})`;

/** Who is on call in one schedule at `at`, until when, why, and who is next, in a few lines. */
export const onCallText = (schedule: ScheduleJson, answer: OnCallJson, at: string | undefined): string => {
  const z = schedule.timezone;
  const lines = [`${heading(schedule)}, ${at ? `at ${localTime(at, z)}` : 'now'}:`];
  if (answer.user) {
    lines.push(
      `On call: ${answer.user.email}${answer.until ? ` until ${localTime(answer.until, z)}` : ' (no change within the next 90 days)'}.`,
    );
    if (answer.source) lines.push(`Why: ${sourceText(answer.source)}.`);
  } else
    lines.push(
      `Nobody is on call${answer.until ? ` until ${localTime(answer.until, z)}` : ' (and nobody within the next 90 days)'}: an escalation step naming this schedule reaches no one through it now.`,
    );
  if (answer.next) lines.push(`Next: ${answer.next.user.email} from ${localTime(answer.next.starts_at, z)}.`);
  return lines.join('\n');
};

/** A short line per schedule, for the answer without a schedule named. */
export const onCallLine = (schedule: ScheduleJson, answer: OnCallJson): string => {
  const z = schedule.timezone;
  const who = answer.user
    ? `${answer.user.email}${answer.until ? ` until ${localTime(answer.until, z)}` : ''}${answer.source ? `, ${sourceText(answer.source)}` : ''}`
    : `nobody${answer.until ? ` until ${localTime(answer.until, z)}` : ''}`;
  const next = answer.next
    ? `; next ${answer.next.user.email} from ${localTime(answer.next.starts_at, z)}`
    : '';
  return `- ${heading(schedule)}: ${who}${next}`;
};

/** The most shifts listed one by one: an answer a person reads (the API gives up to 1,000). */
export const MAX_SHIFT_LINES = 100;

/** The caller's shifts, soonest first, each in its schedule's zone (UTC when the schedule is unknown). */
export const myShiftsText = (
  email: string,
  days: number,
  shifts: MyShiftJson[],
  zones: Map<string, string>,
): string => {
  const span = days === 1 ? 'the next day' : `the next ${days} days`;
  if (shifts.length === 0) return `${email} has no on-call shifts in ${span}.`;
  const lines = [`${email} has ${shifts.length} on-call shift${shifts.length === 1 ? '' : 's'} in ${span}:`];
  for (const s of shifts.slice(0, MAX_SHIFT_LINES)) {
    const z = zones.get(s.schedule.id) ?? 'UTC';
    lines.push(
      `- ${s.schedule.name} (schedule id ${s.schedule.id}): from ${localTime(s.starts_at, z)} to ${localTime(s.ends_at, z)}, ${sourceText(s.source)}`,
    );
  }
  if (shifts.length > MAX_SHIFT_LINES)
    lines.push(`… and ${shifts.length - MAX_SHIFT_LINES} more (ask for fewer days to see them).`);
  return lines.join('\n');
};
