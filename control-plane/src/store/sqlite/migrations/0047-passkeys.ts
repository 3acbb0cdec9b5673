/**
 * Passkeys (domain/access/passkey-store.ts): users' WebAuthn credentials, their credential id unique per
 * workspace, and the challenges handed out and not yet answered (kept by their SHA-256, taken once).
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE passkeys (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, user_id TEXT NOT NULL,
       credential_id TEXT NOT NULL, public_key TEXT NOT NULL, counter INTEGER NOT NULL,
       transports TEXT NOT NULL, name TEXT NOT NULL, created_at INTEGER NOT NULL, last_used_at INTEGER) STRICT`,
  'CREATE UNIQUE INDEX passkeys_credential ON passkeys (workspace_id, credential_id)',
  'CREATE INDEX passkeys_user ON passkeys (workspace_id, user_id, created_at)',
  `CREATE TABLE passkey_challenges (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, user_id TEXT,
       purpose TEXT NOT NULL, expires_at INTEGER NOT NULL) STRICT`,
  'CREATE INDEX passkey_challenges_expiry ON passkey_challenges (expires_at)',
];
