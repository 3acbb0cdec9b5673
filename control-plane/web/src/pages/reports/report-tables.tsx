import { useState } from 'preact/hooks';
import type { Report, ReportMonitor } from '../../api-reports.js';
import { formatDateTime } from '../../format.js';
import { followLink } from '../../router.js';
import { ms, pct, span } from './report-format.js';

type Order = 'name' | 'uptime_asc' | 'uptime_desc';

/** Rows drawn at most (a workspace may have thousands of monitors: the CSV has them all). */
const MAX_ROWS = 1000;

/** Monitors by name (the API's order), or by uptime: worst first, then best first (no checks last either way). */
const sorted = (list: ReportMonitor[], order: Order) => {
  if (order === 'name') return list;
  const sign = order === 'uptime_asc' ? 1 : -1;
  return [...list].sort((a, b) =>
    a.uptime_percent === null
      ? b.uptime_percent === null
        ? 0
        : 1
      : b.uptime_percent === null
        ? -1
        : sign * (a.uptime_percent - b.uptime_percent),
  );
};

/** Each monitor of the scope with its own figures; the Uptime heading sorts (worst first, then best first). */
export const MonitorsTable = (props: { report: Report }) => {
  const [order, setOrder] = useState<Order>('name');
  const all = sorted(props.report.monitors, order);
  const list = all.length > MAX_ROWS ? all.slice(0, MAX_ROWS) : all;
  const next: Record<Order, Order> = { name: 'uptime_asc', uptime_asc: 'uptime_desc', uptime_desc: 'name' };
  if (!list.length) return <p class="empty">No monitors in this scope.</p>;
  return (
    <div class="table-wrap">
      <table class="keys report-table">
        <caption class="visually-hidden">Monitors</caption>
        <thead>
          <tr>
            <th scope="col">Monitor</th>
            <th
              scope="col"
              class="sortable"
              aria-sort={
                order === 'uptime_asc' ? 'ascending' : order === 'uptime_desc' ? 'descending' : undefined
              }
            >
              <button type="button" class="sort-button" onClick={() => setOrder(next[order])}>
                Uptime
                <span aria-hidden="true" class={order === 'name' ? 'sort-idle' : undefined}>
                  {order === 'uptime_asc' ? ' ↑' : order === 'uptime_desc' ? ' ↓' : ' ↕'}
                </span>
              </button>
            </th>
            <th scope="col">Incl. maintenance</th>
            <th scope="col">Downtime</th>
            <th scope="col">Incidents</th>
            <th scope="col">MTTR</th>
            <th scope="col">p95</th>
            <th scope="col">Budget left</th>
          </tr>
        </thead>
        <tbody>
          {list.map((m) => (
            <tr key={m.id}>
              <th scope="row" class="key-name">
                <a href={`/monitors/${m.id}`} onClick={followLink}>
                  {m.name}
                </a>
              </th>
              <td
                data-label="Uptime"
                class={
                  m.uptime_percent !== null && m.uptime_percent < props.report.slo_percent ? 'under' : ''
                }
              >
                {pct(m.uptime_percent)}
              </td>
              <td data-label="Incl. maintenance">{pct(m.uptime_percent_with_maintenance)}</td>
              <td data-label="Downtime">{span(m.downtime_seconds)}</td>
              <td data-label="Incidents">{m.incident_count}</td>
              <td data-label="MTTR">{span(m.mttr_seconds)}</td>
              <td data-label="p95">{ms(m.response_time_ms.p95)}</td>
              <td data-label="Budget left" class={m.error_budget_seconds_left < 0 ? 'under' : ''}>
                {span(m.error_budget_seconds_left)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {all.length > list.length && (
        <p class="muted table-note">
          The first {list.length.toLocaleString('en')} of {all.length.toLocaleString('en')} monitors; Download
          CSV has them all.
        </p>
      )}
    </div>
  );
};

/** The incidents of the period, newest first, each a link to its alert. */
export const IncidentsTable = (props: { report: Report }) => {
  const list = props.report.incidents;
  if (!list.length) return <p class="empty">No incidents in this period.</p>;
  return (
    <div class="table-wrap">
      <table class="keys report-table">
        <caption class="visually-hidden">Incidents</caption>
        <thead>
          <tr>
            <th scope="col">Incident</th>
            <th scope="col">Monitor</th>
            <th scope="col">Started</th>
            <th scope="col">Acknowledged</th>
            <th scope="col">Resolved</th>
            <th scope="col">Downtime</th>
          </tr>
        </thead>
        <tbody>
          {list.map((i) => (
            <tr key={i.alert_id}>
              <th scope="row" class="key-name prose">
                <a href={`/alerts/${i.alert_id}`} onClick={followLink}>
                  {i.title}
                </a>
              </th>
              <td data-label="Monitor">{i.monitor_name}</td>
              <td data-label="Started">{formatDateTime(i.started_at)}</td>
              <td data-label="Acknowledged">{i.acknowledged_at ? formatDateTime(i.acknowledged_at) : '—'}</td>
              <td data-label="Resolved">{i.resolved_at ? formatDateTime(i.resolved_at) : 'Open'}</td>
              <td data-label="Downtime">{span(i.downtime_seconds)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {props.report.incidents_truncated && (
        <p class="muted table-note">
          Only the newest {list.length} incidents are listed; the figures count them all.
        </p>
      )}
    </div>
  );
};
