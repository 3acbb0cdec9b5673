/**
 * The web app's one client of /api/v1. The session rides in its HttpOnly cookie (the browser sends
 * it); every write carries the session's CSRF token in X-CSRF-Token. A 401 anywhere means the session
 * ended: listeners (the app) go back to sign-in.
 */

export interface Me {
  user: { id: string; email: string; role: 'admin' | 'member' | 'viewer' };
  workspace: { id: string; subdomain: string; name: string; plan: string };
  csrf_token: string;
  expires_at: string;
}

export interface ApiKey {
  id: string;
  name: string;
  kind: 'named' | 'legacy';
  status: 'active' | 'expired' | 'revoked';
  last_four: string;
  user_id: string;
  user_email: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  last_used_from: string | null;
}

export type Role = 'admin' | 'member' | 'viewer';

/** The latest failed web sign-ins in a row: how many since `since` (the sign-in before them), the last one. */
export interface FailedSignIns {
  count: number;
  since: string | null;
  last_at: string | null;
  last_address: string | null;
}

export interface Member {
  id: string;
  email: string;
  role: Role;
  status: 'active' | 'invited';
  invitation_expires_at: string | null;
  created_at: string;
  last_sign_in_at: string | null;
  failed_sign_ins: FailedSignIns;
}

export type MonitorStatus = 'up' | 'down' | 'paused' | 'pending' | 'maintenance';

export interface Monitor {
  id: string;
  display_name: string;
  monitor_type: string;
  url: string;
  port: number | null;
  check_interval_seconds: number;
  check_locations: string[];
  status: MonitorStatus;
  last_checked_at: string | null;
  // Uptime fields (issue 13 pins): absent until the API returns them; then null when there were no checks.
  uptime_24h?: number | null;
  uptime_30d?: number | null;
  last_response_time_ms?: number | null;
  recent_checks?: RecentCheck[];
}

// Monitors and alerts

export type MonitorType = 'http' | 'api' | 'dns' | 'tcp' | 'domain';

/** One of a monitor's newest checks, oldest first in `recent_checks`. */
export interface RecentCheck {
  at: string;
  ok: boolean;
  location: string;
  response_time_ms: number | null;
}

/** A monitor with every field GET /monitors/{id} returns (auth without its secret). */
export interface MonitorDetail extends Monitor {
  monitor_type: MonitorType;
  http_method: string | null;
  timeout_seconds: number;
  expected_status_code: number;
  required_keyword: string | null;
  auth: { type: 'basic'; username: string } | { type: 'bearer' } | null;
  request_headers: Record<string, string>;
  request_body: string | null;
  follow_redirects: boolean;
  ssl_cert_monitoring: boolean;
  ssl_cert_expiry_alert_days: number;
  domain_expiry_alert_days: number;
  response_time_threshold_ms: number | null;
  failure_threshold: number;
  escalation_policy_id: string;
  dns_record_type: string | null;
  dns_expected_values: string[];
  dns_resolver: string | null;
  paused: boolean;
  created_at: string;
  updated_at: string;
}

/** What a create or an edit says besides the record: an interval raised to the plan's floor. */
export type Saved = MonitorDetail & { warnings: { field: string; message: string }[] };

export interface CheckResult {
  id: string;
  monitor_id: string;
  location: string;
  scheduled_at: string;
  started_at: string;
  received_at: string;
  ok: boolean;
  error_kind: string | null;
  error_message: string | null;
  response_time_ms: number;
  status_code: number | null;
  timings: {
    dns_ms: number;
    connect_ms: number;
    tls_ms: number;
    first_byte_ms: number;
    total_ms: number;
  } | null;
  tls_valid_to: string | null;
  domain_expires_at: string | null;
  dns_records: string[];
}

export type AlertStatus = 'open' | 'acknowledged' | 'resolved';
export type AlertSourceType = 'monitor' | 'heartbeat' | 'integration' | 'region';
export type Actor =
  | { type: 'user'; user_id: string; api_key_id: string | null }
  | { type: 'system' }
  | { type: 'integration'; integration_id: string }
  | { type: 'link'; user_id: string | null; channel_id: string | null; via: string; recipient: string };

export interface Alert {
  id: string;
  source_type: AlertSourceType;
  source_id: string;
  cause: string;
  title: string;
  description: string | null;
  severity: 'critical' | 'warning' | 'info';
  status: AlertStatus;
  created_at: string;
  updated_at: string;
  acknowledged_at: string | null;
  acknowledged_by: Actor | null;
  resolved_at: string | null;
  resolved_by: Actor | null;
}

export type TimelineEntry =
  | { at: string; type: 'raised' }
  | { at: string; type: 'suppressed'; window_name: string }
  | {
      at: string;
      type: 'notification';
      via: string;
      to: string;
      attempt: number;
      outcome: string;
      status_code: number | null;
      error: string | null;
    }
  | { at: string; type: 'acknowledged'; by: Actor | null }
  | { at: string; type: 'resolved'; by: Actor | null };

export interface Region {
  region: string;
  healthy: boolean;
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface KeyList {
  data: ApiKey[];
  legacy_keys: ApiKey[];
}

export interface ConnectedApp {
  id: string;
  client_id: string;
  client_name: string | null;
  client_uri: string | null;
  redirect_uris: string[];
  scope: string;
  /** The user the app acts as. */
  user_id: string;
  user_email: string | null;
  granted_at: string;
  expires_at: string | null;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: { field: string; message: string }[] = [],
  ) {
    super(message);
  }
  /** The message for one field, if the server named it. */
  field(name: string) {
    return this.details.find((d) => d.field === name)?.message;
  }
}

let csrf: string | null = null;
const unauthorized = new Set<() => void>();

/** Called whenever the server says the session is gone. */
export const onUnauthorized = (fn: () => void) => {
  unauthorized.add(fn);
  return () => unauthorized.delete(fn);
};

export const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrf) headers['x-csrf-token'] = csrf;
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch {
    throw new ApiError(0, 'network', 'Lookout cannot be reached. Check your connection and try again.');
  }
  if (res.status === 204) return undefined as T;
  const json = (await res.json().catch(() => null)) as
    | (T & { error?: { code: string; message: string; details?: { field: string; message: string }[] } })
    | null;
  if (!res.ok) {
    const e = json?.error;
    const err = new ApiError(
      res.status,
      e?.code ?? 'unknown',
      e?.message ?? `The server answered ${res.status}.`,
      e?.details ?? [],
    );
    if (res.status === 401 && path !== '/session' && path !== '/invitations/accept')
      for (const fn of unauthorized) fn();
    throw err;
  }
  return json as T;
};

const remember = (me: Me) => {
  csrf = me.csrf_token;
  return me;
};

export const api = {
  session: () => call<Me>('GET', '/session').then(remember),
  signIn: (email: string, password: string) =>
    call<Me>('POST', '/session', { email, password }).then(remember),
  signOut: async () => {
    await call<void>('DELETE', '/session');
    csrf = null;
  },
  changePassword: (current_password: string, new_password: string) =>
    call<Me>('POST', '/session/password', { current_password, new_password }).then(remember),
  /** You as the users list shows you, with your sign-ins. */
  myAccount: () => call<Member>('GET', '/users/me'),
  listKeys: () => call<KeyList>('GET', '/api-keys'),
  createKey: (name: string, expiry: string) =>
    call<ApiKey & { key: string }>('POST', '/api-keys', { name, expiry }),
  revokeKey: (id: string) => call<ApiKey>('POST', `/api-keys/${encodeURIComponent(id)}/revoke`),
  listConnectedApps: () => call<{ data: ConnectedApp[] }>('GET', '/connected-apps'),
  revokeConnectedApp: (id: string) =>
    call<ConnectedApp>('POST', `/connected-apps/${encodeURIComponent(id)}/revoke`),
  /** Admins: every user's connected apps, and revoking any of them. */
  listWorkspaceConnectedApps: () => call<{ data: ConnectedApp[] }>('GET', '/workspace/connected-apps'),
  revokeWorkspaceConnectedApp: (id: string) =>
    call<ConnectedApp>('POST', `/workspace/connected-apps/${encodeURIComponent(id)}/revoke`),
  regenerateLegacyKey: () => call<ApiKey & { key: string }>('POST', '/api-keys/legacy/regenerate'),
  listUsers: (cursor?: string) =>
    call<Page<Member>>('GET', `/users?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
  inviteUser: (email: string, role: Role) =>
    call<Member & { invitation_url: string }>('POST', '/users', { email, role }),
  changeRole: (id: string, role: Role) => call<Member>('PATCH', `/users/${encodeURIComponent(id)}`, { role }),
  removeUser: (id: string) => call<void>('DELETE', `/users/${encodeURIComponent(id)}`),
  acceptInvitation: (token: string, password: string) =>
    call<Me>('POST', '/invitations/accept', { token, password }).then(remember),
  // Monitors and alerts
  listMonitors: (filter: { status: MonitorStatus | ''; search?: string }, cursor?: string) => {
    const q = new URLSearchParams({ limit: '100' });
    if (filter.status) q.set('status', filter.status);
    if (filter.search) q.set('search', filter.search);
    if (cursor) q.set('cursor', cursor);
    return call<Page<Monitor>>('GET', `/monitors?${q}`);
  },
  getMonitor: (id: string) => call<MonitorDetail>('GET', `/monitors/${encodeURIComponent(id)}`),
  createMonitor: (body: Record<string, unknown>) => call<Saved>('POST', '/monitors/create', body),
  updateMonitor: (id: string, body: Record<string, unknown>) =>
    call<Saved>('PATCH', `/monitors/${encodeURIComponent(id)}`, body),
  deleteMonitor: (id: string) => call<void>('DELETE', `/monitors/${encodeURIComponent(id)}`),
  pauseMonitor: (id: string, pause: boolean) =>
    call<MonitorDetail>('POST', `/monitors/${encodeURIComponent(id)}/${pause ? 'pause' : 'resume'}`),
  checkNow: (id: string) =>
    call<{ requested: string[] }>('POST', `/monitors/${encodeURIComponent(id)}/check`),
  listResults: (id: string, limit = 100) =>
    call<Page<CheckResult>>('GET', `/monitors/${encodeURIComponent(id)}/results?limit=${limit}`),
  listRegions: () => call<Page<Region>>('GET', '/regions'),
  listAlerts: (filter: { status?: string; source_type?: string; source_id?: string }, cursor?: string) => {
    const q = new URLSearchParams({ limit: '100' });
    for (const [k, v] of Object.entries(filter)) if (v) q.set(k, v);
    if (cursor) q.set('cursor', cursor);
    return call<Page<Alert>>('GET', `/alerts?${q}`);
  },
  getAlert: (uuid: string) =>
    call<Alert & { timeline: TimelineEntry[] }>('GET', `/alerts/${encodeURIComponent(uuid)}`),
  acknowledgeAlerts: (UUIDs: string[]) =>
    call<{
      acknowledged: Alert[];
      already_acknowledged: Alert[];
      already_resolved: Alert[];
      not_found: string[];
    }>('POST', '/alerts/acknowledge', { UUIDs }),
  resolveAlerts: (UUIDs: string[]) =>
    call<{ resolved: Alert[]; already_resolved: Alert[]; not_found: string[] }>('POST', '/alerts/resolve', {
      UUIDs,
    }),
};
