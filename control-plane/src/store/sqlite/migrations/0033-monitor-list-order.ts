/**
 * What the monitor list sorts and counts on, kept on the monitor record (store/sqlite/monitor-list.ts):
 * `verdict` (the monitor-level '*' row's status as the API names it: up, down or pending), `name_key`
 * (the folded name; filled at open, sqlite-store.ts, as fold_case is the process's own function) and
 * `status_changed_at` (the last change of verdict or pause). Each order is an index range.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `ALTER TABLE monitors ADD COLUMN verdict TEXT NOT NULL DEFAULT 'pending'`,
  'ALTER TABLE monitors ADD COLUMN name_key TEXT',
  'ALTER TABLE monitors ADD COLUMN status_changed_at INTEGER NOT NULL DEFAULT 0',
  `UPDATE monitors SET
     verdict = coalesce((SELECT CASE s.status WHEN 'up' THEN 'up' WHEN 'down' THEN 'down' ELSE 'pending' END
       FROM monitor_states s WHERE s.monitor_id = monitors.id AND s.location = '*'), 'pending'),
     status_changed_at = max(coalesce(updated_at, created_at, 0), coalesce((SELECT s.last_result_at
       FROM monitor_states s WHERE s.monitor_id = monitors.id AND s.location = '*'), 0))`,
  'CREATE INDEX monitors_status_order ON monitors (workspace_id, paused, verdict, name_key, id)',
  'CREATE INDEX monitors_name_order ON monitors (workspace_id, name_key, id)',
  // The paused bucket, and every monitor not paused when a window covers the whole workspace.
  'CREATE INDEX monitors_pause_order ON monitors (workspace_id, paused, name_key, id)',
  'CREATE INDEX monitors_change_order ON monitors (workspace_id, status_changed_at, id)',
];
