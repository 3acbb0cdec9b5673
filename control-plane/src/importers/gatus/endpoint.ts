import { isIP } from 'node:net';
import { SECRET_HEADER } from '../../config-as-code/kind.js';
import { assertionsField } from '../../domain/checks/assertions.js';
import { DNS_RECORD_TYPES } from '../../domain/types.js';
import { type ConditionTarget, mapCondition } from './conditions.js';
import { type Collector, durationSeconds, obj, str, variablesIn } from './values.js';

/**
 * One Gatus endpoint (README, "Endpoints" and "Monitoring an endpoint using …") as a Lookout monitor:
 * its type from the URL's scheme (Gatus's own order: `dns:` set first, then tcp, sctp, udp, icmp,
 * starttls, tls, http(s), grpc(s), ws(s), ssh), its interval, client timeout and redirects, request
 * method, headers and body, and its conditions (conditions.ts). Returns the monitor (without its
 * group, policy and windows: map-gatus.ts adds them) or null when Lookout has no such check.
 */

export interface MappedEndpoint {
  monitor: Record<string, unknown>;
  /** Settings lost, for `# not imported` above the monitor once it is added. */
  lost: { setting: string; reason: string }[];
  /** A domain-expiry monitor to add beside it. */
  domain?: Record<string, unknown>;
}

/** Gatus's defaults (README): interval 60s, client timeout 10s. */
const DEFAULT_INTERVAL = 60;
const DEFAULT_TIMEOUT = 10;

/** Keys of an endpoint mapped here or in map-gatus.ts (any other is reported). */
export const ENDPOINT_KEYS = new Set([
  'name',
  'group',
  'url',
  'method',
  'conditions',
  'interval',
  'graphql',
  'body',
  'headers',
  'dns',
  'alerts',
  'maintenance-windows',
  'client',
  'enabled',
  'extra-labels',
  'ui',
]);

const CLIENT_WHY: Record<string, string> = {
  insecure: 'Lookout always verifies certificates',
  'dns-resolver': 'Lookout’s agents use their own resolver',
  oauth2:
    'Lookout has no OAuth2 client-credentials sign-in for checks (use a header or a multistep check); the client secret is not written',
  'proxy-url': 'Lookout’s agents connect directly (run an agent in the network instead)',
  'identity-aware-proxy': 'Lookout has no Google Identity-Aware-Proxy sign-in for checks',
  tls: 'Lookout has no client certificates (mTLS) for checks',
  network: 'Lookout’s ping uses the address family the host resolves to',
  tunnel: 'Lookout has no SSH tunnels (run an agent in the network instead)',
  'store-cookies': 'Lookout keeps no cookies between checks',
};
const CLIENT_DEFAULTS: Record<string, unknown> = {
  insecure: false,
  'store-cookies': false,
  'ignore-redirect': false,
};

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/** `host:port` of a `scheme://host:port` URL. */
const hostPort = (url: string, scheme: string) => {
  const rest = url.slice(scheme.length + 3).replace(/\/.*$/, '');
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(rest);
  return m ? { host: m[1]!.replace(/^\[|\]$/g, ''), port: m[2] ? Number(m[2]) : undefined } : null;
};

/** The body's static placeholders (README): the endpoint's own name, group and URL. */
const withPlaceholders = (body: string, e: Record<string, unknown>) =>
  body
    .replaceAll('[ENDPOINT_NAME]', str(e.name) ?? '')
    .replaceAll('[ENDPOINT_GROUP]', str(e.group) ?? '')
    .replaceAll('[ENDPOINT_URL]', str(e.url) ?? '');

export const mapEndpoint = (
  e: Record<string, unknown>,
  name: string,
  c: Collector,
  source: string,
): MappedEndpoint | { skipped: string } => {
  const url = str(e.url) ?? '';
  const lost: MappedEndpoint['lost'] = [];
  const lose = (setting: string, reason: string) => lost.push({ setting, reason });
  const m: Record<string, unknown> = { display_name: name };
  if (url.length > 2048) return { skipped: 'its url is longer than the 2048 characters Lookout takes' };
  const scheme = /^([a-z]+):\/\//.exec(url)?.[1] ?? '';
  const dns = e.dns === undefined ? null : obj(e.dns);
  const t: ConditionTarget = {
    type: '',
    fields: {},
    assertions: [],
    sawStatus: false,
    https: scheme === 'https',
  };
  const body = str(e.body) ?? '';
  const headers: [string, unknown][] = [];
  for (const [k, v] of Object.entries(obj(e.headers))) {
    if (!HEADER_NAME.test(k)) lose(`headers.${k}`, 'not a header name Lookout sends');
    else if ((str(v) ?? '').length > 4096)
      lose(`headers.${k}`, 'longer than the 4096 characters Lookout sends');
    else if (headers.length >= 50) lose(`headers.${k}`, 'Lookout sends at most 50 headers');
    else headers.push([k, v]);
  }
  if (dns) {
    const queryType = (str(dns['query-type']) ?? '').toUpperCase();
    const queryName = (str(dns['query-name']) ?? '').replace(/\.$/, '');
    if (!(DNS_RECORD_TYPES as readonly string[]).includes(queryType))
      return {
        skipped: `Lookout's DNS check reads ${DNS_RECORD_TYPES.join(', ')} records, not ${queryType || 'this type'}`,
      };
    t.type = 'dns';
    m.url = c.plain(queryName, source, 'dns.query-name');
    m.dns_record_type = queryType;
    const resolver = url.replace(/^[a-z]+:\/\//, '').replace(/:53$/, '');
    if (isIP(resolver)) m.dns_resolver = resolver;
    else if (resolver)
      lose('url', `the resolver ${resolver}: Lookout asks a resolver by its IP address only`);
  } else if (scheme === 'http' || scheme === 'https') {
    const method = (str(e.method) ?? 'GET').toUpperCase();
    const graphql = e.graphql === true;
    t.type = body || graphql ? 'api' : 'http';
    let target = url;
    try {
      const u = new URL(url);
      if (u.username || u.password) {
        m.auth = {
          type: 'basic',
          username: decodeURIComponent(u.username),
          password: c.secret(
            decodeURIComponent(u.password),
            { kind: 'monitor', name, field: 'auth.password' },
            `monitors "${name}" auth.password`,
          ),
        };
        u.username = '';
        u.password = '';
        target = u.toString();
      }
      const secretQuery = [...u.searchParams.keys()].some((k) => SECRET_HEADER.test(k));
      m.url =
        secretQuery || variablesIn(target).length
          ? c.secret(target, { kind: 'monitor', name, field: 'url' }, `monitors "${name}" url`)
          : target;
    } catch {
      return { skipped: `its url "${url}" is not a URL` };
    }
    if (!['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].includes(method))
      return {
        skipped: `Lookout's HTTP checks send GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS, not ${method}`,
      };
    m.http_method = method;
    if (t.type === 'api') {
      const text = withPlaceholders(body, e);
      if (/\[(LOCAL_ADDRESS|RANDOM_STRING_\d+|CONTEXT)\]/.test(text))
        lose(
          'body',
          'its placeholders [LOCAL_ADDRESS], [RANDOM_STRING_N] and [CONTEXT] are written as text: Lookout sends the body as it is',
        );
      const sent = graphql ? JSON.stringify({ query: text }) : text;
      if (sent.length > 65_536) return { skipped: 'its body is longer than the 64 KiB Lookout sends' };
      m.request_body = variablesIn(sent).length
        ? c.secret(sent, { kind: 'monitor', name, field: 'request_body' }, `monitors "${name}" request_body`)
        : sent;
      if (graphql && !headers.some(([k]) => k.toLowerCase() === 'content-type'))
        headers.push(['Content-Type', 'application/json']);
    }
    if (headers.length)
      m.request_headers = Object.fromEntries(
        headers.map(([k, v]) => {
          const value = str(v) ?? '';
          return [
            k,
            SECRET_HEADER.test(k) || variablesIn(value).length
              ? c.secret(
                  value,
                  { kind: 'monitor', name, field: `request_headers.${k}` },
                  `monitors "${name}" request_headers.${k}`,
                )
              : value,
          ];
        }),
      );
    m.follow_redirects = obj(e.client)['ignore-redirect'] !== true;
  } else if (scheme === 'tcp' || scheme === 'tls' || scheme === 'starttls') {
    const hp = hostPort(url, scheme);
    if (!hp?.port) return { skipped: `its url "${url}" names no port` };
    const smtp =
      scheme === 'starttls' ? [25, 587, 2525].includes(hp.port) : scheme === 'tls' && hp.port === 465;
    t.type = smtp ? 'smtp' : 'tcp';
    m.url = c.plain(hp.host, source, 'url');
    m.port = hp.port;
    if (smtp) t.fields.smtp_security = scheme === 'starttls' ? 'starttls' : 'tls';
    else if (scheme !== 'tcp')
      lose(
        'url',
        `${scheme}:// on port ${hp.port}: Lookout checks the port accepts connections (tcp); it speaks TLS only to mail servers`,
      );
    if (body) lose('body', `Lookout's ${t.type} check sends nothing of its own`);
  } else if (scheme === 'icmp') {
    t.type = 'ping';
    m.url = c.plain(url.slice('icmp://'.length).replace(/\/.*$/, ''), source, 'url');
  } else if (scheme === 'grpc' || scheme === 'grpcs') {
    const hp = hostPort(url, scheme);
    if (!hp?.port) return { skipped: `its url "${url}" names no port` };
    t.type = 'grpc';
    m.url = c.plain(`${hp.host.includes(':') ? `[${hp.host}]` : hp.host}:${hp.port}`, source, 'url');
    m.grpc_tls = scheme === 'grpcs';
  } else if (scheme === 'ws' || scheme === 'wss') {
    t.type = 'websocket';
    m.url = variablesIn(url).length
      ? c.secret(url, { kind: 'monitor', name, field: 'url' }, `monitors "${name}" url`)
      : url;
    if (body.length > 16_384) lose('body', 'longer than the 16 KiB Lookout’s WebSocket check sends');
    else if (body) m.ws_message = c.plain(withPlaceholders(body, e), source, 'body');
    if (headers.length) lose('headers', 'Lookout’s WebSocket check sends no headers of its own');
  } else {
    const kinds: Record<string, string> = { udp: 'UDP', sctp: 'SCTP', ssh: 'SSH' };
    return { skipped: `Lookout has no ${kinds[scheme] ?? `${scheme || 'such'}`} check` };
  }
  m.monitor_type = t.type;
  if (headers.length && !['http', 'api', 'websocket'].includes(t.type))
    lose('headers', `Lookout's ${t.type} check sends no headers`);
  if (t.type !== 'http' && t.type !== 'api' && e.method !== undefined)
    lose('method', `Lookout's ${t.type} check has no method`);

  // Interval and the client's timeout (at most 60 s and at most the interval in Lookout).
  const interval = e.interval === undefined ? DEFAULT_INTERVAL : durationSeconds(e.interval);
  if (interval === null) lose('interval', `"${String(e.interval)}" is not a duration: every 60s`);
  const every = Math.min(86_400, Math.max(1, Math.round(interval ?? DEFAULT_INTERVAL)));
  if (interval !== null && every !== interval)
    lose('interval', `${String(e.interval)} is written as ${every}s`);
  m.check_interval_seconds = every;
  const client = obj(e.client);
  const timeout = client.timeout === undefined ? DEFAULT_TIMEOUT : durationSeconds(client.timeout);
  const seconds = Math.max(1, Math.min(60, every, Math.ceil(timeout ?? DEFAULT_TIMEOUT)));
  if (timeout === null || (client.timeout !== undefined && seconds !== timeout))
    lose(
      'client.timeout',
      `${String(client.timeout)}: Lookout's timeout is whole seconds, at most 60 and at most the interval; written as ${seconds}s`,
    );
  if (t.type !== 'domain') m.timeout_seconds = seconds;
  for (const [key, value] of Object.entries(client)) {
    if (key === 'timeout' || key === 'ignore-redirect' || CLIENT_DEFAULTS[key] === value) continue;
    lose(`client.${key}`, CLIENT_WHY[key] ?? 'Lookout has no such client setting');
  }
  if (e.enabled === false) m.paused = true;

  // Conditions.
  const conditions = Array.isArray(e.conditions) ? e.conditions.map((x) => String(x)) : [];
  for (const condition of conditions) {
    const before = t.assertions.length;
    const r = mapCondition(condition, t);
    // An assertion the API would refuse (a pattern too large to run, a target too long) is left out.
    const added = t.assertions.slice(before);
    const check = added.length ? assertionsField.safeParse(added) : null;
    if (check && !check.success) {
      t.assertions.length = before;
      lose(
        `conditions: ${condition}`,
        `Lookout would refuse it: ${check.error.issues[0]?.message ?? 'not a valid assertion'}`,
      );
    } else if (!r.mapped) lose(`conditions: ${condition}`, r.reason);
    else if (r.partly) lose(`conditions: ${condition}`, `mapped in part: ${r.partly}`);
  }
  if ((t.type === 'http' || t.type === 'api') && t.fields.expected_status_code === undefined) {
    if (!t.sawStatus)
      lose(
        'conditions',
        'no [STATUS] condition: Gatus accepted any status; Lookout expects one (written as 200)',
      );
    t.fields.expected_status_code = 200;
  }
  Object.assign(m, t.fields);
  if (t.assertions.length > 20) {
    lose(
      'conditions',
      `${t.assertions.length} body and time conditions: Lookout runs at most 20; the first 20 are kept`,
    );
    t.assertions.length = 20;
  }
  if (t.assertions.length) m.assertions = t.assertions;
  if (m.response_time_threshold_ms !== undefined && Number(m.response_time_threshold_ms) > seconds * 1000) {
    lose('conditions', `the response time limit is longer than the timeout (${seconds}s): left out`);
    delete m.response_time_threshold_ms;
  }

  // Labels: Lookout's tags are `key:value` in lower case.
  const tags: string[] = [];
  for (const [key, value] of Object.entries(obj(e['extra-labels']))) {
    const tag = `${key}:${str(value) ?? ''}`.toLowerCase();
    if (/^[a-z0-9_-]+(?::[a-z0-9_-]+)?$/.test(tag) && tag.length <= 63) tags.push(tag);
    else lose(`extra-labels.${key}`, 'not a Lookout tag (lower-case letters, digits, - and _)');
  }
  if (tags.length) m.tags = tags.slice(0, 20);
  if (e.ui !== undefined) lose('ui', 'display settings of Gatus’s dashboard: Lookout’s pages have their own');

  const out: MappedEndpoint = { monitor: m, lost };
  if (t.domainExpiryDays !== undefined) {
    const host = dns ? String(m.url) : (hostPort(url, scheme)?.host ?? '');
    if (host && isIP(host) === 0 && host.includes('.'))
      out.domain = {
        display_name: `${name} (domain)`,
        monitor_type: 'domain',
        url: host,
        domain_expiry_alert_days: t.domainExpiryDays,
        ...(e.enabled === false ? { paused: true } : {}),
      };
    else lose('conditions: [DOMAIN_EXPIRATION]', `${host || url} is not a domain name`);
  }
  for (const key of Object.keys(e))
    if (!ENDPOINT_KEYS.has(key)) lose(key, 'Lookout has no such monitor setting');
  return out;
};
