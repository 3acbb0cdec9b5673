/**
 * Status pages and their incidents (domain/status-pages/status-page-store.ts): a slug is unique in
 * its workspace, a custom domain in the service; at most one open automatic draft per component.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE status_pages (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, name TEXT NOT NULL,
       slug TEXT NOT NULL, custom_domain TEXT, visibility TEXT NOT NULL, password_hash TEXT,
       cookie_secret TEXT NOT NULL, accent_color TEXT, auto_draft_incidents INTEGER NOT NULL,
       components TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL) STRICT`,
  'CREATE UNIQUE INDEX status_pages_slug ON status_pages (workspace_id, slug)',
  'CREATE UNIQUE INDEX status_pages_domain ON status_pages (custom_domain) WHERE custom_domain IS NOT NULL',
  'CREATE INDEX status_pages_ws ON status_pages (workspace_id, created_at DESC, id DESC)',
  `CREATE TABLE status_incidents (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, page_id TEXT NOT NULL,
       title TEXT NOT NULL, status TEXT NOT NULL, published INTEGER NOT NULL, auto_key TEXT,
       components TEXT NOT NULL, updates TEXT NOT NULL, postmortem TEXT, created_at INTEGER NOT NULL,
       updated_at INTEGER NOT NULL, resolved_at INTEGER, version INTEGER NOT NULL) STRICT`,
  'CREATE INDEX status_incidents_page ON status_incidents (page_id, created_at DESC, id DESC)',
  'CREATE UNIQUE INDEX status_incidents_auto ON status_incidents (page_id, auto_key) WHERE auto_key IS NOT NULL',
  'CREATE INDEX status_incidents_resolved ON status_incidents (resolved_at) WHERE resolved_at IS NOT NULL',
];
