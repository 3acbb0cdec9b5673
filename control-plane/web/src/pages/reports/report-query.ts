/**
 * The report page's view lives in its URL, so a report can be linked and reloaded:
 * `/reports?monitor_id=m1&period=last_month&slo=99.5` (the API's own selector names; at most one),
 * `period=custom&from=2026-01-01&to=2026-01-31` for any days (`from` and `to` alone, as the monthly
 * mail links, say the same). Defaults are left out (`/reports` is the
 * whole workspace, this month so far, the default SLO). Periods are whole UTC days, as the API counts them.
 */
export type ScopeType = 'workspace' | 'monitor' | 'group' | 'tag' | 'status_page';
export type Period = 'this_month' | 'last_month' | 'this_quarter' | 'last_quarter' | 'custom';

export interface ReportView {
  scope: ScopeType;
  /** The monitor's, group's or status page's id, or the tag; '' for the workspace (or none chosen yet). */
  id: string;
  period: Period;
  /** YYYY-MM-DD, used when `period` is custom. */
  from: string;
  to: string;
  /** As typed; '' for the API's default. */
  slo: string;
}

export const SCOPES: { value: ScopeType; label: string; param: string | null }[] = [
  { value: 'workspace', label: 'Workspace', param: null },
  { value: 'monitor', label: 'Monitor', param: 'monitor_id' },
  { value: 'group', label: 'Group', param: 'group_id' },
  { value: 'tag', label: 'Tag', param: 'tag' },
  { value: 'status_page', label: 'Status page', param: 'status_page_id' },
];

export const PERIODS: { value: Period; label: string }[] = [
  { value: 'this_month', label: 'This month' },
  { value: 'last_month', label: 'Last month' },
  { value: 'this_quarter', label: 'This quarter' },
  { value: 'last_quarter', label: 'Last quarter' },
  { value: 'custom', label: 'Custom' },
];

/** The view a query string names (unknown values fall back to the defaults). */
export const viewOf = (search: string): ReportView => {
  const p = new URLSearchParams(search);
  const scope = SCOPES.find((s) => s.param && p.get(s.param));
  // Days without a period (the monthly mail's link) are a custom period.
  const period =
    PERIODS.find((x) => x.value === p.get('period'))?.value ??
    (p.get('from') || p.get('to') ? 'custom' : 'this_month');
  return {
    scope: scope?.value ?? 'workspace',
    id: scope?.param ? (p.get(scope.param) ?? '') : '',
    period,
    from: p.get('from') ?? '',
    to: p.get('to') ?? '',
    slo: p.get('slo') ?? '',
  };
};

/** The page's query string of a view, defaults left out ('' for the default view). */
export const searchOf = (v: ReportView): string => {
  const p = new URLSearchParams();
  const param = SCOPES.find((s) => s.value === v.scope)?.param;
  if (param && v.id) p.set(param, v.id);
  if (v.period !== 'this_month') p.set('period', v.period);
  if (v.period === 'custom') {
    if (v.from) p.set('from', v.from);
    if (v.to) p.set('to', v.to);
  }
  if (v.slo.trim()) p.set('slo', v.slo.trim());
  const q = p.toString();
  return q ? `?${q}` : '';
};

const ymd = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);

/** The UTC days [from, to] (both included) a period covers at `now`; a period under way ends today. */
export const daysOf = (v: Pick<ReportView, 'period' | 'from' | 'to'>, now: Date) => {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const today = ymd(y, m, now.getUTCDate());
  const q = m - (m % 3);
  switch (v.period) {
    case 'this_month':
      return { from: ymd(y, m, 1), to: today };
    case 'last_month':
      return { from: ymd(y, m - 1, 1), to: ymd(y, m, 0) };
    case 'this_quarter':
      return { from: ymd(y, q, 1), to: today };
    case 'last_quarter':
      return { from: ymd(y, q - 3, 1), to: ymd(y, q, 0) };
    case 'custom':
      return { from: v.from, to: v.to };
  }
};

/**
 * The API's query for a view at `now`: the selector, the days and the SLO as typed (the API judges
 * them and names what is wrong). A scope with no id chosen yet asks for nothing (null).
 */
export const apiQueryOf = (v: ReportView, now: Date): Record<string, string> | null => {
  const q: Record<string, string> = {};
  const param = SCOPES.find((s) => s.value === v.scope)?.param;
  if (param) {
    if (!v.id.trim()) return null;
    q[param] = v.id.trim();
  }
  const { from, to } = daysOf(v, now);
  q.from = from;
  q.to = to;
  if (v.slo.trim()) q.slo = v.slo.trim();
  return q;
};
