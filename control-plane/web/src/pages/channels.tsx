import { useState } from 'preact/hooks';
import type { Me } from '../api.js';
import { type Channel, type ChannelBody, type ChannelType, configOf, routingApi } from '../api-routing.js';
import { Confirm } from '../kit/confirm.js';
import { ErrorBox, Notice } from '../kit/error-box.js';
import { Field, type Problems, problemsOf, TextField } from '../kit/field.js';
import { FormActions } from '../kit/form-actions.js';
import { ListBody, useList } from '../kit/paging.js';
import { AdminsOnly, CopyValue } from '../routing-ui.js';

const TYPES: { value: ChannelType; label: string }[] = [
  { value: 'email', label: 'Email' },
  { value: 'webhook', label: 'Webhook' },
  { value: 'slack', label: 'Slack' },
];
const typeLabel = (t: ChannelType) => TYPES.find((x) => x.value === t)?.label ?? t;

/** "X-Team: ops" lines ⇄ the headers object. */
const headersText = (h: Record<string, string> | undefined) =>
  Object.entries(h ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
const parseHeaders = (text: string) =>
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

const where = (c: Channel) =>
  c.type === 'email' ? (configOf(c).addresses ?? []).join(', ') : (configOf(c).url ?? '');

/** Name and type, then the type's own fields (the whole config of its type). */
const ChannelForm = (props: {
  initial?: Channel;
  onSubmit: (body: { name: string; type: ChannelType; config?: Channel['config'] }) => Promise<void>;
  onCancel?: () => void;
}) => {
  const i = props.initial;
  const [name, setName] = useState(i?.name ?? '');
  const [type, setType] = useState<ChannelType>(i?.type ?? 'email');
  const [addresses, setAddresses] = useState(((i && configOf(i).addresses) ?? []).join(', '));
  // A Slack URL is shown masked: editing keeps it unless a new one is typed.
  const [url, setUrl] = useState(i?.type === 'webhook' ? (configOf(i).url ?? '') : '');
  const [headers, setHeaders] = useState(headersText(i && configOf(i).headers));
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const config = (): Channel['config'] | undefined => {
    if (type === 'email')
      return {
        addresses: addresses
          .split(/[\s,;]+/)
          .map((a) => a.trim())
          .filter(Boolean),
      };
    if (type === 'webhook') return { url, headers: parseHeaders(headers) };
    return i?.type === 'slack' && !url ? undefined : { url };
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const c = config();
      await props.onSubmit({ name, type, ...(c ? { config: c } : {}) });
      setProblems({});
      if (!i) {
        setName('');
        setAddresses('');
        setUrl('');
        setHeaders('');
      }
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  const p = i ? `channel-${i.id}` : 'channel-new';
  const addressProblem = Object.entries(problems).find(([k]) => k.startsWith('config.addresses'))?.[1];
  const headerProblem = Object.entries(problems).find(([k]) => k.startsWith('config.headers'))?.[1];
  return (
    <form class="create-form" onSubmit={submit} noValidate aria-label={i ? `Edit ${i.name}` : 'New channel'}>
      <ErrorBox message={problems.form ?? problems.config} />
      <TextField
        id={`${p}-name`}
        label="Name"
        problem={problems.name}
        maxLength={200}
        placeholder="e.g. Ops on-call"
        value={name}
        onValue={setName}
      />
      <Field id={`${p}-type`} label="Type" problem={problems.type}>
        {(a) => (
          <select
            {...a}
            value={type}
            disabled={!!i}
            onChange={(e) => setType(e.currentTarget.value as ChannelType)}
          >
            {TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {type === 'email' && (
        <TextField
          id={`${p}-addresses`}
          label="Addresses"
          problem={addressProblem}
          hint="Up to 10, separated by commas."
          class="grow"
          placeholder="oncall@example.com, ops@example.com"
          value={addresses}
          onValue={setAddresses}
        />
      )}
      {type !== 'email' && (
        <Field
          id={`${p}-url`}
          label="URL"
          problem={problems['config.url']}
          class="grow"
          {...(type === 'slack'
            ? {
                hint:
                  i?.type === 'slack'
                    ? `Now ${configOf(i).url}; leave empty to keep it.`
                    : 'A Slack incoming-webhook URL (https://hooks.slack.com/services/…).',
              }
            : { hint: 'Lookout POSTs JSON, signed in X-Lookout-Signature.' })}
        >
          {(a) => (
            <input
              {...a}
              type="url"
              placeholder={
                type === 'slack' ? 'https://hooks.slack.com/services/…' : 'https://example.com/hooks/lookout'
              }
              value={url}
              onInput={(e) => setUrl(e.currentTarget.value)}
            />
          )}
        </Field>
      )}
      {type === 'webhook' && (
        <Field
          id={`${p}-headers`}
          label="Extra headers"
          problem={headerProblem}
          hint="One “Name: value” per line (optional)."
          class="grow"
        >
          {(a) => (
            <textarea {...a} rows={2} value={headers} onInput={(e) => setHeaders(e.currentTarget.value)} />
          )}
        </Field>
      )}
      <FormActions submit={i ? 'Save channel' : 'Create channel'} busy={busy} onCancel={props.onCancel} />
    </form>
  );
};

type TestOutcome = { channel: string; ok: boolean; text: string };

/** `/routing/channels` (admins): email, webhook and Slack channels; create, edit, Send test, delete. */
export const ChannelsPage = (props: { me: Me }) => {
  const admin = props.me.user.role === 'admin';
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [editing, setEditing] = useState<Channel | null>(null);
  const [deleting, setDeleting] = useState<Channel | null>(null);
  const [testing, setTesting] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const { items: channels, error, reload: load } = useList(() => routingApi.listChannels(), admin);
  if (!admin) return <AdminsOnly title="Channels" />;

  const sendTest = async (c: Channel) => {
    setTesting(c.id);
    setOutcome(null);
    try {
      const r = await routingApi.testChannel(c.id);
      setOutcome(
        r.ok
          ? {
              channel: c.id,
              ok: true,
              text: `Test sent to ${c.name}${r.status_code ? ` (HTTP ${r.status_code})` : ''}.`,
            }
          : {
              channel: c.id,
              ok: false,
              text: `Test to ${c.name} failed: ${r.error ?? `HTTP ${r.status_code}`}${
                r.would_retry ? ' (a real notification would be retried)' : ''
              }`,
            },
      );
    } catch (e) {
      setOutcome({
        channel: c.id,
        ok: false,
        text: `Test to ${c.name} failed: ${e instanceof Error ? e.message : 'no answer'}`,
      });
    } finally {
      setTesting(null);
    }
  };

  return (
    <section class="page">
      <h1>Channels</h1>
      <p class="lead">
        Where escalation steps send alerts besides users’ email: email lists, webhooks (signed JSON) and
        Slack. Send a test to check one works before an alert depends on it.
      </p>
      {secret ? (
        <section class="panel new-key" aria-labelledby="secret-title">
          <h2 id="secret-title">Signing secret of “{secret.name}”</h2>
          <p class="warning">
            Keep it to verify each request’s X-Lookout-Signature: <strong>it will not be shown again.</strong>
          </p>
          <CopyValue label="Signing secret" copyLabel="Copy signing secret" value={secret.value} />
          <button type="button" class="button" onClick={() => setSecret(null)}>
            Done
          </button>
        </section>
      ) : (
        <section class="panel" aria-labelledby="new-channel-title">
          <h2 id="new-channel-title">{editing ? `Edit ${editing.name}` : 'New channel'}</h2>
          <ChannelForm
            key={editing?.id ?? 'new'}
            {...(editing ? { initial: editing, onCancel: () => setEditing(null) } : {})}
            onSubmit={async (body) => {
              if (editing) {
                await routingApi.updateChannel(editing.id, {
                  name: body.name,
                  ...(body.config ? { config: body.config } : {}),
                });
                setEditing(null);
              } else {
                // A new channel's form always gives a config (only an edit keeps a stored one), and its
                // type and config come from one form state; the API checks that they match.
                const c = await routingApi.createChannel({ ...body, config: body.config } as ChannelBody);
                if (c.signing_secret) setSecret({ name: c.name, value: c.signing_secret });
              }
              await load();
            }}
          />
        </section>
      )}
      <section class="panel flush" aria-labelledby="channels-title">
        <div class="panel-head">
          <h2 id="channels-title">Channels</h2>
        </div>
        <ErrorBox message={error} inset />
        <Notice notice={outcome} inset />
        <ListBody items={channels} empty="No channels yet.">
          {(channels) => (
            <table class="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Sends to</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {channels.map((c) => (
                  <tr key={c.id}>
                    <th scope="row" class="key-name">
                      {c.name}
                    </th>
                    <td data-label="Type">{typeLabel(c.type)}</td>
                    <td data-label="Sends to" class="target">
                      <code>{where(c)}</code>
                    </td>
                    <td class="actions">
                      <button
                        type="button"
                        class="button small"
                        disabled={testing === c.id}
                        aria-label={`Send test to ${c.name}`}
                        onClick={() => sendTest(c)}
                      >
                        {testing === c.id ? 'Sending…' : 'Send test'}
                      </button>
                      <button
                        type="button"
                        class="button small"
                        aria-label={`Edit ${c.name}`}
                        onClick={() => {
                          setSecret(null);
                          setEditing(c);
                        }}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        class="button small danger-outline"
                        aria-label={`Delete ${c.name}`}
                        onClick={() => setDeleting(c)}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </ListBody>
      </section>
      {deleting && (
        <Confirm
          title={`Delete “${deleting.name}”?`}
          body="Lookout stops sending to it. A channel that an escalation policy still notifies cannot be deleted."
          action="Delete"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await routingApi.deleteChannel(deleting.id);
            await load();
          }}
        />
      )}
    </section>
  );
};
