import { z } from 'zod';
import { ok } from '../api-client/client.js';
import type { components } from '../api-client/schema.js';
import type { McpApi } from './api.js';

type Report = components['schemas']['SlaReport'];

/** The report as JSON (the route answers CSV only when asked for it). */
const fetchReport = async (api: McpApi, query: Record<string, unknown>): Promise<Report> =>
  (await ok(api.client.GET('/reports/sla', { params: { query: { ...query, format: 'json' } } }))) as Report;

const duration = (s: number | null) => {
  if (s === null) return 'none';
  const sign = s < 0 ? '-' : '';
  const a = Math.abs(s);
  const h = Math.floor(a / 3600);
  const m = Math.floor((a % 3600) / 60);
  const sec = a % 60;
  return `${sign}${h ? `${h} h ` : ''}${h || m ? `${m} min ` : ''}${sec} s`.trim();
};
const pct = (p: number | null) => (p === null ? 'no checks' : `${p} %`);
const ms = (v: number | null) => (v === null ? '-' : `${v} ms`);

/** A few lines an assistant can quote: the period, both uptimes, downtime, incidents, MTTA/MTTR, p95, budget. */
export const slaSummary = (r: Report): string => {
  const last = new Date(Date.parse(r.to) - 1).toISOString().slice(0, 10);
  return [
    `SLA report for ${r.scope.type === 'workspace' ? 'the workspace' : `${r.scope.type.replace('_', ' ')} "${r.scope.name}"`} (${r.monitors.length} monitor${r.monitors.length === 1 ? '' : 's'}), ${r.from.slice(0, 10)} to ${last} (UTC), SLO ${r.slo_percent} %.`,
    `Uptime ${pct(r.uptime_percent)} (maintenance left out), ${pct(r.uptime_percent_with_maintenance)} counting every check; ${r.checks.total} checks, ${r.checks.in_maintenance} in maintenance.`,
    `Downtime ${duration(r.downtime_seconds)} in ${r.incident_count} incident${r.incident_count === 1 ? '' : 's'}; MTTA ${duration(r.mtta_seconds)}, MTTR ${duration(r.mttr_seconds)}.`,
    `Response time p50 ${ms(r.response_time_ms.p50)}, p95 ${ms(r.response_time_ms.p95)}, p99 ${ms(r.response_time_ms.p99)}.`,
    `Error budget: ${duration(r.allowed_downtime_seconds)} allowed, ${duration(r.error_budget_seconds_left)} left${r.error_budget_seconds_left < 0 ? ' (overspent)' : ''}.`,
  ].join('\n');
};

const id = (what: string) => z.string().min(1).optional().describe(`Report on this ${what} (its id).`);
const date = (what: string) =>
  z.string().optional().describe(`${what}, a UTC date YYYY-MM-DD (both days are included).`);

/**
 * get_sla_report: `GET /reports/sla` for an assistant, as the caller. Answers a short summary in words,
 * then the report's JSON unchanged (the figures, each day and each monitor, the incidents).
 */
export const getSlaReport = {
  name: 'get_sla_report',
  title: 'SLA report',
  description:
    'The SLA report of one monitor (monitor_id), a group (group_id), a tag, a status page (status_page_id) or, with none of them, the whole workspace, over whole UTC days from..to (default: this month so far; at most 366 days): uptime with maintenance left out and with it counted, downtime and its incidents (down alerts), MTTA, MTTR, response time p50/p95/p99 and the error budget left for the SLO (percent, default 99.9). Give at most one selector. Returns a short summary, then the report as JSON (figures for the scope, each day and each monitor; the incidents, newest first).',
  input: z.object({
    monitor_id: id('monitor'),
    group_id: id('group'),
    tag: z.string().optional().describe('Report on the monitors carrying this tag (`key` or `key:value`).'),
    status_page_id: id('status page'),
    from: date('First day'),
    to: date('Last day'),
    slo: z.number().gt(0).lt(100).optional().describe('SLO target in percent, e.g. 99.9 (the default).'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (api: McpApi, a: Record<string, unknown>) => {
    const report = await fetchReport(api, a);
    return `${slaSummary(report)}\n\n${JSON.stringify(report)}`;
  },
};
