import { useEffect, useState } from 'preact/hooks';
import { api, type ConnectedApp } from '../api.js';
import { Confirm } from '../confirm.js';
import { formatDate, formatDateTime } from '../format.js';

const hostOf = (uri: string) => {
  try {
    const u = new URL(uri);
    return u.host || u.protocol;
  } catch {
    return uri;
  }
};

/** `/settings/connected-apps`: the AI assistants you connected (hosted MCP, OAuth), and Revoke. */
export const ConnectedAppsPage = () => {
  const [apps, setApps] = useState<ConnectedApp[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<ConnectedApp | null>(null);
  const load = () =>
    api.listConnectedApps().then(
      (l) => {
        setApps(l.data);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  useEffect(() => {
    void load();
  }, []);
  const name = (a: ConnectedApp) => a.client_name ?? a.client_id;

  return (
    <section class="page">
      <h1>Connected apps</h1>
      <p class="lead">
        AI assistants you connected to Lookout through its MCP connector at <code>{location.origin}/mcp</code>
        . Each acts as you, with your role, until you revoke it.
      </p>
      <section class="panel flush" aria-labelledby="apps-title">
        <div class="panel-head">
          <h2 id="apps-title">Your connected apps</h2>
        </div>
        {error && (
          <p class="error-box" role="alert">
            {error}
          </p>
        )}
        {apps && apps.length === 0 && (
          <p class="empty">
            No connected apps. In an assistant that supports remote MCP connectors, add{' '}
            <code>{location.origin}/mcp</code> and allow it here when asked.
          </p>
        )}
        {apps && apps.length > 0 && (
          <div class="table-wrap">
            <table class="keys">
              <thead>
                <tr>
                  <th scope="col">App</th>
                  <th scope="col">Returns to</th>
                  <th scope="col">Connected</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {apps.map((a) => (
                  <tr key={a.id}>
                    <th scope="row" class="key-name">
                      {name(a)}
                    </th>
                    <td data-label="Returns to">{a.redirect_uris.map(hostOf).join(', ')}</td>
                    <td data-label="Connected" title={formatDateTime(a.granted_at)}>
                      {formatDate(a.granted_at)}
                    </td>
                    <td data-label="Expires" title={a.expires_at ? formatDateTime(a.expires_at) : undefined}>
                      {a.expires_at ? formatDate(a.expires_at) : <span class="muted">Never</span>}
                    </td>
                    <td class="actions">
                      <button
                        type="button"
                        class="button danger-outline small"
                        aria-label={`Revoke ${name(a)}`}
                        onClick={() => setConfirm(a)}
                      >
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {confirm && (
        <Confirm
          title={`Revoke “${name(confirm)}”?`}
          body="It loses access at once: its access and refresh tokens stop working. To use it again, connect it again from the assistant."
          action="Revoke"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await api.revokeConnectedApp(confirm.id);
            await load();
          }}
        />
      )}
    </section>
  );
};
