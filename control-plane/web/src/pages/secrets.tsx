import { useState } from 'preact/hooks';
import { ApiError, type Me } from '../api.js';
import { type Secret, secretsApi } from '../api-secrets.js';
import { formatDateTime } from '../format.js';
import { Confirm } from '../kit/confirm.js';
import { ErrorBox } from '../kit/error-box.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { type Problems, problemsOf, TextField } from '../kit/field.js';
import { FormActions } from '../kit/form-actions.js';
import { ListBody, useList } from '../kit/paging.js';
import { followLink } from '../router.js';

/** The name and value of a new secret, or the new value of one (its name fixed). */
const SecretForm = (props: { replacing?: Secret; onSaved: () => Promise<void>; onCancel?: () => void }) => {
  const s = props.replacing;
  const [name, setName] = useState(s?.name ?? '');
  const [value, setValue] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      await secretsApi.putSecret(name.trim(), value);
      setProblems({});
      setValue('');
      if (!s) setName('');
      await props.onSaved();
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  const p = s ? `secret-${s.name}` : 'secret-new';
  return (
    <form
      class="create-form"
      onSubmit={submit}
      noValidate
      aria-label={s ? `Replace ${s.name}` : 'Add secret'}
    >
      <ErrorSummary problems={problems} />
      {!s && (
        <TextField
          id={`${p}-name`}
          label="Name"
          problem={problems.name}
          hint="Upper case, digits and _, e.g. PAY_TOKEN"
          maxLength={64}
          autocomplete="off"
          spellcheck={false}
          value={name}
          onValue={(v) => setName(v.toUpperCase())}
        />
      )}
      <TextField
        id={`${p}-value`}
        label={s ? 'New value' : 'Value'}
        type="password"
        autocomplete="new-password"
        problem={problems.value}
        class="grow"
        maxLength={8192}
        value={value}
        onValue={setValue}
      />
      <FormActions
        busy={busy}
        submit={s ? 'Replace value' : 'Add secret'}
        {...(props.onCancel ? { onCancel: props.onCancel } : {})}
      />
    </form>
  );
};

/** A 409 of a used secret in words: which monitors use it. */
const deleteRefusal = (e: unknown) =>
  e instanceof ApiError && e.status === 409 && e.field('monitors')
    ? new Error(`It cannot be deleted: ${e.field('monitors')}. Change those monitors first.`)
    : e;

/**
 * `/settings/secrets`: the workspace secrets multi-step checks use as {{secrets.NAME}} and browser
 * checks as secrets.NAME. Everyone sees the names, a hint of each value and the monitors using it;
 * admins add, replace and delete. A value is never shown, not even to admins.
 */
export const SecretsPage = (props: { me: Me }) => {
  const isAdmin = props.me.user.role === 'admin';
  const [replacing, setReplacing] = useState<Secret | null>(null);
  const [deleting, setDeleting] = useState<Secret | null>(null);
  const { items, error, reload } = useList(async () => secretsApi.listSecrets());
  return (
    <section class="page">
      <h1>Secrets</h1>
      <p class="lead">
        Values your checks send without showing them: a multi-step check names one as{' '}
        <code>{'{{secrets.NAME}}'}</code> in a URL, header or body; a browser check reads{' '}
        <code>secrets.NAME</code>. Values are write-only: nobody can read one back, and results and logs never
        show them. Anyone who can edit a monitor can use a secret, and a check sends it where its URL points.
      </p>
      {isAdmin && (
        <section class="panel" aria-labelledby="secret-form-title">
          <h2 id="secret-form-title">{replacing ? `Replace ${replacing.name}` : 'Add secret'}</h2>
          <SecretForm
            key={replacing?.name ?? 'new'}
            {...(replacing ? { replacing, onCancel: () => setReplacing(null) } : {})}
            onSaved={async () => {
              setReplacing(null);
              await reload();
            }}
          />
        </section>
      )}
      <section class="panel flush" aria-labelledby="secrets-title">
        <div class="panel-head">
          <h2 id="secrets-title">Workspace secrets</h2>
        </div>
        <ErrorBox message={error} inset />
        <ListBody items={items} empty="No secrets yet.">
          {(list) => (
            <table class="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Value</th>
                  <th scope="col">Used by</th>
                  <th scope="col">Updated</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((s) => (
                  <tr key={s.name}>
                    <th scope="row" class="key-name">
                      <code>{s.name}</code>
                    </th>
                    <td data-label="Value">
                      {s.hint ? (
                        <span>
                          <span aria-hidden="true">••••</span>
                          <span class="visually-hidden">ending in </span>
                          {s.hint}
                        </span>
                      ) : (
                        <span class="muted">set (too short for a hint)</span>
                      )}
                    </td>
                    <td data-label="Used by">
                      {s.used_by.length === 0 ? (
                        <span class="muted">No monitor</span>
                      ) : (
                        s.used_by.map((m, i) => (
                          <span key={m.id}>
                            {i > 0 && ', '}
                            <a href={`/monitors/${m.id}`} onClick={followLink}>
                              {m.display_name}
                            </a>
                          </span>
                        ))
                      )}
                    </td>
                    <td data-label="Updated">{formatDateTime(s.updated_at)}</td>
                    <td class="actions">
                      {isAdmin && (
                        <>
                          <button
                            type="button"
                            class="button small"
                            aria-label={`Replace value of ${s.name}`}
                            onClick={() => setReplacing(s)}
                          >
                            Replace value
                          </button>
                          <button
                            type="button"
                            class="button small danger-outline"
                            aria-label={`Delete ${s.name}`}
                            onClick={() => setDeleting(s)}
                          >
                            Delete
                          </button>
                        </>
                      )}
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
          title={`Delete ${deleting.name}?`}
          body="Its value is gone for good. A monitor still naming it cannot be saved until it names another."
          action="Delete"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            try {
              await secretsApi.deleteSecret(deleting.name);
            } catch (e) {
              throw deleteRefusal(e);
            }
            if (replacing?.name === deleting.name) setReplacing(null);
            await reload();
          }}
        />
      )}
    </section>
  );
};
