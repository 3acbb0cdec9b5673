/**
 * The hosted MCP connector's OAuth records (domain/access/oauth-store.ts): keyed by the id's SHA-256.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE oauth_records (workspace_id TEXT NOT NULL, model TEXT NOT NULL, key_hash TEXT NOT NULL,
       payload TEXT NOT NULL, grant_id TEXT, account_id TEXT, client_id TEXT, uid TEXT,
       created_at INTEGER NOT NULL, expires_at INTEGER, consumed_at INTEGER,
       PRIMARY KEY (workspace_id, model, key_hash)) STRICT`,
  'CREATE INDEX oauth_records_grant ON oauth_records (workspace_id, grant_id) WHERE grant_id IS NOT NULL',
  'CREATE INDEX oauth_records_uid ON oauth_records (workspace_id, model, uid) WHERE uid IS NOT NULL',
  'CREATE INDEX oauth_records_account ON oauth_records (workspace_id, account_id, model, created_at)',
  'CREATE INDEX oauth_records_expires ON oauth_records (expires_at) WHERE expires_at IS NOT NULL',
];
