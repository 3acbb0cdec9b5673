/** Workspace secrets (domain/secrets/secret-store.ts): each value sealed, one per name in a workspace. */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE secrets (workspace_id TEXT NOT NULL, name TEXT NOT NULL, sealed_value TEXT NOT NULL,
       hint TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, updated_by TEXT,
       PRIMARY KEY (workspace_id, name)) STRICT`,
];
