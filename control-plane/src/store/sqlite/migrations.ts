import {
  agentSessions,
  agentTokens,
  alerts,
  apiKeys,
  createTableSql,
  heartbeats,
  monitorStates,
  monitors,
  pings,
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
    createTableSql(heartbeats),
    'CREATE INDEX heartbeats_ws ON heartbeats (workspace_id, created_at DESC, id DESC)',
    createTableSql(pings, [], { rowidKey: true }),
    'CREATE INDEX pings_heartbeat ON pings (heartbeat_id, at DESC)',
    // open_key is set while the alert is unresolved: at most one open alert per source, cause and key.
    createTableSql(alerts, ['open_key TEXT']),
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
];
