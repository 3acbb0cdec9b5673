import { useEffect, useState } from 'preact/hooks';
import { api, type Me, type Monitor, type MonitorStatus, type RecentCheck } from '../api.js';
import { duration, formatDateTime, fromNow } from '../format.js';
import { ErrorBox } from '../kit/error-box.js';
import { ShowMore, useList } from '../kit/paging.js';
import { followLink } from '../router.js';
import { Address } from '../routing-ui.js';
import { BulkBar, SelectCell, SelectHeader, useSelection } from './monitor-bulk.js';

const STATUSES: { value: MonitorStatus; label: string }[] = [
  { value: 'down', label: 'Down' },
  { value: 'up', label: 'Up' },
  { value: 'pending', label: 'Pending' },
  { value: 'maintenance', label: 'Maintenance' },
  { value: 'paused', label: 'Paused' },
];
const labelOf = (s: MonitorStatus) => STATUSES.find((x) => x.value === s)?.label ?? s;

/** What a monitor checks, as people write it. */
export const target = (m: Pick<Monitor, 'url' | 'port'>) => (m.port ? `${m.url}:${m.port}` : m.url);

/** "99.95 %"; a dash while the API has no figure (no checks yet, or a server without uptime fields). */
export const percent = (v: number | null | undefined) =>
  v === null || v === undefined
    ? '—'
    : `${v >= 99.995 && v < 100 ? '99.99' : v.toFixed(v === 100 ? 0 : 2)} %`;

export const ms = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : `${Math.round(v).toLocaleString('en')} ms`;

/**
 * The newest response time, or "Failed" when the newest check failed: an older success's time would
 * say the monitor answers when it does not.
 */
export const LastResponse = (props: { ms: number | null | undefined; checks: RecentCheck[] | undefined }) =>
  props.checks?.at(-1)?.ok === false ? <span class="failed">Failed</span> : ms(props.ms);

export const StatusBadge = (props: { status: MonitorStatus }) => (
  <span class={`badge status-${props.status}`}>
    <span class="dot" aria-hidden="true" />
    {labelOf(props.status)}
  </span>
);

const checkLabel = (c: RecentCheck) =>
  `${c.ok ? 'Up' : 'Down'} from ${c.location} at ${formatDateTime(c.at)}${c.response_time_ms === null ? '' : `, ${ms(c.response_time_ms)}`}`;

/**
 * The newest checks as a row of small bars, oldest on the left (Uptime Kuma's heartbeat bar): green
 * up, red down, each with its own label (a tooltip on hover, a name for screen readers). The list is
 * newest first (what a screen reader reads first, and what stays in view when the row is short: see
 * `.beats` in styles.css); the row shows it right to left.
 */
export const CheckBar = (props: { name: string; checks: RecentCheck[] | undefined }) => {
  if (!props.checks) return <span class="muted">—</span>;
  if (props.checks.length === 0) return <span class="muted small">No checks yet</span>;
  return (
    <ol class="beats" aria-label={`Recent checks of ${props.name}`}>
      {[...props.checks].reverse().map((c) => (
        <li key={`${c.at}-${c.location}`} class={c.ok ? 'beat ok' : 'beat fail'} title={checkLabel(c)}>
          <span class="visually-hidden">{checkLabel(c)}</span>
        </li>
      ))}
    </ol>
  );
};

/** `/monitors`: every monitor with its status, uptime, response time and newest checks; live. */
export const MonitorsPage = (props: { me: Me }) => {
  const canEdit = props.me.user.role !== 'viewer';
  const [status, setStatus] = useState<MonitorStatus | ''>('');
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  // The search asks the server once typing pauses.
  useEffect(() => {
    const t = setTimeout(() => setSearch(typed.trim()), 250);
    return () => clearTimeout(t);
  }, [typed]);

  // Live: the first page is re-read every few seconds; rows shown by "Show more" stay below it.
  const {
    items: monitors,
    next,
    error,
    busy,
    more,
    reload,
  } = useList((cursor) => api.listMonitors({ status, search }, cursor), {
    deps: [status, search],
    poll: 'keep-more',
  });
  const selection = useSelection(JSON.stringify([status, search]));
  const shown = monitors?.map((m) => m.id) ?? [];

  return (
    <section class="page">
      <div class="page-head">
        <h1>Monitors</h1>
        {canEdit && (
          <a class="button primary" href="/monitors/new" onClick={followLink}>
            New monitor
          </a>
        )}
      </div>
      <p class="lead">
        Uptime checks from every region, with what their checks say now. This page updates itself every few
        seconds.
      </p>

      <section class="panel flush" aria-labelledby="monitors-title" aria-busy={monitors === null}>
        <div class="panel-head">
          <h2 id="monitors-title">{status ? `${labelOf(status)} monitors` : 'All monitors'}</h2>
          <div class="filters">
            <div class="field inline">
              <label for="monitor-search">Search</label>
              <input
                id="monitor-search"
                type="search"
                placeholder="Name or address"
                value={typed}
                onInput={(e) => setTyped(e.currentTarget.value)}
              />
            </div>
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
        </div>
        <ErrorBox message={error} inset />
        {canEdit && (
          <BulkBar
            state={selection}
            shown={shown}
            matching={null}
            filter={{ status: status || undefined, q: search || undefined }}
            onDone={reload}
          />
        )}
        {monitors && monitors.length === 0 && (
          <p class="empty">
            {search
              ? `No monitor matches “${search}”.`
              : status
                ? `No monitor is ${labelOf(status).toLowerCase()}.`
                : canEdit
                  ? 'No monitors yet. Create one with New monitor.'
                  : 'No monitors yet.'}
          </p>
        )}
        {monitors && monitors.length > 0 && (
          <div class="table-wrap">
            <table class="keys monitors">
              <thead>
                <tr>
                  {canEdit && <SelectHeader />}
                  <th scope="col" class="name">
                    Name
                  </th>
                  <th scope="col">Status</th>
                  <th scope="col">Uptime 24 h</th>
                  <th scope="col">Uptime 30 d</th>
                  <th scope="col">Response</th>
                  <th scope="col" class="recent">
                    Recent checks
                  </th>
                  <th scope="col">Last checked</th>
                </tr>
              </thead>
              <tbody>
                {monitors.map((m) => (
                  <tr key={m.id}>
                    {canEdit && <SelectCell state={selection} id={m.id} name={m.display_name} />}
                    <th scope="row" class="key-name">
                      <a href={`/monitors/${m.id}`} onClick={followLink}>
                        {m.display_name}
                      </a>
                      <span class="block small target">
                        <Address value={target(m)} />
                      </span>
                      <span class="muted block small">
                        {m.monitor_type.toUpperCase()} · every {duration(m.check_interval_seconds)}
                      </span>
                    </th>
                    <td data-label="Status">
                      <StatusBadge status={m.status} />
                    </td>
                    <td data-label="Uptime 24 h" class="num">
                      {percent(m.uptime_24h)}
                    </td>
                    <td data-label="Uptime 30 d" class="num">
                      {percent(m.uptime_30d)}
                    </td>
                    <td data-label="Response" class="num">
                      <LastResponse ms={m.last_response_time_ms} checks={m.recent_checks} />
                    </td>
                    <td data-label="Recent checks" class="recent">
                      <CheckBar name={m.display_name} checks={m.recent_checks} />
                    </td>
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
        <ShowMore next={next} onMore={more} busy={busy} />
      </section>
    </section>
  );
};
