import { isIP } from 'node:net';
import { parseJsonPath } from '@lookout/shared';
import { SECRET_HEADER } from '../../config-as-code/kind.js';
import { HTTP_METHODS } from '../../domain/checks/http.js';
import { DNS_RECORD_TYPES } from '../../domain/types.js';
import type { MapContext } from './context.js';
import type { KumaMonitor } from './kuma-data.js';

/**
 * The check of one Kuma monitor as Lookout's type-specific monitor fields (domain/checks/), or the
 * reason Lookout has no such check. `lose` notes a setting left out of an otherwise mapped monitor.
 */
export type Item = Record<string, unknown>;
export interface CheckArgs {
  m: KumaMonitor;
  /** The monitor's Lookout name (for `${ENV}` names and where they stand). */
  name: string;
  ctx: MapContext;
  lose(setting: string, reason: string): void;
}
export type CheckMapper = (a: CheckArgs) => Item | string;

/** Kuma's JSON query operators (2.x `json_path_operator`; 1.x compares for equality). */
const OPERATORS: Record<string, string> = {
  '==': 'equals',
  '!=': 'not_equals',
  '<': 'less_than',
  '>': 'greater_than',
  contains: 'contains',
};

/** `"200-299"` → 200; `"301"` → 301; the first entry decides, another range or more codes are noted. */
const expectedStatus = (a: CheckArgs): number => {
  const codes = a.m.acceptedStatuscodes;
  const first = codes[0] ?? '200-299';
  const n = Number.parseInt(first, 10);
  const code = Number.isInteger(n) && n >= 100 && n <= 599 ? n : 200;
  // Kuma's default, any 2xx, is Lookout's default 200 without a note (docs/decisions.md).
  if (codes.length > 1 || (first.includes('-') && first !== '200-299'))
    a.lose(
      `accepted_statuscodes: ${codes.join(', ')}`,
      `Lookout expects one status code; ${code} is expected`,
    );
  return code;
};

const headersOf = (a: CheckArgs): Record<string, string> | null => {
  if (!a.m.headers?.trim()) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(a.m.headers);
  } catch {
    a.lose('headers', 'not a JSON object of headers');
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    a.lose('headers', 'not a JSON object of headers');
    return null;
  }
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(parsed as Record<string, unknown>).slice(0, 50)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/.test(k) || String(v).length > 4096) {
      a.lose(`headers.${k}`, 'not a header name and value Lookout sends');
      continue;
    }
    out.set(
      k,
      SECRET_HEADER.test(k)
        ? a.ctx.secret('monitor', a.name, `header ${k}`, `monitors "${a.name}" request_headers.${k}`)
        : String(v),
    );
  }
  return out.size ? Object.fromEntries(out) : null;
};

const authOf = (a: CheckArgs): Item | null => {
  const method = a.m.authMethod ?? (a.m.basicAuthUser ? 'basic' : null);
  if (!method) return null;
  if (method === 'basic' && a.m.basicAuthUser)
    return {
      type: 'basic',
      username: a.m.basicAuthUser,
      password: a.ctx.secret('monitor', a.name, 'password', `monitors "${a.name}" auth.password`),
    };
  if (method === 'bearer' && a.m.bearerToken)
    return {
      type: 'bearer',
      token: a.ctx.secret('monitor', a.name, 'token', `monitors "${a.name}" auth.token`),
    };
  if (method === 'basic' || method === 'bearer') return null;
  a.lose(
    `authMethod: ${method}`,
    method === 'oauth2-cc'
      ? 'Lookout has no OAuth client-credentials sign-in; set a bearer token by hand'
      : method === 'ntlm'
        ? 'Lookout has no NTLM sign-in'
        : method === 'mtls'
          ? 'Lookout sends no client certificate (mTLS)'
          : `Lookout has no ${method} sign-in`,
  );
  return null;
};

const jsonQuery = (a: CheckArgs): Item | null => {
  const path = a.m.jsonPath?.trim() ?? '';
  const property = path.startsWith('$') ? path : `$.${path}`;
  const op = a.m.jsonPathOperator ?? '==';
  const comparison = OPERATORS[op];
  if (!path || parseJsonPath(property).error) {
    a.lose(`json_path: ${path}`, 'not a JSONPath Lookout reads (Kuma takes JSONata expressions)');
    return null;
  }
  if (!comparison) {
    a.lose(`json_path_operator: ${op}`, 'Lookout compares with ==, !=, <, > or contains');
    return null;
  }
  return { source: 'json_body', property, comparison, target: a.m.expectedValue ?? '' };
};

const http: CheckMapper = (a) => {
  const { m } = a;
  const given = m.url?.trim() ?? '';
  if (!/^https?:\/\/./i.test(given)) return 'its URL is not an http(s) address';
  const { url, auth: urlAuth } = secretUrl(a, given);
  const method = (m.method ?? 'GET').toUpperCase();
  if (!(HTTP_METHODS as readonly string[]).includes(method))
    return `Lookout sends no ${method} requests (it sends ${HTTP_METHODS.join(', ')})`;
  const body = m.body?.trim() ? m.body : null;
  // Kuma counts the body as sensitive (toJSON); one that names a credential is written as a variable.
  const bodyValue =
    body && CREDENTIAL.test(body)
      ? a.ctx.secret('monitor', a.name, 'request_body', `monitors "${a.name}" request_body`)
      : body;
  const out: Item = {
    monitor_type: body ? 'api' : 'http',
    url,
    http_method: method,
    expected_status_code: expectedStatus(a),
  };
  if (bodyValue) out.request_body = bodyValue;
  if (body && m.httpBodyEncoding && m.httpBodyEncoding !== 'json')
    a.lose(
      `httpBodyEncoding: ${m.httpBodyEncoding}`,
      'Lookout sends the body as written, with no form or XML encoding',
    );
  const assertions: Item[] = [];
  if (m.type === 'keyword' && m.keyword) {
    if (m.invertKeyword)
      assertions.push({ source: 'text_body', comparison: 'not_contains', target: m.keyword });
    else out.required_keyword = m.keyword;
  }
  if (m.type === 'json-query') {
    const assertion = jsonQuery(a);
    if (assertion) assertions.push(assertion);
  }
  if (assertions.length) out.assertions = assertions;
  const auth = authOf(a);
  if (auth && urlAuth)
    a.lose('url credentials', 'the user and password in its URL are dropped: its own auth is kept');
  if (auth ?? urlAuth) out.auth = auth ?? urlAuth;
  const headers = headersOf(a);
  if (headers) out.request_headers = headers;
  out.follow_redirects = m.maxredirects > 0;
  if (m.maxredirects > 0) out.max_redirects = Math.min(20, m.maxredirects);
  if (m.maxredirects > 20) a.lose(`maxredirects: ${m.maxredirects}`, 'Lookout follows at most 20 redirects');
  if (m.expiryNotification && !body && url.toLowerCase().startsWith('https://'))
    out.ssl_cert_monitoring = true;
  else if (m.expiryNotification && url.toLowerCase().startsWith('https://'))
    a.lose(
      'expiryNotification',
      'Lookout watches certificates on http monitors, not on api monitors with a body',
    );
  if (m.ignoreTls) a.lose('ignoreTls', 'Lookout always verifies TLS certificates');
  if (m.tlsCert) a.lose('tlsCert', 'Lookout sends no client certificate (mTLS)');
  return out;
};

/** Words that mark a credential in a body or a URL's query. */
const CREDENTIAL = /passw|secret|token|api[-_]?key|authorization|credential/i;

/**
 * A URL's credentials never reach the file: a user and password in it (which Lookout's URL rule refuses)
 * become basic auth with the password a variable; a credential in its query makes the whole URL one.
 */
const secretUrl = (a: CheckArgs, url: string): { url: string; auth?: Item } => {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { url };
  }
  let auth: Item | undefined;
  if (u.username || u.password) {
    auth = {
      type: 'basic',
      username: decodeURIComponent(u.username) || 'user',
      password: a.ctx.secret(
        'monitor',
        a.name,
        'password',
        `monitors "${a.name}" auth.password (from its URL)`,
      ),
    };
    u.username = '';
    u.password = '';
  }
  const plain = auth ? u.toString() : url;
  return [...u.searchParams.keys()].some((k) => CREDENTIAL.test(k))
    ? {
        url: a.ctx.secret(
          'monitor',
          a.name,
          'url',
          `monitors "${a.name}" url (its query carries a credential)`,
        ),
        auth,
      }
    : { url: plain, auth };
};

const host = (m: KumaMonitor) => m.hostname?.trim() ?? '';

const port: CheckMapper = (a) => {
  if (!host(a.m) || !a.m.port) return 'it has no host name or port';
  return { monitor_type: 'tcp', url: host(a.m), port: a.m.port };
};

const ping: CheckMapper = (a) => {
  if (!host(a.m)) return 'it has no host name';
  const out: Item = { monitor_type: 'ping', url: host(a.m) };
  if (a.m.pingCount && a.m.pingCount > 0) out.packet_count = Math.min(20, a.m.pingCount);
  if (a.m.packetSize && a.m.packetSize !== 56)
    a.lose(`packetSize: ${a.m.packetSize}`, 'Lookout sends echoes of the default size');
  return out;
};

const dns: CheckMapper = (a) => {
  const { m } = a;
  if (!host(m)) return 'it has no host name';
  const type = (m.dnsResolveType ?? 'A').toUpperCase();
  if (!(DNS_RECORD_TYPES as readonly string[]).includes(type))
    return `Lookout checks ${DNS_RECORD_TYPES.join(', ')} records, not ${type}`;
  const out: Item = { monitor_type: 'dns', url: host(m), dns_record_type: type };
  const resolver = (m.dnsResolveServer ?? '').split(',')[0]?.trim();
  if (resolver && isIP(resolver) !== 0) out.dns_resolver = resolver;
  else if (resolver) a.lose(`dns_resolve_server: ${resolver}`, 'Lookout asks a resolver by its IP address');
  if (m.port && m.port !== 53) a.lose(`port: ${m.port}`, 'Lookout asks resolvers on port 53');
  return out;
};

const database =
  (type: 'mysql' | 'postgres' | 'redis', query: boolean): CheckMapper =>
  (a) => {
    if (!a.m.databaseConnectionString) return 'it has no connection string';
    const out: Item = {
      monitor_type: type,
      url: a.ctx.secret('monitor', a.name, 'url', `monitors "${a.name}" url (the connection string)`),
    };
    if (query && a.m.databaseQuery?.trim()) out.query = a.m.databaseQuery.trim();
    return out;
  };

const websocket: CheckMapper = (a) => {
  const given = a.m.url?.trim() ?? '';
  if (!/^wss?:\/\/./i.test(given)) return 'its URL is not a ws(s) address';
  let url = given;
  try {
    const u = new URL(given);
    if (u.username || u.password) {
      a.lose('url credentials', 'Lookout websocket checks send no user and password: they are dropped');
      u.username = '';
      u.password = '';
      url = u.toString();
    }
  } catch {
    return 'its URL is not a ws(s) address';
  }
  return { monitor_type: 'websocket', url: secretUrl(a, url).url };
};

const SMTP_SECURITY: Record<string, string> = { secure: 'tls', starttls: 'starttls', nostarttls: 'none' };
const smtp: CheckMapper = (a) => {
  if (!host(a.m)) return 'it has no host name';
  const out: Item = { monitor_type: 'smtp', url: host(a.m), port: a.m.port ?? 25 };
  out.smtp_security = SMTP_SECURITY[a.m.smtpSecurity ?? ''] ?? 'none';
  return out;
};

/** Kuma monitor types Lookout has a check for. */
export const CHECKS: Record<string, CheckMapper> = {
  http,
  keyword: http,
  'json-query': http,
  port,
  ping,
  dns,
  mysql: database('mysql', true),
  postgres: database('postgres', true),
  redis: database('redis', false),
  'websocket-upgrade': websocket,
  smtp,
};

/** Why the other types are not imported. */
export const NO_CHECK: Record<string, string> = {
  docker: 'Lookout has no Docker container check (it runs no agent on your Docker host)',
  steam: 'Lookout has no Steam game-server check',
  gamedig: 'Lookout has no game-server (GameDig) check',
  mqtt: 'Lookout has no MQTT check',
  radius: 'Lookout has no RADIUS check',
  'real-browser': 'Lookout’s browser checks run a script; Kuma’s real-browser page load has none to import',
  'grpc-keyword': 'Lookout checks gRPC health (grpc.health.v1), not an arbitrary method and keyword',
  'kafka-producer': 'Lookout has no Kafka producer check',
  sqlserver: 'Lookout has no SQL Server check',
  mongodb: 'Lookout has no MongoDB check',
  'tailscale-ping': 'Lookout has no Tailscale ping',
  rabbitmq: 'Lookout has no RabbitMQ check',
  snmp: 'Lookout has no SNMP check',
  manual: 'Lookout has no monitor whose status is set by hand (use a status page component)',
  globalping: 'Lookout checks from its own locations, not Globalping probes',
  'system-service': 'Lookout has no system service check',
  tls: 'Lookout watches certificates as part of an https check (ssl_cert_monitoring), not alone',
  ntp: 'Lookout has no NTP check',
  oracledb: 'Lookout has no Oracle Database check',
  'sip-options': 'Lookout has no SIP check',
  pm2: 'Lookout has no PM2 process check',
};
