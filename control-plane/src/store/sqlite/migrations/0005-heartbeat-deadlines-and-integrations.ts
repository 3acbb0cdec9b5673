import { createTable } from './frozen-tables.js';

/**
 * Heartbeat deadlines and signals (the deadline job reads due_at by index), ping run ids, exit
 * statuses and bodies, and inbound integrations with their hashed service keys.
 */
export default [
  'ALTER TABLE heartbeats ADD COLUMN due_at INTEGER',
  'ALTER TABLE heartbeats ADD COLUMN started_at INTEGER',
  'ALTER TABLE heartbeats ADD COLUMN start_rid TEXT',
  'ALTER TABLE heartbeats ADD COLUMN alert_id TEXT',
  'ALTER TABLE heartbeats ADD COLUMN state_version INTEGER NOT NULL DEFAULT 0',
  `UPDATE heartbeats SET due_at = last_ping_at + period_seconds * 1000
       WHERE paused = 0 AND state IN ('up', 'late') AND last_ping_at IS NOT NULL`,
  'CREATE INDEX heartbeats_due ON heartbeats (due_at) WHERE due_at IS NOT NULL',
  'ALTER TABLE pings ADD COLUMN rid TEXT',
  'ALTER TABLE pings ADD COLUMN exit_status INTEGER',
  'ALTER TABLE pings ADD COLUMN body TEXT',
  createTable('integrations', [
    'id TEXT PRIMARY KEY',
    'workspace_id TEXT',
    'name TEXT',
    'kind TEXT',
    'key_hash TEXT',
    'key_last_four TEXT',
    'escalation_policy_id TEXT',
    'created_at INTEGER',
    'updated_at INTEGER',
  ]),
  'CREATE UNIQUE INDEX integrations_key ON integrations (key_hash)',
  'CREATE INDEX integrations_ws ON integrations (workspace_id, created_at DESC, id DESC)',
];
