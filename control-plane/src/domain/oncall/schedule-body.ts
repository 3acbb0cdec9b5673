import type { FieldProblem } from '@lookout/shared';
import { z } from 'zod';
import { canonicalTimezone } from '../heartbeats/schedule.js';
import type { ScheduleLayer, Weekday } from '../types.js';
import { nameText, problemsIn, uuid } from '../validation.js';
import type { ScheduleStore } from './schedule-store.js';
import { restrictionProblems } from './shifts.js';

/**
 * A schedule's body and every rule over it: zod for the shape, then what crosses fields (a custom
 * rotation's `shift_seconds`, a weekly one's `handoff_day`, the time zone, users of the workspace,
 * overlapping restrictions), all gathered into ONE list of problems so a 422 names every bad field.
 */

export const WEEKDAYS = [
  'mon',
  'tue',
  'wed',
  'thu',
  'fri',
  'sat',
  'sun',
] as const satisfies readonly Weekday[];
export const MAX_LAYERS = 10;
export const MAX_LAYER_USERS = 50;
export const MAX_RESTRICTIONS = 28;
export const MIN_SHIFT_SECONDS = 1800;
export const MAX_SHIFT_SECONDS = 7_776_000;

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM (00:00 to 23:59)');
const hhmmOrMidnight = z
  .string()
  .regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'must be a time HH:MM (00:00 to 24:00)');
/** The instants schedules take and are asked about: 2000 to 2100 (a zone's rules are computed per year). */
export const EARLIEST = new Date('2000-01-01T00:00:00Z');
export const LATEST = new Date('2100-01-01T00:00:00Z');
/** An ISO 8601 date-time with a zone, from 2000 to 2100, as a Date. */
export const isoInstant = () =>
  z.iso
    .datetime({
      offset: true,
      error: 'must be an ISO 8601 date-time with a zone, e.g. 2026-03-02T09:00:00+01:00',
    })
    .transform((s) => new Date(s))
    .refine(
      (d) => d.getTime() >= EARLIEST.getTime() && d.getTime() < LATEST.getTime(),
      'must be from 2000-01-01 to 2100-01-01',
    );
const isoTime = isoInstant();

const restriction = z.strictObject({
  days: z.array(z.enum(WEEKDAYS)).min(1).max(7),
  start: hhmm,
  end: hhmmOrMidnight,
});

export const layerBody = z.strictObject({
  name: nameText(100).optional(),
  users: z.array(uuid()).min(1).max(MAX_LAYER_USERS).describe('User ids, in rotation order.'),
  rotation: z.enum(['daily', 'weekly', 'custom']),
  shift_seconds: z
    .int()
    .min(MIN_SHIFT_SECONDS)
    .max(MAX_SHIFT_SECONDS)
    .nullable()
    .optional()
    .describe('Custom rotations only: the length of a shift in seconds (1800 to 7,776,000).'),
  handoff: hhmm.describe('Local time of the handoff, HH:MM in the schedule’s time zone.'),
  handoff_day: z.enum(WEEKDAYS).nullable().optional().describe('Weekly rotations only: the handoff’s day.'),
  starts_at: isoTime.describe('When the layer starts (ISO 8601 with a zone).'),
  restrictions: z
    .array(restriction)
    .max(MAX_RESTRICTIONS)
    .optional()
    .describe(
      'Parts of the week the layer covers (none: all the time). `days` are the days an interval starts on.',
    ),
});

const fields = {
  name: nameText(100),
  timezone: z.string().min(1).max(100).describe('An IANA time zone, e.g. Europe/Berlin.'),
  layers: z
    .array(layerBody)
    .max(MAX_LAYERS)
    .describe('Ordered: a later layer wins where it covers the time.'),
};

export const createScheduleBody = z.strictObject(fields);
export const updateScheduleBody = z.strictObject({
  name: fields.name.optional(),
  timezone: fields.timezone.optional(),
  layers: fields.layers.optional(),
});
export const previewBody = z.strictObject({
  ...fields,
  name: fields.name.optional(),
  schedule_id: uuid().optional().describe('Whose overrides to apply to the preview.'),
});

type LayerInput = z.output<typeof layerBody>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** What zod cannot see in the raw body: each rule checked where its fields have the right shape. */
const crossFieldProblems = async (
  store: Pick<ScheduleStore, 'getScheduleUsers'>,
  workspaceId: string,
  raw: Record<string, unknown>,
): Promise<FieldProblem[]> => {
  const problems: FieldProblem[] = [];
  if (
    typeof raw.timezone === 'string' &&
    raw.timezone.length <= 100 &&
    canonicalTimezone(raw.timezone) === null
  )
    problems.push({
      field: 'timezone',
      message: 'is not a known time zone (an IANA name such as Europe/Berlin)',
    });
  if (!Array.isArray(raw.layers) || raw.layers.length > MAX_LAYERS) return problems;
  const wanted: { field: string; id: string }[] = [];
  raw.layers.forEach((layer, i) => {
    if (!isObject(layer)) return;
    const at = `layers[${i}]`;
    const custom = layer.rotation === 'custom';
    const weekly = layer.rotation === 'weekly';
    const shift = layer.shift_seconds ?? null;
    const day = layer.handoff_day ?? null;
    if (custom && shift === null)
      problems.push({ field: `${at}.shift_seconds`, message: 'is required for a custom rotation' });
    if (!custom && typeof layer.rotation === 'string' && shift !== null)
      problems.push({ field: `${at}.shift_seconds`, message: 'is only for a custom rotation' });
    if (weekly && day === null)
      problems.push({ field: `${at}.handoff_day`, message: 'is required for a weekly rotation' });
    if (!weekly && typeof layer.rotation === 'string' && day !== null)
      problems.push({ field: `${at}.handoff_day`, message: 'is only for a weekly rotation' });
    if (Array.isArray(layer.users) && layer.users.length <= MAX_LAYER_USERS)
      layer.users.forEach((id, j) => {
        if (uuid().safeParse(id).success)
          wanted.push({ field: `${at}.users[${j}]`, id: (id as string).toLowerCase() });
      });
    const restrictions = z
      .array(restriction)
      .max(MAX_RESTRICTIONS)
      .safeParse(layer.restrictions ?? []);
    if (restrictions.success) problems.push(...restrictionProblems(restrictions.data, `${at}.restrictions`));
  });
  if (wanted.length > 0) {
    const known = new Set(
      (await store.getScheduleUsers(workspaceId, [...new Set(wanted.map((w) => w.id))])).map((u) => u.id),
    );
    for (const w of wanted)
      if (!known.has(w.id))
        problems.push({ field: w.field, message: 'no user with this id in the workspace' });
  }
  return problems;
};

/** Every problem of a body against `schema` and the cross-field rules, zod's first, then the others (one per field and message). */
export const scheduleBodyProblems = async <S extends z.ZodType>(
  store: Pick<ScheduleStore, 'getScheduleUsers'>,
  workspaceId: string,
  schema: S,
  raw: unknown,
): Promise<{ data: z.output<S> | null; problems: FieldProblem[] }> => {
  const parsed = problemsIn(schema, raw);
  const problems = [...parsed.problems];
  if (isObject(raw)) problems.push(...(await crossFieldProblems(store, workspaceId, raw)));
  const seen = new Set<string>();
  const unique = problems.filter((p) => {
    const k = `${p.field}\n${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return { data: unique.length === 0 ? parsed.data : null, problems: unique };
};

/** The stored layers of a valid body: names defaulted, ids lower case, restrictions' days in week order. */
export const layersOf = (layers: LayerInput[]): ScheduleLayer[] =>
  layers.map((l, i) => ({
    name: l.name ?? `Layer ${i + 1}`,
    users: l.users.map((u) => u.toLowerCase()),
    rotation: l.rotation,
    shift_seconds: l.rotation === 'custom' ? (l.shift_seconds ?? null) : null,
    handoff: l.handoff,
    handoff_day: l.rotation === 'weekly' ? (l.handoff_day ?? null) : null,
    starts_at: l.starts_at,
    restrictions: (l.restrictions ?? []).map((r) => ({
      days: WEEKDAYS.filter((d) => r.days.includes(d)),
      start: r.start,
      end: r.end,
    })),
  }));

/** The canonical spelling of a valid time zone. */
export const timezoneOf = (tz: string) => canonicalTimezone(tz) ?? tz;
