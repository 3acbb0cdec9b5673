/**
 * Recurring maintenance windows (domain/maintenance/cover.ts): a cron `schedule` read in `timezone`,
 * each occurrence lasting `duration_seconds`; `ends_at` is NULL for them. One-off windows keep NULL here.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  'ALTER TABLE maintenance_windows ADD COLUMN schedule TEXT',
  'ALTER TABLE maintenance_windows ADD COLUMN timezone TEXT',
  'ALTER TABLE maintenance_windows ADD COLUMN duration_seconds INTEGER',
];
