/**
 * The audit log (domain/audit/audit-store.ts): one row per change to configuration or access, and per
 * sign-in. Read newest first per workspace, filtered by actor, resource type or action; pruned by age.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE audit_log (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, at INTEGER NOT NULL,
       actor_type TEXT NOT NULL, actor_id TEXT, actor_name TEXT NOT NULL, actor_user_id TEXT, ip TEXT,
       user_agent TEXT, action TEXT NOT NULL, resource_type TEXT NOT NULL, resource_id TEXT,
       changes TEXT) STRICT`,
  'CREATE INDEX audit_log_workspace ON audit_log (workspace_id, at, id)',
  'CREATE INDEX audit_log_actor_id ON audit_log (workspace_id, actor_id, at, id)',
  'CREATE INDEX audit_log_actor_name ON audit_log (workspace_id, actor_name, at, id)',
  'CREATE INDEX audit_log_actor_user ON audit_log (workspace_id, actor_user_id, at, id)',
  'CREATE INDEX audit_log_resource_type ON audit_log (workspace_id, resource_type, at, id)',
  'CREATE INDEX audit_log_action ON audit_log (workspace_id, action, at, id)',
  'CREATE INDEX audit_log_at ON audit_log (at)',
];
