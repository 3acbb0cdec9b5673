import { useEffect, useState } from 'preact/hooks';
import { api, type Me } from '../api.js';
import { type SsoSettings, ssoApi } from '../api-sso.js';
import { formatDateTime } from '../format.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { Field, type Problems, problemsOf, TextField } from '../kit/field.js';
import { GroupRolesField, type Role, RoleSelect } from './sso-group-roles.js';

interface Form {
  oidcOn: boolean;
  issuer: string;
  client_id: string;
  client_secret: string;
  domains: string;
  oidc_role: Role;
  group_claim: string;
  group_roles: { group: string; role: Role }[];
  samlOn: boolean;
  saml_source: 'url' | 'xml';
  saml_url: string;
  saml_xml: string;
  saml_role: Role;
  enforced: boolean;
  break_glass: string[];
}

const formOf = (s: SsoSettings | null): Form => ({
  oidcOn: !!s?.oidc,
  issuer: s?.oidc?.issuer ?? '',
  client_id: s?.oidc?.client_id ?? '',
  client_secret: '',
  domains: s?.oidc?.allowed_domains.join(', ') ?? '',
  oidc_role: s?.oidc?.default_role ?? 'viewer',
  group_claim: s?.oidc?.group_claim ?? '',
  group_roles: s?.oidc?.group_roles.map((g) => ({ ...g })) ?? [],
  samlOn: !!s?.saml,
  saml_source: s?.saml?.idp_metadata_xml ? 'xml' : 'url',
  saml_url: s?.saml?.idp_metadata_url ?? '',
  saml_xml: s?.saml?.idp_metadata_xml ?? '',
  saml_role: s?.saml?.default_role ?? 'viewer',
  enforced: s?.enforced ?? false,
  break_glass: s?.break_glass_user_ids ?? [],
});

/** The first problem of a field or of any of its items (`oidc.allowed_domains[2]`). */
const problemOf = (problems: Problems, field: string) =>
  problems[field] ??
  Object.entries(problems).find(([k]) => k.startsWith(`${field}[`) || k.startsWith(`${field}.`))?.[1];

/** `/settings/sso` (admins): OpenID Connect, SAML, enforcing SSO and its break-glass admins. */
export const SsoSettingsPage = (props: { me: Me }) => {
  const admin = props.me.user.role === 'admin';
  const [sso, setSso] = useState<SsoSettings | null>(null);
  const [form, setForm] = useState<Form>(formOf(null));
  const [admins, setAdmins] = useState<{ id: string; email: string }[]>([]);
  const [problems, setProblems] = useState<Problems>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!admin) return;
    ssoApi.get().then(
      (s) => {
        setSso(s);
        setForm(formOf(s));
      },
      (e) => setProblems(problemsOf(e)),
    );
    api.listUsers().then(
      (page) => setAdmins(page.data.filter((u) => u.role === 'admin')),
      () => setAdmins([]),
    );
  }, []);

  if (!admin)
    return (
      <section class="page">
        <h1>Single sign-on</h1>
        <p class="notice">Only admins of the workspace manage single sign-on.</p>
      </section>
    );

  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));
  const text = (k: keyof Form) => (v: string) => set(k, v as never);
  const p = (field: string) => problemOf(problems, field);
  const secretStored = sso?.oidc?.client_secret_set === true;

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setNotice(null);
    try {
      const domains = form.domains
        .split(/[\s,]+/)
        .map((d) => d.trim())
        .filter(Boolean);
      const s = await ssoApi.save({
        oidc: form.oidcOn
          ? {
              issuer: form.issuer.trim(),
              client_id: form.client_id.trim(),
              ...(form.client_secret ? { client_secret: form.client_secret } : {}),
              allowed_domains: domains,
              default_role: form.oidc_role,
              group_claim: form.group_claim.trim() || null,
              group_roles: form.group_roles.filter((g) => g.group.trim()),
            }
          : null,
        saml: form.samlOn
          ? {
              ...(form.saml_source === 'url'
                ? { idp_metadata_url: form.saml_url.trim() }
                : { idp_metadata_xml: form.saml_xml }),
              default_role: form.saml_role,
              // Set through the API (no fields here yet): kept as they are.
              allowed_domains: sso?.saml?.allowed_domains ?? [],
              group_roles: sso?.saml?.group_roles ?? [],
            }
          : null,
        enforced: form.enforced,
        break_glass_user_ids: form.break_glass,
      });
      setSso(s);
      setForm(formOf(s));
      setProblems({});
      setNotice(
        s.enforced
          ? 'Saved. Single sign-on is enforced: passwords now work only for the break-glass admins.'
          : 'Saved.',
      );
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };

  const sp = sso?.service_provider;
  return (
    <section class="page">
      <h1>Single sign-on</h1>
      <p class="lead">
        Let people sign in through your identity provider (OpenID Connect or SAML). Someone signing in for the
        first time gets an account with the default role. Signing out of Lookout does not sign you out of the
        identity provider.
      </p>
      <form class="sso-form" onSubmit={save} noValidate aria-label="Single sign-on">
        {notice && (
          <p class="ok-box" role="status">
            {notice}
          </p>
        )}
        <ErrorSummary problems={problems} />
        <section class="panel narrow" aria-labelledby="oidc-title">
          <h2 id="oidc-title">OpenID Connect</h2>
          <label class="check">
            <input
              type="checkbox"
              checked={form.oidcOn}
              onChange={(e) => set('oidcOn', e.currentTarget.checked)}
            />
            Sign in with OpenID Connect
          </label>
          {form.oidcOn && (
            <>
              {sp && (
                <p class="hint">
                  Register this redirect URI at your identity provider: <code>{sp.oidc_redirect_uri}</code>
                </p>
              )}
              <TextField
                id="sso-issuer"
                label="Issuer"
                hint="The identity provider’s issuer URL (https)."
                placeholder="https://login.example.com"
                problem={p('oidc.issuer')}
                value={form.issuer}
                onValue={text('issuer')}
              />
              <TextField
                id="sso-client-id"
                label="Client ID"
                autocomplete="off"
                problem={p('oidc.client_id')}
                value={form.client_id}
                onValue={text('client_id')}
              />
              <TextField
                id="sso-client-secret"
                label="Client secret"
                type="password"
                autocomplete="new-password"
                placeholder={secretStored ? '•••••••• (stored)' : ''}
                hint={
                  secretStored
                    ? 'A secret is stored. Leave empty to keep it.'
                    : 'Stored encrypted and never shown again.'
                }
                problem={p('oidc.client_secret')}
                value={form.client_secret}
                onValue={text('client_secret')}
              />
              <TextField
                id="sso-domains"
                label="Allowed email domains"
                hint="Separated by commas. Empty: anyone your identity provider signs in."
                placeholder="example.com"
                problem={p('oidc.allowed_domains')}
                value={form.domains}
                onValue={text('domains')}
              />
              <Field id="sso-oidc-role" label="Role of new users" problem={p('oidc.default_role')}>
                {(a) => <RoleSelect id={a.id} value={form.oidc_role} onChange={(r) => set('oidc_role', r)} />}
              </Field>
              <TextField
                id="sso-group-claim"
                label="Group claim"
                hint="The claim that lists a user’s groups, such as groups. Needed to map groups to roles."
                problem={p('oidc.group_claim')}
                value={form.group_claim}
                onValue={text('group_claim')}
              />
              <GroupRolesField
                rows={form.group_roles}
                problem={p('oidc.group_roles')}
                onChange={(rows) => set('group_roles', rows)}
              />
            </>
          )}
        </section>
        <section class="panel narrow" aria-labelledby="saml-title">
          <h2 id="saml-title">SAML</h2>
          <label class="check">
            <input
              type="checkbox"
              checked={form.samlOn}
              onChange={(e) => set('samlOn', e.currentTarget.checked)}
            />
            Sign in with SAML
          </label>
          {sp && (
            <p class="hint">
              Service provider metadata for your identity provider: <code>{sp.saml_metadata_url}</code>
            </p>
          )}
          {form.samlOn && (
            <>
              <Field id="sso-saml-source" label="Identity provider metadata" problem={p('saml')}>
                {(a) => (
                  <select
                    {...a}
                    value={form.saml_source}
                    onChange={(e) => set('saml_source', e.currentTarget.value as 'url' | 'xml')}
                  >
                    <option value="url">From a URL</option>
                    <option value="xml">Pasted XML</option>
                  </select>
                )}
              </Field>
              {form.saml_source === 'url' ? (
                <TextField
                  id="sso-saml-url"
                  label="Metadata URL"
                  placeholder="https://idp.example.com/metadata"
                  problem={p('saml.idp_metadata_url')}
                  value={form.saml_url}
                  onValue={text('saml_url')}
                />
              ) : (
                <Field id="sso-saml-xml" label="Metadata XML" problem={p('saml.idp_metadata_xml')}>
                  {(a) => (
                    <textarea
                      {...a}
                      rows={6}
                      value={form.saml_xml}
                      onInput={(e) => set('saml_xml', e.currentTarget.value)}
                    />
                  )}
                </Field>
              )}
              <Field id="sso-saml-role" label="Role of new users" problem={p('saml.default_role')}>
                {(a) => <RoleSelect id={a.id} value={form.saml_role} onChange={(r) => set('saml_role', r)} />}
              </Field>
            </>
          )}
        </section>
        <section class="panel narrow" aria-labelledby="enforce-title">
          <h2 id="enforce-title">Enforcement</h2>
          <label class="check">
            <input
              type="checkbox"
              checked={form.enforced}
              aria-describedby="sso-enforced-hint"
              onChange={(e) => set('enforced', e.currentTarget.checked)}
            />
            Require single sign-on
          </label>
          <p class="hint tight" id="sso-enforced-hint">
            Passwords stop working, except for the break-glass admins below (keep one in case the identity
            provider is down). Password reset is off.
          </p>
          {p('enforced') && <span class="field-problem">{p('enforced')}</span>}
          <fieldset>
            <legend>Break-glass admins</legend>
            {admins.map((u) => (
              <label class="check" key={u.id}>
                <input
                  type="checkbox"
                  checked={form.break_glass.includes(u.id)}
                  onChange={(e) =>
                    set(
                      'break_glass',
                      e.currentTarget.checked
                        ? [...form.break_glass, u.id]
                        : form.break_glass.filter((id) => id !== u.id),
                    )
                  }
                />
                {u.email}
              </label>
            ))}
            {p('break_glass_user_ids') && <span class="field-problem">{p('break_glass_user_ids')}</span>}
          </fieldset>
        </section>
        <div class="form-actions spaced">
          <button type="submit" class="button primary" disabled={busy}>
            Save
          </button>
        </div>
        {sso?.updated_at && <p class="hint">Last saved {formatDateTime(sso.updated_at)}.</p>}
      </form>
    </section>
  );
};
