/**
 * Scripted checks' runs and screenshots (domain/results/script-run-store.ts): one run per result of a
 * multistep or browser monitor, keyed by the result's id; a failed browser run's screenshot beside it.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE script_runs (result_id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, monitor_id TEXT NOT NULL,
       location TEXT NOT NULL, started_at INTEGER NOT NULL, ok INTEGER NOT NULL, steps TEXT NOT NULL,
       failed_step INTEGER, error_line INTEGER, web_vitals TEXT, console_errors TEXT NOT NULL,
       failed_requests TEXT NOT NULL, screenshot TEXT) STRICT`,
  'CREATE INDEX script_runs_monitor ON script_runs (workspace_id, monitor_id, started_at)',
  'CREATE INDEX script_runs_started ON script_runs (started_at)',
  // Not STRICT: `data` holds the image's bytes (a BLOB column of a STRICT table takes nothing else).
  `CREATE TABLE script_screenshots (result_id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL,
       monitor_id TEXT NOT NULL, taken_at INTEGER NOT NULL, content_type TEXT NOT NULL, data BLOB NOT NULL)`,
  'CREATE INDEX script_screenshots_monitor ON script_screenshots (monitor_id, taken_at)',
  'CREATE INDEX script_screenshots_taken ON script_screenshots (taken_at)',
];
