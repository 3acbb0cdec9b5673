/**
 * Monthly SLA reports by mail (domain/reports/report-schedule-store.ts): one row per workspace; the
 * job finds due ones by (enabled, last_sent_month) and claims a month by a conditional UPDATE.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE report_schedules (workspace_id TEXT PRIMARY KEY, enabled INTEGER NOT NULL,
       recipient_user_ids TEXT NOT NULL, scope TEXT NOT NULL, slo TEXT NOT NULL,
       last_sent_month TEXT NOT NULL, updated_at INTEGER NOT NULL, updated_by TEXT NOT NULL) STRICT`,
  'CREATE INDEX report_schedules_due ON report_schedules (enabled, last_sent_month, workspace_id)',
];
