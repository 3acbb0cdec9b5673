/** Records for the store contract suites: valid, distinct, every field set. */
import { randomUUID } from 'node:crypto';
import type {
  Alert,
  ApiKey,
  CheckResultRecord,
  EscalationPolicy,
  Group,
  Heartbeat,
  Monitor,
  MonitorLocationState,
  User,
  Workspace,
} from '../../control-plane/src/domain/types.js';

export const T0 = new Date('2026-03-01T10:00:00.000Z');
export const at = (s: number) => new Date(T0.getTime() + s * 1000);

export const fixtures = {
  workspace(sub = `ws-${randomUUID().slice(0, 8)}`): {
    workspace: Workspace;
    admin: User;
    defaultPolicy: EscalationPolicy;
  } {
    const id = randomUUID();
    return {
      workspace: { id, subdomain: sub, name: sub, plan: 'team', created_at: T0 },
      admin: {
        id: randomUUID(),
        workspace_id: id,
        email: `admin@${sub}.test`,
        role: 'admin',
        password_hash: null,
        created_at: T0,
      },
      defaultPolicy: {
        id: randomUUID(),
        workspace_id: id,
        name: 'Default',
        is_default: true,
        steps: [{ wait_minutes: 0, notify_user_ids: [], notify_channel_ids: [] }],
        repeat: 0,
        support_hours: null,
        created_at: T0,
        updated_at: T0,
      },
    };
  },
  apiKey(ws: string, user: string, over: Partial<ApiKey> = {}): ApiKey {
    return {
      id: randomUUID(),
      workspace_id: ws,
      user_id: user,
      kind: 'named',
      name: 'ci',
      key_hash: randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', ''),
      last_four: 'abcd',
      created_at: T0,
      expires_at: null,
      revoked_at: null,
      last_used_at: null,
      last_used_from: null,
      ...over,
    };
  },
  monitor(ws: string, policy: string, over: Partial<Monitor> = {}): Monitor {
    return {
      id: randomUUID(),
      workspace_id: ws,
      display_name: 'Home page',
      monitor_type: 'http',
      url: 'https://example.com/',
      http_method: 'GET',
      check_interval_seconds: 60,
      timeout_seconds: 10,
      expected_status_code: 200,
      required_keyword: null,
      auth: { type: 'basic', username: 'u', password: 'p' },
      port: null,
      request_headers: { 'x-a': 'b' },
      request_body: null,
      follow_redirects: true,
      ssl_cert_monitoring: true,
      ssl_cert_expiry_alert_days: 14,
      domain_expiry_alert_days: 30,
      response_time_threshold_ms: null,
      failure_threshold: 3,
      retry_interval_seconds: 15,
      escalation_policy_id: policy,
      check_locations: ['eu-west', 'us-east'],
      dns_record_type: null,
      dns_expected_values: [],
      dns_resolver: null,
      depends_on: [],
      paused: false,
      group_id: null,
      tags: ['env:prod', 'team-web'],
      severity: 'warning',
      settings: {},
      created_at: T0,
      updated_at: T0,
      version: 1,
      ...over,
    };
  },
  group(ws: string, over: Partial<Group> = {}): Group {
    return {
      id: randomUUID(),
      workspace_id: ws,
      name: 'Edge routers',
      created_at: T0,
      updated_at: T0,
      ...over,
    };
  },
  heartbeat(ws: string, policy: string, over: Partial<Heartbeat> = {}): Heartbeat {
    return {
      id: randomUUID(),
      workspace_id: ws,
      display_name: 'nightly backup',
      period_seconds: 86400,
      schedule: null,
      timezone: 'UTC',
      slug: null,
      grace_seconds: 3600,
      state: 'new',
      last_ping_at: null,
      escalation_policy_id: policy,
      depends_on: [],
      paused: false,
      group_id: null,
      tags: ['backup'],
      severity: 'critical',
      created_at: T0,
      updated_at: T0,
      version: 1,
      due_at: null,
      started_at: null,
      start_rid: null,
      rearmed_at: null,
      alert_id: null,
      state_version: 0,
      last_duration_ms: null,
      ...over,
    };
  },
  alert(ws: string, over: Partial<Alert> = {}): Alert {
    return {
      id: randomUUID(),
      workspace_id: ws,
      source_type: 'integration',
      source_id: 'webhook-1',
      cause: 'webhook',
      dedup_key: 'k1',
      title: 'Disk full',
      description: null,
      severity: 'critical',
      status: 'open',
      escalation_policy_id: null,
      created_at: T0,
      updated_at: T0,
      acknowledged_at: null,
      acknowledged_by: null,
      resolved_at: null,
      resolved_by: null,
      escalation: null,
      escalation_due_at: null,
      held_back: 0,
      ...over,
    };
  },
};

export const result = (
  ws: string,
  monitor: string,
  over: Partial<CheckResultRecord> = {},
): CheckResultRecord => ({
  id: randomUUID(),
  workspace_id: ws,
  monitor_id: monitor,
  monitor_version: 1,
  location: 'eu-west',
  instance_id: 'agent-1',
  scheduled_at: T0,
  started_at: T0,
  received_at: T0,
  ok: true,
  error_kind: null,
  error_message: null,
  response_time_ms: 120,
  status_code: 200,
  timings: { dns_ms: 1, connect_ms: 2, tls_ms: 3, first_byte_ms: 50, total_ms: 120 },
  tls_valid_to: at(86400 * 30),
  domain_expires_at: null,
  dns_records: [],
  run_now_request_id: null,
  ...over,
});

/** A location step that counts: successes go up by one, failures reset them (what applyResult does with them). */
export const countingStep = (
  prev: MonitorLocationState | null,
  r: CheckResultRecord,
): MonitorLocationState => ({
  monitor_id: r.monitor_id,
  location: r.location,
  status: r.ok ? 'up' : 'down',
  consecutive_failures: r.ok ? 0 : (prev?.consecutive_failures ?? 0) + 1,
  consecutive_successes: r.ok ? (prev?.consecutive_successes ?? 0) + 1 : 0,
  consecutive_slow: 0,
  last_result_at: r.received_at,
  last_scheduled_at: r.scheduled_at,
  version: (prev?.version ?? 0) + 1,
});
