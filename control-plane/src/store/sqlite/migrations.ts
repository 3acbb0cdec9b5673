import {
  agentSessions,
  agentTokens,
  alertsV1,
  apiKeys,
  channels,
  createTableSql,
  deliveries,
  heartbeatsV1,
  integrations,
  maintenanceWindows,
  monitorStates,
  monitors,
  pingsV1,
  policies,
  results,
  users,
  workspaces,
} from './tables.js';

/**
 * Ordered, append-only. Each runs once, inside the same IMMEDIATE transaction that records it,
 * so two processes starting on one file never run one twice. Never edit a shipped migration: add one.
 */
export const migrations: string[][] = [
  [
    createTableSql(workspaces),
    'CREATE UNIQUE INDEX workspaces_subdomain ON workspaces (subdomain)',
    createTableSql(users),
    'CREATE UNIQUE INDEX users_email ON users (workspace_id, email)',
    createTableSql(apiKeys),
    'CREATE UNIQUE INDEX api_keys_hash ON api_keys (key_hash)',
    'CREATE INDEX api_keys_user ON api_keys (workspace_id, user_id, kind)',
    createTableSql(policies),
    'CREATE INDEX escalation_policies_ws ON escalation_policies (workspace_id, is_default)',
    createTableSql(monitors),
    'CREATE INDEX monitors_ws ON monitors (workspace_id, created_at DESC, id DESC)',
    createTableSql(heartbeatsV1),
    'CREATE INDEX heartbeats_ws ON heartbeats (workspace_id, created_at DESC, id DESC)',
    createTableSql(pingsV1, [], { rowidKey: true }),
    'CREATE INDEX pings_heartbeat ON pings (heartbeat_id, at DESC)',
    // open_key is set while the alert is unresolved: at most one open alert per source, cause and key.
    createTableSql(alertsV1, ['open_key TEXT']),
    'CREATE UNIQUE INDEX alerts_open_key ON alerts (open_key)',
    'CREATE INDEX alerts_ws ON alerts (workspace_id, created_at DESC, id DESC)',
    'CREATE INDEX alerts_ws_status ON alerts (workspace_id, status, created_at DESC)',
  ],
  [
    createTableSql(agentTokens),
    'CREATE UNIQUE INDEX agent_tokens_hash ON agent_tokens (token_hash)',
    createTableSql(agentSessions, ['PRIMARY KEY (instance_id)']),
    'CREATE INDEX agent_sessions_region ON agent_sessions (region)',
    // Check results are append-heavy: rowid-keyed, the deterministic result id unique on the side.
    createTableSql(results, [], { rowidKey: true }),
    'CREATE UNIQUE INDEX check_results_id ON check_results (id)',
    'CREATE INDEX check_results_monitor ON check_results (monitor_id, scheduled_at DESC)',
    'CREATE INDEX check_results_received ON check_results (received_at)',
    createTableSql(monitorStates, ['PRIMARY KEY (monitor_id, location)']),
  ],
  // Alert routing: escalation progress on the alert, channels, the delivery log, maintenance windows.
  [
    'ALTER TABLE alerts ADD COLUMN escalation TEXT',
    'ALTER TABLE alerts ADD COLUMN escalation_due_at INTEGER',
    'CREATE INDEX alerts_escalation_due ON alerts (escalation_due_at) WHERE escalation_due_at IS NOT NULL',
    createTableSql(channels),
    'CREATE INDEX notification_channels_ws ON notification_channels (workspace_id, created_at)',
    createTableSql(deliveries, [], { rowidKey: true }),
    'CREATE INDEX deliveries_alert ON deliveries (alert_id, at) WHERE alert_id IS NOT NULL',
    'CREATE INDEX deliveries_channel ON deliveries (channel_id, at) WHERE channel_id IS NOT NULL',
    'CREATE INDEX deliveries_key ON deliveries (idempotency_key) WHERE idempotency_key IS NOT NULL',
    createTableSql(maintenanceWindows),
    'CREATE INDEX maintenance_windows_ws ON maintenance_windows (workspace_id, ends_at)',
  ],
  // The monitor feed: every monitor change and run request, in order (store/port.ts MonitorChange).
  [
    `CREATE TABLE monitor_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, monitor_id TEXT NOT NULL,
       kind TEXT NOT NULL, location TEXT, reason TEXT, request_id TEXT, at INTEGER NOT NULL) STRICT`,
    'CREATE INDEX monitor_changes_at ON monitor_changes (at)',
    // One index on a random key instead of two: a result's id is derived from (monitor, location, time
    // or run request), so (monitor_id, scheduled_at, id) is unique exactly when the id is, and it also
    // serves the per-monitor listing. Each random-key index costs a page write per result per commit.
    'DROP INDEX check_results_id',
    'DROP INDEX check_results_monitor',
    'CREATE UNIQUE INDEX check_results_monitor_time ON check_results (monitor_id, scheduled_at DESC, id)',
    // Location states clustered on their key (WITHOUT ROWID): one B-tree page per update, not two.
    'ALTER TABLE monitor_states RENAME TO monitor_states_old',
    `${createTableSql(monitorStates, ['PRIMARY KEY (monitor_id, location)']).replace(/ STRICT$/, ' STRICT, WITHOUT ROWID')}`,
    'INSERT INTO monitor_states SELECT * FROM monitor_states_old',
    'DROP TABLE monitor_states_old',
  ],
  // Heartbeat deadlines and signals (the deadline job reads due_at by index), ping run ids, exit
  // statuses and bodies, and inbound integrations with their hashed service keys.
  [
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
    createTableSql(integrations),
    'CREATE UNIQUE INDEX integrations_key ON integrations (key_hash)',
    'CREATE INDEX integrations_ws ON integrations (workspace_id, created_at DESC, id DESC)',
  ],
  // A heartbeat whose alert was resolved by hand while it was down owes a ping from then on (spec 3.2).
  ['ALTER TABLE heartbeats ADD COLUMN rearmed_at INTEGER'],
  // Web app sessions (domain/sessions.ts): looked up by the token's hash; pruned by expiry.
  [
    // Frozen SQL: a migration never follows the live table definition.
    'CREATE TABLE sessions (id TEXT PRIMARY KEY, workspace_id TEXT, user_id TEXT, token_hash TEXT, csrf_secret TEXT, created_at INTEGER, last_seen_at INTEGER, expires_at INTEGER) STRICT',
    'CREATE UNIQUE INDEX sessions_token ON sessions (token_hash)',
    'CREATE INDEX sessions_user ON sessions (workspace_id, user_id)',
    'CREATE INDEX sessions_expires ON sessions (expires_at)',
    'CREATE INDEX sessions_seen ON sessions (last_seen_at)',
  ],
  // Invitations (domain/member-store.ts): one-time links to join a workspace, looked up by the token's hash.
  [
    // Frozen SQL: a migration never follows the live table definition.
    'CREATE TABLE invitations (id TEXT PRIMARY KEY, workspace_id TEXT, user_id TEXT, token_hash TEXT, created_by TEXT, created_at INTEGER, expires_at INTEGER, used_at INTEGER) STRICT',
    'CREATE UNIQUE INDEX invitations_token ON invitations (token_hash)',
    'CREATE INDEX invitations_user ON invitations (user_id, created_at)',
  ],
];
