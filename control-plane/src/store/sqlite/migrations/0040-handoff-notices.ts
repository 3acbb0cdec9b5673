/**
 * Handoff notices (domain/oncall/handoff-notices.ts): each user's settings, one cursor per schedule
 * saying when its next notice is due (indexed, so a pass reads only the due ones), and the notices
 * sent, unique by key (schedule, user, shift start, kind), pruned by age.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE handoff_settings (workspace_id TEXT NOT NULL, user_id TEXT NOT NULL,
       enabled INTEGER NOT NULL, lead_minutes INTEGER NOT NULL, updated_at INTEGER NOT NULL,
       PRIMARY KEY (workspace_id, user_id)) WITHOUT ROWID, STRICT`,
  `CREATE TABLE handoff_cursors (workspace_id TEXT NOT NULL, schedule_id TEXT NOT NULL,
       due_at INTEGER NOT NULL, PRIMARY KEY (workspace_id, schedule_id)) WITHOUT ROWID, STRICT`,
  'CREATE INDEX handoff_cursors_due ON handoff_cursors (due_at)',
  `CREATE TABLE handoff_notices (key TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, schedule_id TEXT NOT NULL,
       user_id TEXT NOT NULL, shift_starts_at INTEGER NOT NULL, kind TEXT NOT NULL,
       sent_at INTEGER NOT NULL) WITHOUT ROWID, STRICT`,
  'CREATE INDEX handoff_notices_sent ON handoff_notices (sent_at)',
];
