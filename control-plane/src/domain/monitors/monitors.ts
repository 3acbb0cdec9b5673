import { AppError, type FieldProblem, newId, type SecretBox } from '@lookout/shared';
import { z } from 'zod';
import { sourceProblems } from '../checks/check-type.js';
import { isHttpType } from '../checks/http.js';
import { CHECK_TYPES, TYPE_FIELDS, TYPES_OF_FIELD } from '../checks/registry.js';
import { connectionHint } from '../checks/targets.js';
import type { PolicyLookup } from '../lookups.js';
import type { Plan } from '../tenancy/plans.js';
import { MONITOR_TYPES, type Monitor, type Workspace } from '../types.js';
import { nameText, parseOrThrow, throwIfProblems, uuid } from '../validation.js';
import {
  type DependencyGraphLookup,
  dependsOnField,
  dependsOnProblems,
  normalDependsOn,
} from './depends-on.js';
import type { GroupStore } from './group-store.js';
import { groupProblems, labelFields } from './labels.js';
import { changesTheCheck, FIRST_RUNS_PER_BATCH, requestFirstRuns } from './monitor-runs.js';
import { type MonitorSecretLookup, secretsOnSave } from './monitor-secrets.js';
import type { MonitorStore } from './monitor-store.js';

export { HTTP_METHODS } from '../checks/http.js';

/**
 * After a failure at a location, the re-checks there come this often until `failure_threshold`
 * decides (docs/decisions.md, "Retry interval"): with the default interval and threshold a target dead
 * from the start is down after the first check and two retries, ~30 s. Never longer than the interval
 * (a monitor checking more often keeps its interval); not held to the plan's minimum interval, since
 * retries run only while a location fails, at most `failure_threshold - 1` of them in a row.
 */
export const DEFAULT_RETRY_INTERVAL_SECONDS = 15;
export const MIN_RETRY_INTERVAL_SECONDS = 5;

/**
 * The fields a client may set: the ones every monitor has, then each check type's own (domain/checks/;
 * a field sent for a type that lacks it is refused, naming the field). Used for create (some required)
 * and update (all optional).
 */
const fields = {
  display_name: nameText(200).describe('Human-readable name.'),
  monitor_type: z
    .enum(MONITOR_TYPES)
    .describe('What is checked (GET /check-types lists each type and its fields).'),
  url: z
    .string()
    .trim()
    .min(1)
    .max(2048)
    .describe(
      'The target: a full URL (http, api, websocket), a host (dns, tcp, domain, ping, smtp), host:port (grpc) or a connection URL (postgres, mysql, redis: a secret, shown as a hint).',
    ),
  check_interval_seconds: z.int().min(1).max(86400).describe('Seconds between checks.'),
  timeout_seconds: z.int().min(1).max(60).describe('Seconds, at most 60 and at most the interval.'),
  failure_threshold: z.int().min(1).max(100).describe('Consecutive failures before alerting (default 3).'),
  escalation_policy_id: uuid(),
  check_locations: z.array(z.string().min(1).max(64)).min(1).max(50).describe('Region names to check from.'),
  depends_on: dependsOnField,
  paused: z.boolean().describe('Paused: not checked.'),
  ...labelFields,
  ...(Object.fromEntries(Object.entries(TYPE_FIELDS).map(([k, f]) => [k, f.schema])) as Record<
    TypeField,
    z.ZodType
  >),
};

/** The type-specific fields of the first protocol's record (the later types' fields live in `settings`). */
type TypeField =
  | 'http_method'
  | 'expected_status_code'
  | 'required_keyword'
  | 'auth'
  | 'port'
  | 'request_headers'
  | 'request_body'
  | 'follow_redirects'
  | 'ssl_cert_monitoring'
  | 'ssl_cert_expiry_alert_days'
  | 'domain_expiry_alert_days'
  | 'response_time_threshold_ms'
  | 'retry_interval_seconds'
  | 'dns_record_type'
  | 'dns_expected_values'
  | 'dns_resolver';

/** Every field a client may send, by name (the MCP tool and the configuration file derive theirs). */
export const MONITOR_FIELDS: Readonly<Record<string, z.ZodType>> = fields;

export const createMonitorBody = z.strictObject({
  ...Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, s.optional()])),
  display_name: fields.display_name,
  monitor_type: fields.monitor_type,
  url: fields.url,
}) as z.ZodType<MonitorInput>;

export const updateMonitorBody = z.strictObject(
  Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, s.optional()])),
) as z.ZodType<Partial<MonitorInput>>;

type Fields = { [K in keyof typeof fields]: z.output<(typeof fields)[K]> } & Pick<Monitor, TypeField>;
export type MonitorInput = Partial<Fields> &
  Pick<Fields, 'display_name' | 'monitor_type' | 'url'> & { [setting: string]: unknown };

export interface MonitorContext {
  workspace: Workspace;
  plan: Plan;
  planName: string;
  regions: readonly string[];
  store: MonitorStore &
    PolicyLookup &
    Pick<GroupStore, 'getGroupsByIds'> &
    DependencyGraphLookup &
    MonitorSecretLookup;
  /** Seals a secret target (a database check's connection URL). */
  box: SecretBox;
  now: Date;
}

export interface Notice {
  field: string;
  message: string;
}

/**
 * Applies the per-type rules to a whole monitor (new, or existing + patch) and returns every problem
 * together. `given` names the fields the client sent, so only those are blamed for type mismatches.
 */
const ruleProblems = (
  m: Monitor,
  given: Set<string>,
  regions: readonly string[],
  isNew: boolean,
): FieldProblem[] => {
  const problems: FieldProblem[] = [];
  const type = m.monitor_type;
  const checkType = CHECK_TYPES[type];
  // A secret target is checked when given (the record holds its hint).
  const target = checkType.target.secret && !given.has('url') ? null : checkType.target.problem(m.url);
  if (target) problems.push({ field: 'url', message: target });
  for (const field of given) {
    const types = TYPES_OF_FIELD[field];
    if (types && !types.includes(type))
      problems.push({ field, message: `applies only to ${listed(types)} monitors, not ${type}` });
  }
  for (const [field, f] of Object.entries(checkType.fields))
    if (f.required && isNew && !given.has(field))
      problems.push({ field, message: `is required for ${type} monitors` });
  problems.push(...(checkType.rules?.(m, given, isNew) ?? []), ...sourceProblems(type, checkType, m));
  if (m.timeout_seconds > m.check_interval_seconds)
    problems.push({ field: 'timeout_seconds', message: 'must not be longer than check_interval_seconds' });
  if (m.retry_interval_seconds > m.check_interval_seconds)
    problems.push({
      field: 'retry_interval_seconds',
      message: `must not be longer than check_interval_seconds (${m.check_interval_seconds} s)`,
    });
  if (m.response_time_threshold_ms !== null && m.response_time_threshold_ms > m.timeout_seconds * 1000)
    problems.push({ field: 'response_time_threshold_ms', message: 'must not be longer than the timeout' });
  const unknown = m.check_locations.filter((r) => !regions.includes(r));
  if (unknown.length > 0)
    problems.push({
      field: 'check_locations',
      message: `unknown region ${unknown.join(', ')}; known: ${regions.join(', ')}`,
    });
  if (new Set(m.check_locations).size !== m.check_locations.length)
    problems.push({ field: 'check_locations', message: 'must not repeat a region' });
  return problems;
};

/** "http, api and smtp". */
const listed = (items: readonly string[]) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

const monitorNode = (m: Monitor) => ({ id: m.id, name: m.display_name });

/** Clamps the interval to the plan's floor; says so when it did. */
const clampInterval = (m: Monitor, requested: number | undefined, ctx: MonitorContext): Notice[] => {
  if (requested === undefined || requested >= ctx.plan.min_interval_seconds) return [];
  return [
    {
      field: 'check_interval_seconds',
      message: `${requested} s is below the ${ctx.planName} plan's minimum; the monitor checks every ${m.check_interval_seconds} s. Upgrade the plan for shorter intervals.`,
    },
  ];
};

const policyProblem = async (ctx: MonitorContext, id: string | undefined): Promise<FieldProblem[]> => {
  if (id === undefined) return [];
  return (await ctx.store.getEscalationPolicy(ctx.workspace.id, id))
    ? []
    : [{ field: 'escalation_policy_id', message: 'no escalation policy with this id in the workspace' }];
};

/** The type's `settings` fields: the client's values over `current`'s, else the type's defaults. */
const settingsOf = (
  type: Monitor['monitor_type'],
  input: Record<string, unknown>,
  current: Monitor['settings'],
): Monitor['settings'] => {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(CHECK_TYPES[type].fields)) {
    if (f.stored !== 'settings') continue;
    out[name] = input[name] !== undefined ? input[name] : name in current ? current[name] : f.default;
  }
  if (current.sealed_url !== undefined) out.sealed_url = current.sealed_url;
  return out;
};

/** The record's own fields of a patch: the type's `settings` fields go into `settings`, not beside it. */
const recordFields = (patch: Record<string, unknown>): Partial<Monitor> =>
  Object.fromEntries(Object.entries(patch).filter(([k]) => TYPE_FIELDS[k]?.stored !== 'settings'));

const urlContext = (workspaceId: string) => `monitor-url:${workspaceId}`;

/**
 * A secret target (a database check's connection URL) is sealed once checked: the record keeps the
 * sealed value in `settings.sealed_url` and a hint in `url` (the API shows the hint; agents get the URL).
 */
const sealTarget = (ctx: MonitorContext, m: Monitor, urlGiven: boolean): Monitor => {
  if (!CHECK_TYPES[m.monitor_type].target.secret || !urlGiven) return m;
  return {
    ...m,
    url: connectionHint(m.url),
    settings: { ...m.settings, sealed_url: ctx.box.seal(m.url, urlContext(m.workspace_id)) },
  };
};

/** A secret target's plain value, for the agent (the monitor's own URL for any other type). */
export const targetOf = (box: SecretBox, m: Pick<Monitor, 'url' | 'settings' | 'workspace_id'>): string =>
  typeof m.settings.sealed_url === 'string'
    ? box.open(m.settings.sealed_url, urlContext(m.workspace_id))
    : m.url;

/** A new monitor from a valid create body, with the defaults filled in (not yet checked or stored). */
const newMonitor = (ctx: MonitorContext, input: MonitorInput, defaultPolicyId: string): Monitor => {
  const type = input.monitor_type;
  const own = CHECK_TYPES[type].fields;
  /** The client's value, else the type's default for it. */
  const given = <K extends TypeField>(field: K): Monitor[K] | undefined =>
    (input[field] as Monitor[K] | undefined) ?? (own[field]?.default as Monitor[K] | undefined);
  const interval = Math.max(
    input.check_interval_seconds ?? Math.max(60, ctx.plan.min_interval_seconds),
    ctx.plan.min_interval_seconds,
  );
  return {
    id: newId(),
    workspace_id: ctx.workspace.id,
    display_name: input.display_name,
    monitor_type: type,
    url: input.url,
    http_method: input.http_method ?? null,
    check_interval_seconds: interval,
    timeout_seconds: input.timeout_seconds ?? Math.min(30, interval),
    expected_status_code: isHttpType(type) ? (input.expected_status_code ?? 200) : 200,
    required_keyword: input.required_keyword ?? null,
    auth: input.auth ?? null,
    port: given('port') ?? null,
    request_headers: input.request_headers ?? {},
    request_body: input.request_body ?? null,
    follow_redirects: input.follow_redirects ?? true,
    ssl_cert_monitoring: input.ssl_cert_monitoring ?? false,
    ssl_cert_expiry_alert_days: input.ssl_cert_expiry_alert_days ?? 14,
    domain_expiry_alert_days: input.domain_expiry_alert_days ?? 30,
    response_time_threshold_ms: input.response_time_threshold_ms || null,
    failure_threshold: input.failure_threshold ?? 3,
    retry_interval_seconds:
      input.retry_interval_seconds ?? Math.min(DEFAULT_RETRY_INTERVAL_SECONDS, interval),
    escalation_policy_id: input.escalation_policy_id ?? defaultPolicyId,
    check_locations: input.check_locations ?? [...ctx.regions],
    dns_record_type: type === 'dns' ? (given('dns_record_type') ?? 'A') : null,
    dns_expected_values: input.dns_expected_values ?? [],
    dns_resolver: input.dns_resolver ?? null,
    depends_on: normalDependsOn(input.depends_on ?? []),
    paused: input.paused ?? false,
    group_id: input.group_id ?? null,
    tags: input.tags ?? [],
    severity: input.severity ?? 'critical',
    settings: settingsOf(type, input, {}),
    created_at: ctx.now,
    updated_at: ctx.now,
    version: 1,
  };
};

const planLimitError = (ctx: MonitorContext, batch?: { have: number; adding: number }) =>
  new AppError(
    'plan_limit_reached',
    batch
      ? `The ${ctx.planName} plan allows ${ctx.plan.max_monitors} monitors; this workspace has ${batch.have} and the batch adds ${batch.adding}, so none was created. Upgrade your plan to add more monitors.`
      : `The ${ctx.planName} plan allows ${ctx.plan.max_monitors} monitors and this workspace has reached that limit. Upgrade your plan to add more monitors.`,
  );

export const createMonitor = async (
  ctx: MonitorContext,
  body: unknown,
): Promise<{ monitor: Monitor; notices: Notice[] }> => {
  const input = parseOrThrow(createMonitorBody, body);
  const defaultPolicy = input.escalation_policy_id
    ? null
    : await ctx.store.getDefaultEscalationPolicy(ctx.workspace.id);
  const built = newMonitor(ctx, input, defaultPolicy?.id ?? '');
  const secrets = await secretsOnSave(ctx.store, ctx.workspace.id, [built]);
  const monitor = secrets.monitors[0]!;
  throwIfProblems([
    ...ruleProblems(monitor, new Set(Object.keys(input)), ctx.regions, true),
    ...secrets.problems[0]!,
    ...(await policyProblem(ctx, input.escalation_policy_id)),
    ...(await groupProblems(ctx.store, ctx.workspace.id, [{ field: 'group_id', id: input.group_id }])),
    ...(await dependsOnProblems(ctx.store, ctx.workspace.id, monitorNode(monitor), monitor.depends_on)),
  ]);
  const stored = sealTarget(ctx, monitor, true);
  const outcome = await ctx.store.insertMonitor(stored, { maxMonitors: ctx.plan.max_monitors });
  if (outcome === 'limit_reached') throw planLimitError(ctx);
  await requestFirstRuns(ctx.store, [stored], ctx.now);
  return { monitor: stored, notices: clampInterval(stored, input.check_interval_seconds, ctx) };
};

/** The most monitors one batch request may create (a bounded body, one bounded transaction). */
export const MAX_MONITOR_BATCH = 1000;

export const createMonitorsBody = z.strictObject({
  monitors: z.array(createMonitorBody).min(1).max(MAX_MONITOR_BATCH),
});

/** The check also counts monitors the caller will create in other batches against the plan limit. */
export const checkMonitorsBody = createMonitorsBody.extend({
  in_other_batches: z.int().min(0).max(100_000_000).optional(),
});

/**
 * Checks a batch of new monitors as createMonitor checks one, and builds them: every problem of every
 * item is collected and named by its place (`monitors[3].url`), then thrown as one 422; a batch that
 * would take the workspace past its plan's monitor limit is refused as a whole (402). Policy ids are
 * looked up once each, however many monitors name them.
 */
const prepareBatch = async (
  ctx: MonitorContext,
  body: unknown,
): Promise<{ monitors: Monitor[]; notices: Notice[] }> => {
  const { monitors: inputs } = parseOrThrow(createMonitorsBody, body);
  const defaultPolicyId = (await ctx.store.getDefaultEscalationPolicy(ctx.workspace.id))?.id ?? '';
  const policies = new Map<string, boolean>();
  const problems: FieldProblem[] = [];
  const notices: Notice[] = [];
  const monitors = [];
  for (const [i, input] of inputs.entries()) {
    const m = newMonitor(ctx, input, defaultPolicyId);
    const at = (p: FieldProblem) => ({ ...p, field: `monitors[${i}].${p.field}` });
    problems.push(...ruleProblems(m, new Set(Object.keys(input)), ctx.regions, true).map(at));
    const policyId = input.escalation_policy_id;
    if (policyId !== undefined) {
      if (!policies.has(policyId)) policies.set(policyId, (await policyProblem(ctx, policyId)).length === 0);
      if (!policies.get(policyId))
        problems.push(
          at({
            field: 'escalation_policy_id',
            message: 'no escalation policy with this id in the workspace',
          }),
        );
    }
    // Dependencies name records that exist already: items of the same batch are not known by id yet.
    problems.push(
      ...(await dependsOnProblems(ctx.store, ctx.workspace.id, monitorNode(m), m.depends_on)).map(at),
    );
    notices.push(...clampInterval(m, input.check_interval_seconds, ctx).map(at));
    monitors.push(m);
  }
  // One read for every group the batch names.
  problems.push(
    ...(await groupProblems(
      ctx.store,
      ctx.workspace.id,
      inputs.map((input, i) => ({ field: `monitors[${i}].group_id`, id: input.group_id })),
    )),
  );
  const secrets = await secretsOnSave(ctx.store, ctx.workspace.id, monitors);
  secrets.problems.forEach((ps, i) => {
    problems.push(...ps.map((p) => ({ ...p, field: `monitors[${i}].${p.field}` })));
  });
  throwIfProblems(problems);
  return { monitors: secrets.monitors.map((m) => sealTarget(ctx, m, true)), notices };
};

/** `POST /monitors/batch`: all of them or none (one store transaction, insertMonitors). */
export const createMonitors = async (
  ctx: MonitorContext,
  body: unknown,
): Promise<{ monitors: Monitor[]; notices: Notice[] }> => {
  const batch = await prepareBatch(ctx, body);
  const outcome = await ctx.store.insertMonitors(batch.monitors, { maxMonitors: ctx.plan.max_monitors });
  if (outcome === 'limit_reached')
    throw planLimitError(ctx, {
      have: await ctx.store.countMonitors(ctx.workspace.id),
      adding: batch.monitors.length,
    });
  await requestFirstRuns(ctx.store, batch.monitors.slice(0, FIRST_RUNS_PER_BATCH), ctx.now);
  return batch;
};

/**
 * `POST /monitors/batch/check`: what createMonitors would answer, storing nothing. The plan limit is
 * checked against the count now, with `in_other_batches` more (a create racing with it may still take
 * the last places).
 */
export const checkMonitors = async (
  ctx: MonitorContext,
  body: unknown,
): Promise<{ count: number; notices: Notice[] }> => {
  const { in_other_batches: others = 0, ...batchBody } = parseOrThrow(checkMonitorsBody, body);
  const batch = await prepareBatch(ctx, batchBody);
  const have = await ctx.store.countMonitors(ctx.workspace.id);
  const adding = batch.monitors.length + others;
  if (have + adding > ctx.plan.max_monitors) throw planLimitError(ctx, { have, adding });
  return { count: batch.monitors.length, notices: batch.notices };
};

/** A patch is applied to the stored monitor and the whole result re-checked; the write is compare-and-set. */
export const updateMonitor = async (
  ctx: MonitorContext,
  existing: Monitor,
  body: unknown,
): Promise<{ monitor: Monitor; notices: Notice[] }> => {
  const patch = parseOrThrow(updateMonitorBody, body);
  const given = new Set(Object.keys(patch));
  if (patch.monitor_type !== undefined && patch.monitor_type !== existing.monitor_type) {
    throwIfProblems([{ field: 'monitor_type', message: 'cannot be changed; create a new monitor instead' }]);
  }
  const requested = patch.check_interval_seconds;
  const merged: Monitor = {
    ...existing,
    ...recordFields(patch),
    settings: settingsOf(existing.monitor_type, patch, existing.settings),
    depends_on: normalDependsOn(patch.depends_on ?? existing.depends_on ?? []),
    response_time_threshold_ms:
      patch.response_time_threshold_ms === undefined
        ? existing.response_time_threshold_ms
        : patch.response_time_threshold_ms || null,
    check_interval_seconds: Math.max(
      requested ?? existing.check_interval_seconds,
      ctx.plan.min_interval_seconds,
    ),
    updated_at: ctx.now,
    version: existing.version + 1,
  };
  const secrets = await secretsOnSave(ctx.store, ctx.workspace.id, [merged]);
  const next = secrets.monitors[0]!;
  if (isHttpType(next.monitor_type) && patch.expected_status_code === undefined) {
    next.expected_status_code = existing.expected_status_code;
  }
  // An interval shortened below the retry interval takes the retry interval down with it.
  if (patch.retry_interval_seconds === undefined)
    next.retry_interval_seconds = Math.min(existing.retry_interval_seconds, next.check_interval_seconds);
  throwIfProblems([
    ...ruleProblems(next, given, ctx.regions, false),
    ...secrets.problems[0]!,
    ...(await policyProblem(ctx, patch.escalation_policy_id)),
    ...(await groupProblems(ctx.store, ctx.workspace.id, [{ field: 'group_id', id: patch.group_id }])),
    ...(patch.depends_on === undefined
      ? []
      : await dependsOnProblems(
          ctx.store,
          ctx.workspace.id,
          monitorNode(next),
          next.depends_on,
          'depends_on',
          existing.depends_on,
        )),
  ]);
  const stored = sealTarget(ctx, next, given.has('url'));
  const outcome = await ctx.store.updateMonitor(stored, existing.version);
  if (outcome === 'not_found') throw new AppError('not_found', 'Monitor not found.');
  if (outcome === 'conflict')
    throw new AppError(
      'conflict',
      'The monitor was changed by someone else meanwhile; fetch it and try again.',
    );
  if (changesTheCheck(existing, stored)) await requestFirstRuns(ctx.store, [stored], ctx.now);
  return { monitor: stored, notices: clampInterval(stored, requested, ctx) };
};

export const setPaused = async (
  store: MonitorStore,
  existing: Monitor,
  paused: boolean,
  now: Date,
): Promise<Monitor> => {
  if (existing.paused === paused) return existing;
  const next = { ...existing, paused, updated_at: now, version: existing.version + 1 };
  const outcome = await store.updateMonitor(next, existing.version);
  if (outcome === 'not_found') throw new AppError('not_found', 'Monitor not found.');
  if (outcome === 'conflict')
    throw new AppError('conflict', 'The monitor was changed by someone else meanwhile; try again.');
  if (!paused) await requestFirstRuns(store, [next], now);
  return next;
};
