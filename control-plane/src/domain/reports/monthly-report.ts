import type { AccountMailer } from '../access/password-reset.js';
import type { TenancyStore } from '../tenancy/tenancy-store.js';
import type { Workspace } from '../types.js';
import { renderReportMail } from './report-mail.js';
import { dueMonth, monthDays, previousMonth } from './report-months.js';
import type { ReportSchedule, ReportScheduleStore } from './report-schedule-store.js';
import type { ReportScopeType, SlaReport } from './sla-report.js';

/**
 * The monthly SLA report by mail. From 06:00 UTC on the 1st (or any later moment of the month: a
 * replica that was down catches up), each workspace whose schedule is on and has not reached the
 * previous month gets that month's report: the month is claimed by compare-and-set first
 * (`claimReportMonth`), so of any number of replicas exactly one mails it, once.
 *
 * At most once: a recipient whose mail fails is logged and the others still get theirs; the month
 * stays claimed whatever fails after the claim (a report that cannot be built, a server that refuses),
 * so a broken mail server never turns into a storm of resends (docs/decisions.md, "Monthly SLA report
 * by mail"). `POST /reports/schedule/send-now` mails it again by hand.
 */

/** Workspaces claimed per pass: the rest are due still and taken by the next passes. */
export const REPORTS_PER_PASS = 20;

/** What the report covers: the schedule's scope, the days of the month (both included), the SLO. */
export interface ReportRequest {
  scope: { type: ReportScopeType; id: string | null };
  from: string;
  to: string;
  slo: number;
}

/** Builds the report (domain/reports: from the rollups and the alerts) as `GET /reports/sla` would. */
export type ReportBuilder = (workspace: Workspace, request: ReportRequest, now: Date) => Promise<SlaReport>;

export type MonthlyReportStore = Pick<ReportScheduleStore, 'listDueReportSchedules' | 'claimReportMonth'> &
  Pick<TenancyStore, 'getWorkspace' | 'getUser'>;

export interface MonthlyReportDeps {
  store: MonthlyReportStore;
  build: ReportBuilder;
  send: AccountMailer;
  /** The workspace's public base URL (public-url.ts), for the link to the web page. */
  workspaceUrl: (subdomain: string) => string;
  onError: (err: unknown, context: { workspace_id: string; user_id?: string }) => void;
}

export interface RecipientOutcome {
  user_id: string;
  email: string;
  ok: boolean;
  error: string | null;
}

const SCOPE_PARAM: Record<ReportScopeType, string | null> = {
  workspace: null,
  monitor: 'monitor_id',
  group: 'group_id',
  tag: 'tag',
  status_page: 'status_page_id',
};

/** The web page of the same report: `/reports?group_id=…&from=…&to=…&slo=…` (the API's own query names). */
export const reportLink = (base: string, request: ReportRequest) => {
  const q = new URLSearchParams();
  const param = SCOPE_PARAM[request.scope.type];
  if (param && request.scope.id !== null) q.set(param, request.scope.id);
  q.set('from', request.from);
  q.set('to', request.to);
  q.set('slo', String(request.slo));
  return `${base}/reports?${q}`;
};

/** What mailing one report needs: the recipients' records, the builder, the mailer. */
export type MailReportDeps = Omit<MonthlyReportDeps, 'store' | 'onError'> & {
  store: Pick<TenancyStore, 'getUser'>;
  onError?: MonthlyReportDeps['onError'];
};

/** Builds `month`'s report of one schedule and mails it to each recipient still in the workspace, one by one. */
export const mailReport = async (
  deps: MailReportDeps,
  workspace: Workspace,
  schedule: ReportSchedule,
  month: string,
  now: Date,
): Promise<RecipientOutcome[]> => {
  const request: ReportRequest = { scope: schedule.scope, ...monthDays(month), slo: schedule.slo };
  const report = await deps.build(workspace, request, now);
  const mail = renderReportMail(report, {
    workspace: workspace.subdomain,
    month,
    link: reportLink(deps.workspaceUrl(workspace.subdomain), request),
  });
  const out: RecipientOutcome[] = [];
  for (const id of schedule.recipient_user_ids) {
    const user = await deps.store.getUser(workspace.id, id);
    if (!user) continue; // removed from the workspace since the schedule was saved
    let r: { ok: boolean; error: string | null };
    try {
      r = await deps.send(workspace.id, { to: user.email, ...mail });
    } catch (err) {
      r = { ok: false, error: (err as Error).message };
    }
    if (!r.ok)
      deps.onError?.(new Error(`report mail not sent: ${r.error}`), {
        workspace_id: workspace.id,
        user_id: id,
      });
    out.push({ user_id: id, email: user.email, ok: r.ok, error: r.ok ? null : r.error });
  }
  return out;
};

/** One pass of the job at `now`: claims and mails up to `perPass` due workspaces' reports. */
export const runMonthlyReports = async (
  deps: MonthlyReportDeps,
  now: Date,
  perPass = REPORTS_PER_PASS,
): Promise<{ claimed: number; sent: number; failed: number }> => {
  const tally = { claimed: 0, sent: 0, failed: 0 };
  const month = dueMonth(now);
  if (month === null) return tally;
  for (const schedule of await deps.store.listDueReportSchedules(month, perPass)) {
    if (!(await deps.store.claimReportMonth(schedule.workspace_id, month))) continue;
    tally.claimed++;
    try {
      const workspace = await deps.store.getWorkspace(schedule.workspace_id);
      if (!workspace) continue;
      for (const r of await mailReport(deps, workspace, schedule, month, now))
        tally[r.ok ? 'sent' : 'failed']++;
    } catch (err) {
      deps.onError(err, { workspace_id: schedule.workspace_id });
    }
  }
  return tally;
};

/** `POST /reports/schedule/send-now`: the previous month's report, mailed now, claiming nothing. */
export const sendReportNow = (
  deps: MailReportDeps,
  workspace: Workspace,
  schedule: ReportSchedule,
  now: Date,
) => mailReport(deps, workspace, schedule, previousMonth(now), now);
