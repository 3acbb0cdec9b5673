import type { ReportSchedule, ReportScheduleStore } from '../../domain/reports/report-schedule-store.js';
import type { SqliteContext } from './db.js';
import { reportSchedules, toRow } from './tables.js';

/**
 * Monthly report schedules in SQLite: one row per workspace. A save is an upsert that keeps the later
 * `last_sent_month` (`max`, text `YYYY-MM` sorts as time); the claim is one conditional UPDATE, so of
 * two processes on one file exactly one changes the row.
 */
export const sqliteReportSchedules = ({ st, one, many, immediate }: SqliteContext): ReportScheduleStore => ({
  async getReportSchedule(workspaceId) {
    return one<ReportSchedule>(
      reportSchedules,
      'SELECT * FROM report_schedules WHERE workspace_id = ?',
      workspaceId,
    );
  },
  async putReportSchedule(schedule) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    immediate(() => {
      st(
        `INSERT INTO report_schedules (workspace_id, enabled, recipient_user_ids, scope, slo, last_sent_month,
           updated_at, updated_by)
         VALUES (@workspace_id, @enabled, @recipient_user_ids, @scope, @slo, @last_sent_month, @updated_at,
           @updated_by)
         ON CONFLICT (workspace_id) DO UPDATE SET enabled = excluded.enabled,
           recipient_user_ids = excluded.recipient_user_ids, scope = excluded.scope, slo = excluded.slo,
           last_sent_month = max(last_sent_month, excluded.last_sent_month),
           updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
      ).run(toRow(reportSchedules, schedule));
    });
  },
  async listDueReportSchedules(month, limit) {
    return many<ReportSchedule>(
      reportSchedules,
      `SELECT * FROM report_schedules WHERE enabled = 1 AND last_sent_month < ?
       ORDER BY last_sent_month, workspace_id LIMIT ?`,
      month,
      limit,
    );
  },
  async claimReportMonth(workspaceId, month) {
    return (
      st(
        `UPDATE report_schedules SET last_sent_month = ?
         WHERE workspace_id = ? AND enabled = 1 AND last_sent_month < ?`,
      ).run(month, workspaceId, month).changes === 1
    );
  },
});
