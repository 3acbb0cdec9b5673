import { useEffect, useState } from 'preact/hooks';
import { type Actor, type Alert, type AlertSourceType, type AlertStatus, api, type Me } from '../api.js';
import { formatDateTime, fromNow } from '../format.js';
import { Confirm } from '../kit/confirm.js';
import { ErrorBox, Notice } from '../kit/error-box.js';
import { useList } from '../kit/paging.js';
import { followLink } from '../router.js';

const STATUS_LABEL: Record<AlertStatus, string> = {
  open: 'Open',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
};
const FILTERS = [
  { value: 'open,acknowledged', label: 'Unresolved' },
  { value: 'open', label: 'Open' },
  { value: 'acknowledged', label: 'Acknowledged' },
  { value: 'resolved', label: 'Resolved' },
  { value: '', label: 'All' },
];
const SOURCES = [
  { value: '', label: 'All sources' },
  { value: 'monitor', label: 'Monitors' },
  { value: 'heartbeat', label: 'Heartbeats' },
  { value: 'integration', label: 'Integrations' },
  { value: 'region', label: 'Regions' },
];

export const AlertStatusBadge = (props: { status: AlertStatus }) => (
  <span class={`badge alert-${props.status}`}>
    <span class="dot" aria-hidden="true" />
    {STATUS_LABEL[props.status]}
  </span>
);

/** Where an alert came from, linking to it when the app has a page for it. */
export const Source = (props: { a: Alert }) => {
  const { source_type: t, source_id: id } = props.a;
  if (t === 'monitor')
    return (
      <a href={`/monitors/${id}`} onClick={followLink}>
        Monitor
      </a>
    );
  if (t === 'heartbeat')
    return (
      <a href={`/heartbeats/${id}`} onClick={followLink}>
        Heartbeat
      </a>
    );
  if (t === 'region')
    return (
      <a href="/regions" onClick={followLink}>
        Region {id}
      </a>
    );
  return <span>Integration · {props.a.cause}</span>;
};

/** Who did something to an alert, as far as the alert says. */
export const actorName = (by: Actor | null, me: Me) => {
  if (!by) return 'someone';
  if (by.type === 'system') return 'Lookout (the check recovered)';
  if (by.type === 'integration') return 'the sending integration';
  if (by.type === 'link') return `${by.recipient}, from the link in their ${by.via} notification`;
  return by.user_id === me.user.id ? `you (${me.user.email})` : 'another user';
};

export const RESOLVE_WARNING =
  'Resolving is final: a resolved alert is never reopened. If the problem comes back, a new alert is raised.';

/** `/alerts`: alerts by status and source, with their age; acknowledge or resolve one or several; live. */
export const AlertsPage = (props: { me: Me }) => {
  const canAct = props.me.user.role !== 'viewer';
  // `?status=open`: where a grouped notification's "and K more" link lands.
  const [status, setStatus] = useState(() => {
    const asked = new URLSearchParams(location.search).get('status');
    return FILTERS.some((f) => f.value === asked) ? asked! : 'open,acknowledged';
  });
  const [source, setSource] = useState<AlertSourceType | ''>('');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [resolving, setResolving] = useState<Alert[] | null>(null);
  const [busy, setBusy] = useState(false);

  // Live, the newest page only (the foot says so when there are more).
  const {
    items: alerts,
    next,
    error,
    reload: load,
  } = useList(() => api.listAlerts({ status, source_type: source }), {
    deps: [status, source],
    poll: 'until-more',
  });
  // A selection holds only alerts still listed.
  useEffect(() => {
    if (alerts) setSelected((s) => new Set([...s].filter((id) => alerts.some((a) => a.id === id))));
  }, [alerts]);

  const acknowledge = async (list: Alert[]) => {
    setBusy(true);
    try {
      const r = await api.acknowledgeAlerts(list.map((a) => a.id));
      const n = r.acknowledged.length;
      const skipped = r.already_acknowledged.length + r.already_resolved.length;
      setNotice({
        ok: true,
        text: `${n === 1 && list.length === 1 ? `“${list[0]!.title}” was` : `${n} ${n === 1 ? 'alert was' : 'alerts were'}`} acknowledged: escalation stopped.${skipped ? ` ${skipped} already acknowledged or resolved.` : ''}`,
      });
      setSelected(new Set());
      await load();
    } catch (e) {
      setNotice({ ok: false, text: e instanceof Error ? e.message : 'Nothing was acknowledged.' });
    } finally {
      setBusy(false);
    }
  };

  const chosen = (alerts ?? []).filter((a) => selected.has(a.id));
  const selectable = (alerts ?? []).filter((a) => a.status !== 'resolved');
  const allChosen = selectable.length > 0 && selectable.every((a) => selected.has(a.id));
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const n = new Set(s);
      if (on) n.add(id);
      else n.delete(id);
      return n;
    });

  return (
    <section class="page">
      <h1>Alerts</h1>
      <p class="lead">
        Raised by failing checks, missed heartbeats and connected tools. Acknowledge to stop the escalation;
        resolve when it is over. This page updates itself every few seconds.
      </p>
      <Notice notice={notice} />
      <section class="panel flush" aria-labelledby="alerts-title" aria-busy={alerts === null}>
        <div class="panel-head">
          <h2 id="alerts-title">{FILTERS.find((f) => f.value === status)?.label} alerts</h2>
          <div class="filters">
            <div class="field inline">
              <label for="alert-status">Show</label>
              <select id="alert-status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
                {FILTERS.map((f) => (
                  <option key={f.value} value={f.value}>
                    {f.label}
                  </option>
                ))}
              </select>
            </div>
            <div class="field inline">
              <label for="alert-source">Source</label>
              <select
                id="alert-source"
                value={source}
                onChange={(e) => setSource(e.currentTarget.value as AlertSourceType | '')}
              >
                {SOURCES.map((f) => (
                  <option key={f.value} value={f.value}>
                    {f.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </div>
        {canAct && chosen.length > 0 && (
          <div class="bulk">
            <span>{chosen.length} selected</span>
            <button
              type="button"
              class="button small"
              disabled={busy || !chosen.some((a) => a.status === 'open')}
              onClick={() => acknowledge(chosen)}
            >
              Acknowledge selected
            </button>
            <button
              type="button"
              class="button small danger-outline"
              disabled={busy}
              onClick={() => setResolving(chosen)}
            >
              Resolve selected
            </button>
          </div>
        )}
        <ErrorBox message={error} inset />
        {alerts && alerts.length === 0 && (
          <p class="empty">
            {status === 'open,acknowledged' ? 'Nothing unresolved. All quiet.' : 'No alerts here.'}
          </p>
        )}
        {alerts && alerts.length > 0 && (
          <div class="table-wrap">
            <table class="keys alerts">
              <thead>
                <tr>
                  {canAct && (
                    <th scope="col" class="pick">
                      <input
                        type="checkbox"
                        aria-label="Select all unresolved alerts"
                        checked={allChosen}
                        disabled={selectable.length === 0}
                        onChange={(e) =>
                          setSelected(new Set(e.currentTarget.checked ? selectable.map((a) => a.id) : []))
                        }
                      />
                    </th>
                  )}
                  <th scope="col">Alert</th>
                  <th scope="col">Status</th>
                  <th scope="col">Source</th>
                  <th scope="col">Age</th>
                  {canAct && (
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {alerts.map((a) => (
                  <tr key={a.id}>
                    {canAct && (
                      <td class="pick">
                        <input
                          type="checkbox"
                          aria-label={`Select ${a.title}`}
                          checked={selected.has(a.id)}
                          disabled={a.status === 'resolved'}
                          onChange={(e) => toggle(a.id, e.currentTarget.checked)}
                        />
                      </td>
                    )}
                    <th scope="row" class="key-name">
                      <a href={`/alerts/${a.id}`} onClick={followLink}>
                        {a.title}
                      </a>
                      <span class={`muted block small severity-${a.severity}`}>{a.severity}</span>
                    </th>
                    <td data-label="Status">
                      <AlertStatusBadge status={a.status} />
                      {a.escalation?.waiting_for_support_hours_until && (
                        <span
                          class="muted block small"
                          title={`Notifies no one until ${formatDateTime(a.escalation.waiting_for_support_hours_until)}`}
                        >
                          Waits for support hours
                        </span>
                      )}
                    </td>
                    <td data-label="Source">
                      <Source a={a} />
                    </td>
                    <td data-label="Age" title={formatDateTime(a.created_at)}>
                      {fromNow(a.created_at)}
                    </td>
                    {canAct && (
                      <td class="actions">
                        {a.status === 'open' && (
                          <button
                            type="button"
                            class="button small"
                            disabled={busy}
                            onClick={() => acknowledge([a])}
                          >
                            Acknowledge
                          </button>
                        )}{' '}
                        {a.status !== 'resolved' && (
                          <button
                            type="button"
                            class="button small danger-outline"
                            disabled={busy}
                            onClick={() => setResolving([a])}
                          >
                            Resolve
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {next && (
          <p class="panel-foot muted small">Showing the newest 100; narrow the filter to see older ones.</p>
        )}
      </section>

      {resolving && (
        <Confirm
          title={
            resolving.length === 1
              ? `Resolve “${resolving[0]!.title}”?`
              : `Resolve ${resolving.length} alerts?`
          }
          body={RESOLVE_WARNING}
          action="Resolve"
          onClose={() => setResolving(null)}
          onConfirm={async () => {
            const r = await api.resolveAlerts(resolving.map((a) => a.id));
            setNotice({
              ok: true,
              text: `${r.resolved.length} ${r.resolved.length === 1 ? 'alert was' : 'alerts were'} resolved.`,
            });
            setSelected(new Set());
            await load();
          }}
        />
      )}
    </section>
  );
};
