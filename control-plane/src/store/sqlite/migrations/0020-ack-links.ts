/**
 * One-click acknowledge links (domain/alerts/ack-link-store.ts): only the token's hash is kept.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE ack_links (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, alert_id TEXT NOT NULL,
       token_hash TEXT NOT NULL, user_id TEXT, channel_id TEXT, via TEXT NOT NULL, recipient TEXT NOT NULL,
       created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL) STRICT`,
  'CREATE UNIQUE INDEX ack_links_token ON ack_links (token_hash)',
  'CREATE INDEX ack_links_expires ON ack_links (expires_at)',
];
