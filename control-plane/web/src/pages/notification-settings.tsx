import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../api.js';
import {
  type ContactMethod,
  type ContactMethodType,
  contactsApi,
  type NewContactMethod,
} from '../api-contacts.js';
import { formatDateTime } from '../format.js';
import { Confirm } from '../kit/confirm.js';
import { Loading, Notice } from '../kit/error-box.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { Field, type Problems, problemsOf, TextField } from '../kit/field.js';
import { FormActions } from '../kit/form-actions.js';

const TYPES: Record<ContactMethodType, string> = {
  email: 'Email',
  sms: 'SMS',
  telegram: 'Telegram',
  ntfy: 'ntfy',
  pushover: 'Pushover',
};

interface Form {
  type: ContactMethodType;
  address: string;
  phone: string;
  chat_id: string;
  topic: string;
  server_url: string;
  access_token: string;
  user_key: string;
}
const EMPTY: Form = {
  type: 'email',
  address: '',
  phone: '',
  chat_id: '',
  topic: '',
  server_url: '',
  access_token: '',
  user_key: '',
};

const bodyOf = (f: Form): NewContactMethod => {
  switch (f.type) {
    case 'email':
      return { type: 'email', address: f.address.trim() };
    case 'sms':
      return { type: 'sms', phone: f.phone.replace(/[\s()-]/g, '') };
    case 'telegram':
      return { type: 'telegram', chat_id: f.chat_id.trim() };
    case 'ntfy':
      return {
        type: 'ntfy',
        topic: f.topic.trim(),
        ...(f.server_url.trim() ? { server_url: f.server_url.trim() } : {}),
        ...(f.access_token ? { access_token: f.access_token } : {}),
      };
    case 'pushover':
      return { type: 'pushover', user_key: f.user_key.trim() };
  }
};

/** One method: its state, and Send code / Verify while unverified, Remove always. */
const MethodRow = (props: { m: ContactMethod; onChange: () => Promise<void>; onRemove: () => void }) => {
  const { m } = props;
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [problems, setProblemsOfCode] = useState<Problems>({});
  const send = async () => {
    setBusy(true);
    setNotice(null);
    try {
      const r = await contactsApi.sendCode(m.id);
      setNotice(
        r.sent
          ? { ok: true, text: `Code sent to ${m.label}. Enter it below within 15 minutes.` }
          : {
              ok: false,
              text: `Sending failed: ${r.error ?? 'no answer'}${r.status_code ? ` (${r.status_code})` : ''}`,
            },
      );
      await props.onChange();
    } catch (e) {
      const p = problemsOf(e);
      setNotice({ ok: false, text: p.form ?? 'That did not work.' });
    } finally {
      setBusy(false);
    }
  };
  const verify = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setProblemsOfCode({});
    try {
      await contactsApi.verify(m.id, code.trim());
      setNotice({ ok: true, text: `${m.label} is verified: alerts reach you there now.` });
      await props.onChange();
    } catch (err) {
      const p = problemsOf(err);
      setProblemsOfCode(p.code ? { code: `Code ${p.code}` } : { form: p.form });
    } finally {
      setBusy(false);
    }
  };
  return (
    <li class="contact-method" aria-label={`${TYPES[m.type]} ${m.label}`}>
      <div class="contact-method-head">
        <span class="contact-method-kind">{TYPES[m.type]}</span>
        <span class="contact-method-label">{m.label}</span>
        <span class={m.verified ? 'badge verified' : 'badge unverified'}>
          {m.verified ? 'Verified' : 'Not verified'}
        </span>
        <button type="button" class="button small danger" onClick={props.onRemove}>
          Remove
        </button>
      </div>
      {m.verified ? (
        <p class="hint tight">
          Verified {formatDateTime(m.verified_at!)}. Alerts that name you reach you here.
        </p>
      ) : (
        <div class="contact-method-verify">
          <p class="hint tight">Not used for alerts until verified: send yourself a code, then enter it.</p>
          <Notice notice={notice} />
          <form onSubmit={verify} noValidate aria-label={`Verify ${m.label}`} class="inline-form">
            <ErrorSummary problems={problems} />
            <button type="button" class="button" onClick={send} disabled={busy}>
              {m.code_sent_at ? 'Send a new code' : 'Send code'}
            </button>
            <TextField
              id={`code-${m.id}`}
              label="Verification code"
              value={code}
              onValue={setCode}
              problem={problems.code ?? problems.form}
              inputMode="numeric"
              autocomplete="one-time-code"
              maxLength={6}
            />
            <FormActions submit="Verify" busy={busy} />
          </form>
        </div>
      )}
      {m.verified && <Notice notice={notice} />}
    </li>
  );
};

/** `/settings/notifications` (everyone): your own contact methods; add, verify, remove. */
export const NotificationSettingsPage = (props: { me: Me }) => {
  const [methods, setMethods] = useState<ContactMethod[] | null>(null);
  const [available, setAvailable] = useState<ContactMethodType[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState<Form>(EMPTY);
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<ContactMethod | null>(null);

  const load = async () => {
    try {
      const r = await contactsApi.list();
      setMethods(r.data);
      setAvailable(r.available_types);
    } catch (e) {
      setError(problemsOf(e).form ?? 'Could not load your contact methods.');
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const set = (k: keyof Form) => (v: string) => setForm({ ...form, [k]: v });
  const add = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const added = form.type;
      await contactsApi.add(bodyOf(form));
      // Cleared for the next one, unless the user has moved on to another type meanwhile.
      setForm((f) => (f.type === added ? { ...EMPTY, type: added } : f));
      setProblems({});
      await load();
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  const p = (k: string) => problems[k];

  return (
    <section class="page">
      <h1>Notification settings</h1>
      <p class="lead">
        Alerts whose escalation names you always reach your account email,{' '}
        <strong>{props.me.user.email}</strong>, and each contact method below once you have verified it.
      </p>
      <section class="panel" aria-labelledby="methods-title">
        <h2 id="methods-title">Your contact methods</h2>
        {methods === null ? (
          <Loading error={error} />
        ) : methods.length === 0 ? (
          <p class="muted">No contact methods yet: add one below.</p>
        ) : (
          <ul class="contact-methods">
            {methods.map((m) => (
              <MethodRow key={m.id} m={m} onChange={load} onRemove={() => setRemoving(m)} />
            ))}
          </ul>
        )}
      </section>
      <section class="panel narrow" aria-labelledby="add-title">
        <h2 id="add-title">Add a contact method</h2>
        <form onSubmit={add} noValidate aria-label="Add a contact method">
          <ErrorSummary problems={problems} />
          <Field id="cm-type" label="Type" problem={p('type')}>
            {(a) => (
              <select
                {...a}
                value={form.type}
                onChange={(e) =>
                  setForm({
                    ...form,
                    type: (e.currentTarget as HTMLSelectElement).value as ContactMethodType,
                  })
                }
              >
                {available.map((t) => (
                  <option key={t} value={t}>
                    {TYPES[t]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {form.type === 'email' && (
            <TextField
              id="cm-address"
              label="Email address"
              type="email"
              value={form.address}
              onValue={set('address')}
              problem={p('address')}
            />
          )}
          {form.type === 'sms' && (
            <TextField
              id="cm-phone"
              label="Phone number"
              type="tel"
              hint="With the country code, e.g. +14155550123."
              value={form.phone}
              onValue={set('phone')}
              problem={p('phone')}
            />
          )}
          {form.type === 'telegram' && (
            <TextField
              id="cm-chat"
              label="Telegram chat ID"
              inputMode="numeric"
              hint="Send /start to this Lookout's Telegram bot; it answers with your chat ID."
              value={form.chat_id}
              onValue={set('chat_id')}
              problem={p('chat_id')}
            />
          )}
          {form.type === 'ntfy' && (
            <>
              <TextField
                id="cm-topic"
                label="ntfy topic"
                hint="Subscribe to it in the ntfy app."
                value={form.topic}
                onValue={set('topic')}
                problem={p('topic')}
              />
              <TextField
                id="cm-server"
                label="ntfy server"
                placeholder="https://ntfy.sh"
                hint="Leave empty for ntfy.sh."
                value={form.server_url}
                onValue={set('server_url')}
                problem={p('server_url')}
              />
              <TextField
                id="cm-token"
                label="Access token"
                type="password"
                autocomplete="off"
                hint="Only for a protected topic."
                value={form.access_token}
                onValue={set('access_token')}
                problem={p('access_token')}
              />
            </>
          )}
          {form.type === 'pushover' && (
            <TextField
              id="cm-user-key"
              label="Pushover user key"
              autocomplete="off"
              value={form.user_key}
              onValue={set('user_key')}
              problem={p('user_key')}
            />
          )}
          <FormActions submit="Add" busy={busy} />
        </form>
      </section>
      {removing && (
        <Confirm
          title={`Remove ${removing.label}?`}
          body="Alerts stop reaching you there. You can add it again, and verify it again, at any time."
          action="Remove"
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await contactsApi.remove(removing.id);
            await load();
          }}
        />
      )}
    </section>
  );
};
