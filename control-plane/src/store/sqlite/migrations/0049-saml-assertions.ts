/**
 * SAML assertions already accepted (domain/access/saml-replay-store.ts): one row per (workspace,
 * issuer, assertion id), the primary key being the replay check; pruned by expiry.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE saml_assertions (workspace_id TEXT NOT NULL, issuer TEXT NOT NULL, assertion_id TEXT NOT NULL,
       expires_at INTEGER NOT NULL, PRIMARY KEY (workspace_id, issuer, assertion_id)) STRICT`,
  'CREATE INDEX saml_assertions_expiry ON saml_assertions (expires_at)',
];
