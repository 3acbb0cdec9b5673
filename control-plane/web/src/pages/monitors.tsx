import { useEffect, useState } from 'preact/hooks';
import { api, type Monitor, type MonitorStatus } from '../api.js';
import { formatDateTime, fromNow } from '../format.js';

const STATUSES: { value: MonitorStatus; label: string }[] = [
  { value: 'down', label: 'Down' },
  { value: 'up', label: 'Up' },
  { value: 'pending', label: 'Pending' },
  { value: 'maintenance', label: 'Maintenance' },
  { value: 'paused', label: 'Paused' },
];
const labelOf = (s: MonitorStatus) => STATUSES.find((x) => x.value === s)?.label ?? s;

/** What a monitor checks, as people write it. */
const target = (m: Monitor) => (m.port ? `${m.url}:${m.port}` : m.url);

const every = (seconds: number) =>
  seconds % 3600 === 0 ? `${seconds / 3600} h` : seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;

export const StatusBadge = (props: { status: MonitorStatus }) => (
  <span class={`badge status-${props.status}`}>
    <span class="dot" aria-hidden="true" />
    {labelOf(props.status)}
  </span>
);

/** `/monitors`: every monitor with its status and last check, filtered by status. */
export const MonitorsPage = () => {
  const [status, setStatus] = useState<MonitorStatus | ''>('');
  const [monitors, setMonitors] = useState<Monitor[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    setBusy(true);
    api.listMonitors(status).then(
      (page) => {
        if (!current) return;
        setMonitors(page.data);
        setNext(page.next_cursor);
        setError(null);
        setBusy(false);
      },
      (e: Error) => {
        if (!current) return;
        setError(e.message);
        setBusy(false);
      },
    );
    return () => {
      current = false;
    };
  }, [status]);

  const more = async () => {
    if (!next) return;
    setBusy(true);
    try {
      const page = await api.listMonitors(status, next);
      setMonitors((m) => [...(m ?? []), ...page.data]);
      setNext(page.next_cursor);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'More monitors could not be loaded.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="page">
      <div class="page-head">
        <h1>Monitors</h1>
        <div class="field inline">
          <label for="status-filter">Status</label>
          <select
            id="status-filter"
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value as MonitorStatus | '')}
          >
            <option value="">All statuses</option>
            {STATUSES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p class="lead">
        Uptime checks from every region, with what their checks say now. Create and change monitors through
        the API (<code>POST /api/v1/monitors/create</code>) for now.
      </p>

      <section class="panel flush" aria-labelledby="monitors-title" aria-busy={busy}>
        <div class="panel-head">
          <h2 id="monitors-title">{status ? `${labelOf(status)} monitors` : 'All monitors'}</h2>
          <span class="muted">
            {monitors
              ? `${monitors.length}${next ? '+' : ''} ${monitors.length === 1 ? 'monitor' : 'monitors'}`
              : ''}
          </span>
        </div>
        {error && (
          <p class="error-box inset" role="alert">
            {error}
          </p>
        )}
        {monitors && monitors.length === 0 && (
          <p class="empty">
            {status ? `No monitor is ${labelOf(status).toLowerCase()}.` : 'No monitors yet.'}
          </p>
        )}
        {monitors && monitors.length > 0 && (
          <div class="table-wrap">
            <table class="keys monitors">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Target</th>
                  <th scope="col">Every</th>
                  <th scope="col">Last checked</th>
                </tr>
              </thead>
              <tbody>
                {monitors.map((m) => (
                  <tr key={m.id}>
                    <th scope="row" class="key-name">
                      {m.display_name}
                      <span class="muted block small">
                        {m.monitor_type.toUpperCase()} · {m.check_locations.join(', ')}
                      </span>
                    </th>
                    <td data-label="Status">
                      <StatusBadge status={m.status} />
                    </td>
                    <td data-label="Target" class="target">
                      <code>{target(m)}</code>
                    </td>
                    <td data-label="Every">{every(m.check_interval_seconds)}</td>
                    <td data-label="Last checked">
                      {m.last_checked_at ? (
                        <span title={formatDateTime(m.last_checked_at)}>{fromNow(m.last_checked_at)}</span>
                      ) : (
                        <span class="muted">Not yet</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {next && (
          <div class="panel-foot">
            <button type="button" class="button" onClick={more} disabled={busy}>
              Show more
            </button>
          </div>
        )}
      </section>
    </section>
  );
};
