import { useEffect, useState } from 'preact/hooks';
import { ApiError, type ApiKey, api, type KeyList, type Me } from '../api.js';
import { formatDate, formatDateTime, fromNow } from '../format.js';
import { Confirm } from '../kit/confirm.js';
import { ErrorBox } from '../kit/error-box.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { TextField } from '../kit/field.js';
import { ListBody } from '../kit/paging.js';
import { CopyValue } from '../routing-ui.js';

const NAME_MAX = 100;
const MAX_ACTIVE = 25;
const EXPIRY = [
  { value: 'none', label: 'No expiry' },
  { value: '1d', label: '1 day' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: '90d', label: '90 days' },
  { value: 'custom', label: 'Custom date' },
];

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** The value of a new key, shown this once, with a copy button. */
const NewKeyValue = (props: { name: string; value: string; onDone: () => void }) => {
  return (
    <section class="panel new-key" aria-labelledby="new-key-title">
      <h2 id="new-key-title">Your new key “{props.name}”</h2>
      <p class="warning">
        Copy it now: <strong>this key will not be shown again.</strong> Only its last four characters are
        kept.
      </p>
      <CopyValue label="New API key value" value={props.value} hint="Send it in the X-API-Key header." />
      <button type="button" class="button" onClick={props.onDone}>
        Done
      </button>
    </section>
  );
};

const Status = (props: { k: ApiKey }) => (
  <span class={`badge ${props.k.status}`}>
    {props.k.status === 'active' ? 'Active' : props.k.status === 'expired' ? 'Expired' : 'Revoked'}
  </span>
);

const LastUsed = (props: { k: ApiKey }) => {
  if (!props.k.last_used_at) return <span class="muted">Never</span>;
  const [ip, ...agent] = (props.k.last_used_from ?? '').split(' ');
  return (
    <span title={formatDateTime(props.k.last_used_at)}>
      {fromNow(props.k.last_used_at)}
      {ip && (
        <span class="muted block" title={agent.join(' ')}>
          from {ip}
        </span>
      )}
    </span>
  );
};

/** `/settings/api-keys`: create (value shown once), list, revoke; the legacy key and its Regenerate. */
export const ApiKeysPage = (props: { me: Me }) => {
  const admin = props.me.user.role === 'admin';
  const [list, setList] = useState<KeyList | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState('30d');
  const [date, setDate] = useState('');
  const [problems, setProblems] = useState<{ name?: string; expiry?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ name: string; value: string } | null>(null);
  const [confirm, setConfirm] = useState<
    { kind: 'revoke'; key: ApiKey } | { kind: 'regenerate'; key: ApiKey } | null
  >(null);

  const load = () =>
    api.listKeys().then(
      (l) => {
        setList(l);
        setLoadError(null);
      },
      (e: Error) => setLoadError(e.message),
    );
  useEffect(() => {
    void load();
  }, []);

  const mine = list?.data.filter((k) => k.user_id === props.me.user.id && k.status === 'active') ?? [];
  const atLimit = mine.length >= MAX_ACTIVE;

  const create = async (e: Event) => {
    e.preventDefault();
    const p: typeof problems = {};
    if (!name.trim()) p.name = 'Give the key a name, e.g. the system that will hold it.';
    if (expiry === 'custom' && !date) p.expiry = 'Pick the date the key stops working.';
    setProblems(p);
    if (p.name || p.expiry) return;
    setBusy(true);
    try {
      const k = await api.createKey(name.trim(), expiry === 'custom' ? date : expiry);
      setCreated({ name: k.name, value: k.key });
      setName('');
      await load();
    } catch (err) {
      if (err instanceof ApiError)
        setProblems({
          name: err.field('name'),
          expiry: err.field('expiry'),
          form: err.details.length ? undefined : err.message,
        });
    } finally {
      setBusy(false);
    }
  };

  const legacy = list?.legacy_keys ?? [];
  const myLegacy = legacy.find((k) => k.user_id === props.me.user.id);

  return (
    <section class="page">
      <h1>API keys</h1>
      <p class="lead">
        Keys let scripts, CI jobs and AI assistants use the API as you, with your role. Each works only in
        this workspace. To rotate a key: create a new one, deploy it, check the old one’s last use has
        stopped, then revoke the old one.
      </p>

      {created ? (
        <NewKeyValue name={created.name} value={created.value} onDone={() => setCreated(null)} />
      ) : (
        <section class="panel" aria-labelledby="create-title">
          <h2 id="create-title">Create a key</h2>
          {atLimit && (
            <p class="notice" role="status">
              You have {MAX_ACTIVE} active keys, the most one user can have. Revoke a key you no longer use,
              then create the new one.
            </p>
          )}
          <form class="create-form" onSubmit={create} noValidate>
            <ErrorSummary problems={problems} />
            <TextField
              id="key-name"
              label="Name"
              problem={problems.name}
              class="grow"
              maxLength={NAME_MAX}
              placeholder="e.g. GitHub Actions deploy"
              value={name}
              onValue={setName}
            />
            <div class="field">
              <label for="key-expiry">Expiry</label>
              <select id="key-expiry" value={expiry} onChange={(e) => setExpiry(e.currentTarget.value)}>
                {EXPIRY.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </div>
            {expiry === 'custom' && (
              <div class="field">
                <label for="key-expiry-date">Expiry date</label>
                <input
                  id="key-expiry-date"
                  type="date"
                  min={tomorrow()}
                  value={date}
                  aria-invalid={problems.expiry ? true : undefined}
                  aria-describedby={problems.expiry ? 'expiry-problem' : undefined}
                  onInput={(e) => setDate(e.currentTarget.value)}
                />
              </div>
            )}
            <button type="submit" class="button primary" disabled={busy || atLimit}>
              Create key
            </button>
          </form>
          {problems.expiry && (
            <p class="field-problem" id="expiry-problem">
              {problems.expiry}
            </p>
          )}
          {expiry === 'custom' && (
            <p class="hint">A key with a custom date works through the end of that day (UTC).</p>
          )}
        </section>
      )}

      <section class="panel flush" aria-labelledby="keys-title">
        <div class="panel-head">
          <h2 id="keys-title">{admin ? 'Keys in this workspace' : 'Your keys'}</h2>
          <span class="muted">{list ? `${mine.length} of ${MAX_ACTIVE} active keys are yours` : ''}</span>
        </div>
        <ErrorBox message={loadError} />
        <ListBody items={list?.data} empty="No keys yet. Create one above.">
          {(keys) => (
            <table class="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  {admin && <th scope="col">Owner</th>}
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.map((k) => (
                  <tr key={k.id} class={k.status === 'revoked' ? 'revoked' : undefined}>
                    <th scope="row" class="key-name">
                      {k.name}
                    </th>
                    <td data-label="Key">
                      <code>…{k.last_four}</code>
                    </td>
                    {admin && <td data-label="Owner">{k.user_email}</td>}
                    <td data-label="Created" title={formatDateTime(k.created_at)}>
                      {formatDate(k.created_at)}
                    </td>
                    <td data-label="Expires" title={k.expires_at ? formatDateTime(k.expires_at) : undefined}>
                      {k.expires_at ? formatDate(k.expires_at) : <span class="muted">Never</span>}
                    </td>
                    <td data-label="Status">
                      <Status k={k} />
                    </td>
                    <td data-label="Last used">
                      <LastUsed k={k} />
                    </td>
                    <td class="actions">
                      {k.status !== 'revoked' && (
                        <button
                          type="button"
                          class="button danger-outline small"
                          aria-label={`Revoke ${k.name}`}
                          onClick={() => setConfirm({ kind: 'revoke', key: k })}
                        >
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </ListBody>
      </section>

      {legacy.length > 0 && (
        <section class="panel" aria-labelledby="legacy-title">
          <h2 id="legacy-title">Legacy key</h2>
          <p class="muted">
            The per-user key from before named keys. It keeps working; regenerate it to replace its value.
          </p>
          <ul class="legacy">
            {legacy.map((k) => (
              <li key={k.id}>
                <code>…{k.last_four}</code>
                {admin && <span>{k.user_email}</span>}
                <span class="muted">created {formatDate(k.created_at)}</span>
                <LastUsed k={k} />
              </li>
            ))}
          </ul>
          {myLegacy && (
            <button
              type="button"
              class="button"
              onClick={() => setConfirm({ kind: 'regenerate', key: myLegacy })}
            >
              Regenerate
            </button>
          )}
        </section>
      )}

      {confirm?.kind === 'revoke' && (
        <Confirm
          title={`Revoke “${confirm.key.name}”?`}
          body="Revocation is permanent and cannot be undone: anything using this key loses access at once. If you need access again, create a new key."
          action="Revoke"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await api.revokeKey(confirm.key.id);
            await load();
          }}
        />
      )}
      {confirm?.kind === 'regenerate' && (
        <Confirm
          title="Regenerate your legacy key?"
          body="The current value stops working at once. The new value is shown once."
          action="Regenerate"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            const k = await api.regenerateLegacyKey();
            setCreated({ name: k.name, value: k.key });
            await load();
          }}
        />
      )}
    </section>
  );
};
