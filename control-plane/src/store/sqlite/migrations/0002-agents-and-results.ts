import { createTable, monitorStateColumns, resultColumns } from './frozen-tables.js';

/** Region agents (their tokens and sessions), check results and monitor states. */
export default [
  createTable('agent_tokens', [
    'id TEXT PRIMARY KEY',
    'region TEXT',
    'name TEXT',
    'token_hash TEXT',
    'created_at INTEGER',
    'revoked_at INTEGER',
  ]),
  'CREATE UNIQUE INDEX agent_tokens_hash ON agent_tokens (token_hash)',
  createTable('agent_sessions', [
    'instance_id TEXT',
    'region TEXT',
    'session_id TEXT',
    'epoch INTEGER',
    'hostname TEXT',
    'agent_version TEXT',
    'started_at INTEGER',
    'last_seen_at INTEGER',
    'last_result_at INTEGER',
    'health TEXT',
    'PRIMARY KEY (instance_id)',
  ]),
  'CREATE INDEX agent_sessions_region ON agent_sessions (region)',
  // Check results are append-heavy: rowid-keyed, the deterministic result id unique on the side.
  createTable('check_results', resultColumns),
  'CREATE UNIQUE INDEX check_results_id ON check_results (id)',
  'CREATE INDEX check_results_monitor ON check_results (monitor_id, scheduled_at DESC)',
  'CREATE INDEX check_results_received ON check_results (received_at)',
  createTable('monitor_states', monitorStateColumns),
];
