/**
 * Sign-in devices and activity (domain/access/sign-in-store.ts): browsers known to an account, and the
 * account's failed sign-ins for its owner and admins.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  'CREATE TABLE sign_in_devices (id TEXT PRIMARY KEY, workspace_id TEXT, user_id TEXT, token_hash TEXT, created_at INTEGER, expires_at INTEGER) STRICT',
  'CREATE UNIQUE INDEX sign_in_devices_token ON sign_in_devices (token_hash)',
  'CREATE INDEX sign_in_devices_user ON sign_in_devices (workspace_id, user_id, created_at)',
  'CREATE INDEX sign_in_devices_expires ON sign_in_devices (expires_at)',
  `CREATE TABLE sign_in_activity (workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, last_sign_in_at INTEGER,
       failed_count INTEGER NOT NULL DEFAULT 0, failed_since INTEGER, last_failed_at INTEGER, last_failed_address TEXT,
       PRIMARY KEY (workspace_id, user_id)) STRICT`,
];
