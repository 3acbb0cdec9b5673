/**
 * Invitations (domain/access/member-store.ts): one-time links to join a workspace, looked up by the token's hash.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  'CREATE TABLE invitations (id TEXT PRIMARY KEY, workspace_id TEXT, user_id TEXT, token_hash TEXT, created_by TEXT, created_at INTEGER, expires_at INTEGER, used_at INTEGER) STRICT',
  'CREATE UNIQUE INDEX invitations_token ON invitations (token_hash)',
  'CREATE INDEX invitations_user ON invitations (user_id, created_at)',
];
