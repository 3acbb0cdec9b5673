import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type Me, type Member, type Role } from '../api.js';
import { formatDate, formatDateTime, fromNow } from '../format.js';
import { Confirm } from '../kit/confirm.js';
import { ErrorBox, Notice } from '../kit/error-box.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { Field, TextField } from '../kit/field.js';
import { readAll } from '../kit/paging.js';
import { CopyValue } from '../routing-ui.js';
import { SignInsCell } from './sign-in-activity.js';

const ROLES: { value: Role; label: string; what: string }[] = [
  { value: 'viewer', label: 'Viewer', what: 'reads everything' },
  { value: 'member', label: 'Member', what: 'also changes monitors, heartbeats and alerts' },
  { value: 'admin', label: 'Admin', what: 'also manages users, keys and settings' },
];
const roleLabel = (r: Role) => ROLES.find((x) => x.value === r)?.label ?? r;

/** The link of a new invitation, shown this once, with a copy button. */
const InvitationLink = (props: { email: string; url: string; onDone: () => void }) => {
  return (
    <section class="panel new-key" aria-labelledby="invite-link-title">
      <h2 id="invite-link-title">Invitation for {props.email}</h2>
      <p class="warning">
        Send this link to them: <strong>it will not be shown again.</strong> It works once, for 7 days, to set
        a password. Lookout does not email it.
      </p>
      <CopyValue
        label="Invitation link"
        value={props.url}
        hint="Lost it? Invite the same email again for a new link."
      />
      <button type="button" class="button" onClick={props.onDone}>
        Done
      </button>
    </section>
  );
};

const Status = (props: { u: Member }) => {
  if (props.u.status === 'active') return <span class="badge active">Active</span>;
  const exp = props.u.invitation_expires_at;
  const expired = !exp || new Date(exp).getTime() <= Date.now();
  return (
    <span>
      <span class={`badge ${expired ? 'expired' : 'invited'}`}>{expired ? 'Link expired' : 'Invited'}</span>
      {exp && !expired && (
        <span class="muted block small" title={formatDateTime(exp)}>
          link expires {fromNow(exp)}
        </span>
      )}
    </span>
  );
};

/** A user's role: a choice, saved by its own button (arrow keys on the choice change nothing yet). */
const RoleCell = (props: { u: Member; onSaved: (u: Member) => void; onError: (m: string) => void }) => {
  const [role, setRole] = useState<Role>(props.u.role);
  const [busy, setBusy] = useState(false);
  useEffect(() => setRole(props.u.role), [props.u.role]);
  const save = async () => {
    setBusy(true);
    try {
      props.onSaved(await api.changeRole(props.u.id, role));
    } catch (e) {
      props.onError(e instanceof Error ? e.message : 'The role was not changed.');
      setRole(props.u.role);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="role-cell">
      <select
        aria-label={`Role of ${props.u.email}`}
        value={role}
        onChange={(e) => setRole(e.currentTarget.value as Role)}
      >
        {ROLES.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </select>
      {role !== props.u.role && (
        <button
          type="button"
          class="button primary small"
          aria-label={`Save role of ${props.u.email}`}
          disabled={busy}
          onClick={save}
        >
          Save
        </button>
      )}
    </div>
  );
};

/** `/settings/users` (admins): invite by email and role (a one-time link), change roles, remove. */
export const UsersPage = (props: { me: Me }) => {
  const admin = props.me.user.role === 'admin';
  const [users, setUsers] = useState<Member[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [problems, setProblems] = useState<{ email?: string; role?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const [invited, setInvited] = useState<{ email: string; url: string } | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);

  const load = async () => {
    try {
      setUsers(await readAll((cursor) => api.listUsers(cursor)));
      setLoadError(null);
    } catch (e) {
      setLoadError(e instanceof Error ? e.message : 'The users could not be loaded.');
    }
  };
  useEffect(() => {
    if (admin) void load();
  }, [admin]);

  if (!admin)
    return (
      <section class="page">
        <h1>Users</h1>
        <p class="lead">Only admins of the workspace manage its users. Ask an admin to invite someone.</p>
      </section>
    );

  const invite = async (e: Event) => {
    e.preventDefault();
    const p: typeof problems = {};
    if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) p.email = 'Enter the email address of the person to invite.';
    setProblems(p);
    if (p.email) return;
    setBusy(true);
    setNotice(null);
    try {
      const r = await api.inviteUser(email.trim(), role);
      setInvited({ email: r.email, url: r.invitation_url });
      setEmail('');
      await load();
    } catch (err) {
      if (err instanceof ApiError)
        setProblems({
          email: err.field('email'),
          role: err.field('role'),
          form: err.details.length ? undefined : err.message,
        });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="page">
      <h1>Users</h1>
      <p class="lead">
        Everyone who can sign in to this workspace. Viewers read; members also change monitors, heartbeats and
        alerts; admins also manage users, everyone’s API keys and settings.
      </p>

      {invited ? (
        <InvitationLink email={invited.email} url={invited.url} onDone={() => setInvited(null)} />
      ) : (
        <section class="panel" aria-labelledby="invite-title">
          <h2 id="invite-title">Invite a user</h2>
          <form class="create-form" onSubmit={invite} noValidate>
            <ErrorSummary problems={problems} />
            <TextField
              id="invite-email"
              label="Email"
              problem={problems.email}
              class="grow"
              type="email"
              autocomplete="off"
              placeholder="name@example.com"
              value={email}
              onValue={setEmail}
            />
            <Field id="invite-role" label="Role" problem={problems.role}>
              {(a) => (
                <select {...a} value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
                  {ROLES.map((r) => (
                    <option key={r.value} value={r.value}>
                      {r.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <button type="submit" class="button primary" disabled={busy}>
              Invite user
            </button>
          </form>
          <p class="hint">
            {roleLabel(role)}: {ROLES.find((r) => r.value === role)?.what}. You get a link to pass on; it is
            valid for 7 days.
          </p>
        </section>
      )}

      <section class="panel flush" aria-labelledby="users-title">
        <div class="panel-head">
          <h2 id="users-title">Users in this workspace</h2>
          <span class="muted">{users ? `${users.length} ${users.length === 1 ? 'user' : 'users'}` : ''}</span>
        </div>
        <Notice notice={notice} inset />
        <ErrorBox message={loadError} inset />
        {users && (
          <div class="table-wrap">
            <table class="keys users">
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Added</th>
                  <th scope="col">Sign-ins</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.map((u) => {
                  const self = u.id === props.me.user.id;
                  return (
                    <tr key={u.id}>
                      <th scope="row" class="key-name">
                        {u.email}
                        {self && <span class="muted"> (you)</span>}
                      </th>
                      <td data-label="Role">
                        {self ? (
                          roleLabel(u.role)
                        ) : (
                          <RoleCell
                            u={u}
                            onSaved={(next) => {
                              setNotice({
                                ok: true,
                                text: `${next.email} is now ${roleLabel(next.role).toLowerCase()}.`,
                              });
                              void load();
                            }}
                            onError={(text) => setNotice({ ok: false, text })}
                          />
                        )}
                      </td>
                      <td data-label="Status">
                        <Status u={u} />
                      </td>
                      <td data-label="Added" title={formatDateTime(u.created_at)}>
                        {formatDate(u.created_at)}
                      </td>
                      <td data-label="Sign-ins">
                        <SignInsCell m={u} />
                      </td>
                      <td class="actions">
                        {!self && (
                          <button
                            type="button"
                            class="button danger-outline small"
                            aria-label={`Remove ${u.email}`}
                            onClick={() => setRemoving(u)}
                          >
                            Remove
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {removing && (
        <Confirm
          title={`Remove ${removing.email}?`}
          body="They are signed out everywhere and their API keys are revoked at once, and they leave the escalation steps they share with others. If a step notifies only them, the removal is refused: change that escalation policy first. They also leave every on-call rotation (the others keep their turns). This cannot be undone: to let them back in, invite them again."
          action="Remove"
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            const removed = await api.removeUser(removing.id);
            const empty = removed.schedules.filter((s) => s.empty_layers.length > 0);
            setNotice({
              ok: empty.length === 0,
              text:
                `${removing.email} was removed.` +
                (empty.length > 0
                  ? ` Nobody is left in ${empty
                      .map((s) => `${s.name} (layer ${s.empty_layers.join(', ')})`)
                      .join('; ')}: add someone there, or nobody is on call when those layers cover.`
                  : ''),
            });
            await load();
          }}
        />
      )}
    </section>
  );
};
