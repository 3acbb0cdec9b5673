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
  // A group's section pages its members by status (the web app's group sections), ungrouped too.
  'CREATE INDEX monitors_group_order ON monitors (workspace_id, group_id, paused, verdict, name_key, id)',
  // How many monitors of a workspace are in each (paused, verdict): the counts without a filter read
  // these few rows instead of counting the workspace. Kept by triggers, so every writer keeps them.
  `CREATE TABLE monitor_status_counts (workspace_id TEXT NOT NULL, paused INTEGER NOT NULL,
       verdict TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (workspace_id, paused, verdict)) WITHOUT ROWID`,
  `INSERT INTO monitor_status_counts (workspace_id, paused, verdict, n)
     SELECT workspace_id, coalesce(paused, 0), verdict, count(*) FROM monitors GROUP BY 1, 2, 3`,
  `CREATE TRIGGER monitor_status_counts_insert AFTER INSERT ON monitors BEGIN
     INSERT INTO monitor_status_counts (workspace_id, paused, verdict, n)
       VALUES (NEW.workspace_id, coalesce(NEW.paused, 0), NEW.verdict, 1)
       ON CONFLICT (workspace_id, paused, verdict) DO UPDATE SET n = n + 1;
   END`,
  `CREATE TRIGGER monitor_status_counts_delete AFTER DELETE ON monitors BEGIN
     UPDATE monitor_status_counts SET n = n - 1
       WHERE workspace_id = OLD.workspace_id AND paused = coalesce(OLD.paused, 0) AND verdict = OLD.verdict;
   END`,
  `CREATE TRIGGER monitor_status_counts_update AFTER UPDATE OF paused, verdict, workspace_id ON monitors
     WHEN OLD.paused IS NOT NEW.paused OR OLD.verdict IS NOT NEW.verdict OR OLD.workspace_id IS NOT NEW.workspace_id
   BEGIN
     UPDATE monitor_status_counts SET n = n - 1
       WHERE workspace_id = OLD.workspace_id AND paused = coalesce(OLD.paused, 0) AND verdict = OLD.verdict;
     INSERT INTO monitor_status_counts (workspace_id, paused, verdict, n)
       VALUES (NEW.workspace_id, coalesce(NEW.paused, 0), NEW.verdict, 1)
       ON CONFLICT (workspace_id, paused, verdict) DO UPDATE SET n = n + 1;
   END`,
];
