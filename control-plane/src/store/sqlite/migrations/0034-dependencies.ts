/**
 * Dependencies (issue 53): `depends_on` on monitors and heartbeats, the holds of alerts waiting on
 * them, each source's dependency timeline (kept 30 days), and the count of dependents an alert holds back.
 */
export default [
  "ALTER TABLE monitors ADD COLUMN depends_on TEXT DEFAULT '[]'",
  "ALTER TABLE heartbeats ADD COLUMN depends_on TEXT DEFAULT '[]'",
  'ALTER TABLE alerts ADD COLUMN held_back INTEGER DEFAULT 0',
  `CREATE TABLE alert_holds (
    workspace_id TEXT NOT NULL,
    source_type TEXT NOT NULL,
    source_id TEXT NOT NULL,
    state TEXT NOT NULL,
    suppressed_by TEXT,
    since INTEGER NOT NULL,
    hold_until INTEGER,
    due_at INTEGER NOT NULL,
    version INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, source_type, source_id)
  )`,
  'CREATE INDEX alert_holds_due ON alert_holds (due_at)',
  `CREATE TABLE source_events (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    source_type TEXT NOT NULL,
    source_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    kind TEXT NOT NULL,
    dependency_id TEXT,
    message TEXT NOT NULL
  )`,
  'CREATE INDEX source_events_by_source ON source_events (workspace_id, source_type, source_id, at)',
  'CREATE INDEX source_events_at ON source_events (at)',
];
