import type { ReportScopeType } from './sla-report.js';

/**
 * A workspace's monthly SLA report by mail (`GET/PUT /reports/schedule`): whom it goes to, what it
 * covers and the SLO it is held to. One per workspace.
 */
export interface ReportSchedule {
  workspace_id: string;
  enabled: boolean;
  /** Users of the workspace (at most MAX_REPORT_RECIPIENTS); one removed since is skipped when sending. */
  recipient_user_ids: string[];
  /** `workspace` has a null id; every other type names a record of the workspace (a tag: the tag). */
  scope: { type: ReportScopeType; id: string | null };
  slo: number;
  /**
   * `YYYY-MM` (UTC) of the newest month whose report is claimed for mailing: the job mails a month
   * only by moving this forward by compare-and-set (`claimReportMonth`), so it is mailed once. Only
   * ever moves forward (a write keeps the stored one when it is later).
   */
  last_sent_month: string;
  updated_at: Date;
  /** The admin who saved it last. */
  updated_by: string;
}

/**
 * Monthly report schedules. Adapters: store/sqlite/report-schedules.ts, store/mongo/report-schedules.ts;
 * contract test/contract/report-schedules.test.ts. One record per workspace (nothing grows with time).
 */
export interface ReportScheduleStore {
  getReportSchedule(workspaceId: string): Promise<ReportSchedule | null>;
  /**
   * Creates or replaces the workspace's schedule, except `last_sent_month`: the later of the stored one
   * and the given one is kept, so a save racing the job never makes a month due again.
   */
  putReportSchedule(schedule: ReportSchedule): Promise<void>;
  /**
   * Up to `limit` enabled schedules whose `last_sent_month` is before `month`, the furthest behind first,
   * then by workspace id (an index on enabled, month and id: one bounded read in index order).
   */
  listDueReportSchedules(month: string, limit: number): Promise<ReportSchedule[]>;
  /**
   * The claim: sets `last_sent_month` to `month` if the schedule is enabled and its month is before
   * `month`, in one atomic step. True for exactly one of any number of callers racing for one month.
   */
  claimReportMonth(workspaceId: string, month: string): Promise<boolean>;
}
