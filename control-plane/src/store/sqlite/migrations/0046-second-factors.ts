/**
 * Two-factor sign-in (domain/access/second-factor-store.ts): each user's TOTP secret (sealed) and
 * recovery codes (hashed), the challenges between a password and its second factor, the workspace's
 * `require_2fa`, and the session's mark of a user who must still set up a second factor.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE totp_factors (workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, secret_sealed TEXT NOT NULL,
       created_at INTEGER NOT NULL, confirmed_at INTEGER, last_step INTEGER,
       PRIMARY KEY (workspace_id, user_id)) STRICT`,
  `CREATE TABLE recovery_codes (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, user_id TEXT NOT NULL,
       code_hash TEXT NOT NULL, created_at INTEGER NOT NULL) STRICT`,
  'CREATE INDEX recovery_codes_user ON recovery_codes (workspace_id, user_id)',
  `CREATE TABLE sign_in_challenges (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, user_id TEXT NOT NULL,
       token_hash TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
       failures INTEGER NOT NULL DEFAULT 0) STRICT`,
  'CREATE UNIQUE INDEX sign_in_challenges_token ON sign_in_challenges (token_hash)',
  'CREATE INDEX sign_in_challenges_expires ON sign_in_challenges (expires_at)',
  'CREATE TABLE workspace_security (workspace_id TEXT PRIMARY KEY, require_2fa INTEGER NOT NULL) STRICT',
  'ALTER TABLE sessions ADD COLUMN two_factor_setup INTEGER',
];
