/**
 * Workspace mail settings (domain/notifications/mail-settings-store.ts): a workspace's own SMTP server, one row each.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE mail_settings (workspace_id TEXT PRIMARY KEY, host TEXT NOT NULL, port INTEGER NOT NULL,
       tls TEXT NOT NULL, username TEXT, password_sealed TEXT, from_address TEXT NOT NULL,
       updated_at INTEGER NOT NULL, updated_by TEXT NOT NULL) STRICT`,
];
