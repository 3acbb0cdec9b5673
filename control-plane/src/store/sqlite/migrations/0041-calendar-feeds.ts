/**
 * Calendar feeds' secret URLs (domain/oncall/calendar-feed-store.ts): only the token's hash is kept,
 * one feed per subject (a schedule or a user).
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE calendar_feeds (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, kind TEXT NOT NULL,
       subject_id TEXT NOT NULL, token_hash TEXT NOT NULL, created_by TEXT, created_at INTEGER NOT NULL,
       last_used_at INTEGER) STRICT`,
  'CREATE UNIQUE INDEX calendar_feeds_token ON calendar_feeds (token_hash)',
  'CREATE UNIQUE INDEX calendar_feeds_subject ON calendar_feeds (workspace_id, kind, subject_id)',
  'CREATE INDEX calendar_feeds_used ON calendar_feeds (coalesce(last_used_at, created_at))',
];
