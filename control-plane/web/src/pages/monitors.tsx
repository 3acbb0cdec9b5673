import { useEffect, useState } from 'preact/hooks';
import {
  api,
  type Me,
  type Monitor,
  type MonitorCounts,
  type MonitorSort,
  type MonitorStatus,
  type RecentCheck,
} from '../api.js';
import { duration, formatDateTime, fromNow } from '../format.js';
import { ErrorBox } from '../kit/error-box.js';
import { ShowMore, useList } from '../kit/paging.js';
import { usePoll } from '../poll.js';
import { followLink } from '../router.js';
import { Address } from '../routing-ui.js';
import { BulkBar, SelectCell, SelectHeader, type SelectionState, useSelection } from './monitor-bulk.js';
import { TYPES } from './monitor-form/monitor-draft.js';
import { checkTypes } from './monitor-form/type-fields.js';
import { CountsBar } from './monitors-list/counts-bar.js';
import { GroupSections, useGroups } from './monitors-list/group-sections.js';
import { SORTS, useListState } from './monitors-list/list-state.js';
import { WhoIsOnCall } from './schedules/who-is-on-call.js';

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

/** Monitors as dense rows: name and address on one line, figures beside them. */
export const MonitorRows = (props: { monitors: Monitor[]; selection: SelectionState | null }) => (
  <div class="table-wrap">
    <table class="keys monitors dense">
      <thead>
        <tr>
          {props.selection && <SelectHeader />}
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
        {props.monitors.map((m) => (
          <tr key={m.id}>
            {props.selection && <SelectCell state={props.selection} id={m.id} name={m.display_name} />}
            <th scope="row" class="key-name">
              <a href={`/monitors/${m.id}`} onClick={followLink}>
                {m.display_name}
              </a>
              <span class="small target-line" title={target(m)}>
                <span class="muted">{m.monitor_type.toUpperCase()}</span> <Address value={target(m)} />
                <span class="muted"> · {duration(m.check_interval_seconds)}</span>
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
);

/**
 * `/monitors`: every monitor with its status, uptime, response time and newest checks; live. Sorted on
 * the server (by status by default: what needs a look comes first), searched and filtered; the view is
 * kept in the URL (monitors-list/list-state.ts), and the counts per status of the filter head the list.
 */
export const MonitorsPage = (props: { me: Me }) => {
  const canEdit = props.me.user.role !== 'viewer';
  const [view, change] = useListState();
  const [typed, setTyped] = useState(view.search);
  const [regions, setRegions] = useState<string[]>([]);
  const [counts, setCounts] = useState<MonitorCounts | null>(null);
  // Every check type the server knows (GET /check-types); the first types' names until it answers.
  const [types, setTypes] = useState<{ value: string; label: string }[]>(TYPES);
  useEffect(() => {
    api.listRegions().then(
      (r) => setRegions(r.data.map((x) => x.region)),
      () => setRegions([]),
    );
    checkTypes().then(
      (all) => setTypes(all.map((t) => ({ value: t.type, label: t.label }))),
      () => {},
    );
  }, []);
  // The search asks the server once typing pauses.
  useEffect(() => {
    const t = setTimeout(() => {
      if (typed.trim() !== view.search) change({ search: typed.trim() });
    }, 250);
    return () => clearTimeout(t);
  }, [typed]);
  useEffect(() => setTyped(view.search), [view.search]);
  const { status, sort, layout, ...rest } = view;
  const filterKey = JSON.stringify(rest);
  const groups = useGroups();
  // By group (a section each) unless one list is asked for, a group is filtered on, a search is typed
  // (its matches as one list), or there are none. Bulk actions take rows of the one list.
  const grouped =
    layout === 'groups' && !view.group_id && !view.search && groups !== null && groups.length > 0;
  usePoll(async () => setCounts(await api.countMonitors(view)), [filterKey]);

  // Live: the first page is re-read every few seconds; rows shown by "Show more" stay below it.
  const {
    items: monitors,
    next,
    error,
    busy,
    more,
    reload,
  } = useList((cursor) => api.listMonitors(view, cursor), {
    deps: [status, sort, filterKey],
    enabled: groups !== null && !grouped,
    poll: 'keep-more',
  });
  const filtered = Object.values(rest).some((v) => v !== '');
  const selection = useSelection(JSON.stringify([status, filterKey]));
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
      <CountsBar counts={counts} status={status} onStatus={(s) => change({ status: s })} />
      <WhoIsOnCall />

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
              <label for="monitor-sort">Sort by</label>
              <select
                id="monitor-sort"
                value={sort}
                onChange={(e) => change({ sort: e.currentTarget.value as MonitorSort })}
              >
                {SORTS.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
            </div>
            <div class="field inline">
              <label for="status-filter">Status</label>
              <select
                id="status-filter"
                value={status}
                onChange={(e) => change({ status: e.currentTarget.value as MonitorStatus | '' })}
              >
                <option value="">All statuses</option>
                {STATUSES.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
            </div>
            <div class="field inline">
              <label for="type-filter">Type</label>
              <select
                id="type-filter"
                value={view.monitor_type}
                onChange={(e) => change({ monitor_type: e.currentTarget.value })}
              >
                <option value="">All types</option>
                {types.map((t) => (
                  <option key={t.value} value={t.value}>
                    {t.label}
                  </option>
                ))}
              </select>
            </div>
            <div class="field inline">
              <label for="region-filter">Region</label>
              <select
                id="region-filter"
                value={view.region}
                onChange={(e) => change({ region: e.currentTarget.value })}
              >
                <option value="">All regions</option>
                {regions.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </div>
            <TagFilter value={view.tag} onChange={(tag) => change({ tag })} />
            {groups && groups.length > 0 && (
              <>
                <div class="field inline">
                  <label for="group-filter">Group</label>
                  <select
                    id="group-filter"
                    value={view.group_id}
                    onChange={(e) => change({ group_id: e.currentTarget.value })}
                  >
                    <option value="">All groups</option>
                    <option value="none">Ungrouped</option>
                    {groups.map((g) => (
                      <option key={g.id} value={g.id}>
                        {g.name}
                      </option>
                    ))}
                  </select>
                </div>
                <div class="field inline">
                  <label for="layout-choice">Show</label>
                  <select
                    id="layout-choice"
                    value={layout}
                    onChange={(e) => change({ layout: e.currentTarget.value as 'groups' | 'list' })}
                  >
                    <option value="groups">By group</option>
                    <option value="list">One list</option>
                  </select>
                </div>
              </>
            )}
          </div>
        </div>
        {grouped ? (
          <GroupSections groups={groups} view={view} />
        ) : (
          <>
            <ErrorBox message={error} inset />
            {canEdit && (
              <BulkBar
                state={selection}
                shown={shown}
                // The counts say how many the filter matches. The bulk filter takes no region: with one
                // set, "all matching" is not offered (it would reach monitors of other regions).
                matching={view.region || !counts ? null : status ? counts[status] : counts.total}
                filter={{
                  status: status || undefined,
                  q: view.search || undefined,
                  tag: view.tag || undefined,
                  group_id: view.group_id || undefined,
                  monitor_type: view.monitor_type || undefined,
                }}
                onDone={reload}
              />
            )}
            {monitors && monitors.length === 0 && (
              <p class="empty">
                {view.search
                  ? `No monitor matches “${view.search}”.`
                  : filtered
                    ? 'No monitor matches these filters.'
                    : status
                      ? `No monitor is ${labelOf(status).toLowerCase()}.`
                      : canEdit
                        ? 'No monitors yet. Create one with New monitor.'
                        : 'No monitors yet.'}
              </p>
            )}
            {monitors && monitors.length > 0 && (
              <MonitorRows monitors={monitors} selection={canEdit ? selection : null} />
            )}
            <ShowMore next={next} onMore={more} busy={busy} />
          </>
        )}
      </section>
    </section>
  );
};

/** A tag to filter by (`key` or `key:value`), applied on Enter or when the field is left. */
const TagFilter = (props: { value: string; onChange: (tag: string) => void }) => {
  const [typed, setTyped] = useState(props.value);
  useEffect(() => setTyped(props.value), [props.value]);
  const apply = () => {
    if (typed.trim() !== props.value) props.onChange(typed.trim().toLowerCase());
  };
  return (
    <div class="field inline">
      <label for="tag-filter">Tag</label>
      <input
        id="tag-filter"
        type="text"
        placeholder="key or key:value"
        value={typed}
        onInput={(e) => setTyped(e.currentTarget.value)}
        onKeyDown={(e) => e.key === 'Enter' && apply()}
        onBlur={apply}
      />
    </div>
  );
};
