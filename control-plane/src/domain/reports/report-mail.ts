import { monthName } from './report-months.js';
import type { SlaReport } from './sla-report.js';

/**
 * The monthly report as a mail (HTML and plain text): the figures, the per-monitor table, the incidents
 * and a link to the web page. A mail lists at most MAIL_MONITORS monitors and MAIL_INCIDENTS incidents
 * (the figures count them all; the rest is on the page, and the mail says how many it left out).
 */
export const MAIL_MONITORS = 100;
export const MAIL_INCIDENTS = 50;

export interface ReportMail {
  subject: string;
  text: string;
  html: string;
}

/** A percentage as the mail shows it: three decimals, or `n/a` with no checks. */
export const percentText = (p: number | null) => (p === null ? 'n/a' : `${p.toFixed(3)} %`);

/** Seconds as `2 h 5 min`, `4 min 10 s`, `0 s` (the two largest units); negative with a minus sign. */
export const durationText = (seconds: number | null): string => {
  if (seconds === null) return 'n/a';
  const sign = seconds < 0 ? '-' : '';
  let s = Math.round(Math.abs(seconds));
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['min', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(s / size);
    s -= n * size;
    if (n > 0 || (unit === 's' && parts.length === 0)) parts.push(`${n} ${unit}`);
  }
  return sign + parts.slice(0, 2).join(' ');
};

const msText = (ms: number | null) => (ms === null ? 'n/a' : `${ms} ms`);
const day = (d: Date) => d.toISOString().slice(0, 10);
const minute = (d: Date | null) =>
  d === null ? 'open' : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The figure rows, label then value: the same in both parts. */
const figures = (r: SlaReport): [string, string][] => [
  ['Uptime', percentText(r.uptime_percent)],
  ['Uptime incl. maintenance', percentText(r.uptime_percent_with_maintenance)],
  ['Downtime', durationText(r.downtime_seconds)],
  ['Incidents', String(r.incident_count)],
  ['MTTA', durationText(r.mtta_seconds)],
  ['MTTR', durationText(r.mttr_seconds)],
  ['Response time p50', msText(r.response_time_ms.p50)],
  ['Response time p95', msText(r.response_time_ms.p95)],
  ['Response time p99', msText(r.response_time_ms.p99)],
  ['SLO target', `${r.slo_percent} %`],
  [
    'Error budget left',
    `${durationText(r.error_budget_seconds_left)} of ${durationText(r.allowed_downtime_seconds)}`,
  ],
];

const MONITOR_HEAD = ['Monitor', 'Uptime', 'Incl. maintenance', 'Downtime', 'Incidents', 'p95'];
const monitorRow = (m: SlaReport['monitors'][number]) => [
  m.name,
  percentText(m.uptime_percent),
  percentText(m.uptime_percent_with_maintenance),
  durationText(m.downtime_seconds),
  String(m.incident_count),
  msText(m.response_time_ms.p95),
];
const INCIDENT_HEAD = ['Started', 'Monitor', 'Incident', 'Downtime', 'Resolved'];
const incidentRow = (i: SlaReport['incidents'][number]) => [
  minute(i.started_at),
  i.monitor_name,
  i.title,
  durationText(i.downtime_seconds),
  minute(i.resolved_at),
];

/** Columns padded to their widest cell (names cut at 40 characters: a line stays readable). */
const textTable = (head: string[], rows: string[][]) => {
  const cells = [head, ...rows].map((r) => r.map((c) => (c.length > 40 ? `${c.slice(0, 39)}…` : c)));
  const widths = head.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
};

const htmlTable = (head: string[], rows: string[][]) =>
  `<table style="border-collapse:collapse;font-size:13px"><thead><tr>${head
    .map(
      (h) => `<th style="text-align:left;border-bottom:1px solid #999;padding:4px 8px">${escapeHtml(h)}</th>`,
    )
    .join('')}</tr></thead><tbody>${rows
    .map(
      (r) =>
        `<tr>${r.map((c) => `<td style="border-bottom:1px solid #ddd;padding:4px 8px">${escapeHtml(c)}</td>`).join('')}</tr>`,
    )
    .join('')}</tbody></table>`;

const more = (shown: number, total: number, what: string, truncated = false) =>
  total > shown || truncated
    ? `${truncated ? 'More' : total - shown} ${what} not listed here: see the full report.`
    : null;

/** The mail of `month`'s report (`YYYY-MM`) of a workspace, linking to `link` (the web page of the same report). */
export const renderReportMail = (
  r: SlaReport,
  input: { workspace: string; month: string; link: string },
): ReportMail => {
  const title = `SLA report for ${monthName(input.month)}: ${r.scope.name}`;
  const period = `${day(r.from)} to ${day(new Date(r.to.getTime() - 1))} (UTC)`;
  const monitors = r.monitors.slice(0, MAIL_MONITORS).map(monitorRow);
  const incidents = r.incidents.slice(0, MAIL_INCIDENTS).map(incidentRow);
  const moreMonitors = more(monitors.length, r.monitors.length, 'monitors');
  const moreIncidents = more(incidents.length, r.incidents.length, 'incidents', r.incidents_truncated);
  const figs = figures(r);
  const text = [
    title,
    `Workspace ${input.workspace}, ${period}`,
    '',
    ...figs.map(([k, v]) => `${k}: ${v}`),
    '',
    'Monitors',
    monitors.length > 0 ? textTable(MONITOR_HEAD, monitors) : 'No monitors in this scope.',
    ...(moreMonitors ? [moreMonitors] : []),
    '',
    'Incidents',
    incidents.length > 0 ? textTable(INCIDENT_HEAD, incidents) : 'No incidents in this month.',
    ...(moreIncidents ? [moreIncidents] : []),
    '',
    `Full report: ${input.link}`,
    '',
  ].join('\n');
  const p = (s: string) => `<p>${escapeHtml(s)}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;color:#111">',
    `<h1 style="font-size:20px">${escapeHtml(title)}</h1>`,
    p(`Workspace ${input.workspace}, ${period}`),
    `<table style="font-size:14px">${figs
      .map(
        ([k, v]) =>
          `<tr><th style="text-align:left;padding:2px 12px 2px 0">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`,
      )
      .join('')}</table>`,
    '<h2 style="font-size:16px">Monitors</h2>',
    monitors.length > 0 ? htmlTable(MONITOR_HEAD, monitors) : p('No monitors in this scope.'),
    moreMonitors ? p(moreMonitors) : '',
    '<h2 style="font-size:16px">Incidents</h2>',
    incidents.length > 0 ? htmlTable(INCIDENT_HEAD, incidents) : p('No incidents in this month.'),
    moreIncidents ? p(moreIncidents) : '',
    `<p><a href="${escapeHtml(input.link)}">Open the full report</a></p>`,
    '</body></html>',
  ].join('\n');
  const subject = `[Lookout ${input.workspace}] ${title} — uptime ${percentText(r.uptime_percent)}`;
  return { subject, text, html };
};
