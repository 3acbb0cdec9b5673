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

export interface Member {
  id: string;
  email: string;
  role: Role;
  status: 'active' | 'invited';
  invitation_expires_at: string | null;
  created_at: string;
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
  listKeys: () => call<KeyList>('GET', '/api-keys'),
  createKey: (name: string, expiry: string) =>
    call<ApiKey & { key: string }>('POST', '/api-keys', { name, expiry }),
  revokeKey: (id: string) => call<ApiKey>('POST', `/api-keys/${encodeURIComponent(id)}/revoke`),
  listConnectedApps: () => call<{ data: ConnectedApp[] }>('GET', '/connected-apps'),
  revokeConnectedApp: (id: string) =>
    call<ConnectedApp>('POST', `/connected-apps/${encodeURIComponent(id)}/revoke`),
  regenerateLegacyKey: () => call<ApiKey & { key: string }>('POST', '/api-keys/legacy/regenerate'),
  listUsers: (cursor?: string) =>
    call<Page<Member>>('GET', `/users?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
  inviteUser: (email: string, role: Role) =>
    call<Member & { invitation_url: string }>('POST', '/users', { email, role }),
  changeRole: (id: string, role: Role) => call<Member>('PATCH', `/users/${encodeURIComponent(id)}`, { role }),
  removeUser: (id: string) => call<void>('DELETE', `/users/${encodeURIComponent(id)}`),
  acceptInvitation: (token: string, password: string) =>
    call<Me>('POST', '/invitations/accept', { token, password }).then(remember),
  listMonitors: (status: MonitorStatus | '', cursor?: string) => {
    const q = new URLSearchParams({ limit: '100' });
    if (status) q.set('status', status);
    if (cursor) q.set('cursor', cursor);
    return call<Page<Monitor>>('GET', `/monitors?${q}`);
  },
};
