/**
 * Password reset links (domain/access/password-reset.ts): one row per link, looked up by the token's
 * hash; a user's newest few kept; expired ones pruned by their expiry.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE password_resets (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, user_id TEXT NOT NULL,
       token_hash TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, used_at INTEGER) STRICT`,
  'CREATE UNIQUE INDEX password_resets_token ON password_resets (token_hash)',
  'CREATE INDEX password_resets_user ON password_resets (workspace_id, user_id, created_at)',
  'CREATE INDEX password_resets_expires ON password_resets (expires_at)',
];
