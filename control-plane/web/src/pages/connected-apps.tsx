import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, type ConnectedApp, type Me } from '../api.js';
import { formatDate, formatDateTime } from '../format.js';
import { Confirm } from '../kit/confirm.js';
import { ErrorBox } from '../kit/error-box.js';
import { ListBody } from '../kit/paging.js';

const hostOf = (uri: string) => {
  try {
    const u = new URL(uri);
    return u.host || u.protocol;
  } catch {
    return uri;
  }
};

const nameOf = (a: ConnectedApp) => a.client_name ?? a.client_id;

/** One list of connected apps: yours, or (admins) everyone's, with the user each acts as. */
const AppsPanel = (props: {
  id: string;
  title: string;
  withUser: boolean;
  empty: ComponentChildren;
  load: () => Promise<{ data: ConnectedApp[] }>;
  revoke: (id: string) => Promise<unknown>;
  /** Bumped when the other list changed something this one shows. */
  version: number;
  onChanged: () => void;
}) => {
  const [apps, setApps] = useState<ConnectedApp[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<ConnectedApp | null>(null);
  const load = () =>
    props.load().then(
      (l) => {
        setApps(l.data);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  // Loads at first, and again when the other list revoked one.
  useEffect(() => {
    void load();
  }, [props.version]);
  const label = (a: ConnectedApp) =>
    props.withUser ? `${nameOf(a)} for ${a.user_email ?? a.user_id}` : nameOf(a);

  return (
    <section class="panel flush" aria-labelledby={props.id}>
      <div class="panel-head">
        <h2 id={props.id}>{props.title}</h2>
      </div>
      <ErrorBox message={error} />
      <ListBody items={apps} empty={props.empty}>
        {(apps) => (
          <table class="keys">
            <thead>
              <tr>
                <th scope="col">App</th>
                {props.withUser && <th scope="col">Acts as</th>}
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
                    {nameOf(a)}
                  </th>
                  {props.withUser && <td data-label="Acts as">{a.user_email ?? a.user_id}</td>}
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
                      aria-label={`Revoke ${label(a)}`}
                      onClick={() => setConfirm(a)}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListBody>
      {confirm && (
        <Confirm
          title={`Revoke “${label(confirm)}”?`}
          body={`It loses access at once: its access and refresh tokens stop working. To use it again, ${props.withUser ? 'its user connects' : 'connect'} it again from the assistant.`}
          action="Revoke"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await props.revoke(confirm.id);
            await load();
            props.onChanged();
          }}
        />
      )}
    </section>
  );
};

/**
 * `/settings/connected-apps`: the AI assistants you connected (hosted MCP, OAuth), and Revoke; admins
 * also see (and may revoke) every user's.
 */
export const ConnectedAppsPage = (props: { me: Me }) => {
  const admin = props.me.user.role === 'admin';
  // An admin's own apps are in both lists: a revoke in one reloads the other.
  const [mine, setMine] = useState(0);
  const [everyone, setEveryone] = useState(0);
  const connect = (
    <>
      No connected apps. In an assistant that supports remote MCP connectors, add{' '}
      <code>{location.origin}/mcp</code> and allow it here when asked.
    </>
  );

  return (
    <section class="page">
      <h1>Connected apps</h1>
      <p class="lead">
        AI assistants you connected to Lookout through its MCP connector at <code>{location.origin}/mcp</code>
        . Each acts as you, with your role, until you revoke it.
        {admin && ' As an admin, you also see every user’s below, and may revoke any of them.'}
      </p>
      <AppsPanel
        id="apps-title"
        title="Your connected apps"
        withUser={false}
        empty={connect}
        load={api.listConnectedApps}
        revoke={api.revokeConnectedApp}
        version={mine}
        onChanged={() => setEveryone((n) => n + 1)}
      />
      {admin && (
        <AppsPanel
          id="workspace-apps-title"
          title="Connected apps in this workspace"
          withUser={true}
          empty="No one in this workspace has connected an app."
          load={api.listWorkspaceConnectedApps}
          revoke={api.revokeWorkspaceConnectedApp}
          version={everyone}
          onChanged={() => setMine((n) => n + 1)}
        />
      )}
    </section>
  );
};
