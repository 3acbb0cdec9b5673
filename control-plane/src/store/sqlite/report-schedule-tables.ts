/** Table layout of the monthly report schedules (tables.ts re-exports it; a new column goes here and into a new migration). */
import type { ColumnKind, Table } from './tables.js';

const table = (name: string, columns: Record<string, ColumnKind>): Table => ({ name, columns });

/** Monthly SLA reports by mail (domain/reports/report-schedule-store.ts): one row per workspace. */
export const reportSchedules = table('report_schedules', {
  workspace_id: 'text',
  enabled: 'bool',
  recipient_user_ids: 'json',
  scope: 'json',
  // JSON text: the table is STRICT and the SLO a decimal (99.95).
  slo: 'json',
  last_sent_month: 'text',
  updated_at: 'date',
  updated_by: 'text',
});
