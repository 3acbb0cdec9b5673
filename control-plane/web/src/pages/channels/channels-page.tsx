import { useState } from 'preact/hooks';
import type { Me } from '../../api.js';
import { type Channel, type ChannelKind, routingApi } from '../../api-routing.js';
import { Confirm } from '../../kit/confirm.js';
import { ErrorBox, Notice } from '../../kit/error-box.js';
import { ListBody, useList } from '../../kit/paging.js';
import { AdminsOnly, CopyValue } from '../../routing-ui.js';
import { ChannelForm } from './channel-form.js';
import { DeliveryLog } from './delivery-log.js';

/** Where a channel sends: its addresses, its URL, its chat or room, as the API shows them. */
const where = (c: Channel) => {
  const cfg = c.config as Record<string, unknown>;
  if (Array.isArray(cfg.addresses)) return cfg.addresses.join(', ');
  if (Array.isArray(cfg.to)) return cfg.to.join(', ');
  const first = ['url', 'webhook_url', 'chat_id', 'room_id', 'topic', 'server_url', 'api_url']
    .map((f) => cfg[f])
    .find((v) => typeof v === 'string');
  return (first as string | undefined) ?? '';
};

type TestOutcome = { channel: string; ok: boolean; text: string };

/**
 * `/routing/channels` (admins): channels of every kind the API offers (the form is generated from
 * each kind's schema); create, edit, Send test (the service's answer shown), the delivery log, delete.
 */
export const ChannelsPage = (props: { me: Me }) => {
  const admin = props.me.user.role === 'admin';
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [editing, setEditing] = useState<Channel | null>(null);
  const [deleting, setDeleting] = useState<Channel | null>(null);
  const [testing, setTesting] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const [log, setLog] = useState<Channel | null>(null);
  /** Bumped after each test, so an open delivery log reads again. */
  const [logTick, setLogTick] = useState(0);
  const {
    items: channels,
    error,
    reload: load,
  } = useList(() => routingApi.listChannels(), { enabled: admin });
  const { items: kinds, error: kindsError } = useList<ChannelKind>(() => routingApi.listChannelKinds(), {
    enabled: admin,
  });
  if (!admin) return <AdminsOnly title="Channels" />;
  const label = (type: string) => kinds?.find((k) => k.type === type)?.label ?? type;

  const sendTest = async (c: Channel) => {
    setTesting(c.id);
    setOutcome(null);
    try {
      const r = await routingApi.testChannel(c.id);
      const answer = r.response ? ` ${label(c.type)} answered: ${r.response}` : '';
      setOutcome(
        r.ok
          ? {
              channel: c.id,
              ok: true,
              text: `Test sent to ${c.name}${r.status_code ? ` (HTTP ${r.status_code})` : ''}.${answer}`,
            }
          : {
              channel: c.id,
              ok: false,
              text: `Test to ${c.name} failed: ${r.error ?? `HTTP ${r.status_code}`}${
                r.retry_after_seconds ? ` (it asks to wait ${r.retry_after_seconds} s)` : ''
              }${r.would_retry ? ' (a real notification would be retried)' : ''}`,
            },
      );
      setLogTick((t) => t + 1);
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
        Where escalation steps send alerts besides users’ email: email lists, signed webhooks, chat (Slack,
        Discord, Teams, Mattermost, Google Chat, Telegram, Matrix), push (ntfy, Gotify, Pushover), paging
        (PagerDuty, Opsgenie) and SMS (Twilio). Send a test to check one works before an alert depends on it.
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
          <ErrorBox message={kindsError} />
          {kinds && (
            <ChannelForm
              kinds={kinds}
              key={editing?.id ?? 'new'}
              {...(editing ? { initial: editing, onCancel: () => setEditing(null) } : {})}
              onSubmit={async (body) => {
                if (editing) {
                  // Secrets left empty are left out of the config: the API keeps them.
                  await routingApi.updateChannel(editing.id, { name: body.name, config: body.config });
                  setEditing(null);
                } else {
                  const c = await routingApi.createChannel(body);
                  if ('signing_secret' in c && c.signing_secret)
                    setSecret({ name: c.name, value: c.signing_secret });
                }
                await load();
              }}
            />
          )}
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
                    <td data-label="Type">{label(c.type)}</td>
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
                        aria-label={`Deliveries of ${c.name}`}
                        onClick={() => setLog(c)}
                      >
                        Deliveries
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
      {log && <DeliveryLog key={`${log.id}-${logTick}`} channel={log} onClose={() => setLog(null)} />}
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
