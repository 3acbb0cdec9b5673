/** The monitor form's state as typed, to and from the API's monitor record. */
import {
  ApiError,
  type CheckTypeInfo,
  type MonitorBody,
  type MonitorDetail,
  type MonitorType,
} from '../../api.js';
import { type Severity, tagsOf, tagsText } from '../../api-groups.js';
import type { Dependency } from '../../kit/depends-on-field.js';
import { tagsProblem } from '../../kit/label-fields.js';
import { type AssertionRow, assertionsOf, rowsOf } from './assertions-editor.js';
import { EXAMPLE_SCRIPT, type StepRow, stepRowsOf, stepsOf } from './step-rows.js';
import { generatedFields, hasField, sentValue, type Typed, typedOf } from './type-fields.js';

export const TYPES: { value: MonitorType; label: string; what: string }[] = [
  {
    value: 'http',
    label: 'HTTP(S) website',
    what: 'requests a URL and checks the status code (and TLS expiry)',
  },
  {
    value: 'api',
    label: 'API endpoint',
    what: 'sends a request with a body and headers and checks the answer',
  },
  { value: 'tcp', label: 'TCP port', what: 'opens a connection to a host and port' },
  { value: 'dns', label: 'DNS record', what: 'resolves a record and compares the answer' },
  {
    value: 'domain',
    label: 'Domain expiry',
    what: 'watches a domain’s registration expiry (checked every 6 hours)',
  },
];
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
export const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS'];

/** The form's state: what the inputs hold, as typed. */
export interface Draft {
  display_name: string;
  monitor_type: MonitorType;
  url: string;
  port: string;
  http_method: string;
  expected_status_code: string;
  required_keyword: string;
  request_headers: string;
  request_body: string;
  follow_redirects: boolean;
  auth_type: 'none' | 'basic' | 'bearer';
  auth_username: string;
  auth_secret: string;
  ssl_cert_monitoring: boolean;
  ssl_cert_expiry_alert_days: string;
  domain_expiry_alert_days: string;
  dns_record_type: string;
  dns_expected_values: string;
  dns_resolver: string;
  check_interval_seconds: string;
  timeout_seconds: string;
  failure_threshold: string;
  retry_interval_seconds: string;
  response_time_threshold_ms: string;
  /** The regions ticked; null: untouched on a new monitor, so every region (the API's default). */
  check_locations: string[] | null;
  /** A policy id; '' for the workspace default (a new monitor only). */
  escalation_policy_id: string;
  /** A group id; '' for none. */
  group_id: string;
  /** As typed: separated by commas or spaces. */
  tags: string;
  severity: Severity;
  /** What it depends on, with kinds and names (kit/depends-on-field.tsx). */
  depends_on: Dependency[];
  /** The generated fields' values as typed, by field name (only those touched: see `typedIn`). */
  fields: Record<string, Typed>;
  /** The assertion rows; null: untouched (the monitor's own). */
  assertions: AssertionRow[] | null;
  /** A multi-step monitor's steps (step-rows.ts). */
  steps: StepRow[];
  /** A browser monitor's script. */
  script: string;
}

/** The API's defaults (domain/monitors/monitors.ts), so the form starts where the server would. */
export const blank: Draft = {
  display_name: '',
  monitor_type: 'http',
  url: '',
  port: '',
  http_method: 'GET',
  expected_status_code: '200',
  required_keyword: '',
  request_headers: '',
  request_body: '',
  follow_redirects: true,
  auth_type: 'none',
  auth_username: '',
  auth_secret: '',
  ssl_cert_monitoring: false,
  ssl_cert_expiry_alert_days: '14',
  domain_expiry_alert_days: '30',
  dns_record_type: 'A',
  dns_expected_values: '',
  dns_resolver: '',
  check_interval_seconds: '60',
  // Empty: the API's default, 30 s or the interval when that is shorter.
  timeout_seconds: '',
  failure_threshold: '3',
  // Empty: the API's default, 15 s or the interval when that is shorter.
  retry_interval_seconds: '',
  response_time_threshold_ms: '',
  check_locations: null,
  escalation_policy_id: '',
  group_id: '',
  tags: '',
  severity: 'critical',
  depends_on: [],
  fields: {},
  assertions: null,
  steps: stepRowsOf(null),
  script: EXAMPLE_SCRIPT,
};

export const fromMonitor = (m: MonitorDetail): Draft => ({
  display_name: m.display_name,
  monitor_type: m.monitor_type,
  url: m.url,
  port: m.port === null ? '' : String(m.port),
  http_method: m.http_method ?? 'GET',
  expected_status_code: String(m.expected_status_code),
  required_keyword: m.required_keyword ?? '',
  request_headers: Object.entries(m.request_headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n'),
  request_body: m.request_body ?? '',
  follow_redirects: m.follow_redirects,
  auth_type: m.auth?.type ?? 'none',
  auth_username: m.auth?.type === 'basic' ? m.auth.username : '',
  auth_secret: '',
  ssl_cert_monitoring: m.ssl_cert_monitoring,
  ssl_cert_expiry_alert_days: String(m.ssl_cert_expiry_alert_days),
  domain_expiry_alert_days: String(m.domain_expiry_alert_days),
  dns_record_type: m.dns_record_type ?? 'A',
  dns_expected_values: m.dns_expected_values.join(', '),
  dns_resolver: m.dns_resolver ?? '',
  check_interval_seconds: String(m.check_interval_seconds),
  timeout_seconds: String(m.timeout_seconds),
  failure_threshold: String(m.failure_threshold),
  retry_interval_seconds: String(m.retry_interval_seconds),
  response_time_threshold_ms:
    m.response_time_threshold_ms === null ? '' : String(m.response_time_threshold_ms),
  check_locations: m.check_locations,
  escalation_policy_id: m.escalation_policy_id,
  group_id: m.group_id ?? '',
  tags: tagsText(m.tags),
  severity: m.severity,
  depends_on: m.dependencies ?? [],
  fields: {},
  assertions: null,
  steps: stepRowsOf(m),
  script: (m as { script?: string | null }).script ?? EXAMPLE_SCRIPT,
});

/** A generated field's value as its control holds it: as typed, else the monitor's, else the default. */
export const typedIn = (d: Draft, f: CheckTypeInfo['fields'][number], existing: MonitorDetail | null) =>
  d.fields[f.name] ?? typedOf(f, existing);
export const rowsIn = (d: Draft, existing: MonitorDetail | null) => d.assertions ?? rowsOf(existing);

/** A number as typed: a number when it is one; otherwise the text, so the API names the field. */
const num = (s: string) => (s.trim() === '' ? undefined : Number.isFinite(Number(s)) ? Number(s) : s);
const list = (s: string) =>
  s
    .split(/[,\n]/)
    .map((x) => x.trim())
    .filter(Boolean);

/** The request body: only the fields that apply to the type (the API refuses the others, by name). */
export const bodyOf = (d: Draft, existing: MonitorDetail | null, ct?: CheckTypeInfo): MonitorBody => {
  const t = d.monitor_type;
  const web = t === 'http' || t === 'api';
  // Until the types are read: the first types' own rule (domain checks have no retries).
  const timed = ct ? hasField(ct, 'retry_interval_seconds') : t !== 'domain';
  // A secret target (a connection URL) left empty on an edit keeps its stored value.
  const keepSecret = ct?.target.secret === true && existing !== null && d.url.trim() === '';
  const b: Record<string, unknown> = {
    monitor_type: t,
    display_name: d.display_name,
    ...(keepSecret ? {} : { url: d.url.trim() }),
    check_interval_seconds: num(d.check_interval_seconds),
    timeout_seconds: num(d.timeout_seconds),
    failure_threshold: num(d.failure_threshold),
  };
  // Sent when typed (a new monitor) or changed (an edit): left alone, a shorter interval takes it down.
  if (timed && d.retry_interval_seconds !== (existing ? String(existing.retry_interval_seconds) : ''))
    b.retry_interval_seconds = num(d.retry_interval_seconds);
  if (d.check_locations !== null) b.check_locations = d.check_locations;
  if (d.escalation_policy_id !== (existing?.escalation_policy_id ?? ''))
    b.escalation_policy_id = d.escalation_policy_id;
  if (d.group_id !== (existing?.group_id ?? '')) b.group_id = d.group_id || null;
  b.tags = tagsOf(d.tags);
  b.severity = d.severity;
  const dependsOn = d.depends_on.map((x) => x.id);
  if (dependsOn.join() !== (existing?.depends_on ?? []).join()) b.depends_on = dependsOn;
  if (timed) {
    const slow = num(d.response_time_threshold_ms);
    if (slow !== undefined || existing) b.response_time_threshold_ms = slow ?? null;
  }
  if (web) {
    b.http_method = d.http_method;
    b.expected_status_code = num(d.expected_status_code);
    b.required_keyword = d.required_keyword === '' ? null : d.required_keyword;
    b.follow_redirects = d.follow_redirects;
    b.request_headers = Object.fromEntries(
      d.request_headers
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => {
          const i = l.indexOf(':');
          return i < 0 ? [l.trim(), ''] : [l.slice(0, i).trim(), l.slice(i + 1).trim()];
        }),
    );
    // Auth secrets are never read back: send auth only when it changes.
    if (d.auth_type === 'none') {
      if (!existing || existing.auth) b.auth = null;
    } else if (d.auth_secret !== '' || existing?.auth?.type !== d.auth_type) {
      b.auth =
        d.auth_type === 'basic'
          ? { type: 'basic', username: d.auth_username, password: d.auth_secret }
          : { type: 'bearer', token: d.auth_secret };
    } else if (
      d.auth_type === 'basic' &&
      existing?.auth?.type === 'basic' &&
      d.auth_username !== existing.auth.username
    ) {
      b.auth = { type: 'basic', username: d.auth_username, password: d.auth_secret };
    }
  }
  if (t === 'api') b.request_body = d.request_body === '' ? null : d.request_body;
  if (t === 'http') {
    b.ssl_cert_monitoring = d.ssl_cert_monitoring;
    b.ssl_cert_expiry_alert_days = num(d.ssl_cert_expiry_alert_days);
  }
  if (t === 'tcp') b.port = num(d.port);
  if (t === 'dns') {
    b.dns_record_type = d.dns_record_type;
    b.dns_expected_values = list(d.dns_expected_values);
    b.dns_resolver = d.dns_resolver.trim() === '' ? null : d.dns_resolver.trim();
  }
  if (t === 'domain') b.domain_expiry_alert_days = num(d.domain_expiry_alert_days);
  for (const f of generatedFields(ct)) b[f.name] = sentValue(f, typedIn(d, f, existing));
  if (hasField(ct, 'assertions')) {
    const rows = rowsIn(d, existing);
    if (rows.length > 0 || d.assertions !== null) b.assertions = assertionsOf(rows);
  }
  if (hasField(ct, 'steps')) b.steps = stepsOf(d.steps);
  if (hasField(ct, 'script')) b.script = d.script;
  for (const k of Object.keys(b)) if (b[k] === undefined) delete b[k];
  // Typed as the API's body, but built from what was typed: a number field that is not a number goes
  // as the text itself, so that the API's 422 names that field in its own words.
  return b as MonitorBody;
};

/** Which input a problem belongs to: `auth.username` → auth, `check_locations[1]` → check_locations. */
const inputOf = (field: string) => field.split(/[.[]/)[0] ?? field;

/**
 * The API's problems by input, each a sentence, and the form's own message (naming any field the form
 * does not show).
 */
export const problemsOfSave = (
  err: unknown,
  typedTags: readonly string[] = [],
  ct?: CheckTypeInfo,
): { problems: Record<string, string>; form: string } => {
  if (!(err instanceof ApiError && err.details.length > 0))
    return { problems: {}, form: err instanceof Error ? err.message : 'The monitor was not saved.' };
  const p: Record<string, string> = {};
  const known = new Set([...Object.keys(blank), 'auth', ...(ct?.fields.map((f) => f.name) ?? [])]);
  const other: string[] = [];
  const tags = tagsProblem(err.details, typedTags);
  if (tags) p.tags = tags;
  for (const x of err.details) {
    if (x.field === 'tags' || x.field.startsWith('tags[')) continue;
    // An assertion's problem stands beside its row's control (`assertions[2].target`).
    if (/^assertions\[\d+\]\.\w+$/.test(x.field) && known.has('assertions')) {
      p[x.field] = `${x.message.charAt(0).toUpperCase()}${x.message.slice(1)}.`;
      continue;
    }
    // A step's problem stands beside its step's control (`steps[2].url`, `steps[0].headers.Authorization`).
    if (/^steps\[\d+\]/.test(x.field) && known.has('steps')) {
      const said = `${x.message.charAt(0).toUpperCase()}${x.message.slice(1)}.`;
      p[x.field] = p[x.field] ? `${p[x.field]} ${said}` : said;
      continue;
    }
    const k = inputOf(x.field);
    const key = k === 'auth' ? (x.field.endsWith('username') ? 'auth_username' : 'auth_secret') : k;
    if (known.has(key))
      p[key] = p[key]
        ? `${p[key]}; ${x.message}`
        : `${x.message.charAt(0).toUpperCase()}${x.message.slice(1)}.`;
    else other.push(`${x.field} ${x.message}`);
  }
  return {
    problems: p,
    form: `${err.message} ${other.length ? other.join('; ') : 'Fix the fields marked below and save again.'}`,
  };
};
