/**
 * Groups and tags (issue 53): monitors and heartbeats get a group (one at most), tags (a JSON array)
 * and a severity; groups have a name unique per workspace ignoring case (`name_key`); each monitor's
 * tags are also rows of `monitor_tags`, kept in step by every monitor write, so a tag filter is an
 * index range rather than a scan (domain/monitors/labels.ts).
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  'ALTER TABLE monitors ADD COLUMN group_id TEXT',
  "ALTER TABLE monitors ADD COLUMN tags TEXT NOT NULL DEFAULT '[]'",
  "ALTER TABLE monitors ADD COLUMN severity TEXT NOT NULL DEFAULT 'critical'",
  'ALTER TABLE heartbeats ADD COLUMN group_id TEXT',
  "ALTER TABLE heartbeats ADD COLUMN tags TEXT NOT NULL DEFAULT '[]'",
  "ALTER TABLE heartbeats ADD COLUMN severity TEXT NOT NULL DEFAULT 'critical'",
  'CREATE INDEX monitors_group ON monitors (workspace_id, group_id) WHERE group_id IS NOT NULL',
  'CREATE INDEX heartbeats_group ON heartbeats (workspace_id, group_id) WHERE group_id IS NOT NULL',
  `CREATE TABLE groups (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, name TEXT NOT NULL,
       name_key TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL) STRICT`,
  'CREATE UNIQUE INDEX groups_name ON groups (workspace_id, name_key)',
  'CREATE INDEX groups_ws ON groups (workspace_id, created_at DESC, id DESC)',
  `CREATE TABLE monitor_tags (workspace_id TEXT NOT NULL, tag TEXT NOT NULL, monitor_id TEXT NOT NULL,
       PRIMARY KEY (workspace_id, tag, monitor_id)) WITHOUT ROWID, STRICT`,
  'CREATE INDEX monitor_tags_monitor ON monitor_tags (monitor_id)',
];
