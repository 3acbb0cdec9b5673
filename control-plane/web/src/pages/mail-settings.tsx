import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../api.js';
import { type MailSettings, type MailTestResult, type MailTls, mailApi } from '../api-mail.js';
import { formatDateTime } from '../format.js';
import { Confirm } from '../kit/confirm.js';
import { Notice } from '../kit/error-box.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { Field, type Problems, problemsOf, TextField } from '../kit/field.js';

const TLS: { value: MailTls; label: string; port: number }[] = [
  { value: 'starttls', label: 'STARTTLS (port 587)', port: 587 },
  { value: 'tls', label: 'TLS from the start (port 465)', port: 465 },
  { value: 'none', label: 'None (a relay on a private network)', port: 25 },
];
const DEFAULT_PORTS = new Set(TLS.map((t) => String(t.port)));

interface Form {
  host: string;
  port: string;
  tls: MailTls;
  username: string;
  password: string;
  from_address: string;
}

const formOf = (m: MailSettings | null): Form => {
  const s = m?.settings;
  return {
    host: s?.host ?? '',
    port: String(s?.port ?? 587),
    tls: s?.tls ?? 'starttls',
    username: s?.username ?? '',
    password: '',
    from_address: s?.from_address ?? '',
  };
};

const where = (m: MailSettings) =>
  m.transport === 'workspace'
    ? 'Alert email goes through this workspace’s SMTP server, below.'
    : m.transport === 'deployment'
      ? 'Alert email goes through the SMTP server of this Lookout installation. Set your own below to send from your domain.'
      : 'Alert email cannot be sent: no SMTP server is set for this workspace or for this Lookout installation. Every email notification fails until you set one below.';

/** `/settings/mail` (admins): the workspace's own SMTP server, Save, Send test, Remove. */
export const MailSettingsPage = (props: { me: Me }) => {
  const admin = props.me.user.role === 'admin';
  const [mail, setMail] = useState<MailSettings | null>(null);
  const [form, setForm] = useState<Form>(formOf(null));
  const [saved, setSaved] = useState<Form>(formOf(null));
  const [problems, setProblems] = useState<Problems>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [to, setTo] = useState('');
  const [test, setTest] = useState<{ ok: boolean; text: string } | null>(null);
  const [testing, setTesting] = useState(false);
  const [removing, setRemoving] = useState(false);

  /** `keepTyped`: the first load leaves what someone typed before it arrived (the form shows at once). */
  const show = (m: MailSettings, keepTyped = false) => {
    setMail(m);
    const empty = JSON.stringify(formOf(null));
    setForm((f) => (keepTyped && JSON.stringify(f) !== empty ? f : formOf(m)));
    setSaved(formOf(m));
  };
  useEffect(() => {
    if (admin)
      mailApi.get().then(
        (m) => show(m, true),
        (e) => setProblems(problemsOf(e)),
      );
  }, []);

  if (!admin)
    return (
      <section class="page">
        <h1>Mail settings</h1>
        <p class="notice">Only admins of the workspace manage mail settings.</p>
      </section>
    );

  const set = (k: keyof Form) => (e: Event) =>
    setForm({ ...form, [k]: (e.currentTarget as HTMLInputElement).value });
  const setTls = (e: Event) => {
    const tls = (e.currentTarget as HTMLSelectElement).value as MailTls;
    // A port that was one mode's usual one follows the mode.
    const port = DEFAULT_PORTS.has(form.port) ? String(TLS.find((t) => t.value === tls)!.port) : form.port;
    setForm({ ...form, tls, port });
  };
  const dirty = JSON.stringify(form) !== JSON.stringify(saved);
  const stored = mail?.settings?.password_set === true;

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setNotice(null);
    setTest(null);
    try {
      const username = form.username.trim() || null;
      const m = await mailApi.save({
        host: form.host.trim(),
        port: /^\d+$/.test(form.port) ? Number(form.port) : (form.port as unknown as number),
        tls: form.tls,
        username,
        ...(form.password ? { password: form.password } : {}),
        from_address: form.from_address.trim(),
      });
      show(m);
      setProblems({});
      setNotice('Mail settings saved. Send a test to check them.');
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };

  const sendTest = async () => {
    setNotice(null);
    if (dirty) {
      setTest({ ok: false, text: 'Save your changes first: the test uses the saved settings.' });
      return;
    }
    setTesting(true);
    setTest(null);
    try {
      const r: MailTestResult = await mailApi.test(to.trim() || undefined);
      setTest(
        r.ok
          ? { ok: true, text: `Test email sent to ${r.to}.` }
          : {
              ok: false,
              text: `Test email to ${r.to} failed: ${r.error ?? 'no answer'}${
                r.would_retry ? ' (alert email would be retried)' : ''
              }`,
            },
      );
    } catch (err) {
      const p = problemsOf(err);
      setTest({ ok: false, text: p.to ? `Send to: ${p.to}` : (p.form ?? 'That did not work.') });
    } finally {
      setTesting(false);
    }
  };

  const p = (k: string) => problems[k];
  return (
    <section class="page">
      <h1>Mail settings</h1>
      <p class="lead">
        The SMTP server this workspace’s alert email goes through, sent from your own address. The password is
        stored encrypted when the installation has a key, and is never shown again.
      </p>
      {mail && (
        <p class={mail.transport === 'none' ? 'notice' : 'ok-box'} role="status">
          {where(mail)}
        </p>
      )}
      <section class="panel narrow" aria-labelledby="smtp-title">
        <h2 id="smtp-title">SMTP server</h2>
        <form onSubmit={save} noValidate aria-label="SMTP server">
          {notice && (
            <p class="ok-box" role="status">
              {notice}
            </p>
          )}
          <ErrorSummary problems={problems} />
          <Field id="mail-host" label="SMTP host" problem={p('host')}>
            {(a) => (
              <input
                {...a}
                type="text"
                autocomplete="off"
                placeholder="smtp.example.com"
                value={form.host}
                onInput={set('host')}
              />
            )}
          </Field>
          <Field id="mail-tls" label="TLS" problem={p('tls')}>
            {(a) => (
              <select {...a} value={form.tls} onChange={setTls}>
                {TLS.map((t) => (
                  <option key={t.value} value={t.value}>
                    {t.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="mail-port" label="Port" problem={p('port')}>
            {(a) => <input {...a} type="text" inputMode="numeric" value={form.port} onInput={set('port')} />}
          </Field>
          <Field
            id="mail-username"
            label="Username"
            problem={p('username')}
            hint="Leave empty if the server needs no login."
          >
            {(a) => (
              <input {...a} type="text" autocomplete="off" value={form.username} onInput={set('username')} />
            )}
          </Field>
          <Field
            id="mail-password"
            label="Password"
            problem={p('password')}
            hint={stored ? 'A password is stored. Leave empty to keep it.' : 'Needs a username.'}
          >
            {(a) => (
              <input
                {...a}
                type="password"
                autocomplete="new-password"
                placeholder={stored ? '•••••••• (stored)' : ''}
                value={form.password}
                onInput={set('password')}
              />
            )}
          </Field>
          <Field
            id="mail-from"
            label="From address"
            problem={p('from_address')}
            hint="e.g. Lookout <alerts@example.com>"
          >
            {(a) => (
              <input
                {...a}
                type="text"
                autocomplete="off"
                placeholder="Lookout <alerts@example.com>"
                value={form.from_address}
                onInput={set('from_address')}
              />
            )}
          </Field>
          <div class="form-actions spaced">
            <button type="submit" class="button primary" disabled={busy}>
              Save
            </button>
            {mail?.settings && (
              <button type="button" class="button danger-outline" onClick={() => setRemoving(true)}>
                Remove
              </button>
            )}
          </div>
          {mail?.settings && <p class="hint">Last saved {formatDateTime(mail.settings.updated_at)}.</p>}
        </form>
      </section>
      {mail && (
        <section class="panel narrow" aria-labelledby="mail-test-title">
          <h2 id="mail-test-title">Send a test</h2>
          <TextField
            id="mail-test-to"
            label="Send to"
            hint={`Empty: you (${props.me.user.email}).`}
            type="email"
            placeholder={props.me.user.email}
            value={to}
            onValue={setTo}
          />
          <Notice notice={test} />
          <div class="form-actions spaced">
            <button type="button" class="button" disabled={testing} onClick={sendTest}>
              {testing ? 'Sending…' : 'Send test'}
            </button>
          </div>
        </section>
      )}
      {removing && (
        <Confirm
          title="Remove the workspace’s SMTP server?"
          body={
            mail?.deployment_transport
              ? 'Alert email goes through the SMTP server of this Lookout installation again. The stored password is deleted.'
              : 'Alert email cannot be sent until an SMTP server is set again. The stored password is deleted.'
          }
          action="Remove"
          onClose={() => setRemoving(false)}
          onConfirm={async () => {
            await mailApi.remove();
            show(await mailApi.get());
            setNotice(null);
            setTest(null);
          }}
        />
      )}
    </section>
  );
};
