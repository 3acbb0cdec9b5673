import type { Item } from '../../config-as-code/kind.js';
import { SECRET_HEADER } from '../../config-as-code/kind.js';
import { CHECK_TYPES } from '../../domain/checks/registry.js';
import type { MonitorType } from '../../domain/types.js';
import { secretRef } from '../import-names.js';
import type { SecretReference, Unmapped } from '../import-outcome.js';
import type { UrMonitor } from './uptimerobot-shapes.js';

/**
 * One UptimeRobot monitor → a Lookout monitor (HTTP(s), keyword, ping, port) or heartbeat (type 5),
 * with every setting Lookout lacks listed. Pure: what it reads is the monitor and the name it gets.
 */

const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

const METHODS: Record<number, string> = {
  1: 'HEAD',
  2: 'GET',
  3: 'POST',
  4: 'PUT',
  5: 'PATCH',
  6: 'DELETE',
  7: 'OPTIONS',
};
const SUB_TYPE_PORTS: Record<number, number> = { 1: 80, 2: 443, 3: 21, 4: 25, 5: 110, 6: 143 };
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/** A host for ping and port monitors: UptimeRobot takes a host or an address, sometimes written as a URL. */
const hostOf = (url: string) => {
  try {
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? new URL(url).hostname.replace(/^\[|\]$/g, '') : url.trim();
  } catch {
    return url.trim();
  }
};

export type MonitorResult = { kind: 'monitors' | 'heartbeats'; item: Item } | { kind: 'none' };

export const monitorLabel = (m: UrMonitor) => `monitor "${m.friendly_name}" (id ${m.id})`;

const httpFields = (m: UrMonitor, name: string, item: Item, lost: Unmapped[], secrets: SecretReference[]) => {
  const source = monitorLabel(m);
  const method = METHODS[num(m.http_method) ?? 2] ?? 'GET';
  item.http_method = method;
  // UptimeRobot counts any 2xx or 3xx as up (listed once); Lookout follows redirects to a 200.
  item.expected_status_code = 200;
  const body = m.post_value;
  if (
    body !== undefined &&
    body !== null &&
    body !== '' &&
    ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)
  ) {
    item.monitor_type = 'api';
    item.request_body = typeof body === 'string' ? body : JSON.stringify(body);
    if (num(m.post_type) === 1)
      lost.push({
        source,
        setting: 'post_type: key-value',
        reason: 'Lookout sends the body as written (raw)',
      });
  }
  const statuses = (m.custom_http_statuses ?? '').split('_').filter(Boolean);
  if (statuses.length) {
    const up = statuses.filter((s) => s.endsWith(':1')).map((s) => Number(s.split(':')[0]));
    if (up.length === 1 && up[0]! >= 100 && up[0]! <= 599) item.expected_status_code = up[0];
    if (up.length !== 1 || statuses.length > 1)
      lost.push({
        source,
        setting: `custom_http_statuses: ${m.custom_http_statuses}`,
        reason: 'Lookout expects one status code (or status assertions): set them by hand',
      });
  }
  const user = m.http_username ?? '';
  if (user) {
    if (num(m.http_auth_type) === 2)
      lost.push({
        source,
        setting: 'http_auth_type: digest',
        reason: 'not imported: Lookout sends basic auth or a bearer token only',
      });
    else
      item.auth = {
        type: 'basic',
        username: user.slice(0, 256),
        password: m.http_password ? secretRef(secrets, 'monitor', name, ['auth', 'password']) : '',
      };
  }
  const headers = Object.entries(m.custom_http_headers ?? {});
  if (headers.length) {
    const out: Record<string, string> = {};
    for (const [k, v] of headers.slice(0, 50)) {
      if (!HEADER_NAME.test(k)) {
        lost.push({ source, setting: `custom_http_headers: ${k}`, reason: 'not a valid header name' });
        continue;
      }
      out[k] = SECRET_HEADER.test(k)
        ? secretRef(secrets, 'monitor', name, ['request_headers', k])
        : String(v);
    }
    if (headers.length > 50)
      lost.push({ source, setting: 'custom_http_headers', reason: 'Lookout sends at most 50 headers' });
    if (Object.keys(out).length) item.request_headers = out;
  }
  if (num(m.ignore_ssl_errors) === 1)
    lost.push({
      source,
      setting: 'ignore_ssl_errors',
      reason: 'Lookout always verifies the certificate of an https:// check',
    });
};

const keywordFields = (m: UrMonitor, item: Item, lost: Unmapped[]) => {
  const source = monitorLabel(m);
  const keyword = (m.keyword_value ?? '').slice(0, 1024);
  if (!keyword) {
    lost.push({ source, setting: 'keyword_value', reason: 'empty: checked as an HTTP(s) monitor' });
    return;
  }
  // keyword_type 1: down when the keyword is there; 2: down when it is not.
  if (num(m.keyword_type) === 1)
    item.assertions = [{ source: 'text_body', comparison: 'not_contains', target: keyword }];
  else item.required_keyword = keyword;
  if (num(m.keyword_case_type) === 1)
    lost.push({
      source,
      setting: 'keyword_case_type: case-insensitive',
      reason: 'Lookout compares the keyword case-sensitively',
    });
};

export const mapMonitor = (
  m: UrMonitor,
  name: string,
  lost: Unmapped[],
  secrets: SecretReference[],
): MonitorResult => {
  const source = monitorLabel(m);
  const type = num(m.type);
  const interval = Math.round(num(m.interval) ?? 300);
  if (type === 5) {
    const period = Math.min(Math.max(interval, 60), 31_536_000);
    if (period !== interval)
      lost.push({
        source,
        setting: `interval: ${interval}`,
        reason: `Lookout heartbeat periods are at least 60 s: ${period}`,
      });
    const item: Item = { display_name: name, period_seconds: period };
    if (num(m.status) === 0) item.paused = true;
    return { kind: 'heartbeats', item };
  }
  const lookoutType: MonitorType | null =
    type === 1 || type === 2 ? 'http' : type === 3 ? 'ping' : type === 4 ? 'tcp' : null;
  if (!lookoutType) {
    lost.push({
      source,
      setting: `type: ${m.type}`,
      reason: 'not imported: a monitor type Lookout does not know',
    });
    return { kind: 'none' };
  }
  const url = lookoutType === 'http' ? String(m.url ?? '').trim() : hostOf(String(m.url ?? ''));
  const problem = CHECK_TYPES[lookoutType].target.problem(url);
  if (problem) {
    lost.push({ source, setting: `url: ${url}`, reason: `not imported: ${problem}` });
    return { kind: 'none' };
  }
  const item: Item = { display_name: name, monitor_type: lookoutType, url };
  const every = Math.min(Math.max(interval, 1), 86_400);
  item.check_interval_seconds = every;
  if (every !== interval)
    lost.push({
      source,
      setting: `interval: ${interval}`,
      reason: `Lookout checks at most once a day: ${every}`,
    });
  const timeout = num(m.timeout);
  if (timeout !== null && lookoutType !== 'ping')
    item.timeout_seconds = Math.min(Math.max(Math.round(timeout), 1), 60, every);
  if (lookoutType === 'http') {
    httpFields(m, name, item, lost, secrets);
    if (type === 2) keywordFields(m, item, lost);
  }
  if (lookoutType === 'tcp') {
    const sub = num(m.sub_type);
    const port = sub !== null && sub !== 99 ? SUB_TYPE_PORTS[sub] : num(m.port);
    if (!port || port < 1 || port > 65535) {
      lost.push({ source, setting: `port: ${m.port}`, reason: 'not imported: no port to check' });
      return { kind: 'none' };
    }
    item.port = port;
  }
  if (num(m.status) === 0) item.paused = true;
  return { kind: 'monitors', item };
};
