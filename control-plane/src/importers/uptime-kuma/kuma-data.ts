/**
 * Uptime Kuma's configuration as the importer reads it, whatever it came from: the JSON backup of
 * 1.x (Settings → Backup: `{version, notificationList, monitorList}`, each monitor as its
 * `Monitor.toJSON()` writes it, camelCase) or the database `kuma.db` (1.23 and 2.x, snake_case columns:
 * `read-kuma-db.ts`). Field meanings follow Kuma's monitor model (`monitor.js` in its server/model); the backup carries no
 * maintenance and no status pages (Kuma never exported them).
 */
export interface KumaTag {
  name: string;
  value: string;
}

export interface KumaMonitor {
  id: number;
  name: string;
  type: string;
  active: boolean;
  /** The id of the group monitor it sits in. */
  parent: number | null;
  url: string | null;
  method: string | null;
  hostname: string | null;
  port: number | null;
  /** Seconds between checks. */
  interval: number;
  retryInterval: number;
  /** Failed checks in a row Kuma tolerates before it marks the monitor down. */
  maxretries: number;
  /** Seconds; 0 or null: Kuma's default (80 % of the interval). */
  timeout: number | null;
  resendInterval: number;
  keyword: string | null;
  invertKeyword: boolean;
  ignoreTls: boolean;
  upsideDown: boolean;
  maxredirects: number;
  acceptedStatuscodes: string[];
  dnsResolveType: string | null;
  dnsResolveServer: string | null;
  /** A JSON object as text. */
  headers: string | null;
  body: string | null;
  httpBodyEncoding: string | null;
  authMethod: string | null;
  basicAuthUser: string | null;
  basicAuthPass: string | null;
  bearerToken: string | null;
  jsonPath: string | null;
  expectedValue: string | null;
  jsonPathOperator: string | null;
  databaseConnectionString: string | null;
  databaseQuery: string | null;
  expiryNotification: boolean;
  packetSize: number | null;
  pingCount: number | null;
  smtpSecurity: string | null;
  proxyId: number | null;
  /** 2.x conditions (a JSON list as text); '[]' or null: none. */
  conditions: string | null;
  /** mTLS client certificate, OAuth client credentials, NTLM: present or not. */
  tlsCert: string | null;
  description: string | null;
  notificationIds: number[];
  tags: KumaTag[];
}

export interface KumaNotification {
  id: number;
  name: string;
  active: boolean;
  isDefault: boolean;
  /** The provider's own settings (`type` names the provider). */
  config: Record<string, unknown>;
}

export interface KumaMaintenance {
  id: number;
  title: string;
  description: string;
  active: boolean;
  strategy: string;
  startDate: string | null;
  endDate: string | null;
  startTime: string | null;
  endTime: string | null;
  weekdays: number[];
  daysOfMonth: (number | string)[];
  intervalDay: number | null;
  cron: string | null;
  /** Seconds. */
  duration: number | null;
  timezone: string | null;
  monitorIds: number[];
  statusPageIds: number[];
}

export interface KumaStatusPageGroup {
  name: string;
  monitorIds: number[];
}

export interface KumaStatusPage {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  published: boolean;
  domains: string[];
  footerText: string | null;
  customCss: string | null;
  groups: KumaStatusPageGroup[];
}

export interface KumaData {
  /** `1.23.x` or `2.x` from the database's migrations; the backup's own `version`. */
  version: string;
  from: 'backup' | 'database';
  monitors: KumaMonitor[];
  notifications: KumaNotification[];
  maintenances: KumaMaintenance[];
  statusPages: KumaStatusPage[];
  /** The `serverTimezone` setting: the zone of maintenance set to SAME_AS_SERVER (database only). */
  serverTimezone?: string | null;
}

type Row = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : v == null ? null : String(v));
const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};
const bool = (v: unknown, dflt = false): boolean =>
  v === undefined || v === null ? dflt : v === true || v === 1 || v === '1' || v === 'true';
const jsonOf = <T>(v: unknown, dflt: T): T => {
  if (typeof v !== 'string') return (v as T) ?? dflt;
  try {
    return JSON.parse(v) as T;
  } catch {
    return dflt;
  }
};

/** One monitor from a backup item (camelCase, with a few snake_case fields) or a database row. */
export const monitorOf = (r: Row, notificationIds: number[], tags: KumaTag[]): KumaMonitor => {
  const pick = (camel: string, snake: string) => (r[camel] !== undefined ? r[camel] : r[snake]);
  const codes = r.accepted_statuscodes ?? jsonOf(r.accepted_statuscodes_json, ['200-299']);
  return {
    id: num(r.id) ?? 0,
    name: str(r.name) ?? `monitor ${String(r.id)}`,
    type: str(r.type) ?? 'http',
    active: bool(r.active, true),
    parent: num(r.parent),
    url: str(r.url),
    method: str(r.method),
    hostname: str(r.hostname),
    port: num(r.port),
    interval: num(r.interval) ?? 60,
    retryInterval: num(pick('retryInterval', 'retry_interval')) ?? 0,
    maxretries: num(r.maxretries) ?? 0,
    timeout: num(r.timeout),
    resendInterval: num(pick('resendInterval', 'resend_interval')) ?? 0,
    keyword: str(r.keyword),
    invertKeyword: bool(pick('invertKeyword', 'invert_keyword')),
    ignoreTls: bool(pick('ignoreTls', 'ignore_tls')),
    upsideDown: bool(pick('upsideDown', 'upside_down')),
    maxredirects: num(r.maxredirects) ?? 10,
    acceptedStatuscodes: Array.isArray(codes) ? codes.map(String) : ['200-299'],
    dnsResolveType: str(r.dns_resolve_type),
    dnsResolveServer: str(r.dns_resolve_server),
    headers: str(r.headers),
    body: str(r.body),
    httpBodyEncoding: str(pick('httpBodyEncoding', 'http_body_encoding')),
    authMethod: str(pick('authMethod', 'auth_method')),
    basicAuthUser: str(r.basic_auth_user),
    basicAuthPass: str(r.basic_auth_pass),
    bearerToken: str(pick('bearerToken', 'bearer_token')),
    jsonPath: str(pick('jsonPath', 'json_path')),
    expectedValue: str(pick('expectedValue', 'expected_value')),
    jsonPathOperator: str(pick('jsonPathOperator', 'json_path_operator')),
    databaseConnectionString: str(pick('databaseConnectionString', 'database_connection_string')),
    databaseQuery: str(pick('databaseQuery', 'database_query')),
    expiryNotification: bool(pick('expiryNotification', 'expiry_notification')),
    packetSize: num(pick('packetSize', 'packet_size')),
    pingCount: num(pick('pingCount', 'ping_count')),
    smtpSecurity: str(pick('smtpSecurity', 'smtp_security')),
    proxyId: num(pick('proxyId', 'proxy_id')),
    conditions: str(r.conditions),
    tlsCert: str(pick('tlsCert', 'tls_cert')),
    description: str(r.description),
    notificationIds,
    tags,
  };
};

/** One notification from a backup item or a database row (`config` is JSON text in both). */
export const notificationOf = (r: Row): KumaNotification => ({
  id: num(r.id) ?? 0,
  name: str(r.name) ?? `notification ${String(r.id)}`,
  active: bool(r.active, true),
  isDefault: bool(r.isDefault ?? r.is_default),
  config: jsonOf<Record<string, unknown>>(r.config, {}) ?? {},
});

/** The JSON backup of Kuma 1.x. Throws on a file that is not one. */
export const fromBackup = (raw: unknown): KumaData => {
  const b = raw as { version?: unknown; notificationList?: unknown; monitorList?: unknown };
  if (!b || typeof b !== 'object' || !Array.isArray(b.monitorList))
    throw new Error('not an Uptime Kuma backup: no monitorList (Settings → Backup → Export writes one)');
  const objects = (list: unknown): Row[] =>
    Array.isArray(list)
      ? list.filter((x): x is Row => !!x && typeof x === 'object' && !Array.isArray(x))
      : [];
  const notifications = objects(b.notificationList);
  return {
    version: str(b.version) ?? 'unknown',
    from: 'backup',
    notifications: notifications.map(notificationOf),
    monitors: objects(b.monitorList).map((m) => {
      const ids = Object.entries((m.notificationIDList as Record<string, unknown>) ?? {})
        .filter(([, on]) => on === true || on === 1)
        .map(([id]) => Number(id));
      const tags = objects(m.tags).map((t) => ({
        name: str(t.name) ?? '',
        value: str(t.value) ?? '',
      }));
      return monitorOf(m, ids, tags);
    }),
    maintenances: [],
    statusPages: [],
  };
};
