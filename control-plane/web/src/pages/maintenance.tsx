import { useState } from 'preact/hooks';
import type { Me } from '../api.js';
import { type MaintenanceScope, type MaintenanceWindow, routingApi } from '../api-routing.js';
import { formatDateTime } from '../format.js';
import { Confirm } from '../kit/confirm.js';
import { ErrorBox } from '../kit/error-box.js';
import { ErrorSummary } from '../kit/error-summary.js';
import { Field, type Problems, problemsOf, TextField } from '../kit/field.js';
import { FormActions } from '../kit/form-actions.js';
import { ListBody, useList } from '../kit/paging.js';
import { RecordName, RecordPicker } from '../kit/record-picker.js';
import { AdminsOnly } from '../routing-ui.js';

const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A Date as a datetime-local value, in the browser's zone. */
const localInput = (d: Date) => {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
};
/** A datetime-local value (the browser's zone) as ISO UTC, or '' when empty or invalid. */
const isoOf = (local: string) => {
  const d = new Date(local);
  return local && !Number.isNaN(d.getTime()) ? d.toISOString() : '';
};

const phase = (w: MaintenanceWindow, now = Date.now()) =>
  new Date(w.ends_at).getTime() <= now ? 'ended' : w.active ? 'active' : 'upcoming';
const PHASE = {
  active: { label: 'Active', css: 'status-maintenance' },
  upcoming: { label: 'Upcoming', css: 'status-pending' },
  ended: { label: 'Ended', css: 'revoked' },
} as const;

const WindowForm = (props: {
  initial?: MaintenanceWindow;
  onSubmit: (body: {
    name: string;
    scope_type: MaintenanceScope;
    scope_id?: string;
    starts_at: string;
    ends_at: string;
  }) => Promise<void>;
  onCancel?: () => void;
}) => {
  const i = props.initial;
  const start = () => {
    const d = new Date();
    d.setSeconds(0, 0);
    return d;
  };
  const [name, setName] = useState(i?.name ?? '');
  const [scope, setScope] = useState<MaintenanceScope>(i?.scope_type ?? 'workspace');
  const [scopeId, setScopeId] = useState(i?.scope_id ?? '');
  const [starts, setStarts] = useState(localInput(i ? new Date(i.starts_at) : start()));
  const [ends, setEnds] = useState(
    localInput(i ? new Date(i.ends_at) : new Date(start().getTime() + 2 * 3_600_000)),
  );
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      await props.onSubmit({
        name,
        scope_type: scope,
        ...(scope !== 'workspace' && scopeId ? { scope_id: scopeId } : {}),
        starts_at: isoOf(starts),
        ends_at: isoOf(ends),
      });
      setProblems({});
      if (!i) setName('');
    } catch (err) {
      setProblems(problemsOf(err));
    } finally {
      setBusy(false);
    }
  };
  const p = i ? `mw-${i.id}` : 'mw-new';
  return (
    <form class="create-form" onSubmit={submit} noValidate aria-label={i ? `Edit ${i.name}` : 'New window'}>
      <ErrorSummary problems={problems} />
      <TextField
        id={`${p}-name`}
        label="Name"
        problem={problems.name}
        class="grow"
        maxLength={200}
        placeholder="e.g. Database upgrade"
        value={name}
        onValue={setName}
      />
      <Field id={`${p}-scope`} label="Applies to" problem={problems.scope_type}>
        {(a) => (
          <select
            {...a}
            value={scope}
            disabled={!!i}
            onChange={(e) => {
              setScope(e.currentTarget.value as MaintenanceScope);
              setScopeId('');
            }}
          >
            <option value="workspace">Whole workspace</option>
            <option value="monitor">One monitor</option>
            <option value="heartbeat">One heartbeat</option>
          </select>
        )}
      </Field>
      {scope !== 'workspace' && (
        <RecordPicker
          key={scope}
          id={`${p}-target`}
          kind={scope}
          label={scope === 'monitor' ? 'Monitor' : 'Heartbeat'}
          problem={problems.scope_id}
          value={scopeId}
          disabled={!!i}
          onChange={setScopeId}
        />
      )}
      <TextField
        id={`${p}-starts`}
        label="Starts"
        problem={problems.starts_at}
        hint={ZONE}
        type="datetime-local"
        value={starts}
        onValue={setStarts}
      />
      <Field id={`${p}-ends`} label="Ends" problem={problems.ends_at} hint={ZONE}>
        {(a) => (
          <input {...a} type="datetime-local" value={ends} onInput={(e) => setEnds(e.currentTarget.value)} />
        )}
      </Field>
      <FormActions submit={i ? 'Save window' : 'Create window'} busy={busy} onCancel={props.onCancel} />
    </form>
  );
};

/** `/routing/maintenance` (admins): plan windows (times in the browser's zone), edit, end early. */
export const MaintenancePage = (props: { me: Me }) => {
  const admin = props.me.user.role === 'admin';
  const [editing, setEditing] = useState<MaintenanceWindow | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'end' | 'delete'; w: MaintenanceWindow } | null>(null);
  const { items: list, error, reload: load } = useList(() => routingApi.listMaintenanceWindows(), admin);
  if (!admin) return <AdminsOnly title="Maintenance windows" />;

  const scopeText = (w: MaintenanceWindow) =>
    w.scope_type === 'workspace' ? (
      'Whole workspace'
    ) : (
      <>
        {w.scope_type === 'monitor' ? 'Monitor' : 'Heartbeat'}:{' '}
        <RecordName kind={w.scope_type} id={w.scope_id} />
      </>
    );

  return (
    <section class="page">
      <h1>Maintenance windows</h1>
      <p class="lead">
        During a window, alerts of what it covers are recorded but nobody is notified. Times are in your
        browser’s zone ({ZONE}).
      </p>
      <section class="panel" aria-labelledby="mw-form-title">
        <h2 id="mw-form-title">{editing ? `Edit ${editing.name}` : 'New window'}</h2>
        <WindowForm
          key={editing?.id ?? 'new'}
          {...(editing ? { initial: editing, onCancel: () => setEditing(null) } : {})}
          onSubmit={async (body) => {
            if (editing) {
              await routingApi.updateMaintenanceWindow(editing.id, {
                name: body.name,
                starts_at: body.starts_at,
                ends_at: body.ends_at,
              });
              setEditing(null);
            } else await routingApi.createMaintenanceWindow(body);
            await load();
          }}
        />
      </section>
      <section class="panel flush" aria-labelledby="mw-title">
        <div class="panel-head">
          <h2 id="mw-title">Windows</h2>
          <span class="muted">latest start first</span>
        </div>
        <ErrorBox message={error} inset />
        <ListBody items={list} empty="No maintenance windows yet.">
          {(list) => (
            <table class="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Applies to</th>
                  <th scope="col">Starts</th>
                  <th scope="col">Ends</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((w) => {
                  const ph = phase(w);
                  return (
                    <tr key={w.id} class={ph === 'ended' ? 'revoked' : undefined}>
                      <th scope="row" class="key-name">
                        {w.name}
                      </th>
                      <td data-label="Applies to">{scopeText(w)}</td>
                      <td data-label="Starts">{formatDateTime(w.starts_at)}</td>
                      <td data-label="Ends">{formatDateTime(w.ends_at)}</td>
                      <td data-label="Status">
                        <span class={`badge ${PHASE[ph].css}`}>{PHASE[ph].label}</span>
                      </td>
                      <td class="actions">
                        {ph !== 'ended' && (
                          <button
                            type="button"
                            class="button small"
                            aria-label={`Edit ${w.name}`}
                            onClick={() => setEditing(w)}
                          >
                            Edit
                          </button>
                        )}
                        {ph === 'active' && (
                          <button
                            type="button"
                            class="button small danger-outline"
                            aria-label={`End ${w.name} now`}
                            onClick={() => setConfirm({ kind: 'end', w })}
                          >
                            End now
                          </button>
                        )}
                        {ph !== 'active' && (
                          <button
                            type="button"
                            class="button small danger-outline"
                            aria-label={`Delete ${w.name}`}
                            onClick={() => setConfirm({ kind: 'delete', w })}
                          >
                            Delete
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </ListBody>
      </section>
      {confirm?.kind === 'end' && (
        <Confirm
          title={`End “${confirm.w.name}” now?`}
          body="Its end becomes now: alerts of what it covers notify people again from this moment."
          action="End now"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await routingApi.endMaintenanceWindow(confirm.w.id);
            await load();
          }}
        />
      )}
      {confirm?.kind === 'delete' && (
        <Confirm
          title={`Delete “${confirm.w.name}”?`}
          body="The window and its record are removed."
          action="Delete"
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await routingApi.deleteMaintenanceWindow(confirm.w.id);
            await load();
          }}
        />
      )}
    </section>
  );
};
