/**
 * The web app's one client of /api/v1: the typed client (control-plane/src/api-client) with the
 * browser's fetch. The session rides in its HttpOnly cookie (the browser sends it); every write
 * carries the session's CSRF token in X-CSRF-Token. A 401 anywhere means the session ended: listeners
 * (the app) go back to sign-in. The types below are the API's own (generated from its OpenAPI
 * document), named for the pages.
 */
import {
  ApiError,
  ApiUnreachableError,
  type Body,
  createLookoutClient,
  ok,
  type Schemas,
} from '../../src/api-client/client.js';

export { ApiError };

export type Me = Schemas['Session'];
/** A correct password of a user with a second factor: finish with api.secondFactor. */
export type SecondFactorRequired = Schemas['SecondFactorRequired'];
export type SecondFactorMethod = SecondFactorRequired['methods'][number];
export type ApiKey = Schemas['ApiKey'];
export type Member = Schemas['Member'];
export type Role = Member['role'];
/** The latest failed web sign-ins in a row: how many since `since` (the sign-in before them), the last one. */
export type FailedSignIns = Member['failed_sign_ins'];
export type ConnectedApp = Schemas['ConnectedApp'];

// Monitors and alerts
export type Monitor = Schemas['Monitor'];
export type MonitorStatus = Monitor['status'];
export type MonitorSort = 'status' | 'name' | 'last_change' | 'response_time';
export type MonitorCounts = Record<MonitorStatus | 'total', number>;
export type Group = Schemas['Group'];

/** The list's filters as the monitors page keeps them (its URL), empty strings for none. */
export interface MonitorFilter {
  sort?: MonitorSort | undefined;
  status?: MonitorStatus | '';
  search?: string;
  tag?: string;
  group_id?: string;
  monitor_type?: string;
  region?: string;
}

/** The API's query for a filter: only what is set. */
const monitorQuery = (f: MonitorFilter) => ({
  sort: f.sort,
  status: f.status || undefined,
  q: f.search || undefined,
  tag: f.tag || undefined,
  group_id: f.group_id || undefined,
  monitor_type: (f.monitor_type || undefined) as Monitor['monitor_type'] | undefined,
  region: f.region || undefined,
});
export type MonitorType = Monitor['monitor_type'];
/** One of a monitor's newest checks, oldest first in `recent_checks`. */
export type RecentCheck = NonNullable<Monitor['recent_checks']>[number];
export type CheckResult = Schemas['CheckResult'];
/** What a multistep or browser check's run reported: its steps, and the page's vitals and screenshot. */
export type ScriptRun = Schemas['ScriptRun'];
export type Alert = Schemas['Alert'];
export type AlertStatus = Alert['status'];
export type AlertSourceType = Alert['source_type'];
export type Actor = Schemas['Actor'];
export type TimelineEntry = Schemas['AlertDetail']['timeline'][number];
export type Region = Schemas['RegionHealth'];
/** A check type as GET /check-types gives it: its label, its target and its own fields' JSON Schemas. */
export type CheckTypeInfo = Schemas['CheckType'];
export type CheckTypeField = CheckTypeInfo['fields'][number];
export type MonitorBody = Body<'/monitors/create', 'post'>;
/** One action on many monitors (`POST /monitors/bulk`). */
export type MonitorBulkBody = Body<'/monitors/bulk', 'post'>;

/** A page of a list, as every list operation answers. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

let csrf: string | null = null;
const unauthorized = new Set<() => void>();

/** Called whenever the server says the session is gone. */
export const onUnauthorized = (fn: () => void) => {
  unauthorized.add(fn);
  return () => unauthorized.delete(fn);
};

/** Where a 401 is the answer to a credential typed in, not a session that ended. */
const SIGN_IN_PATHS = new Set([
  '/api/v1/session',
  '/api/v1/session/second-factor',
  '/api/v1/session/passkey',
  '/api/v1/invitations/accept',
]);

export const client = createLookoutClient({
  baseUrl: '/api/v1',
  credentials: 'same-origin',
  fetch: (request) =>
    fetch(request).catch(() => {
      throw new ApiUnreachableError('Lookout cannot be reached. Check your connection and try again.');
    }),
});
client.use({
  onRequest({ request }) {
    request.headers.set('accept', 'application/json');
    if (request.method !== 'GET' && csrf) request.headers.set('x-csrf-token', csrf);
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && !SIGN_IN_PATHS.has(new URL(request.url).pathname))
      for (const fn of unauthorized) fn();
    return response;
  },
});

/** Keeps the CSRF token of a session just made or read (every sign-in answer passes through it). */
export const remember = (me: Me) => {
  csrf = me.csrf_token;
  return me;
};

const path = (id: string) => ({ params: { path: { id } } });
/** A 404 as null: a record that does not exist yet. */
const orNull = <T>(p: Promise<T>): Promise<T | null> =>
  p.catch((e) => {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  });
const LIMIT = 100;

export const api = {
  session: () => ok(client.GET('/session')).then(remember),
  /** A session, or (a user with a second factor) the challenge to finish with api.secondFactor. */
  signIn: (email: string, password: string) =>
    ok(client.POST('/session', { body: { email, password } })).then((r) =>
      'second_factor_required' in r ? r : remember(r),
    ),
  secondFactor: (challenge: string, method: SecondFactorMethod, code: string) =>
    ok(client.POST('/session/second-factor', { body: { challenge, method, code } })).then(remember),
  /** Your two-factor sign-in (Settings → Security). */
  startTotp: () => ok(client.POST('/me/totp')),
  confirmTotp: (code: string) => ok(client.POST('/me/totp/confirm', { body: { code } })),
  disableTotp: (code: string) => ok(client.DELETE('/me/totp', { body: { code } })),
  regenerateRecoveryCodes: (code: string) => ok(client.POST('/me/recovery-codes', { body: { code } })),
  workspaceSecurity: () => ok(client.GET('/security')),
  setWorkspaceSecurity: (require_2fa: boolean) => ok(client.PUT('/security', { body: { require_2fa } })),
  signOut: async () => {
    await ok(client.DELETE('/session'));
    csrf = null;
  },
  changePassword: (current_password: string, new_password: string) =>
    ok(client.POST('/session/password', { body: { current_password, new_password } })).then(remember),
  /** You as the users list shows you, with your sign-ins. */
  myAccount: () => ok(client.GET('/users/me')),
  listKeys: () => ok(client.GET('/api-keys')),
  createKey: (name: string, expiry: Body<'/api-keys', 'post'>['expiry']) =>
    ok(client.POST('/api-keys', { body: { name, expiry } })),
  revokeKey: (id: string) => ok(client.POST('/api-keys/{id}/revoke', path(id))),
  listConnectedApps: () => ok(client.GET('/connected-apps')),
  revokeConnectedApp: (id: string) => ok(client.POST('/connected-apps/{id}/revoke', path(id))),
  /** Admins: every user's connected apps, and revoking any of them. */
  listWorkspaceConnectedApps: () => ok(client.GET('/workspace/connected-apps')),
  revokeWorkspaceConnectedApp: (id: string) =>
    ok(client.POST('/workspace/connected-apps/{id}/revoke', path(id))),
  regenerateLegacyKey: () => ok(client.POST('/api-keys/legacy/regenerate')),
  listUsers: (cursor?: string) => ok(client.GET('/users', { params: { query: { limit: LIMIT, cursor } } })),
  /** Ids and emails of everyone in the workspace (any role): whom a schedule or a policy step may name. */
  listPeople: (cursor?: string) => ok(client.GET('/people', { params: { query: { limit: LIMIT, cursor } } })),
  inviteUser: (email: string, role: Role) => ok(client.POST('/users', { body: { email, role } })),
  changeRole: (id: string, role: Role) => ok(client.PATCH('/users/{id}', { ...path(id), body: { role } })),
  removeUser: (id: string) => ok(client.DELETE('/users/{id}', path(id))),
  /** Always the same answer, whether an account has the address or not. */
  requestPasswordReset: (email: string) => ok(client.POST('/password-reset', { body: { email } })),
  confirmPasswordReset: (token: string, new_password: string) =>
    ok(client.POST('/password-reset/confirm', { body: { token, new_password } })),
  acceptInvitation: (token: string, password: string) =>
    ok(client.POST('/invitations/accept', { body: { token, password } })).then(remember),
  // Monitors and alerts
  listMonitors: (filter: MonitorFilter, cursor?: string) =>
    ok(client.GET('/monitors', { params: { query: { limit: LIMIT, ...monitorQuery(filter), cursor } } })),
  /** One page of the workspace's groups (the monitors page shows a section for each). */
  listGroups: (cursor?: string) => ok(client.GET('/groups', { params: { query: { limit: 100, cursor } } })),
  countMonitors: (filter: MonitorFilter) =>
    ok(
      client.GET('/monitors/counts', {
        params: { query: { ...monitorQuery({ ...filter, status: '' }), sort: undefined } },
      }),
    ),
  getMonitor: (id: string) => ok(client.GET('/monitors/{id}', path(id))),
  createMonitor: (body: MonitorBody) => ok(client.POST('/monitors/create', { body })),
  updateMonitor: (id: string, body: Body<'/monitors/{id}', 'patch'>) =>
    ok(client.PATCH('/monitors/{id}', { ...path(id), body })),
  deleteMonitor: (id: string) => ok(client.DELETE('/monitors/{id}', path(id))),
  pauseMonitor: (id: string, pause: boolean) =>
    ok(
      pause ? client.POST('/monitors/{id}/pause', path(id)) : client.POST('/monitors/{id}/resume', path(id)),
    ),
  checkNow: (id: string) => ok(client.POST('/monitors/{id}/check', path(id))),
  bulkMonitors: (body: MonitorBulkBody) => ok(client.POST('/monitors/bulk', { body })),
  listResults: (id: string, limit = LIMIT) =>
    ok(client.GET('/monitors/{id}/results', { params: { path: { id }, query: { limit } } })),
  /** A scripted check's newest run (steps, vitals, screenshot); null before the first. */
  latestScriptRun: (id: string) => orNull(ok(client.GET('/monitors/{id}/script-runs/latest', path(id)))),
  /** What one result's scripted run reported; null when it has none (yet). */
  scriptRun: (id: string, result_id: string) =>
    orNull(
      ok(client.GET('/monitors/{id}/results/{result_id}/script', { params: { path: { id, result_id } } })),
    ),
  listRegions: () => ok(client.GET('/regions')),
  listCheckTypes: () => ok(client.GET('/check-types')),
  listAlerts: (
    filter: { status?: string; source_type?: AlertSourceType | ''; source_id?: string },
    cursor?: string,
  ) =>
    ok(
      client.GET('/alerts', {
        params: {
          query: {
            limit: LIMIT,
            status: filter.status || undefined,
            source_type: filter.source_type || undefined,
            source_id: filter.source_id || undefined,
            cursor,
          },
        },
      }),
    ),
  getAlert: (uuid: string) => ok(client.GET('/alerts/{uuid}', { params: { path: { uuid } } })),
  acknowledgeAlerts: (UUIDs: string[]) => ok(client.POST('/alerts/acknowledge', { body: { UUIDs } })),
  resolveAlerts: (UUIDs: string[]) => ok(client.POST('/alerts/resolve', { body: { UUIDs } })),
};

/** A monitor with every field GET /monitors/{id} returns (auth without its secret). */
export type MonitorDetail = Awaited<ReturnType<typeof api.getMonitor>>;
/** What a create or an edit says besides the record: an interval raised to the plan's floor. */
export type Saved = Awaited<ReturnType<typeof api.createMonitor>>;
export type KeyList = Awaited<ReturnType<typeof api.listKeys>>;
