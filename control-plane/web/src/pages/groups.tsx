import { useState } from 'preact/hooks';
import type { Me } from '../api.js';
import { type Group, groupsApi } from '../api-groups.js';
import { formatDateTime } from '../format.js';
import { Confirm } from '../kit/confirm.js';
import { ErrorBox } from '../kit/error-box.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { type Problems, problemsOf, TextField } from '../kit/field.js';
import { FormActions } from '../kit/form-actions.js';
import { ListBody, ShowMore, useList } from '../kit/paging.js';

/** A group's name, to create one or to rename one. */
const GroupForm = (props: {
  initial?: Group;
  onSubmit: (name: string) => Promise<void>;
  onCancel?: () => void;
}) => {
  const g = props.initial;
  const [name, setName] = useState(g?.name ?? '');
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      await props.onSubmit(name);
      setProblems({});
      if (!g) setName('');
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  const p = g ? `group-${g.id}` : 'group-new';
  return (
    <form class="create-form" onSubmit={submit} noValidate aria-label={g ? `Rename ${g.name}` : 'New group'}>
      <ErrorSummary problems={problems} />
      <TextField
        id={`${p}-name`}
        label="Name"
        problem={problems.name}
        class="grow"
        maxLength={100}
        placeholder="e.g. Edge routers"
        value={name}
        onValue={setName}
      />
      <FormActions
        busy={busy}
        submit={g ? 'Rename' : 'Create group'}
        {...(props.onCancel ? { onCancel: props.onCancel } : {})}
      />
    </form>
  );
};

/**
 * `/groups`: groups of monitors and heartbeats (one level), to list, search, create, rename and delete.
 * Members join a group from their own form (the Group field); each group links to its monitors.
 */
export const GroupsPage = (props: { me: Me }) => {
  const canWrite = props.me.user.role !== 'viewer';
  const [q, setQ] = useState('');
  const [editing, setEditing] = useState<Group | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const { items, next, error, busy, more, reload } = useList(
    (cursor) => groupsApi.listGroups(cursor, q.trim()),
    {
      deps: [q],
    },
  );
  return (
    <section class="page">
      <h1>Groups</h1>
      <p class="lead">
        A group gathers monitors and heartbeats (each in one group at most), say everything behind one switch.
        A status-page component can stand for a group; a maintenance window can cover one. Deleting a group
        keeps its members, ungrouped.
      </p>
      {canWrite && (
        <section class="panel" aria-labelledby="group-form-title">
          <h2 id="group-form-title">{editing ? `Rename ${editing.name}` : 'New group'}</h2>
          <GroupForm
            key={editing?.id ?? 'new'}
            {...(editing ? { initial: editing, onCancel: () => setEditing(null) } : {})}
            onSubmit={async (name) => {
              if (editing) {
                await groupsApi.renameGroup(editing.id, name);
                setEditing(null);
              } else await groupsApi.createGroup(name);
              await reload();
            }}
          />
        </section>
      )}
      <section class="panel flush" aria-labelledby="groups-title">
        <div class="panel-head">
          <h2 id="groups-title">All groups</h2>
          <input
            type="search"
            aria-label="Search groups"
            placeholder="Name"
            value={q}
            onInput={(e) => setQ(e.currentTarget.value)}
          />
        </div>
        <ErrorBox message={error} inset />
        <ListBody items={items} empty={q.trim() ? `No group matches “${q.trim()}”.` : 'No groups yet.'}>
          {(list) => (
            <table class="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((g) => (
                  <tr key={g.id}>
                    <th scope="row" class="key-name">
                      {g.name}
                    </th>
                    <td data-label="Created">{formatDateTime(g.created_at)}</td>
                    <td class="actions">
                      {canWrite && (
                        <>
                          <button
                            type="button"
                            class="button small"
                            aria-label={`Rename ${g.name}`}
                            onClick={() => setEditing(g)}
                          >
                            Rename
                          </button>
                          <button
                            type="button"
                            class="button small danger-outline"
                            aria-label={`Delete ${g.name}`}
                            onClick={() => setDeleting(g)}
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
        <ShowMore next={next} onMore={more} busy={busy} />
      </section>
      {deleting && (
        <Confirm
          title={`Delete “${deleting.name}”?`}
          body="Its monitors and heartbeats stay, in no group. A status-page component standing for it shows no data until you change it."
          action="Delete"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await groupsApi.deleteGroup(deleting.id);
            if (editing?.id === deleting.id) setEditing(null);
            await reload();
          }}
        />
      )}
    </section>
  );
};
