import { keyStatus } from '../domain/access/api-keys.js';
import type { SignInActivity } from '../domain/access/sign-in-store.js';
import { isHealthy, type RegionHealth } from '../domain/agents/region-health.js';
import type { TimelineEntry } from '../domain/alerts/alerts.js';
import type { MonitorStatusInfo } from '../domain/monitors/monitor-status.js';
import { monitorAsSeenBy } from '../domain/monitors/monitors.js';
import type {
  AgentSession,
  Alert,
  ApiKey,
  ChannelConfig,
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

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Monitor as the API shows it to a user of `role` (every response carrying a monitor goes through
 * here): what the role may not see is masked (`monitorAsSeenBy`), and endpoint auth secrets are never
 * echoed back to anyone.
 */
export const monitorJson = (monitor: Monitor, role: Role, info: MonitorStatusInfo) => {
  const m = monitorAsSeenBy(monitor, role);
  // A record from listMonitorsWithStatus carries its status too: `info` is the one shown.
  const {
    workspace_id: _w,
    auth,
    status: _s,
    last_checked_at: _l,
    uptime_24h: _u24,
    uptime_30d: _u30,
    last_response_time_ms: _lr,
    recent_checks: _rc,
    ...rest
  } = m as Monitor & Partial<MonitorStatusInfo>;
  return {
    ...rest,
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
        ? { type: 'basic', username: auth.username }
        : { type: 'bearer' }
      : null,
    created_at: iso(m.created_at),
    updated_at: iso(m.updated_at),
  };
};

export const heartbeatJson = (h: Heartbeat, pingUrl: string) => {
  // due_at, state_version and rearmed_at are the deadline job's bookkeeping, not part of the API.
  const { workspace_id: _w, due_at: _d, state_version: _v, rearmed_at: _ra, ...rest } = h;
  return {
    ...rest,
    ping_url: pingUrl,
    last_ping_at: iso(h.last_ping_at),
    started_at: iso(h.started_at),
    created_at: iso(h.created_at),
    updated_at: iso(h.updated_at),
  };
};

export const alertJson = (a: Alert) => {
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

/** GET /alerts/{uuid}: the alert and what happened to it. */
export const alertDetailJson = (a: Alert, timeline: TimelineEntry[]) => ({
  ...alertJson(a),
  timeline: timeline.map((e) => ({ ...e, at: e.at.toISOString() })),
});

export const policyJson = (p: EscalationPolicy) => {
  const { workspace_id: _w, ...rest } = p;
  return { ...rest, created_at: iso(p.created_at), updated_at: iso(p.updated_at) };
};

/** Channels never show their signing secret (only at creation), nor a Slack webhook's secret path. */
export const channelJson = (c: NotificationChannel) => {
  const { type: _t, ...config } = c.config as ChannelConfig & Record<string, unknown>;
  if (c.config.type === 'slack') config.url = maskUrl(c.config.url);
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    config,
    created_at: iso(c.created_at),
    updated_at: iso(c.updated_at),
  };
};

const maskUrl = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.origin}/…${url.slice(-4)}`;
  } catch {
    return '…';
  }
};

export const deliveryJson = (d: Delivery) => {
  const { workspace_id: _w, ...rest } = d;
  return { ...rest, at: d.at.toISOString() };
};

export const maintenanceWindowJson = (w: MaintenanceWindow, now: Date) => {
  const { workspace_id: _w, ...rest } = w;
  return {
    ...rest,
    active: w.starts_at <= now && now < w.ends_at,
    starts_at: w.starts_at.toISOString(),
    ends_at: w.ends_at.toISOString(),
    created_at: w.created_at.toISOString(),
  };
};

/** Key as the list shows it: never the value or its hash; the last four characters only. */
export const apiKeyJson = (k: ApiKey, now: Date, owner?: User) => ({
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

export const resultJson = (r: CheckResultRecord) => {
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

/** A region as a workspace sees it: health and its own monitor count, nothing identifying agents. */
export const regionHealthJson = (r: RegionHealth) => ({
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
/**
 * A user's sign-ins (domain/access/sign-in-store.ts): when they last signed in, and the latest failed web
 * sign-ins in a row (count, since the successful sign-in before them, when and from where the last).
 */
export const signInActivityJson = (a: SignInActivity | undefined) => ({
  last_sign_in_at: iso(a?.last_sign_in_at ?? null),
  failed_sign_ins: {
    count: a?.failed_count ?? 0,
    since: iso(a?.failed_since ?? null),
    last_at: iso(a?.last_failed_at ?? null),
    last_address: a?.last_failed_address ?? null,
  },
});

export const userJson = (u: User) => ({
  id: u.id,
  email: u.email,
  role: u.role,
  created_at: u.created_at.toISOString(),
});
