import { isIP } from 'node:net';
import { AppError, type FieldProblem, newId } from '@lookout/shared';
import { z } from 'zod';
import type { PolicyLookup } from '../lookups.js';
import type { Plan } from '../tenancy/plans.js';
import { DNS_RECORD_TYPES, MONITOR_TYPES, type Monitor, type MonitorType, type Workspace } from '../types.js';
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
import type { MonitorStore } from './monitor-store.js';

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

const auth = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('basic'),
    username: z.string().min(1).max(256),
    password: z.string().max(1024),
  }),
  z.strictObject({ type: z.literal('bearer'), token: z.string().min(1).max(4096) }),
]);

const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'must be a valid header name');

/**
 * After a failure at a location, the re-checks there come this often until `failure_threshold`
 * decides (docs/decisions.md, "Retry interval"): with the default interval and threshold a target dead
 * from the start is down after the first check and two retries, ~30 s. Never longer than the interval
 * (a monitor checking more often keeps its interval); not held to the plan's minimum interval, since
 * retries run only while a location fails, at most `failure_threshold - 1` of them in a row.
 */
export const DEFAULT_RETRY_INTERVAL_SECONDS = 15;
export const MIN_RETRY_INTERVAL_SECONDS = 5;

/** The fields a client may set. Used for create (some required) and update (all optional). */
const fields = {
  display_name: nameText(200),
  monitor_type: z.enum(MONITOR_TYPES),
  url: z.string().trim().min(1).max(2048),
  http_method: z.enum(HTTP_METHODS),
  check_interval_seconds: z.int().min(1).max(86400),
  timeout_seconds: z.int().min(1).max(60),
  expected_status_code: z.int().min(100).max(599),
  required_keyword: z.string().min(1).max(1024).nullable(),
  auth: auth.nullable(),
  port: z.int().min(1).max(65535),
  request_headers: z
    .record(headerName, z.string().max(4096))
    .refine((h) => Object.keys(h).length <= 50, 'must have at most 50 headers'),
  request_body: z.string().max(65536).nullable(),
  follow_redirects: z.boolean(),
  ssl_cert_monitoring: z.boolean(),
  ssl_cert_expiry_alert_days: z.int().min(1).max(365),
  domain_expiry_alert_days: z.int().min(1).max(365),
  response_time_threshold_ms: z.int().min(0).max(60000).nullable(),
  failure_threshold: z.int().min(1).max(100),
  retry_interval_seconds: z.int().min(MIN_RETRY_INTERVAL_SECONDS).max(86400),
  escalation_policy_id: uuid(),
  check_locations: z.array(z.string().min(1).max(64)).min(1).max(50),
  dns_record_type: z.enum(DNS_RECORD_TYPES),
  dns_expected_values: z.array(z.string().min(1).max(1024)).max(20),
  dns_resolver: z.string().min(1).max(255).nullable(),
  depends_on: dependsOnField,
  paused: z.boolean(),
  ...labelFields,
};

export const createMonitorBody = z.strictObject({
  ...Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, s.optional()])),
  display_name: fields.display_name,
  monitor_type: fields.monitor_type,
  url: fields.url,
}) as z.ZodType<MonitorInput>;

export const updateMonitorBody = z.strictObject(
  Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, s.optional()])),
) as z.ZodType<Partial<MonitorInput>>;

type Fields = { [K in keyof typeof fields]: z.output<(typeof fields)[K]> };
export type MonitorInput = Partial<Fields> & Pick<Fields, 'display_name' | 'monitor_type' | 'url'>;

/** Which optional fields make sense for which types. Anything else is refused, naming the field. */
export const onlyFor: Partial<Record<keyof Fields, readonly MonitorType[]>> = {
  http_method: ['http', 'api'],
  required_keyword: ['http', 'api'],
  auth: ['http', 'api'],
  request_headers: ['http', 'api'],
  request_body: ['api'],
  follow_redirects: ['http', 'api'],
  port: ['tcp'],
  ssl_cert_monitoring: ['http'],
  ssl_cert_expiry_alert_days: ['http'],
  domain_expiry_alert_days: ['domain'],
  response_time_threshold_ms: ['http', 'api', 'tcp', 'dns'],
  // Domain checks do not retry (effectiveRetrySeconds).
  retry_interval_seconds: ['http', 'api', 'tcp', 'dns'],
  dns_record_type: ['dns'],
  dns_expected_values: ['dns'],
  dns_resolver: ['dns'],
};

const HOSTNAME =
  /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*\.?$/i;

const checkTarget = (type: MonitorType, url: string): string | null => {
  if (type === 'http' || type === 'api') {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return 'must be a full URL such as https://example.com/health';
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must be an http:// or https:// URL';
    if (u.username || u.password) return 'must not carry credentials; use the auth field';
    return null;
  }
  if (url.includes('/') || (url.includes(':') && isIP(url) === 0))
    return `must be a host name for ${type} monitors, not a URL`;
  if (type === 'domain')
    return HOSTNAME.test(url) && url.includes('.') && isIP(url) === 0
      ? null
      : 'must be a domain name such as example.com';
  if (type === 'tcp')
    return HOSTNAME.test(url) || isIP(url) !== 0 ? null : 'must be a host name or an IP address';
  return HOSTNAME.test(url) ? null : 'must be a host name such as example.com';
};

export interface MonitorContext {
  workspace: Workspace;
  plan: Plan;
  planName: string;
  regions: readonly string[];
  store: MonitorStore & PolicyLookup & Pick<GroupStore, 'getGroupsByIds'> & DependencyGraphLookup;
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
  const target = checkTarget(type, m.url);
  if (target) problems.push({ field: 'url', message: target });
  for (const [field, types] of Object.entries(onlyFor)) {
    if (given.has(field) && !types.includes(type)) {
      problems.push({ field, message: `applies only to ${types.join(' and ')} monitors, not ${type}` });
    }
  }
  if ((type === 'http' || type === 'api') && !m.http_method)
    problems.push({ field: 'http_method', message: `is required for ${type} monitors` });
  if ((type === 'http' || type === 'api') && isNew && !given.has('expected_status_code'))
    problems.push({ field: 'expected_status_code', message: `is required for ${type} monitors` });
  if (type === 'tcp' && m.port === null)
    problems.push({ field: 'port', message: 'is required for tcp monitors' });
  if (type === 'http' && m.ssl_cert_monitoring && !m.url.toLowerCase().startsWith('https://'))
    problems.push({ field: 'ssl_cert_monitoring', message: 'needs an https:// URL' });
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
  if (m.dns_resolver !== null && isIP(m.dns_resolver) === 0)
    problems.push({ field: 'dns_resolver', message: 'must be an IP address' });
  return problems;
};

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

/** A new monitor from a valid create body, with the defaults filled in (not yet checked or stored). */
const newMonitor = (ctx: MonitorContext, input: MonitorInput, defaultPolicyId: string): Monitor => {
  const type = input.monitor_type;
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
    expected_status_code: type === 'http' || type === 'api' ? (input.expected_status_code ?? 200) : 200,
    required_keyword: input.required_keyword ?? null,
    auth: input.auth ?? null,
    port: input.port ?? null,
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
    dns_record_type: type === 'dns' ? (input.dns_record_type ?? 'A') : null,
    dns_expected_values: input.dns_expected_values ?? [],
    dns_resolver: input.dns_resolver ?? null,
    depends_on: normalDependsOn(input.depends_on ?? []),
    paused: input.paused ?? false,
    group_id: input.group_id ?? null,
    tags: input.tags ?? [],
    severity: input.severity ?? 'critical',
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
  const monitor = newMonitor(ctx, input, defaultPolicy?.id ?? '');
  throwIfProblems([
    ...ruleProblems(monitor, new Set(Object.keys(input)), ctx.regions, true),
    ...(await policyProblem(ctx, input.escalation_policy_id)),
    ...(await groupProblems(ctx.store, ctx.workspace.id, [{ field: 'group_id', id: input.group_id }])),
    ...(await dependsOnProblems(ctx.store, ctx.workspace.id, monitorNode(monitor), monitor.depends_on)),
  ]);
  const outcome = await ctx.store.insertMonitor(monitor, { maxMonitors: ctx.plan.max_monitors });
  if (outcome === 'limit_reached') throw planLimitError(ctx);
  await requestFirstRuns(ctx.store, [monitor], ctx.now);
  return { monitor, notices: clampInterval(monitor, input.check_interval_seconds, ctx) };
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
  throwIfProblems(problems);
  return { monitors, notices };
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
  const next: Monitor = {
    ...existing,
    ...(patch as Partial<Monitor>),
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
  if (
    (next.monitor_type === 'http' || next.monitor_type === 'api') &&
    patch.expected_status_code === undefined
  ) {
    next.expected_status_code = existing.expected_status_code;
  }
  // An interval shortened below the retry interval takes the retry interval down with it.
  if (patch.retry_interval_seconds === undefined)
    next.retry_interval_seconds = Math.min(existing.retry_interval_seconds, next.check_interval_seconds);
  throwIfProblems([
    ...ruleProblems(next, given, ctx.regions, false),
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
  const outcome = await ctx.store.updateMonitor(next, existing.version);
  if (outcome === 'not_found') throw new AppError('not_found', 'Monitor not found.');
  if (outcome === 'conflict')
    throw new AppError(
      'conflict',
      'The monitor was changed by someone else meanwhile; fetch it and try again.',
    );
  if (changesTheCheck(existing, next)) await requestFirstRuns(ctx.store, [next], ctx.now);
  return { monitor: next, notices: clampInterval(next, requested, ctx) };
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
