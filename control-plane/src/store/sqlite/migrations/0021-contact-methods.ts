/**
 * Users' contact methods (domain/contacts/contact-method-store.ts): the pending code kept hashed.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE contact_methods (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, user_id TEXT NOT NULL,
       type TEXT NOT NULL, address TEXT NOT NULL, verified_at INTEGER, code_hash TEXT, code_sent_at INTEGER,
       code_expires_at INTEGER, code_failed_attempts INTEGER, created_at INTEGER NOT NULL,
       version INTEGER NOT NULL) STRICT`,
  'CREATE INDEX contact_methods_user ON contact_methods (workspace_id, user_id, created_at)',
];
