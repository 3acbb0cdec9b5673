import { AppError, type FieldProblem, newId, validationError } from '@lookout/shared';
import { z } from 'zod';
import type { HeartbeatStore } from '../heartbeats/heartbeat-store.js';
import { canonicalTimezone, nextRunAfter, scheduleProblem } from '../heartbeats/schedule.js';
import type { GroupStore } from '../monitors/group-store.js';
import { MAX_TAG_LENGTH, TAG } from '../monitors/labels.js';
import type { MonitorStore } from '../monitors/monitor-store.js';
import { MAINTENANCE_SCOPES, type MaintenanceScope, type MaintenanceWindow } from '../types.js';
import { nameText, parseOrThrow, problemsIn, throwIfProblems } from '../validation.js';
import { MAX_WINDOWS } from './cover.js';
import type { MaintenanceWindowStore } from './maintenance-store.js';

const time = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

const recurring = {
  /** Five cron fields (or @hourly, @daily, @weekly, @monthly), read in `timezone`. */
  schedule: z.string().min(1).max(200).optional(),
  /** IANA time zone of the schedule (default UTC). */
  timezone: z.string().min(1).max(100).optional(),
  /** How long each occurrence lasts, in seconds of real time. */
  duration_seconds: z.number().int().optional(),
};

export const createWindowBody = z.strictObject({
  name: nameText(200),
  scope_type: z.enum(MAINTENANCE_SCOPES),
  /** The monitor, heartbeat or group id, or the tag (`key` or `key:value`); omitted for the workspace. */
  scope_id: z.string().min(1).max(200).optional(),
  starts_at: time.optional(),
  ends_at: time.optional(),
  ...recurring,
});

export const updateWindowBody = z.strictObject({
  name: createWindowBody.shape.name.optional(),
  starts_at: time.optional(),
  ends_at: time.optional(),
  ...recurring,
});

const MAX_DAYS = 31;
/** The longest occurrence of a recurring window. */
export const MAX_DURATION_SECONDS = 7 * 86_400;
/** How many occurrences ahead the shortest gap is measured over (docs/decisions.md). */
const GAP_SAMPLE = 30;

/** The rules on a window's times, for a new window and for an edited one alike. */
const timeProblems = (starts: Date, ends: Date, now: Date) =>
  ends <= starts
    ? [{ field: 'ends_at', message: 'must be after starts_at' }]
    : ends.getTime() - starts.getTime() > MAX_DAYS * 86_400_000
      ? [{ field: 'ends_at', message: `must be at most ${MAX_DAYS} days after starts_at` }]
      : ends <= now
        ? [{ field: 'ends_at', message: 'must be in the future' }]
        : [];

/** The shortest gap between the next GAP_SAMPLE occurrences of a valid schedule, in seconds. */
const shortestGap = (schedule: string, timezone: string, now: Date): number => {
  let gap = Number.POSITIVE_INFINITY;
  let prev = nextRunAfter(schedule, timezone, now);
  for (let i = 0; prev && i < GAP_SAMPLE; i++) {
    const next = nextRunAfter(schedule, timezone, prev);
    if (!next) break;
    gap = Math.min(gap, (next.getTime() - prev.getTime()) / 1000);
    prev = next;
  }
  return gap;
};

interface Recurrence {
  schedule?: string | null | undefined;
  timezone?: string | null | undefined;
  duration_seconds?: number | null | undefined;
}

/** The rules on a recurring window's schedule, zone and duration; the zone as stored. */
export const recurrenceProblems = (r: Recurrence, now: Date) => {
  const problems: FieldProblem[] = [];
  const schedule = r.schedule?.trim() ?? '';
  const scheduleBad = !r.schedule ? 'is required for a recurring window' : scheduleProblem(schedule);
  if (scheduleBad) problems.push({ field: 'schedule', message: scheduleBad });
  const timezone = canonicalTimezone(r.timezone ?? 'UTC');
  if (!timezone)
    problems.push({ field: 'timezone', message: 'is not a known IANA time zone (e.g. Europe/Berlin)' });
  const d = r.duration_seconds;
  if (d === undefined || d === null)
    problems.push({ field: 'duration_seconds', message: 'is required for a recurring window' });
  else if (d <= 0) problems.push({ field: 'duration_seconds', message: 'must be positive' });
  else if (d > MAX_DURATION_SECONDS)
    problems.push({ field: 'duration_seconds', message: `must be at most ${MAX_DURATION_SECONDS} (7 days)` });
  else if (!scheduleBad && timezone) {
    const gap = shortestGap(schedule, timezone, now);
    if (d > gap)
      problems.push({
        field: 'duration_seconds',
        message: `must be at most ${gap}, the shortest time between two occurrences of the schedule`,
      });
  }
  return { problems, schedule, timezone: timezone ?? 'UTC' };
};

/** Given fields of the other form, each named. */
const otherForm = (body: Record<string, unknown>, fields: string[], form: string) =>
  fields
    .filter((f) => body[f] !== undefined)
    .map((field) => ({ field, message: `must be omitted for a ${form} window` }));

const ONE_OFF_FIELDS = ['starts_at', 'ends_at'];
const RECURRING_FIELDS = ['schedule', 'timezone', 'duration_seconds'];

/** What a window's scope must name: problems for `scope_id`, and the id as stored. */
const scopeProblems = async (
  store: HeartbeatStore & MonitorStore & Pick<GroupStore, 'getGroup'>,
  workspaceId: string,
  type: MaintenanceScope,
  scopeId: string | undefined,
) => {
  const problem = (message: string) => [{ field: 'scope_id', message }];
  if (type === 'workspace')
    return scopeId === undefined ? [] : problem('must be omitted for a workspace-wide window');
  if (scopeId === undefined) return problem(`is required for a ${type} window`);
  if (type === 'tag')
    return TAG.test(scopeId) && scopeId.length <= MAX_TAG_LENGTH
      ? []
      : problem(
          `must be a tag: key or key:value of lower-case letters, digits, - and _ (at most ${MAX_TAG_LENGTH} characters), such as env:prod`,
        );
  if (!UUID.test(scopeId)) return problem(`must be the id of a ${type}`);
  const id = scopeId.toLowerCase();
  const found =
    type === 'monitor'
      ? await store.getMonitor(workspaceId, id)
      : type === 'heartbeat'
        ? await store.getHeartbeat(workspaceId, id)
        : await store.getGroup(workspaceId, id);
  return found ? [] : problem(`no ${type} with this id in the workspace`);
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type CreateFields = Partial<z.output<typeof createWindowBody>>;
type CreateStore = HeartbeatStore & MonitorStore & MaintenanceWindowStore & Pick<GroupStore, 'getGroup'>;

/** The rules across a new window's fields (those given: a field that failed its shape is left out). */
const createProblems = async (store: CreateStore, workspaceId: string, v: CreateFields, now: Date) => {
  const isRecurring = RECURRING_FIELDS.some((f) => v[f as keyof typeof v] !== undefined);
  const problems: FieldProblem[] = v.scope_type
    ? await scopeProblems(store, workspaceId, v.scope_type, v.scope_id)
    : [];
  let rec: ReturnType<typeof recurrenceProblems> | null = null;
  if (isRecurring) {
    problems.push(...otherForm(v, ONE_OFF_FIELDS, 'recurring'));
    rec = recurrenceProblems(v, now);
    problems.push(...rec.problems);
  } else if (!v.starts_at || !v.ends_at) {
    for (const f of ONE_OFF_FIELDS)
      if (v[f as 'starts_at'] === undefined)
        problems.push({
          field: f,
          message: 'is required (or give schedule and duration_seconds for a recurring window)',
        });
  } else problems.push(...timeProblems(v.starts_at, v.ends_at, now));
  return { problems, rec };
};

/**
 * Parses a new window's body. A field of the wrong shape does not hide the rules on the others: they
 * run on the well-formed fields, so one 422 names every bad field.
 */
const parseCreate = async (store: CreateStore, workspaceId: string, body: unknown, now: Date) => {
  const parsed = problemsIn(createWindowBody, body);
  if (parsed.data) {
    const { problems, rec } = await createProblems(store, workspaceId, parsed.data, now);
    throwIfProblems(problems);
    return { v: parsed.data, rec };
  }
  const named = new Set(parsed.problems.map((p) => p.field.split(/[.[]/)[0]));
  const raw = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
  const wellFormed = createWindowBody
    .partial()
    .safeParse(Object.fromEntries(Object.entries(raw).filter(([k]) => !named.has(k))));
  const more = wellFormed.success
    ? (await createProblems(store, workspaceId, wellFormed.data, now)).problems
    : [];
  const shape = parsed.problems.map((p) => (p.field === '(body)' ? { ...p, field: 'body' } : p));
  throw validationError([...shape, ...more.filter((p) => !named.has(p.field))]);
};

export const createWindow = async (
  store: CreateStore,
  workspaceId: string,
  body: unknown,
  now: Date,
): Promise<MaintenanceWindow> => {
  const { v, rec } = await parseCreate(store, workspaceId, body, now);
  if ((await store.listLiveMaintenanceWindows(workspaceId, now, MAX_WINDOWS)).length >= MAX_WINDOWS)
    throw new AppError(
      'conflict',
      `A workspace holds at most ${MAX_WINDOWS} maintenance windows that have not ended; delete one first.`,
    );
  const w: MaintenanceWindow = {
    id: newId(),
    workspace_id: workspaceId,
    name: v.name,
    scope_type: v.scope_type,
    scope_id: v.scope_type === 'tag' ? (v.scope_id ?? null) : (v.scope_id?.toLowerCase() ?? null),
    // A recurring window recurs from its creation on.
    starts_at: rec ? now : v.starts_at!,
    ends_at: rec ? null : v.ends_at!,
    schedule: rec ? rec.schedule : null,
    timezone: rec ? rec.timezone : null,
    duration_seconds: rec ? v.duration_seconds! : null,
    created_at: now,
  };
  await store.insertMaintenanceWindow(w);
  return w;
};

export const deleteWindow = async (
  store: HeartbeatStore & MonitorStore & MaintenanceWindowStore,
  workspaceId: string,
  id: string,
) => {
  if (!(await store.deleteMaintenanceWindow(workspaceId, id)))
    throw new AppError('not_found', 'Maintenance window not found.');
};

const loadWindow = async (store: MaintenanceWindowStore, workspaceId: string, id: string) => {
  const w = await store.getMaintenanceWindow(workspaceId, id);
  if (!w) throw new AppError('not_found', 'Maintenance window not found.');
  return w;
};

const saveWindow = async (store: MaintenanceWindowStore, w: MaintenanceWindow) => {
  if (!(await store.updateMaintenanceWindow(w)))
    throw new AppError('not_found', 'Maintenance window not found.');
  return w;
};

/**
 * Renames a window or moves its times (its scope stays: plan another window for something else).
 * An ended window is history and stays as it was; the edited times follow the rules of a new window.
 */
export const updateWindow = async (
  store: MaintenanceWindowStore,
  workspaceId: string,
  id: string,
  body: unknown,
  now: Date,
): Promise<MaintenanceWindow> => {
  const patch = parseOrThrow(updateWindowBody, body);
  const existing = await loadWindow(store, workspaceId, id);
  if (existing.ends_at && existing.ends_at <= now)
    throw new AppError('conflict', 'This maintenance window has ended; plan a new one instead.');
  const name = patch.name !== undefined ? { name: patch.name } : {};
  if (existing.schedule) {
    // The form stays: a recurring window takes a new schedule, zone or duration.
    const merged = {
      schedule: patch.schedule ?? existing.schedule,
      timezone: patch.timezone ?? existing.timezone,
      duration_seconds: patch.duration_seconds ?? existing.duration_seconds,
    };
    const rec = recurrenceProblems(merged, now);
    throwIfProblems([...otherForm(patch, ONE_OFF_FIELDS, 'recurring'), ...rec.problems]);
    return saveWindow(store, {
      ...existing,
      ...name,
      schedule: rec.schedule,
      timezone: rec.timezone,
      duration_seconds: merged.duration_seconds,
    });
  }
  const next: MaintenanceWindow = {
    ...existing,
    ...name,
    ...(patch.starts_at ? { starts_at: patch.starts_at } : {}),
    ...(patch.ends_at ? { ends_at: patch.ends_at } : {}),
  };
  throwIfProblems([
    ...otherForm(patch, RECURRING_FIELDS, 'one-off'),
    ...timeProblems(next.starts_at, next.ends_at!, now),
  ]);
  return saveWindow(store, next);
};

/** Ends an active window now (its record stays, with its real end); an upcoming one is deleted instead. */
export const endWindow = async (
  store: MaintenanceWindowStore,
  workspaceId: string,
  id: string,
  now: Date,
): Promise<MaintenanceWindow> => {
  const existing = await loadWindow(store, workspaceId, id);
  if (!existing.ends_at)
    throw new AppError('conflict', 'A recurring maintenance window has no end; delete it to stop it.');
  if (existing.ends_at <= now) throw new AppError('conflict', 'This maintenance window has already ended.');
  if (existing.starts_at > now)
    throw new AppError('conflict', 'This maintenance window has not started; delete it instead.');
  return saveWindow(store, { ...existing, ends_at: now });
};
