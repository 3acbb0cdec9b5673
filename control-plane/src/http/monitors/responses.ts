import { z } from 'zod';
import { assertionsField, shownAssertions } from '../../domain/checks/assertions.js';
import { setting } from '../../domain/checks/check-type.js';
import { CHECK_TYPES, TYPE_FIELDS, TYPES_OF_FIELD } from '../../domain/checks/registry.js';
import type { DependencyNode } from '../../domain/monitors/depends-on.js';
import { monitorAsSeenBy } from '../../domain/monitors/monitor-masking.js';
import type { MonitorStatusInfo } from '../../domain/monitors/monitor-status.js';
import { MONITOR_STATUSES } from '../../domain/monitors/monitor-status.js';
import type { Monitor, Role } from '../../domain/types.js';
import { DNS_RECORD_TYPES, MONITOR_TYPES } from '../../domain/types.js';
import { dependenciesJson, dependencyResponse } from '../dependency-responses.js';
import { labelResponse } from '../groups/responses.js';
import { iso, responseSchemas, time, uuidString } from '../responses.js';

const headers = z.record(z.string(), z.string());

/** The later types' fields (kept in the record's `settings`), each shown for the types that have it. */
const SETTINGS_FIELDS = Object.entries(TYPE_FIELDS).filter(([, f]) => f.stored === 'settings');
const settingsResponse = Object.fromEntries(
  SETTINGS_FIELDS.map(([name, f]) => [
    name,
    f.schema.optional().describe(`Only for ${TYPES_OF_FIELD[name]!.join(', ')} monitors.`),
  ]),
);

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
    depends_on: z.array(z.string()).describe('Monitors, heartbeats or groups this monitor depends on.'),
    dependencies: z.array(dependencyResponse).describe('`depends_on` with the kind and name of each.'),
    suppressed_by: z
      .string()
      .nullable()
      .describe('While down: the dependency, down too, that holds its alert back; null otherwise.'),
    paused: z.boolean(),
    ...labelResponse,
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
    ...settingsResponse,
    shown_assertions: assertionsField
      .optional()
      .describe(
        'Read-only: what the check verifies, as assertions: `expected_status_code` and `required_keyword` as the assertions they are, then `assertions`. Only for the types that take assertions; to change it, send those fields.',
      ),
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
  suppressedBy: string | null = null,
  nodes: Map<string, DependencyNode> = new Map(),
): z.output<typeof monitorResponse> => {
  const m = monitorAsSeenBy(monitor, role);
  const auth = m.auth;
  const own = typeSettings(m);
  // One literal naming every field, in the schema's order: a rest pattern (`{ a, ...rest }`) copied
  // the record key by key through a runtime call, ~10 µs a monitor of the dashboard's list at
  // 100,000 monitors, and would pass on any field a store added to its record.
  const json: z.output<typeof monitorResponse> = {
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
    depends_on: m.depends_on ?? [],
    dependencies: dependenciesJson(m.depends_on, nodes),
    suppressed_by: info.status === 'down' ? suppressedBy : null,
    paused: m.paused,
    group_id: m.group_id,
    tags: m.tags,
    severity: m.severity,
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
    ...own,
  };
  if ('assertions' in own) {
    json.shown_assertions = shownAssertions({
      monitor_type: m.monitor_type,
      expected_status_code: m.expected_status_code,
      required_keyword: m.required_keyword,
      assertions: own.assertions as z.output<typeof assertionsField>,
    });
  }
  return json;
};

/** The monitor's own settings fields with their defaults (a record stored before one existed has none). */
const typeSettings = (m: Monitor): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  const own = CHECK_TYPES[m.monitor_type].fields;
  for (const [name] of SETTINGS_FIELDS) if (own[name]) out[name] = setting(m, own, name);
  return out;
};
