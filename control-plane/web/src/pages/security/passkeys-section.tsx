import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../../api.js';
import { type Passkey, PasskeyCancelled, passkeysApi } from '../../api-passkeys.js';
import { formatDate, formatDateTime, fromNow } from '../../format.js';
import { Confirm } from '../../kit/confirm.js';
import { ErrorBox } from '../../kit/error-box.js';
import { ErrorSummary } from '../../kit/error-summary.js';
import { type Problems, problemsOf, TextField } from '../../kit/field.js';

const MAX_PASSKEYS = 10;

/**
 * The passkeys part of `/settings/security`: your passkeys (name, created, last used, Remove) and
 * **Add a passkey**, which asks a name and then the browser (navigator.credentials, through
 * @simplewebauthn/browser) for a new passkey on this device or a security key.
 */
export const PasskeysSection = (props: { me: Me; onChanged: () => void }) => {
  const [list, setList] = useState<Passkey[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<Passkey | null>(null);

  const load = () =>
    passkeysApi
      .list()
      .then((r) => setList(r.data))
      .catch((e) => setLoadError(e instanceof Error ? e.message : 'Could not load your passkeys.'));
  useEffect(() => {
    load();
  }, []);

  const add = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setProblems({});
    try {
      await passkeysApi.add(name.trim());
      setAdding(false);
      setName('');
      await load();
      props.onChanged();
    } catch (err) {
      setProblems(err instanceof PasskeyCancelled ? { form: err.message } : problemsOf(err));
    } finally {
      setBusy(false);
    }
  };

  const full = (list?.length ?? 0) >= MAX_PASSKEYS;
  return (
    <section class="panel" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">Passkeys</h2>
      <p>
        A passkey signs you in with your device’s fingerprint, face or PIN, or a security key: no password to
        type, and it counts as your second step after a password.
      </p>
      <ErrorBox message={loadError} />
      {list && list.length > 0 && (
        <table class="keys passkeys">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((p) => (
              <tr key={p.id}>
                <th scope="row">{p.name}</th>
                <td data-label="Created" title={formatDateTime(p.created_at)}>
                  {formatDate(p.created_at)}
                </td>
                <td
                  data-label="Last used"
                  title={p.last_used_at ? formatDateTime(p.last_used_at) : undefined}
                >
                  {p.last_used_at ? fromNow(p.last_used_at) : <span class="muted">Never</span>}
                </td>
                <td class="actions">
                  <button
                    type="button"
                    class="button danger-outline small"
                    aria-label={`Remove ${p.name}`}
                    onClick={() => setRemoving(p)}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list && list.length === 0 && <p class="muted">No passkeys yet.</p>}
      {adding ? (
        <form onSubmit={add} noValidate>
          <ErrorSummary problems={problems} />
          <TextField
            id="passkey-name"
            label="Passkey name"
            hint="To tell your passkeys apart, such as “Work laptop” or “YubiKey”."
            problem={problems.name}
            maxLength={100}
            value={name}
            onValue={setName}
          />
          <p class="form-actions">
            <button type="submit" class="button primary" disabled={busy || name.trim() === ''}>
              {busy ? 'Waiting for your device…' : 'Create passkey'}
            </button>
            <button type="button" class="button subtle" onClick={() => setAdding(false)}>
              Cancel
            </button>
          </p>
        </form>
      ) : (
        <p>
          <button
            type="button"
            class="button primary"
            disabled={!list || full}
            onClick={() => {
              setProblems({});
              setAdding(true);
            }}
          >
            Add a passkey
          </button>
          {full && <span class="muted"> You have {MAX_PASSKEYS} passkeys, the most allowed.</span>}
        </p>
      )}
      {removing && (
        <Confirm
          title={`Remove the passkey “${removing.name}”?`}
          body="It will no longer sign you in. The passkey itself stays on the device; you can delete it there."
          action="Remove passkey"
          onConfirm={async () => {
            await passkeysApi.remove(removing.id);
            await load();
            props.onChanged();
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </section>
  );
};
