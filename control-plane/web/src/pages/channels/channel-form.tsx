import { useState } from 'preact/hooks';
import type { Channel, ChannelBody, ChannelKind } from '../../api-routing.js';
import { ErrorSummary } from '../../kit/error-summary.js';
import { Field, type Problems, problemsOf } from '../../kit/field.js';
import { FormActions } from '../../kit/form-actions.js';

/** One property of a kind's config, as its JSON Schema (from GET /channel-kinds) describes it. */
interface Prop {
  type?: string;
  description?: string;
  default?: unknown;
  maxLength?: number;
  items?: { type?: string; format?: string };
}

const ACRONYMS: Record<string, string> = { url: 'URL', api: 'API', id: 'ID', sid: 'SID' };
const SPECIAL: Record<string, string> = { headers: 'Extra headers' };

/** `homeserver_url` → "Homeserver URL", `chat_id` → "Chat ID". */
export const fieldLabel = (name: string) =>
  SPECIAL[name] ??
  name
    .split('_')
    .map((w, i) => ACRONYMS[w] ?? (i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');

/** "X-Team: ops" lines ⇄ the headers object. */
const linesOf = (h: unknown) =>
  Object.entries((h ?? {}) as Record<string, string>)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
const parseLines = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .map((l) => {
        const at = l.indexOf(':');
        return at < 0 ? [l, ''] : [l.slice(0, at).trim(), l.slice(at + 1).trim()];
      }),
  );
const listOf = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);

const propsOf = (k: ChannelKind | undefined) =>
  Object.entries(
    ((k?.config_schema as { properties?: Record<string, Prop> })?.properties ?? {}) as Record<string, Prop>,
  );
const requiredOf = (k: ChannelKind | undefined) =>
  new Set(((k?.config_schema as { required?: string[] })?.required ?? []) as string[]);

/** The form's text for a stored value: lists joined, headers as lines, secrets empty (shown as hints). */
const textOf = (prop: Prop, v: unknown, secret: boolean) =>
  secret || v === undefined || v === null
    ? ''
    : prop.type === 'array'
      ? (v as string[]).join(', ')
      : prop.type === 'object'
        ? linesOf(v)
        : String(v);

/**
 * Name and type, then the fields of the type's config, generated from the JSON Schema the API gives
 * for it: text (a URL, a token), a list (comma-separated), headers (one per line); secrets are
 * password inputs that show what the API shows of them ("••••abcd") and keep it when left empty.
 */
export const ChannelForm = (props: {
  kinds: ChannelKind[];
  initial?: Channel;
  onSubmit: (body: ChannelBody) => Promise<void>;
  onCancel?: () => void;
}) => {
  const i = props.initial;
  const [name, setName] = useState(i?.name ?? '');
  const [type, setType] = useState<string>(i?.type ?? 'email');
  const kind = props.kinds.find((k) => k.type === type);
  const stored = (i?.config ?? {}) as Record<string, unknown>;
  const initialValues = () =>
    Object.fromEntries(
      propsOf(kind).map(([f, prop]) => [f, i ? textOf(prop, stored[f], kind!.secrets.includes(f)) : '']),
    );
  const [values, setValues] = useState<Record<string, string>>(initialValues);
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);

  const config = () => {
    const required = requiredOf(kind);
    const out: Record<string, unknown> = {};
    for (const [f, prop] of propsOf(kind)) {
      const text = (values[f] ?? '').trim();
      if (prop.type === 'array') out[f] = listOf(text);
      else if (prop.type === 'object') out[f] = parseLines(text);
      // Left empty: an optional field or one with a default is left out; so is a stored secret (kept).
      else if (text !== '' || (required.has(f) && !(i && kind!.secrets.includes(f)))) out[f] = text;
    }
    return out;
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      await props.onSubmit({ name, type, config: config() } as ChannelBody);
      setProblems({});
      if (!i) {
        setName('');
        setValues({});
      }
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  const p = i ? `channel-${i.id}` : 'channel-new';
  const problemOf = (f: string) =>
    Object.entries(problems).find(
      ([k]) => k === `config.${f}` || k.startsWith(`config.${f}[`) || k.startsWith(`config.${f}.`),
    )?.[1];
  return (
    <form class="create-form" onSubmit={submit} noValidate aria-label={i ? `Edit ${i.name}` : 'New channel'}>
      <ErrorSummary problems={problems} form={problems.form ?? problems.config} />
      <Field id={`${p}-name`} label="Name" problem={problems.name}>
        {(a) => (
          <input
            {...a}
            type="text"
            maxLength={200}
            placeholder="e.g. Ops on-call"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        )}
      </Field>
      <Field id={`${p}-type`} label="Type" problem={problems.type}>
        {(a) => (
          <select
            {...a}
            value={type}
            disabled={!!i}
            onChange={(e) => {
              setType(e.currentTarget.value);
              setValues({});
              setProblems({});
            }}
          >
            {props.kinds.map((k) => (
              <option key={k.type} value={k.type}>
                {k.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {propsOf(kind).map(([f, prop]) => {
        const secret = kind!.secrets.includes(f);
        const shown = i && secret && typeof stored[f] === 'string' ? (stored[f] as string) : null;
        const optional = !requiredOf(kind).has(f) && prop.default === undefined;
        const hint = [
          prop.description,
          prop.type === 'array' ? 'Separate them with commas.' : null,
          prop.type === 'object' ? 'One “Name: value” per line.' : null,
          optional ? 'Optional.' : null,
          shown ? `Now ${shown}; leave empty to keep it.` : null,
        ]
          .filter(Boolean)
          .join(' ');
        return (
          <Field
            key={`${type}-${f}`}
            id={`${p}-${f}`}
            label={fieldLabel(f)}
            problem={problemOf(f)}
            hint={hint}
            class="grow"
          >
            {(a) =>
              prop.type === 'object' ? (
                <textarea
                  {...a}
                  rows={2}
                  value={values[f] ?? ''}
                  onInput={(e) => setValues({ ...values, [f]: e.currentTarget.value })}
                />
              ) : (
                <input
                  {...a}
                  type={secret ? 'password' : f.endsWith('url') ? 'url' : 'text'}
                  autoComplete={secret ? 'new-password' : 'off'}
                  placeholder={shown ?? (prop.default !== undefined ? String(prop.default) : '')}
                  value={values[f] ?? ''}
                  onInput={(e) => setValues({ ...values, [f]: e.currentTarget.value })}
                />
              )
            }
          </Field>
        );
      })}
      <FormActions submit={i ? 'Save channel' : 'Create channel'} busy={busy} onCancel={props.onCancel} />
    </form>
  );
};
