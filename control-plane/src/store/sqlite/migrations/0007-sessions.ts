/**
 * Web app sessions (domain/access/sessions.ts): looked up by the token's hash; pruned by expiry.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  'CREATE TABLE sessions (id TEXT PRIMARY KEY, workspace_id TEXT, user_id TEXT, token_hash TEXT, csrf_secret TEXT, created_at INTEGER, last_seen_at INTEGER, expires_at INTEGER) STRICT',
  'CREATE UNIQUE INDEX sessions_token ON sessions (token_hash)',
  'CREATE INDEX sessions_user ON sessions (workspace_id, user_id)',
  'CREATE INDEX sessions_expires ON sessions (expires_at)',
  'CREATE INDEX sessions_seen ON sessions (last_seen_at)',
];
