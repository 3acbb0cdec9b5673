import { createTable, monitorStateColumns } from './frozen-tables.js';

/**
 * The monitor feed: every monitor change and run request, in order (MonitorChange in domain/types.ts).
 */
export default [
  `CREATE TABLE monitor_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, monitor_id TEXT NOT NULL,
       kind TEXT NOT NULL, location TEXT, reason TEXT, request_id TEXT, at INTEGER NOT NULL) STRICT`,
  'CREATE INDEX monitor_changes_at ON monitor_changes (at)',
  // One index on a random key instead of two: a result's id is derived from (monitor, location, time
  // or run request), so (monitor_id, scheduled_at, id) is unique exactly when the id is, and it also
  // serves the per-monitor listing. Each random-key index costs a page write per result per commit.
  'DROP INDEX check_results_id',
  'DROP INDEX check_results_monitor',
  'CREATE UNIQUE INDEX check_results_monitor_time ON check_results (monitor_id, scheduled_at DESC, id)',
  // Location states clustered on their key (WITHOUT ROWID): one B-tree page per update, not two.
  'ALTER TABLE monitor_states RENAME TO monitor_states_old',
  createTable('monitor_states', monitorStateColumns, 'STRICT, WITHOUT ROWID'),
  'INSERT INTO monitor_states SELECT * FROM monitor_states_old',
  'DROP TABLE monitor_states_old',
];
