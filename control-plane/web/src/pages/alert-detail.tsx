import { useState } from 'preact/hooks';
import { type Alert, api, type Me, type TimelineEntry } from '../api.js';
import { formatDateTime, fromNow } from '../format.js';
import { Confirm } from '../kit/confirm.js';
import { ErrorBox, Loading, Notice } from '../kit/error-box.js';
import { usePoll } from '../poll.js';
import { AlertStatusBadge, actorName, RESOLVE_WARNING, Source } from './alerts.js';

const describe = (e: TimelineEntry, me: Me) => {
  switch (e.type) {
    case 'raised':
      return 'Raised';
    case 'suppressed':
      return `Not escalated: maintenance window “${e.window_name}”`;
    case 'notification':
      return `${e.event === 'raised' ? 'Notified' : `Told it was ${e.event}:`} ${e.name ?? e.to} by ${e.via}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}: ${e.outcome}${e.status_code ? ` (${e.status_code})` : ''}${e.error ? ` — ${e.error}` : ''}`;
    case 'on_call':
      // "Reached ana@… — on call in Primary (layer 2, Weekdays)", "Nobody on call in Primary".
      return `${e.text.charAt(0).toUpperCase()}${e.text.slice(1)}`;
    case 'acknowledged':
      return `Acknowledged by ${actorName(e.by, me)}`;
    case 'resolved':
      return `Resolved by ${actorName(e.by, me)}`;
  }
};

/** `/alerts/{uuid}`: the alert, its timeline, Acknowledge and Resolve; live. */
export const AlertDetailPage = (props: { me: Me; id: string }) => {
  const canAct = props.me.user.role !== 'viewer';
  const [a, setA] = useState<(Alert & { timeline: TimelineEntry[] }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [resolving, setResolving] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = async () => {
    try {
      setA(await api.getAlert(props.id));
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The alert could not be loaded.');
    }
  };
  usePoll(load, [props.id]);

  if (!a)
    return (
      <section class="page">
        <h1>Alert</h1>
        <Loading error={error} />
      </section>
    );

  const acknowledge = async () => {
    setBusy(true);
    try {
      await api.acknowledgeAlerts([a.id]);
      setNotice({ ok: true, text: 'Acknowledged: the escalation stopped.' });
      await load();
    } catch (e) {
      setNotice({ ok: false, text: e instanceof Error ? e.message : 'The alert was not acknowledged.' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="page">
      <div class="page-head">
        <div>
          <div class="title-row">
            <h1>{a.title}</h1>
            <AlertStatusBadge status={a.status} />
          </div>
          <p class="muted subtitle">
            <Source a={a} /> · {a.severity} · raised{' '}
            <span title={formatDateTime(a.created_at)}>{fromNow(a.created_at)}</span>
            {a.escalation?.waiting_for_support_hours_until &&
              ` · waiting for support hours: notifies no one until ${formatDateTime(a.escalation.waiting_for_support_hours_until)}`}
          </p>
        </div>
      </div>
      {canAct && a.status !== 'resolved' && (
        <div class="toolbar">
          {a.status === 'open' && (
            <button type="button" class="button primary" disabled={busy} onClick={acknowledge}>
              Acknowledge
            </button>
          )}
          <button
            type="button"
            class="button danger-outline"
            disabled={busy}
            onClick={() => setResolving(true)}
          >
            Resolve
          </button>
        </div>
      )}
      <Notice notice={notice} />
      <ErrorBox message={error} />
      {a.description && <p class="lead">{a.description}</p>}
      {(a.held_back ?? 0) > 0 && (
        <p class="notice">
          Holding back {a.held_back} {a.held_back === 1 ? 'dependent' : 'dependents'}: monitors and heartbeats
          that depend on this {a.source_type} are down too, and raise no alerts of their own while it is down.
        </p>
      )}
      <section class="panel" aria-labelledby="timeline-title">
        <h2 id="timeline-title">Timeline</h2>
        <ol class="timeline">
          {a.timeline.map((e, i) => (
            <li key={`${e.at}-${i}`} class={`tl-${e.type}`}>
              <time dateTime={e.at} title={formatDateTime(e.at)}>
                {formatDateTime(e.at)}
              </time>
              <span>{describe(e, props.me)}</span>
            </li>
          ))}
        </ol>
      </section>
      {resolving && (
        <Confirm
          title={`Resolve “${a.title}”?`}
          body={RESOLVE_WARNING}
          action="Resolve"
          onClose={() => setResolving(false)}
          onConfirm={async () => {
            await api.resolveAlerts([a.id]);
            setNotice({ ok: true, text: 'Resolved.' });
            await load();
          }}
        />
      )}
    </section>
  );
};
