/** A schedule's history (who changed what, when) and a calendar address to subscribe to. */
import { useState } from 'preact/hooks';
import { type HistoryEntry, schedulesApi } from '../../api-schedules.js';
import { formatDateTime } from '../../format.js';
import { ErrorBox } from '../../kit/error-box.js';
import { problemsOf } from '../../kit/field.js';
import { ShowMore, useList } from '../../kit/paging.js';
import { CopyValue } from '../../routing-ui.js';
import { whenIn } from './zone.js';

const ACTIONS: Record<string, string> = {
  created: 'created the schedule',
  updated: 'changed the schedule',
  override_added: 'added an override',
  override_removed: 'removed an override',
  shift_offered: 'offered a shift',
  shift_taken: 'took an offered shift',
  shift_assigned: 'assigned an offered shift',
  offer_withdrawn: 'withdrew an offer',
  user_removed: 'removed a user from the rotation',
};

/** A few words from an entry's detail (its user and span when it names them). */
const detailText = (d: unknown, tz: string) => {
  if (typeof d === 'string')
    return d.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:[\d.]+Z/g, (iso) => whenIn(iso, tz));
  if (!d || typeof d !== 'object') return '';
  const o = d as Record<string, unknown>;
  const user =
    (o.user as { email?: string } | undefined)?.email ?? (typeof o.email === 'string' ? o.email : '');
  const span =
    typeof o.starts_at === 'string' && typeof o.ends_at === 'string'
      ? `${formatDateTime(o.starts_at)} – ${formatDateTime(o.ends_at)}`
      : '';
  return [user, span].filter(Boolean).join(', ');
};

export const HistoryPanel = (props: { scheduleId: string; tz: string; version: number }) => {
  const { items, next, error, busy, more } = useList<HistoryEntry>(
    (cursor) => schedulesApi.history(props.scheduleId, cursor),
    { deps: [props.scheduleId, props.version] },
  );
  return (
    <section class="panel flush" aria-labelledby="history-title">
      <div class="panel-head">
        <h2 id="history-title">History</h2>
      </div>
      <ErrorBox message={error} inset />
      {items && items.length === 0 && <p class="empty">Nothing yet.</p>}
      {items && items.length > 0 && (
        <ul class="shift-list" aria-label="History">
          {items.map((h) => {
            const detail = detailText(h.detail, props.tz);
            return (
              <li key={h.id}>
                <span class="grow">
                  <strong>{h.actor?.email ?? 'Lookout'}</strong> {ACTIONS[h.action] ?? h.action}
                  {detail && <span class="muted"> · {detail}</span>}
                </span>
                <time class="muted small" dateTime={h.at}>
                  {formatDateTime(h.at)}
                </time>
              </li>
            );
          })}
        </ul>
      )}
      <ShowMore next={next} onMore={more} busy={busy} />
    </section>
  );
};

/**
 * "Subscribe to calendar": a secret address made on request and shown once (a new one revokes the
 * old), with a copy button; revoking stops the old one.
 */
export const CalendarSubscribe = (props: {
  what: string;
  create: () => Promise<{ url: string }>;
  revoke: () => Promise<unknown>;
}) => {
  const [url, setUrl] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(problemsOf(e).form ?? 'That did not work.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="panel-body calendar">
      <p class="hint tight">
        Google Calendar, Apple Calendar or Outlook can subscribe to {props.what} by a secret address. Anyone
        with the address can read it: revoke it if it leaks.
      </p>
      {url && (
        <CopyValue
          label="Calendar address"
          value={url}
          copyLabel="Copy the calendar address"
          hint="Shown once: copy it now. Asking for a new address revokes this one."
        />
      )}
      {note && (
        <p class="ok-box" role="status">
          {note}
        </p>
      )}
      <ErrorBox message={error} />
      <div class="form-actions spaced">
        <button
          type="button"
          class="button primary"
          disabled={busy}
          onClick={() =>
            run(async () => {
              setNote(null);
              setUrl((await props.create()).url);
            })
          }
        >
          {url ? 'Make a new address' : 'Subscribe to calendar'}
        </button>
        <button
          type="button"
          class="button danger-outline"
          disabled={busy}
          onClick={() =>
            run(async () => {
              await props.revoke();
              setUrl(null);
              setNote('The calendar address is revoked: calendars subscribed to it stop updating.');
            })
          }
        >
          Revoke calendar address
        </button>
      </div>
    </div>
  );
};

export const CalendarPanel = (props: { scheduleId: string }) => (
  <section class="panel flush" aria-labelledby="calendar-title">
    <div class="panel-head">
      <h2 id="calendar-title">Calendar</h2>
    </div>
    <CalendarSubscribe
      what="this schedule's shifts"
      create={() => schedulesApi.scheduleCalendar(props.scheduleId)}
      revoke={() => schedulesApi.revokeScheduleCalendar(props.scheduleId)}
    />
  </section>
);
