import { useEffect, useState } from 'preact/hooks';
import {
  api,
  type CheckTypeInfo,
  type Me,
  type MonitorDetail,
  type MonitorType,
  type Region,
} from '../../api.js';
import { tagsOf } from '../../api-groups.js';
import { DependsOnField } from '../../kit/depends-on-field.js';
import { Loading } from '../../kit/error-box.js';
import { ErrorSummary } from '../../kit/error-summary.js';
import { describedBy, Field, FieldNotes, TextField } from '../../kit/field.js';
import { LabelFields } from '../../kit/label-fields.js';
import { setFlash } from '../../poll.js';
import { followLink, navigate } from '../../router.js';
import { PolicyOptions, usePolicies } from '../../routing-ui.js';
import { AssertionsEditor } from './assertions-editor.js';
import { GeneratedField } from './generated-fields.js';
import { Locations } from './locations.js';
import {
  blank,
  bodyOf,
  type Draft,
  fromMonitor,
  METHODS,
  problemsOfSave,
  RECORD_TYPES,
  rowsIn,
  TYPES,
  typedIn,
} from './monitor-draft.js';
import { ScriptEditor } from './script-editor.js';
import { StepsEditor } from './steps-editor.js';
import { checkTypes, hasField, shownFields } from './type-fields.js';

/** `/monitors/new` and `/monitors/{id}/edit`: every type's fields, the API's problems beside each. */
export const MonitorFormPage = (props: { me: Me; id?: string }) => {
  const editing = props.id !== undefined;
  const [existing, setExisting] = useState<MonitorDetail | null>(null);
  const [d, setD] = useState<Draft>(blank);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [regions, setRegions] = useState<Region[] | null>(null);
  const [types, setTypes] = useState<CheckTypeInfo[] | null>(null);
  const policies = usePolicies();

  // The choices: the regions monitors may run from (the policies come from usePolicies).
  useEffect(() => {
    api.listRegions().then(
      (r) => setRegions(r.data),
      () => setRegions([]),
    );
    checkTypes().then(setTypes, (e: Error) => setFormError(e.message));
  }, []);

  useEffect(() => {
    if (!props.id) return;
    Promise.all([api.getMonitor(props.id), checkTypes().catch(() => [])]).then(
      ([m, all]) => {
        setExisting(m);
        // A secret target (a connection URL) is never read back: its input starts empty (kept unless typed).
        const secret = all.find((x) => x.type === m.monitor_type)?.target.secret;
        setD({ ...fromMonitor(m), url: secret ? '' : m.url });
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
  const ct = types?.find((x) => x.type === t);
  const timed = ct ? hasField(ct, 'retry_interval_seconds') : t !== 'domain';
  const secret = ct?.target.secret === true;

  const text = (
    name: keyof Draft,
    label: string,
    extra: { hint?: string; placeholder?: string; type?: string; wide?: boolean } = {},
  ) => (
    <TextField
      id={`mf-${name}`}
      problem={problems[name]}
      label={label}
      hint={extra.hint}
      class={extra.wide ? 'wide' : undefined}
      type={extra.type ?? 'text'}
      autoComplete={extra.type === 'password' ? 'new-password' : undefined}
      inputMode={extra.type === 'number' ? 'numeric' : undefined}
      placeholder={extra.placeholder}
      value={d[name] as string}
      onValue={(v) => set(name, v as never)}
    />
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
      const body = bodyOf(d, existing, ct);
      const saved = existing ? await api.updateMonitor(existing.id, body) : await api.createMonitor(body);
      setFlash(
        [
          `${saved.display_name} was ${existing ? 'saved' : 'created'}.`,
          ...saved.warnings.map((w) => w.message),
        ].join(' '),
      );
      navigate(`/monitors/${saved.id}`);
    } catch (err) {
      const { problems, form } = problemsOfSave(err, tagsOf(d.tags), ct);
      setProblems(problems);
      setFormError(form);
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
        <ErrorSummary problems={problems} form={formError} />
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
                  {(types?.map((x) => ({ value: x.type, label: x.label })) ?? TYPES).map((x) => (
                    <option key={x.value} value={x.value}>
                      {x.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {text('url', ct?.target.label ?? (web ? 'URL' : t === 'domain' ? 'Domain' : 'Host'), {
              placeholder:
                t === 'tcp'
                  ? 'db.example.com or 10.0.0.5'
                  : (ct?.target.example ?? 'https://example.com/health'),
              wide: true,
              ...(hasField(ct, 'steps') || hasField(ct, 'script')
                ? {
                    hint: `The site this check is about: monitor lists show it, and ${hasField(ct, 'steps') ? 'steps use it as {{url}}' : 'the script reads it as url'}.`,
                  }
                : {}),
              ...(secret
                ? {
                    type: 'password',
                    hint: existing
                      ? `Now ${existing.url}; leave empty to keep it.`
                      : 'A secret: it holds the password. Stored sealed; shown afterwards as its host and last four characters.',
                  }
                : {}),
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
            {shownFields(ct, (f) => typedIn(d, f, existing)).map((f) => (
              <GeneratedField
                key={`${t}-${f.name}`}
                field={f}
                value={typedIn(d, f, existing)}
                problem={problems[f.name]}
                editing={editing}
                onChange={(v) => setD((x) => ({ ...x, fields: { ...x.fields, [f.name]: v } }))}
              />
            ))}
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

        {hasField(ct, 'steps') && (
          <StepsEditor ct={ct} steps={d.steps} problems={problems} onChange={(v) => set('steps', v)} />
        )}
        {hasField(ct, 'script') && (
          <ScriptEditor value={d.script} problem={problems.script} onChange={(v) => set('script', v)} />
        )}

        {ct && hasField(ct, 'assertions') && (
          <AssertionsEditor
            sources={ct.assertion_sources}
            field={ct.fields.find((f) => f.name === 'assertions')!}
            rows={rowsIn(d, existing)}
            problems={problems}
            onChange={(rows) => set('assertions', rows)}
          />
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
            {timed &&
              text('retry_interval_seconds', 'Retry interval (seconds)', {
                type: 'number',
                placeholder: '15',
                hint: 'After a failure, check again this often until it alerts or recovers. Empty: 15 s, or the interval if shorter.',
              })}
            {timed &&
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
                  <PolicyOptions policies={policies} />
                </select>
              )}
            </Field>
          </div>
          <Locations
            regions={regions}
            monitorType={t}
            chosen={d.check_locations}
            problem={problems.check_locations}
            onChange={(v) => set('check_locations', v)}
          />
        </fieldset>

        <fieldset>
          <legend>Group, tags and severity</legend>
          <div class="grid">
            <LabelFields
              prefix="mf"
              value={{ group_id: d.group_id, tags: d.tags, severity: d.severity }}
              problems={problems}
              onChange={(l) => setD((x) => ({ ...x, ...l }))}
            />
          </div>
        </fieldset>
        <DependsOnField
          id="mf-depends_on"
          self={existing?.id ?? null}
          value={d.depends_on}
          problem={problems.depends_on}
          onChange={(v) => set('depends_on', v)}
        />

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
