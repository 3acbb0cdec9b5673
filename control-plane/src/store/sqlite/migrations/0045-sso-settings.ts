/** Workspace single sign-on settings (domain/access/sso.ts): one row per workspace, replaced whole. */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE sso_settings (workspace_id TEXT PRIMARY KEY, oidc TEXT, saml TEXT, enforced INTEGER NOT NULL,
       break_glass_user_ids TEXT NOT NULL, updated_at INTEGER NOT NULL, updated_by TEXT NOT NULL) STRICT`,
];
