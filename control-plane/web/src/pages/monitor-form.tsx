import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type Me, type MonitorDetail, type MonitorType, type Region } from '../api.js';
import { type Policy, routingApi } from '../api-routing.js';
import { ErrorBox, Loading } from '../kit/error-box.js';
import { describedBy, Field, FieldNotes } from '../kit/field.js';
import { setFlash } from '../poll.js';
import { followLink, navigate } from '../router.js';

const TYPES: { value: MonitorType; label: string; what: string }[] = [
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
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS'];

/** The form's state: what the inputs hold, as typed. */
interface Draft {
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
  response_time_threshold_ms: string;
  /** The regions ticked; null: untouched on a new monitor, so every region (the API's default). */
  check_locations: string[] | null;
  /** A policy id; '' for the workspace default (a new monitor only). */
  escalation_policy_id: string;
}

/** The API's defaults (domain/monitors/monitors.ts), so the form starts where the server would. */
const blank: Draft = {
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
  response_time_threshold_ms: '',
  check_locations: null,
  escalation_policy_id: '',
};

const fromMonitor = (m: MonitorDetail): Draft => ({
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
  response_time_threshold_ms:
    m.response_time_threshold_ms === null ? '' : String(m.response_time_threshold_ms),
  check_locations: m.check_locations,
  escalation_policy_id: m.escalation_policy_id,
});

/** A number as typed: a number when it is one; otherwise the text, so the API names the field. */
const num = (s: string) => (s.trim() === '' ? undefined : Number.isFinite(Number(s)) ? Number(s) : s);
const list = (s: string) =>
  s
    .split(/[,\n]/)
    .map((x) => x.trim())
    .filter(Boolean);

/** The request body: only the fields that apply to the type (the API refuses the others, by name). */
const bodyOf = (d: Draft, existing: MonitorDetail | null): Record<string, unknown> => {
  const t = d.monitor_type;
  const web = t === 'http' || t === 'api';
  const b: Record<string, unknown> = {
    display_name: d.display_name,
    url: d.url.trim(),
    check_interval_seconds: num(d.check_interval_seconds),
    timeout_seconds: num(d.timeout_seconds),
    failure_threshold: num(d.failure_threshold),
  };
  if (!existing) b.monitor_type = t;
  if (d.check_locations !== null) b.check_locations = d.check_locations;
  if (d.escalation_policy_id !== (existing?.escalation_policy_id ?? ''))
    b.escalation_policy_id = d.escalation_policy_id;
  if (t !== 'domain') {
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
  for (const k of Object.keys(b)) if (b[k] === undefined) delete b[k];
  return b;
};

/** Which input a problem belongs to: `auth.username` → auth, `check_locations[1]` → check_locations. */
const inputOf = (field: string) => field.split(/[.[]/)[0] ?? field;

const LOCATIONS_HINT = 'The regions that check it. A monitor is down when enough of them fail.';

/**
 * Check locations: one box per region monitors may run from (GET /regions), each with its health; a
 * region the monitor names that is no longer offered stays listed so it can be unticked.
 */
const Locations = (props: {
  regions: Region[] | null;
  chosen: string[] | null;
  problem: string | undefined;
  onChange: (v: string[]) => void;
}) => {
  const offered = props.regions?.map((r) => r.region) ?? [];
  const names = [...offered, ...(props.chosen ?? []).filter((c) => !offered.includes(c))];
  const ticked = props.chosen ?? offered;
  const health = (name: string) => props.regions?.find((r) => r.region === name)?.healthy;
  return (
    <fieldset class="field locations" {...describedBy('mf-check_locations', props.problem, LOCATIONS_HINT)}>
      <legend>Check locations</legend>
      {props.regions === null ? (
        <span class="muted small">Loading the regions…</span>
      ) : (
        <div class="choices">
          {names.map((name) => (
            <label key={name}>
              <input
                type="checkbox"
                checked={ticked.includes(name)}
                onChange={(e) =>
                  props.onChange(
                    e.currentTarget.checked
                      ? names.filter((n) => n === name || ticked.includes(n))
                      : ticked.filter((n) => n !== name),
                  )
                }
              />{' '}
              {name}
              {health(name) === false && <span class="muted small"> (no agent reporting)</span>}
            </label>
          ))}
        </div>
      )}
      <FieldNotes id="mf-check_locations" problem={props.problem} hint={LOCATIONS_HINT} />
    </fieldset>
  );
};

/** `/monitors/new` and `/monitors/{id}/edit`: every type's fields, the API's problems beside each. */
export const MonitorFormPage = (props: { me: Me; id?: string }) => {
  const editing = props.id !== undefined;
  const [existing, setExisting] = useState<MonitorDetail | null>(null);
  const [d, setD] = useState<Draft>(blank);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [regions, setRegions] = useState<Region[] | null>(null);
  const [policies, setPolicies] = useState<Policy[] | null>(null);

  // The choices: the regions monitors may run from, and the workspace's escalation policies.
  useEffect(() => {
    api.listRegions().then(
      (r) => setRegions(r.data),
      () => setRegions([]),
    );
    routingApi.listPolicies().then(
      (p) => setPolicies(p.data),
      () => setPolicies([]),
    );
  }, []);

  useEffect(() => {
    if (!props.id) return;
    api.getMonitor(props.id).then(
      (m) => {
        setExisting(m);
        setD(fromMonitor(m));
      },
      (e: Error) => setFormError(e.message),
    );
  }, [props.id]);

  if (props.me.user.role === 'viewer')
    return (
      <section class="page">
        <h1>{editing ? 'Edit monitor' : 'New monitor'}</h1>
        <p class="lead">Viewers read monitors; ask a member or an admin to create or change one.</p>
      </section>
    );
  if (editing && !existing)
    return (
      <section class="page">
        <h1>Edit monitor</h1>
        <Loading error={formError} />
      </section>
    );

  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setD((x) => ({ ...x, [k]: v }));
  const t = d.monitor_type;
  const web = t === 'http' || t === 'api';

  const text = (
    name: keyof Draft,
    label: string,
    extra: { hint?: string; placeholder?: string; type?: string; wide?: boolean } = {},
  ) => (
    <Field
      id={`mf-${name}`}
      problem={problems[name]}
      label={label}
      hint={extra.hint}
      class={extra.wide ? 'wide' : undefined}
    >
      {(a) => (
        <input
          {...a}
          type={extra.type ?? 'text'}
          inputMode={extra.type === 'number' ? 'numeric' : undefined}
          placeholder={extra.placeholder}
          value={d[name] as string}
          onInput={(e) => set(name, e.currentTarget.value as never)}
        />
      )}
    </Field>
  );
  const check = (name: keyof Draft, label: string) => (
    <div class="field check">
      <label>
        <input
          type="checkbox"
          checked={d[name] as boolean}
          {...describedBy(`mf-${name}`, problems[name], undefined)}
          onChange={(e) => set(name, e.currentTarget.checked as never)}
        />{' '}
        {label}
      </label>
      <FieldNotes id={`mf-${name}`} problem={problems[name]} />
    </div>
  );

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setFormError(null);
    try {
      const body = bodyOf(d, existing);
      const saved = existing ? await api.updateMonitor(existing.id, body) : await api.createMonitor(body);
      setFlash(
        [
          `${saved.display_name} was ${existing ? 'saved' : 'created'}.`,
          ...saved.warnings.map((w) => w.message),
        ].join(' '),
      );
      navigate(`/monitors/${saved.id}`);
    } catch (err) {
      if (err instanceof ApiError && err.details.length > 0) {
        const p: Record<string, string> = {};
        const known = new Set([...Object.keys(blank), 'auth']);
        const other: string[] = [];
        for (const x of err.details) {
          const k = inputOf(x.field);
          const key = k === 'auth' ? (x.field.endsWith('username') ? 'auth_username' : 'auth_secret') : k;
          if (known.has(key))
            p[key] = p[key]
              ? `${p[key]}; ${x.message}`
              : `${x.message.charAt(0).toUpperCase()}${x.message.slice(1)}.`;
          else other.push(`${x.field} ${x.message}`);
        }
        setProblems(p);
        setFormError(
          `${err.message} ${other.length ? other.join('; ') : 'Fix the fields marked below and save again.'}`,
        );
      } else {
        setProblems({});
        setFormError(err instanceof Error ? err.message : 'The monitor was not saved.');
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="page">
      <h1>{existing ? `Edit ${existing.display_name}` : 'New monitor'}</h1>
      <p class="lead">
        {existing
          ? 'Change what this monitor checks and how often. The type cannot change: create a new monitor for that.'
          : 'What to check, from where and how often, and whom its alerts go to.'}
      </p>
      <form
        class="panel monitor-form"
        onSubmit={save}
        noValidate
        aria-label={existing ? 'Edit monitor' : 'New monitor'}
      >
        <ErrorBox message={formError} />
        <fieldset>
          <legend>What to check</legend>
          <div class="grid">
            {text('display_name', 'Name', { placeholder: 'Checkout API', wide: true })}
            <Field
              id="mf-monitor_type"
              problem={problems.monitor_type}
              label="Type"
              hint={TYPES.find((x) => x.value === t)?.what}
            >
              {(a) => (
                <select
                  {...a}
                  value={t}
                  disabled={editing}
                  onChange={(e) => set('monitor_type', e.currentTarget.value as MonitorType)}
                >
                  {TYPES.map((x) => (
                    <option key={x.value} value={x.value}>
                      {x.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {text('url', web ? 'URL' : t === 'domain' ? 'Domain' : 'Host', {
              placeholder: web
                ? 'https://example.com/health'
                : t === 'tcp'
                  ? 'db.example.com or 10.0.0.5'
                  : 'example.com',
              wide: true,
            })}
            {t === 'tcp' && text('port', 'Port', { type: 'number', placeholder: '5432' })}
            {web && (
              <Field id="mf-http_method" problem={problems.http_method} label="Method">
                {(a) => (
                  <select
                    {...a}
                    value={d.http_method}
                    onChange={(e) => set('http_method', e.currentTarget.value)}
                  >
                    {METHODS.map((m) => (
                      <option key={m}>{m}</option>
                    ))}
                  </select>
                )}
              </Field>
            )}
            {web && text('expected_status_code', 'Expected status code', { type: 'number' })}
            {web &&
              text('required_keyword', 'Body must contain', {
                hint: 'Optional: the check fails unless the response contains this text.',
                wide: true,
              })}
            {t === 'dns' && (
              <Field id="mf-dns_record_type" problem={problems.dns_record_type} label="Record type">
                {(a) => (
                  <select
                    {...a}
                    value={d.dns_record_type}
                    onChange={(e) => set('dns_record_type', e.currentTarget.value)}
                  >
                    {RECORD_TYPES.map((r) => (
                      <option key={r}>{r}</option>
                    ))}
                  </select>
                )}
              </Field>
            )}
            {t === 'dns' &&
              text('dns_expected_values', 'Expected values', {
                hint: 'Optional, comma-separated: the check fails unless the answer contains each.',
                wide: true,
              })}
            {t === 'dns' &&
              text('dns_resolver', 'Resolver', { hint: 'Optional IP address; empty: the agent’s resolver.' })}
            {t === 'domain' &&
              text('domain_expiry_alert_days', 'Warn days before the domain expires', { type: 'number' })}
          </div>
          {t === 'http' && check('ssl_cert_monitoring', 'Watch the TLS certificate’s expiry')}
          {t === 'http' &&
            d.ssl_cert_monitoring &&
            text('ssl_cert_expiry_alert_days', 'Warn days before the certificate expires', {
              type: 'number',
            })}
        </fieldset>

        {web && (
          <fieldset>
            <legend>Request</legend>
            {check('follow_redirects', 'Follow redirects')}
            <div class="grid">
              <Field
                id="mf-request_headers"
                problem={problems.request_headers}
                label="Request headers"
                hint="One per line: Name: value"
                class="wide"
              >
                {(a) => (
                  <textarea
                    {...a}
                    rows={3}
                    value={d.request_headers}
                    onInput={(e) => set('request_headers', e.currentTarget.value)}
                  />
                )}
              </Field>
              {t === 'api' && (
                <Field id="mf-request_body" problem={problems.request_body} label="Request body" class="wide">
                  {(a) => (
                    <textarea
                      {...a}
                      rows={4}
                      value={d.request_body}
                      onInput={(e) => set('request_body', e.currentTarget.value)}
                    />
                  )}
                </Field>
              )}
              <Field id="mf-auth_type" problem={problems.auth_type} label="Authentication">
                {(a) => (
                  <select
                    {...a}
                    value={d.auth_type}
                    onChange={(e) => set('auth_type', e.currentTarget.value as Draft['auth_type'])}
                  >
                    <option value="none">None</option>
                    <option value="basic">Basic</option>
                    <option value="bearer">Bearer token</option>
                  </select>
                )}
              </Field>
              {d.auth_type === 'basic' && text('auth_username', 'Username')}
              {d.auth_type !== 'none' &&
                text('auth_secret', d.auth_type === 'basic' ? 'Password' : 'Token', {
                  type: 'password',
                  hint:
                    existing?.auth?.type === d.auth_type ? 'Leave empty to keep the current one.' : undefined,
                })}
            </div>
          </fieldset>
        )}

        <fieldset>
          <legend>How often and when to alert</legend>
          <div class="grid">
            {text('check_interval_seconds', 'Check interval (seconds)', {
              type: 'number',
              hint: `Your ${props.me.workspace.plan} plan may raise a shorter interval to its minimum.`,
            })}
            {text('timeout_seconds', 'Timeout (seconds)', {
              type: 'number',
              placeholder: '30',
              hint: 'Empty: 30 s, or the interval if shorter.',
            })}
            {text('failure_threshold', 'Failures before alerting', { type: 'number' })}
            {t !== 'domain' &&
              text('response_time_threshold_ms', 'Slow above (ms)', {
                type: 'number',
                hint: 'Optional: alert on slow successful checks.',
              })}
            <Field
              id="mf-escalation_policy_id"
              problem={problems.escalation_policy_id}
              label="Escalation policy"
              hint="Who is told when this monitor alerts, and when."
            >
              {(a) => (
                <select
                  {...a}
                  value={d.escalation_policy_id}
                  onChange={(e) => set('escalation_policy_id', e.currentTarget.value)}
                >
                  {(!existing || !policies?.some((p) => p.id === d.escalation_policy_id)) && (
                    <option value={d.escalation_policy_id}>
                      {existing ? 'Current policy' : 'Workspace default'}
                    </option>
                  )}
                  {policies?.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                      {p.is_default ? ' (default)' : ''}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <Locations
            regions={regions}
            chosen={d.check_locations}
            problem={problems.check_locations}
            onChange={(v) => set('check_locations', v)}
          />
        </fieldset>

        <div class="form-actions">
          <button type="submit" class="button primary" disabled={busy}>
            {existing ? 'Save changes' : 'Create monitor'}
          </button>
          <a class="button" href={existing ? `/monitors/${existing.id}` : '/monitors'} onClick={followLink}>
            Cancel
          </a>
        </div>
      </form>
    </section>
  );
};
