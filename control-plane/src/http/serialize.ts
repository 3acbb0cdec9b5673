import { type AppError, type ErrorCode, errorStatus } from '@lookout/shared';
import { z } from 'zod';
import { keyStatus } from '../domain/access/api-keys.js';
import type { SignInActivity } from '../domain/access/sign-in-store.js';
import { isHealthy, type RegionHealth } from '../domain/agents/region-health.js';
import type { TimelineEntry } from '../domain/alerts/alerts.js';
import type { ContactMethod } from '../domain/contacts/contact-method-store.js';
import { contactLabel } from '../domain/contacts/contact-methods.js';
import { nextExpectedAt } from '../domain/heartbeats/heartbeat-view.js';
import { pingSnippets } from '../domain/heartbeats/ping-snippets.js';
import { describeSchedule } from '../domain/heartbeats/schedule-text.js';
import type { MonitorStatusInfo } from '../domain/monitors/monitor-status.js';
import { MONITOR_STATUSES } from '../domain/monitors/monitor-status.js';
import { monitorAsSeenBy } from '../domain/monitors/monitors.js';
import { shownConfig } from '../domain/notifications/channels.js';
import type {
  AgentSession,
  Alert,
  ApiKey,
  CheckResultRecord,
  Delivery,
  EscalationPolicy,
  Heartbeat,
  MaintenanceWindow,
  Monitor,
  NotificationChannel,
  Role,
  User,
} from '../domain/types.js';
import { DNS_RECORD_TYPES, MAINTENANCE_SCOPES, MONITOR_TYPES, ROLES } from '../domain/types.js';
import { CHANNEL_KINDS, CHANNEL_TYPES } from '../notify/kinds/index.js';

/*
 * Each serializer below has its response schema beside it: the shape clients receive (JSON, times as
 * ISO strings), declared by every route returning that record (RouteDef.response), documented in the
 * OpenAPI document and checked against real responses when config `validate_responses` is on. The
 * objects are strict: a field the schema does not name fails the check.
 */
export const time = z.iso.datetime();

/** Named response shapes: the OpenAPI document lists each once under components.schemas and refers to it. */
export const responseSchemas = z.registry<{ id: string }>();
const uuidString = z.string();
const headers = z.record(z.string(), z.string());

/** A list: one page of items and the cursor of the next (null on the last page). */
export const page = <T extends z.ZodType>(item: T) =>
  z.strictObject({ data: z.array(item), next_cursor: z.string().nullable() });

/** The one error body of the API (and of the ping endpoint), for every 4xx and 5xx. */
export const errorResponse = z.strictObject({
  error: z.strictObject({
    code: z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    details: z.array(z.strictObject({ field: z.string(), message: z.string() })),
  }),
});

export const errorJson = (e: AppError): z.output<typeof errorResponse> => ({
  error: { code: e.code, message: e.message, details: e.details },
});

/** Who did something to an alert. */
export const actorResponse = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('user'), user_id: z.string(), api_key_id: z.string().nullable() }),
    z.strictObject({ type: z.literal('system') }),
    z.strictObject({ type: z.literal('integration'), integration_id: z.string() }),
    z.strictObject({
      type: z.literal('link'),
      user_id: z.string().nullable(),
      channel_id: z.string().nullable(),
      via: z.enum(CHANNEL_TYPES),
      recipient: z.string(),
    }),
  ])
  .register(responseSchemas, { id: 'Actor' });

function iso(d: Date): string;
function iso(d: Date | null): string | null;
function iso(d: Date | null) {
  return d ? d.toISOString() : null;
}

export const monitorResponse = z
  .strictObject({
    id: uuidString,
    display_name: z.string(),
    monitor_type: z.enum(MONITOR_TYPES),
    url: z.string(),
    http_method: z.string().nullable(),
    check_interval_seconds: z.number().int(),
    timeout_seconds: z.number(),
    expected_status_code: z.number().int(),
    required_keyword: z.string().nullable(),
    port: z.number().int().nullable(),
    request_headers: headers,
    request_body: z.string().nullable(),
    follow_redirects: z.boolean(),
    ssl_cert_monitoring: z.boolean(),
    ssl_cert_expiry_alert_days: z.number().int(),
    domain_expiry_alert_days: z.number().int(),
    response_time_threshold_ms: z.number().int().nullable(),
    failure_threshold: z.number().int(),
    retry_interval_seconds: z.number().int(),
    escalation_policy_id: z.string(),
    check_locations: z.array(z.string()),
    dns_record_type: z.enum(DNS_RECORD_TYPES).nullable(),
    dns_expected_values: z.array(z.string()),
    dns_resolver: z.string().nullable(),
    paused: z.boolean(),
    version: z.number().int(),
    status: z.enum(MONITOR_STATUSES),
    last_checked_at: time.nullable(),
    uptime_24h: z.number().nullable(),
    uptime_30d: z.number().nullable(),
    last_response_time_ms: z.number().nullable(),
    recent_checks: z.array(
      z.strictObject({
        at: time,
        ok: z.boolean(),
        location: z.string(),
        response_time_ms: z.number().nullable(),
      }),
    ),
    /** Never the password or token. */
    auth: z
      .discriminatedUnion('type', [
        z.strictObject({ type: z.literal('basic'), username: z.string() }),
        z.strictObject({ type: z.literal('bearer') }),
      ])
      .nullable(),
    created_at: time,
    updated_at: time,
  })
  .register(responseSchemas, { id: 'Monitor' });

/**
 * Monitor as the API shows it to a user of `role` (every response carrying a monitor goes through
 * here): what the role may not see is masked (`monitorAsSeenBy`), and endpoint auth secrets are never
 * echoed back to anyone.
 */
export const monitorJson = (
  monitor: Monitor,
  role: Role,
  info: MonitorStatusInfo,
): z.output<typeof monitorResponse> => {
  const m = monitorAsSeenBy(monitor, role);
  const auth = m.auth;
  // One literal naming every field, in the schema's order: a rest pattern (`{ a, ...rest }`) copied
  // the record key by key through a runtime call, ~10 µs a monitor of the dashboard's list at
  // 100,000 monitors, and would pass on any field a store added to its record.
  return {
    id: m.id,
    display_name: m.display_name,
    monitor_type: m.monitor_type,
    url: m.url,
    http_method: m.http_method,
    check_interval_seconds: m.check_interval_seconds,
    timeout_seconds: m.timeout_seconds,
    expected_status_code: m.expected_status_code,
    required_keyword: m.required_keyword,
    port: m.port,
    request_headers: m.request_headers,
    request_body: m.request_body,
    follow_redirects: m.follow_redirects,
    ssl_cert_monitoring: m.ssl_cert_monitoring,
    ssl_cert_expiry_alert_days: m.ssl_cert_expiry_alert_days,
    domain_expiry_alert_days: m.domain_expiry_alert_days,
    response_time_threshold_ms: m.response_time_threshold_ms,
    failure_threshold: m.failure_threshold,
    retry_interval_seconds: m.retry_interval_seconds,
    escalation_policy_id: m.escalation_policy_id,
    check_locations: m.check_locations,
    dns_record_type: m.dns_record_type,
    dns_expected_values: m.dns_expected_values,
    dns_resolver: m.dns_resolver,
    paused: m.paused,
    version: m.version,
    // A record from listMonitorsWithStatus carries its status too: `info` is the one shown.
    status: info.status,
    last_checked_at: iso(info.last_checked_at),
    uptime_24h: info.uptime_24h,
    uptime_30d: info.uptime_30d,
    last_response_time_ms: info.last_response_time_ms,
    recent_checks: info.recent_checks.map((c) => ({
      at: c.at.toISOString(),
      ok: c.ok,
      location: c.location,
      response_time_ms: c.response_time_ms,
    })),
    auth: auth
      ? auth.type === 'basic'
        ? { type: 'basic' as const, username: auth.username }
        : { type: 'bearer' as const }
      : null,
    created_at: iso(m.created_at),
    updated_at: iso(m.updated_at),
  };
};

export const pingSnippetResponse = z
  .strictObject({
    kind: z.enum(['crontab', 'systemd', 'kubernetes']),
    title: z.string(),
    text: z.string(),
  })
  .register(responseSchemas, { id: 'PingSnippet' });

export const heartbeatResponse = z
  .strictObject({
    id: uuidString,
    display_name: z.string(),
    period_seconds: z.number().int().nullable().describe('Null when the heartbeat runs on a schedule.'),
    schedule: z.string().nullable().describe('Cron schedule (five fields or a nickname); null: by period.'),
    timezone: z.string().describe('IANA time zone the schedule is read in.'),
    schedule_text: z
      .string()
      .describe('The schedule in words, e.g. "At 03:00, Monday through Friday, Europe/Berlin".'),
    slug: z.string().nullable(),
    grace_seconds: z.number().int(),
    next_expected_at: time
      .nullable()
      .describe('When the next ping is expected (late from then, down after the grace).'),
    last_duration_ms: z
      .number()
      .int()
      .nullable()
      .describe('How long the last run took, /start to its finish.'),
    pinging_too_often: z
      .boolean()
      .describe('Far more pings than its schedule expects (flagged, not alerted).'),
    ping_snippets: z
      .array(pingSnippetResponse)
      .describe('Copy-paste lines for crontab, systemd and Kubernetes.'),
    state: z.enum(['new', 'up', 'late', 'down', 'paused']),
    last_ping_at: time.nullable(),
    escalation_policy_id: z.string(),
    paused: z.boolean(),
    version: z.number().int(),
    started_at: time.nullable(),
    start_rid: z.string().nullable(),
    alert_id: z.string().nullable(),
    ping_url: z.string(),
    created_at: time,
    updated_at: time,
  })
  .register(responseSchemas, { id: 'Heartbeat' });

export const heartbeatJson = (
  h: Heartbeat,
  pingUrl: string,
  { now, tooOften }: { now: Date; tooOften: boolean },
): z.output<typeof heartbeatResponse> => {
  // due_at, state_version and rearmed_at are the deadline job's bookkeeping, not part of the API.
  const { workspace_id: _w, due_at: _d, state_version: _v, rearmed_at: _ra, ...rest } = h;
  const timing = { schedule: h.schedule ?? null, timezone: h.timezone || 'UTC' };
  return {
    ...rest,
    ...timing,
    period_seconds: timing.schedule ? null : h.period_seconds,
    schedule_text: describeSchedule({ ...timing, period_seconds: h.period_seconds }),
    slug: h.slug ?? null,
    next_expected_at: iso(nextExpectedAt(h, now)),
    last_duration_ms: h.last_duration_ms ?? null,
    pinging_too_often: tooOften,
    ping_snippets: pingSnippets(h, pingUrl),
    ping_url: pingUrl,
    last_ping_at: iso(h.last_ping_at),
    started_at: iso(h.started_at),
    created_at: iso(h.created_at),
    updated_at: iso(h.updated_at),
  };
};

export const alertResponse = z
  .strictObject({
    id: uuidString,
    source_type: z.enum(['monitor', 'heartbeat', 'integration', 'region']),
    source_id: z.string(),
    cause: z.string(),
    dedup_key: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    severity: z.enum(['critical', 'warning', 'info']),
    status: z.enum(['open', 'acknowledged', 'resolved']),
    escalation_policy_id: z.string().nullable(),
    created_at: time,
    updated_at: time,
    acknowledged_at: time.nullable(),
    acknowledged_by: actorResponse.nullable(),
    resolved_at: time.nullable(),
    resolved_by: actorResponse.nullable(),
    escalation: z
      .strictObject({
        policy_id: z.string(),
        next_step: z.number().int().nullable(),
        round: z.number().int(),
        next_step_at: time.nullable(),
        finished: z.boolean(),
        suppressed_by: z.strictObject({ window_id: z.string(), name: z.string() }).nullable(),
      })
      .nullable(),
  })
  .register(responseSchemas, { id: 'Alert' });

export const alertJson = (a: Alert): z.output<typeof alertResponse> => {
  const { workspace_id: _w, escalation, escalation_due_at, ...rest } = a;
  return {
    ...rest,
    created_at: iso(a.created_at),
    updated_at: iso(a.updated_at),
    acknowledged_at: iso(a.acknowledged_at),
    resolved_at: iso(a.resolved_at),
    escalation: escalation
      ? {
          policy_id: escalation.policy_id,
          next_step: escalation.finished ? null : escalation.step,
          round: escalation.round,
          // While a replica runs the step this is the end of its lease (when another would take over).
          next_step_at: a.status === 'open' ? iso(escalation_due_at) : null,
          finished: escalation.finished,
          suppressed_by: escalation.suppressed_by,
        }
      : null,
  };
};

const timelineEntry = z.discriminatedUnion('type', [
  z.strictObject({ at: time, type: z.literal('raised') }),
  z.strictObject({ at: time, type: z.literal('suppressed'), window_id: z.string(), window_name: z.string() }),
  z.strictObject({
    at: time,
    type: z.literal('notification'),
    event: z
      .enum(['raised', 'acknowledged', 'resolved'])
      .describe('What it told: the alert raised (a step), or acknowledged or resolved (a follow-up).'),
    via: z.enum(CHANNEL_TYPES),
    to: z.string().describe('The destination as the delivery log shows it (an address, a URL’s origin).'),
    name: z
      .string()
      .nullable()
      .describe('Who it went to, by name: the channel’s name or the user’s email; null when gone since.'),
    user_id: z.string().nullable(),
    channel_id: z.string().nullable(),
    step: z.number().int().nullable(),
    round: z.number().int().nullable(),
    attempt: z.number().int(),
    outcome: z.enum(['sent', 'retrying', 'failed']),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
  }),
  z.strictObject({ at: time, type: z.literal('acknowledged'), by: actorResponse.nullable() }),
  z.strictObject({ at: time, type: z.literal('resolved'), by: actorResponse.nullable() }),
]);

export const alertDetailResponse = alertResponse
  .extend({ timeline: z.array(timelineEntry) })
  .register(responseSchemas, { id: 'AlertDetail' });

/** GET /alerts/{uuid}: the alert and what happened to it. */
export const alertDetailJson = (
  a: Alert,
  timeline: TimelineEntry[],
): z.output<typeof alertDetailResponse> => ({
  ...alertJson(a),
  timeline: timeline.map((e) => ({ ...e, at: e.at.toISOString() })),
});

export const policyResponse = z
  .strictObject({
    id: uuidString,
    name: z.string(),
    is_default: z.boolean(),
    steps: z.array(
      z.strictObject({
        wait_minutes: z.number(),
        notify_user_ids: z.array(z.string()),
        notify_channel_ids: z.array(z.string()),
      }),
    ),
    repeat: z.number().int(),
    created_at: time,
    updated_at: time,
  })
  .register(responseSchemas, { id: 'EscalationPolicy' });

export const policyJson = (p: EscalationPolicy): z.output<typeof policyResponse> => {
  const { workspace_id: _w, ...rest } = p;
  return { ...rest, created_at: iso(p.created_at), updated_at: iso(p.updated_at) };
};

/** A channel's config as the API shows it: the kind's fields, each secret replaced by its hint (a string). */
const shownConfigSchema = (k: (typeof CHANNEL_KINDS)[string]) =>
  z.strictObject(
    Object.fromEntries(
      Object.entries(k.config.shape).map(([f, schema]) => [
        f,
        k.secrets.includes(f)
          ? (schema as z.ZodType).safeParse(undefined).success
            ? z.string().optional().describe('Write-only: at most its last four characters.')
            : z.string().describe('Write-only: at most its last four characters.')
          : schema,
      ]),
    ),
  );

const channelFields = { id: uuidString, name: z.string(), created_at: time, updated_at: time };

const channelVariants = (extra: z.ZodRawShape) =>
  z.discriminatedUnion(
    'type',
    Object.values(CHANNEL_KINDS).map((k) =>
      z.strictObject({ ...channelFields, ...extra, type: z.literal(k.type), config: shownConfigSchema(k) }),
    ) as unknown as [z.ZodObject, ...z.ZodObject[]],
  );

/** One shape per kind, discriminated by `type`; secrets appear only as their hints. */
export const channelResponse = channelVariants({}).register(responseSchemas, { id: 'Channel' });

/** A new channel: a webhook's `signing_secret` appears here, once. */
export const channelCreatedResponse = channelVariants({ signing_secret: z.string().optional() }).register(
  responseSchemas,
  { id: 'ChannelCreated' },
);

export const channelKindResponse = z
  .strictObject({
    type: z.string(),
    label: z.string(),
    config_schema: z.record(z.string(), z.unknown()).describe('JSON Schema (draft 2020-12) of `config`.'),
    secrets: z.array(z.string()),
    follows: z.array(z.enum(['acknowledged', 'resolved'])),
  })
  .register(responseSchemas, { id: 'ChannelKind' });

/** Every kind with the JSON Schema of its config, built from the same zod schema that validates it. */
export const channelKindsJson = (): z.output<typeof channelKindResponse>[] =>
  Object.values(CHANNEL_KINDS).map((k) => ({
    type: k.type,
    label: k.label,
    config_schema: z.toJSONSchema(k.config, { io: 'input', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >,
    secrets: [...k.secrets],
    follows: [...k.follows],
  }));

/** Channels never show their signing secret (only at creation), nor any secret of their config. */
export const channelJson = (c: NotificationChannel) => ({
  id: c.id,
  name: c.name,
  type: c.type,
  config: shownConfig(CHANNEL_KINDS, c),
  created_at: iso(c.created_at),
  updated_at: iso(c.updated_at),
});

export const deliveryResponse = z
  .strictObject({
    id: uuidString,
    alert_id: z.string().nullable(),
    channel_id: z.string().nullable(),
    user_id: z.string().nullable(),
    kind: z.enum(CHANNEL_TYPES),
    target: z.string(),
    step: z.number().int().nullable(),
    round: z.number().int().nullable(),
    attempt: z.number().int(),
    outcome: z.enum(['sent', 'retrying', 'failed']),
    permanent: z.boolean(),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    idempotency_key: z.string().nullable(),
    remote_id: z.string().nullable().describe("The service's id of the message, when it gave one."),
    test: z.boolean(),
    at: time,
  })
  .register(responseSchemas, { id: 'Delivery' });

export const deliveryJson = (d: Delivery): z.output<typeof deliveryResponse> => {
  const { workspace_id: _w, ...rest } = d;
  return { ...rest, remote_id: d.remote_id ?? null, at: d.at.toISOString() };
};

export const maintenanceWindowResponse = z
  .strictObject({
    id: uuidString,
    name: z.string(),
    scope_type: z.enum(MAINTENANCE_SCOPES),
    scope_id: z.string().nullable(),
    active: z.boolean(),
    starts_at: time,
    ends_at: time,
    created_at: time,
  })
  .register(responseSchemas, { id: 'MaintenanceWindow' });

export const maintenanceWindowJson = (
  w: MaintenanceWindow,
  now: Date,
): z.output<typeof maintenanceWindowResponse> => {
  const { workspace_id: _w, ...rest } = w;
  return {
    ...rest,
    active: w.starts_at <= now && now < w.ends_at,
    starts_at: w.starts_at.toISOString(),
    ends_at: w.ends_at.toISOString(),
    created_at: w.created_at.toISOString(),
  };
};

export const apiKeyResponse = z
  .strictObject({
    id: uuidString,
    name: z.string(),
    kind: z.enum(['named', 'legacy']),
    status: z.enum(['active', 'expired', 'revoked']),
    last_four: z.string(),
    user_id: z.string(),
    user_email: z.string().nullable(),
    created_at: time,
    expires_at: time.nullable(),
    revoked_at: time.nullable(),
    last_used_at: time.nullable(),
    last_used_from: z.string().nullable(),
  })
  .register(responseSchemas, { id: 'ApiKey' });

/** Key as the list shows it: never the value or its hash; the last four characters only. */
export const apiKeyJson = (k: ApiKey, now: Date, owner?: User): z.output<typeof apiKeyResponse> => ({
  id: k.id,
  name: k.name,
  kind: k.kind,
  status: keyStatus(k, now),
  last_four: k.last_four,
  user_id: k.user_id,
  user_email: owner?.email ?? null,
  created_at: iso(k.created_at),
  expires_at: iso(k.expires_at),
  revoked_at: iso(k.revoked_at),
  last_used_at: iso(k.last_used_at),
  last_used_from: k.last_used_from,
});

export const resultResponse = z
  .strictObject({
    id: z.string(),
    monitor_id: z.string(),
    monitor_version: z.number().int(),
    location: z.string(),
    instance_id: z.string(),
    scheduled_at: time,
    started_at: time,
    received_at: time,
    ok: z.boolean(),
    error_kind: z.string().nullable(),
    error_message: z.string().nullable(),
    response_time_ms: z.number(),
    status_code: z.number().int().nullable(),
    timings: z
      .strictObject({
        dns_ms: z.number(),
        connect_ms: z.number(),
        tls_ms: z.number(),
        first_byte_ms: z.number(),
        total_ms: z.number(),
      })
      .nullable(),
    tls_valid_to: time.nullable(),
    domain_expires_at: time.nullable(),
    dns_records: z.array(z.string()),
    run_now_request_id: z.string().nullable(),
  })
  .register(responseSchemas, { id: 'CheckResult' });

export const resultJson = (r: CheckResultRecord): z.output<typeof resultResponse> => {
  const { workspace_id: _w, ...rest } = r;
  return {
    ...rest,
    scheduled_at: r.scheduled_at.toISOString(),
    started_at: r.started_at.toISOString(),
    received_at: r.received_at.toISOString(),
    tls_valid_to: iso(r.tls_valid_to),
    domain_expires_at: iso(r.domain_expires_at),
  };
};

export const regionHealthResponse = z
  .strictObject({
    region: z.string(),
    healthy: z.boolean(),
    status: z.enum(['healthy', 'unhealthy']),
    monitors: z.number().int(),
  })
  .register(responseSchemas, { id: 'RegionHealth' });

/** A region as a workspace sees it: health and its own monitor count, nothing identifying agents. */
export const regionHealthJson = (r: RegionHealth): z.output<typeof regionHealthResponse> => ({
  region: r.region,
  healthy: r.healthy,
  status: r.healthy ? 'healthy' : 'unhealthy',
  monitors: r.monitors,
});

/** An agent as the operator sees it (`npx lookout agent list`); never served by the workspace API. */
export const agentJson = (s: AgentSession, nowMs: number, liveMs: number) => ({
  instance_id: s.instance_id,
  region: s.region,
  hostname: s.hostname,
  agent_version: s.agent_version,
  epoch: s.epoch,
  connected_at: s.started_at.toISOString(),
  last_seen_at: s.last_seen_at.toISOString(),
  last_result_at: iso(s.last_result_at),
  healthy: isHealthy(s, nowMs, liveMs),
  health: s.health,
});

/** A user as admins list them: never a password hash. */
export const signInActivityResponse = z
  .strictObject({
    last_sign_in_at: time.nullable(),
    failed_sign_ins: z.strictObject({
      count: z.number().int(),
      since: time.nullable(),
      last_at: time.nullable(),
      last_address: z.string().nullable(),
    }),
  })
  .register(responseSchemas, { id: 'SignInActivity' });

/**
 * A user's sign-ins (domain/access/sign-in-store.ts): when they last signed in, and the latest failed web
 * sign-ins in a row (count, since the successful sign-in before them, when and from where the last).
 */
export const signInActivityJson = (
  a: SignInActivity | undefined,
): z.output<typeof signInActivityResponse> => ({
  last_sign_in_at: iso(a?.last_sign_in_at ?? null),
  failed_sign_ins: {
    count: a?.failed_count ?? 0,
    since: iso(a?.failed_since ?? null),
    last_at: iso(a?.last_failed_at ?? null),
    last_address: a?.last_failed_address ?? null,
  },
});

export const userResponse = z
  .strictObject({
    id: uuidString,
    email: z.string(),
    role: z.enum(ROLES as ['admin', 'member', 'viewer']),
    created_at: time,
  })
  .register(responseSchemas, { id: 'User' });

export const userJson = (u: User): z.output<typeof userResponse> => ({
  id: u.id,
  email: u.email,
  role: u.role,
  created_at: u.created_at.toISOString(),
});

const contactMethodBase = {
  id: uuidString,
  /** How the method appears to people: never a secret. */
  label: z.string(),
  verified: z.boolean(),
  verified_at: time.nullable(),
  created_at: time,
  code_sent_at: time.nullable(),
  code_expires_at: time.nullable(),
};

/** A user's contact method as its user sees it: secrets (an ntfy token, a Pushover key) as hints. */
export const contactMethodResponse = z
  .discriminatedUnion('type', [
    z.strictObject({ ...contactMethodBase, type: z.literal('email'), address: z.string() }),
    z.strictObject({ ...contactMethodBase, type: z.literal('sms'), phone: z.string() }),
    z.strictObject({ ...contactMethodBase, type: z.literal('telegram'), chat_id: z.string() }),
    z.strictObject({
      ...contactMethodBase,
      type: z.literal('ntfy'),
      server_url: z.string(),
      topic: z.string(),
      access_token: z.string().nullable(),
    }),
    z.strictObject({ ...contactMethodBase, type: z.literal('pushover'), user_key: z.string() }),
  ])
  .register(responseSchemas, { id: 'ContactMethod' });

const hint = (s: string) => `••••${s.slice(-4)}`;

export const contactMethodJson = (m: ContactMethod): z.output<typeof contactMethodResponse> => {
  const base = {
    id: m.id,
    label: contactLabel(m.address),
    verified: m.verified_at !== null,
    verified_at: iso(m.verified_at),
    created_at: iso(m.created_at),
    code_sent_at: iso(m.verification?.sent_at ?? null),
    code_expires_at: iso(m.verification?.expires_at ?? null),
  };
  const a = m.address;
  switch (a.type) {
    case 'email':
      return { ...base, type: a.type, address: a.address };
    case 'sms':
      return { ...base, type: a.type, phone: a.phone };
    case 'telegram':
      return { ...base, type: a.type, chat_id: a.chat_id };
    case 'ntfy':
      return {
        ...base,
        type: a.type,
        server_url: a.server_url,
        topic: a.topic,
        access_token: a.access_token ? hint(a.access_token) : null,
      };
    case 'pushover':
      return { ...base, type: a.type, user_key: hint(a.user_key) };
  }
};
