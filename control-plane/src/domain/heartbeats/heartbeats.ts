import { AppError, isAppError, newId, validationError } from '@lookout/shared';
import { z } from 'zod';
import type { PolicyLookup } from '../lookups.js';
import {
  type DependencyGraphLookup,
  dependsOnField,
  dependsOnProblems,
  normalDependsOn,
} from '../monitors/depends-on.js';
import type { GroupStore } from '../monitors/group-store.js';
import { groupProblems, labelFields } from '../monitors/labels.js';
import type { Heartbeat, PingKind, Workspace } from '../types.js';
import { nameText, parseOrThrow, throwIfProblems, uuid } from '../validation.js';
import type { HeartbeatStore } from './heartbeat-store.js';
import { canonicalTimezone, scheduleProblem } from './schedule.js';

export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/;

const fields = {
  display_name: nameText(200),
  period_seconds: z.int().min(60).max(31_536_000),
  schedule: z
    .string()
    .max(200)
    .superRefine((v, ctx) => {
      const problem = scheduleProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe('Cron schedule: five fields (e.g. "0 3 * * 1-5") or @hourly, @daily, @weekly, @monthly.'),
  timezone: z
    .string()
    .max(64)
    .refine((v) => canonicalTimezone(v) !== null, {
      message: 'is not a known IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)',
    })
    .describe('IANA time zone the schedule is read in (default UTC).'),
  slug: z
    .string()
    .regex(SLUG, 'must be 1–100 lowercase letters, digits and dashes, not starting or ending with a dash')
    .describe('Name in slug ping URLs, /hb/ping/{ping_key}/{slug}; unique in the workspace.'),
  grace_seconds: z.int().min(0).max(31_536_000),
  escalation_policy_id: uuid(),
  depends_on: dependsOnField,
  paused: z.boolean(),
};

export const createHeartbeatBody = z.strictObject({
  display_name: fields.display_name,
  period_seconds: fields.period_seconds.optional(),
  schedule: fields.schedule.optional(),
  timezone: fields.timezone.optional(),
  slug: fields.slug.optional(),
  grace_seconds: fields.grace_seconds.optional(),
  escalation_policy_id: fields.escalation_policy_id.optional(),
  depends_on: fields.depends_on.optional(),
  paused: fields.paused.optional(),
  group_id: labelFields.group_id.optional(),
  tags: labelFields.tags.optional(),
  severity: labelFields.severity.optional(),
});
export const updateHeartbeatBody = createHeartbeatBody.partial().extend({
  schedule: fields.schedule.nullable().optional(),
  slug: fields.slug.nullable().optional(),
});

/**
 * Parses a create or edit body; a heartbeat has a period or a schedule, never both, and a body giving
 * both is refused in the same answer as its other bad fields.
 */
const parseBody = <S extends z.ZodType>(schema: S, body: unknown): z.output<S> => {
  const raw = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const both =
    raw.period_seconds !== undefined && typeof raw.schedule === 'string'
      ? ['period_seconds', 'schedule'].map((field) => ({
          field,
          message: 'give either period_seconds or schedule, not both',
        }))
      : [];
  try {
    const input = parseOrThrow(schema, body);
    throwIfProblems(both);
    return input;
  } catch (e) {
    if (!isAppError(e) || e.code !== 'validation_failed' || both.length === 0) throw e;
    const known = new Set(e.details.map((d) => d.field));
    throw validationError([...e.details, ...both.filter((b) => !known.has(b.field))]);
  }
};

const slugTaken = (slug: string | null | undefined) =>
  new AppError('conflict', `Another heartbeat in this workspace has the slug "${slug}".`, [
    { field: 'slug', message: 'is taken by another heartbeat in this workspace' },
  ]);

/** The store a heartbeat is created or edited through: the policy and the group it names are checked. */
export type HeartbeatEditStore = HeartbeatStore &
  PolicyLookup &
  Pick<GroupStore, 'getGroupsByIds'> &
  DependencyGraphLookup;

const policyProblems = async (
  store: HeartbeatEditStore,
  workspaceId: string,
  input: { escalation_policy_id?: string | undefined; group_id?: string | null | undefined },
) => [
  ...(input.escalation_policy_id === undefined ||
  (await store.getEscalationPolicy(workspaceId, input.escalation_policy_id))
    ? []
    : [{ field: 'escalation_policy_id', message: 'no escalation policy with this id in the workspace' }]),
  ...(await groupProblems(store, workspaceId, [{ field: 'group_id', id: input.group_id }])),
];

/**
 * Creates a heartbeat. `maxHeartbeats` is the plan's cap (402 once reached; counted, then inserted,
 * so two creates racing for the last place may both get it).
 */
export const createHeartbeat = async (
  store: HeartbeatEditStore,
  workspace: Workspace,
  body: unknown,
  now: Date,
  maxHeartbeats?: number,
): Promise<Heartbeat> => {
  const input = parseBody(createHeartbeatBody, body);
  const id = newId();
  const dependsOn = normalDependsOn(input.depends_on ?? []);
  throwIfProblems([
    ...(await policyProblems(store, workspace.id, input)),
    ...(await dependsOnProblems(store, workspace.id, { id, name: input.display_name }, dependsOn)),
  ]);
  if (maxHeartbeats !== undefined && (await store.countHeartbeats(workspace.id)) >= maxHeartbeats) {
    throw new AppError(
      'plan_limit_reached',
      `The ${workspace.plan} plan allows ${maxHeartbeats} heartbeats and this workspace has reached that limit. Upgrade your plan to add more heartbeats.`,
    );
  }
  const policyId =
    input.escalation_policy_id ?? (await store.getDefaultEscalationPolicy(workspace.id))?.id ?? '';
  const heartbeat: Heartbeat = {
    id,
    workspace_id: workspace.id,
    display_name: input.display_name,
    period_seconds: input.period_seconds ?? 86_400,
    schedule: input.schedule?.trim() ?? null,
    timezone: canonicalTimezone(input.timezone ?? 'UTC') ?? 'UTC',
    slug: input.slug ?? null,
    grace_seconds: input.grace_seconds ?? 3_600,
    state: input.paused ? 'paused' : 'new',
    last_ping_at: null,
    escalation_policy_id: policyId,
    depends_on: dependsOn,
    paused: input.paused ?? false,
    group_id: input.group_id ?? null,
    tags: input.tags ?? [],
    severity: input.severity ?? 'critical',
    created_at: now,
    updated_at: now,
    version: 1,
    due_at: null,
    started_at: null,
    start_rid: null,
    alert_id: null,
    state_version: 0,
    rearmed_at: null,
    last_duration_ms: null,
  };
  if ((await store.insertHeartbeat(heartbeat)) === 'slug_taken') throw slugTaken(heartbeat.slug);
  return heartbeat;
};

export const updateHeartbeat = async (
  store: HeartbeatEditStore,
  existing: Heartbeat,
  body: unknown,
  now: Date,
): Promise<Heartbeat> => {
  const patch = parseBody(updateHeartbeatBody, body);
  const { schedule, timezone, depends_on, ...rest } = patch;
  const dependsOn = normalDependsOn(depends_on ?? existing.depends_on ?? []);
  throwIfProblems([
    ...(await policyProblems(store, existing.workspace_id, patch)),
    ...(depends_on === undefined
      ? []
      : await dependsOnProblems(
          store,
          existing.workspace_id,
          { id: existing.id, name: rest.display_name ?? existing.display_name },
          dependsOn,
          'depends_on',
          existing.depends_on ?? [],
        )),
  ]);
  const next: Heartbeat = {
    ...existing,
    ...rest,
    depends_on: dependsOn,
    // A period given switches to it; a schedule given (or null) sets or clears the schedule.
    schedule:
      schedule !== undefined
        ? (schedule?.trim() ?? null)
        : patch.period_seconds !== undefined
          ? null
          : (existing.schedule ?? null),
    timezone: timezone !== undefined ? (canonicalTimezone(timezone) ?? 'UTC') : existing.timezone || 'UTC',
    updated_at: now,
    version: existing.version + 1,
  };
  const outcome = await store.updateHeartbeat(next, existing.version);
  if (outcome === 'slug_taken') throw slugTaken(next.slug);
  if (outcome === 'not_found') throw new AppError('not_found', 'Heartbeat not found.');
  if (outcome === 'conflict')
    throw new AppError('conflict', 'The heartbeat was changed by someone else meanwhile; try again.');
  return (await store.getHeartbeat(existing.workspace_id, existing.id)) ?? next;
};

/** How far ahead of our clock a job's finish time may be (clock skew), before it is refused. */
export const MAX_FUTURE_SKEW_SECONDS = 300;

export const pingBody = z.strictObject({ timestamp: z.int().min(0).optional() });

/**
 * The time a ping counts for: the job's own finish time when it sends one (Unix seconds), else arrival.
 * Refuses non-integers, negatives, times further ahead than the allowed skew, and times from before
 * the heartbeat existed (`createdAt`, compared by the whole second, as timestamps are in seconds): a
 * job cannot have finished for a heartbeat that did not exist yet, and such a time would only put the
 * heartbeat's deadline in the past. A time within the skew ahead is kept as sent.
 */
export const pingTime = (body: unknown, receivedAt: Date, createdAt: Date): Date => {
  if (body === undefined || body === null) return receivedAt;
  const { timestamp } = parseOrThrow(pingBody, body);
  if (timestamp === undefined) return receivedAt;
  if (timestamp > receivedAt.getTime() / 1000 + MAX_FUTURE_SKEW_SECONDS) {
    throwIfProblems([
      {
        field: 'timestamp',
        message: `is in the future (${new Date(timestamp * 1000).toISOString()}); send the Unix time in seconds when the job finished`,
      },
    ]);
  }
  if (timestamp < Math.floor(createdAt.getTime() / 1000)) {
    throwIfProblems([
      {
        field: 'timestamp',
        message: `is before the heartbeat was created (${new Date(timestamp * 1000).toISOString()} < ${createdAt.toISOString()}); send the Unix time in seconds when the job finished`,
      },
    ]);
  }
  return new Date(timestamp * 1000);
};

/** The most of a ping's body kept (UTF-8 bytes), as Healthchecks does; the rest is cut off. */
export const PING_BODY_MAX_BYTES = 10_000;

/** A request body as the text kept with its ping: at most PING_BODY_MAX_BYTES, cut at a character boundary. */
export const pingBodyText = (raw: Buffer): string | null => {
  if (raw.length === 0) return null;
  let end = Math.min(raw.length, PING_BODY_MAX_BYTES);
  // Do not split a multi-byte character: back up over continuation bytes (10xxxxxx).
  if (end < raw.length) while (end > 0 && (raw[end]! & 0xc0) === 0x80) end--;
  return raw.subarray(0, end).toString('utf8');
};

export interface PingSignal {
  kind: PingKind;
  exit_status: number | null;
  rid: string | null;
  /** `?create=1` on a slug ping: an unknown slug creates its heartbeat. */
  create: boolean;
}

const RID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * What a ping URL says, as Healthchecks has it: `/hb/ping/{uuid}` success, `/start` a run began,
 * `/fail` a failure, `/{0-255}` an exit status (0 success, else failure); `?rid=` a run id pairing a
 * start with its finish; on slug pings (`bySlug`) also `?create=1`. Returns null for an action that is
 * none of these (a 404).
 */
export const pingSignal = (
  action: string | undefined,
  query: URLSearchParams,
  bySlug = false,
): PingSignal | null => {
  const problems: { field: string; message: string }[] = [];
  for (const key of new Set(query.keys())) {
    if (key !== 'rid' && !(bySlug && key === 'create'))
      problems.push({ field: key, message: 'is not a known field' });
  }
  const createValues = query.getAll('create');
  if (createValues.length > 1 || (createValues.length === 1 && !['0', '1'].includes(createValues[0]!)))
    problems.push({
      field: 'create',
      message: 'must be 1 (create the heartbeat if the slug is unknown) or 0',
    });
  const create = createValues[0] === '1';
  const ridValues = query.getAll('rid');
  const rid = ridValues[0] ?? null;
  if (ridValues.length > 1) problems.push({ field: 'rid', message: 'must be given once' });
  else if (rid !== null && !RID.test(rid))
    problems.push({
      field: 'rid',
      message: 'must be 1–64 letters, digits, dots, dashes, colons or underscores (a UUID is best)',
    });
  let signal: PingSignal | null;
  if (action === undefined) signal = { kind: 'success', exit_status: null, rid, create };
  else if (action === 'start') signal = { kind: 'start', exit_status: null, rid, create };
  else if (action === 'fail') signal = { kind: 'fail', exit_status: null, rid, create };
  else if (/^\d{1,10}$/.test(action)) {
    const code = Number(action);
    if (code > 255) problems.push({ field: 'exit_status', message: 'must be at most 255' });
    signal = { kind: code === 0 ? 'success' : 'fail', exit_status: code, rid, create };
  } else signal = null;
  throwIfProblems(problems);
  return signal;
};
