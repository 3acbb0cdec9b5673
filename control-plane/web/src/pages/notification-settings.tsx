import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../api.js';
import {
  type ContactMethod,
  type ContactMethodKind,
  contactsApi,
  type NewContactMethod,
} from '../api-contacts.js';
import { formatDateTime } from '../format.js';
import { Confirm } from '../kit/confirm.js';
import { Loading, Notice } from '../kit/error-box.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { Field, type Problems, problemsOf, TextField } from '../kit/field.js';
import { FormActions } from '../kit/form-actions.js';

interface Form {
  type: string;
  values: Record<string, string>;
}

/**
 * The body of a new method from the kind's fields (GET /contact-method-kinds): each trimmed (a phone
 * number also without spaces, dashes and parentheses; a secret as typed), an empty one left out
 * unless its schema requires it.
 */
const bodyOf = (kind: ContactMethodKind, f: Form): NewContactMethod => {
  const required = new Set((kind.body_schema as { required?: string[] }).required ?? []);
  const body: Record<string, string> = { type: kind.type };
  for (const field of kind.fields) {
    const raw = f.values[field.name] ?? '';
    const v =
      field.input === 'password' ? raw : field.input === 'tel' ? raw.replace(/[\s()-]/g, '') : raw.trim();
    if (v !== '' || required.has(field.name)) body[field.name] = v;
  }
  return body as NewContactMethod;
};

const INPUT_TYPE = {
  text: 'text',
  email: 'email',
  tel: 'tel',
  numeric: 'text',
  key: 'text',
  password: 'password',
} as const;

/** One method: its state, and Send code / Verify while unverified, Remove always. */
const MethodRow = (props: {
  m: ContactMethod;
  kind: string;
  onChange: () => Promise<void>;
  onRemove: () => void;
}) => {
  const { m, kind } = props;
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
    <li class="contact-method" aria-label={`${kind} ${m.label}`}>
      <div class="contact-method-head">
        <span class="contact-method-kind">{kind}</span>
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
  const [kinds, setKinds] = useState<ContactMethodKind[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState<Form>({ type: 'email', values: {} });
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<ContactMethod | null>(null);

  const load = async () => {
    try {
      const [r, k] = await Promise.all([contactsApi.list(), contactsApi.kinds()]);
      setKinds(k.data);
      setMethods(r.data);
    } catch (e) {
      setError(problemsOf(e).form ?? 'Could not load your contact methods.');
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const available = kinds.filter((k) => k.available);
  const kind = kinds.find((k) => k.type === form.type);
  const labelOf = (type: string) => kinds.find((k) => k.type === type)?.label ?? type;
  const set = (name: string) => (v: string) => setForm({ ...form, values: { ...form.values, [name]: v } });
  const add = async (e: Event) => {
    e.preventDefault();
    if (!kind) return;
    setBusy(true);
    try {
      const added = form.type;
      await contactsApi.add(bodyOf(kind, form));
      // Cleared for the next one, unless the user has moved on to another type meanwhile.
      setForm((f) => (f.type === added ? { type: added, values: {} } : f));
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
              <MethodRow
                key={m.id}
                m={m}
                kind={labelOf(m.type)}
                onChange={load}
                onRemove={() => setRemoving(m)}
              />
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
                    type: (e.currentTarget as HTMLSelectElement).value,
                  })
                }
              >
                {available.map((k) => (
                  <option key={k.type} value={k.type}>
                    {k.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {kind?.fields.map((f) => (
            <TextField
              key={`${kind.type}-${f.name}`}
              id={`cm-${f.name}`}
              label={f.label}
              type={INPUT_TYPE[f.input]}
              inputMode={f.input === 'numeric' ? 'numeric' : undefined}
              autocomplete={f.input === 'password' || f.input === 'key' ? 'off' : undefined}
              placeholder={f.placeholder ?? undefined}
              hint={f.hint ?? undefined}
              value={form.values[f.name] ?? ''}
              onValue={set(f.name)}
              problem={p(f.name)}
            />
          ))}
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
