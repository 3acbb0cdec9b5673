import { useState } from 'preact/hooks';
import type { Me } from '../api.js';
import { type MaintenanceWindow, routingApi } from '../api-routing.js';
import { formatDateTime } from '../format.js';
import { Confirm } from '../kit/confirm.js';
import { ErrorBox } from '../kit/error-box.js';
import { ListBody, useList } from '../kit/paging.js';
import { RecordName } from '../kit/record-picker.js';
import { AdminsOnly } from '../routing-ui.js';
import { SCOPE_LABEL, WindowForm, ZONE } from './maintenance-form.js';

/** Ended (a one-off window past its end), active (an occurrence now), else upcoming. */
const phase = (w: MaintenanceWindow) => (!w.next_occurrence ? 'ended' : w.active ? 'active' : 'upcoming');
const PHASE = {
  active: { label: 'Active', css: 'status-maintenance' },
  upcoming: { label: 'Upcoming', css: 'status-pending' },
  ended: { label: 'Ended', css: 'revoked' },
} as const;

const span = (o: { starts_at: string; ends_at: string }) =>
  `${formatDateTime(o.starts_at)} – ${formatDateTime(o.ends_at)}`;

/** `/routing/maintenance` (admins): plan windows (times in the browser's zone), edit, end early. */
export const MaintenancePage = (props: { me: Me }) => {
  const admin = props.me.user.role === 'admin';
  const [editing, setEditing] = useState<MaintenanceWindow | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'end' | 'delete'; w: MaintenanceWindow } | null>(null);
  const {
    items: list,
    error,
    reload: load,
  } = useList(() => routingApi.listMaintenanceWindows(), { enabled: admin });
  if (!admin) return <AdminsOnly title="Maintenance windows" />;

  const scopeText = (w: MaintenanceWindow) =>
    w.scope_type === 'workspace' ? (
      SCOPE_LABEL.workspace
    ) : (
      <>
        {SCOPE_LABEL[w.scope_type]}:{' '}
        {w.scope_type === 'tag' ? (
          <code>{w.scope_id}</code>
        ) : (
          <RecordName kind={w.scope_type} id={w.scope_id} />
        )}
      </>
    );

  return (
    <section class="page">
      <h1>Maintenance windows</h1>
      <p class="lead">
        During a window, alerts of what it covers are recorded but nobody is notified. A window happens once,
        or again and again on a cron schedule (say, every Sunday night). One-off times are in your browser’s
        zone ({ZONE}).
      </p>
      <section class="panel" aria-labelledby="mw-form-title">
        <h2 id="mw-form-title">{editing ? `Edit ${editing.name}` : 'New window'}</h2>
        <WindowForm
          key={editing?.id ?? 'new'}
          {...(editing ? { initial: editing, onCancel: () => setEditing(null) } : {})}
          onSubmit={async (body) => {
            if (editing) {
              const { scope_type: _t, scope_id: _s, ...patch } = body;
              await routingApi.updateMaintenanceWindow(editing.id, patch);
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
                  <th scope="col">When</th>
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
                      <td data-label="When" class="prose">
                        {w.schedule_text ? (
                          <>
                            {w.schedule_text}
                            <br />
                            <span class="muted">
                              {w.next_occurrence ? `Next: ${span(w.next_occurrence)}` : ''}
                            </span>
                          </>
                        ) : w.starts_at && w.ends_at ? (
                          span({ starts_at: w.starts_at, ends_at: w.ends_at })
                        ) : (
                          ''
                        )}
                      </td>
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
                        {ph === 'active' && !w.schedule && (
                          <button
                            type="button"
                            class="button small danger-outline"
                            aria-label={`End ${w.name} now`}
                            onClick={() => setConfirm({ kind: 'end', w })}
                          >
                            End now
                          </button>
                        )}
                        {(ph !== 'active' || w.schedule) && (
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
