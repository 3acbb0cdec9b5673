import type { SqliteContext } from './db.js';

/** CREATE TABLE with its column definitions written out; the text is exactly what shipped. */
const createTable = (name: string, columns: string[], options = 'STRICT') =>
  `CREATE TABLE ${name} (${columns.join(', ')}) ${options}`;

/** check_results as migration 1 created it (and check_results_recent repeats it). */
const resultColumns = [
  'id TEXT',
  'workspace_id TEXT',
  'monitor_id TEXT',
  'monitor_version INTEGER',
  'location TEXT',
  'instance_id TEXT',
  'scheduled_at INTEGER',
  'started_at INTEGER',
  'received_at INTEGER',
  'ok INTEGER',
  'error_kind TEXT',
  'error_message TEXT',
  'response_time_ms INTEGER',
  'status_code INTEGER',
  'timings TEXT',
  'tls_valid_to INTEGER',
  'domain_expires_at INTEGER',
  'dns_records TEXT',
  'run_now_request_id TEXT',
];
const resultColumnNames = resultColumns.map((c) => c.split(' ')[0]).join(', ');

/** monitor_states as migration 2 created it and migration 4 rebuilt it (clustered on its key). */
const monitorStateColumns = [
  'monitor_id TEXT',
  'location TEXT',
  'status TEXT',
  'consecutive_failures INTEGER',
  'consecutive_successes INTEGER',
  'consecutive_slow INTEGER',
  'last_result_at INTEGER',
  'last_scheduled_at INTEGER',
  'version INTEGER',
  'PRIMARY KEY (monitor_id, location)',
];

/**
 * Ordered, append-only, self-contained: every migration is frozen SQL, never derived from the table
 * layouts in tables.ts (those describe the latest schema for reading and writing rows). To add a
 * column: add it to the layout in tables.ts and append one migration here (`ALTER TABLE … ADD COLUMN`);
 * migrations.test.ts builds a database at every earlier step, migrates it, and checks that its rows
 * survive and that the schema has every layout column. Each runs once, inside the same IMMEDIATE
 * transaction that records it, so two processes starting on one file never run one twice. Never edit a
 * shipped migration: add one.
 */
export const migrations: string[][] = [
  [
    createTable('workspaces', [
      'id TEXT PRIMARY KEY',
      'subdomain TEXT',
      'name TEXT',
      'plan TEXT',
      'created_at INTEGER',
    ]),
    'CREATE UNIQUE INDEX workspaces_subdomain ON workspaces (subdomain)',
    createTable('users', [
      'id TEXT PRIMARY KEY',
      'workspace_id TEXT',
      'email TEXT',
      'role TEXT',
      'password_hash TEXT',
      'created_at INTEGER',
    ]),
    'CREATE UNIQUE INDEX users_email ON users (workspace_id, email)',
    createTable('api_keys', [
      'id TEXT PRIMARY KEY',
      'workspace_id TEXT',
      'user_id TEXT',
      'kind TEXT',
      'name TEXT',
      'key_hash TEXT',
      'last_four TEXT',
      'created_at INTEGER',
      'expires_at INTEGER',
      'revoked_at INTEGER',
      'last_used_at INTEGER',
      'last_used_from TEXT',
    ]),
    'CREATE UNIQUE INDEX api_keys_hash ON api_keys (key_hash)',
    'CREATE INDEX api_keys_user ON api_keys (workspace_id, user_id, kind)',
    createTable('escalation_policies', [
      'id TEXT PRIMARY KEY',
      'workspace_id TEXT',
      'name TEXT',
      'is_default INTEGER',
      'steps TEXT',
      'repeat INTEGER',
      'created_at INTEGER',
      'updated_at INTEGER',
    ]),
    'CREATE INDEX escalation_policies_ws ON escalation_policies (workspace_id, is_default)',
    createTable('monitors', [
      'id TEXT PRIMARY KEY',
      'workspace_id TEXT',
      'display_name TEXT',
      'monitor_type TEXT',
      'url TEXT',
      'http_method TEXT',
      'check_interval_seconds INTEGER',
      'timeout_seconds INTEGER',
      'expected_status_code INTEGER',
      'required_keyword TEXT',
      'auth TEXT',
      'port INTEGER',
      'request_headers TEXT',
      'request_body TEXT',
      'follow_redirects INTEGER',
      'ssl_cert_monitoring INTEGER',
      'ssl_cert_expiry_alert_days INTEGER',
      'domain_expiry_alert_days INTEGER',
      'response_time_threshold_ms INTEGER',
      'failure_threshold INTEGER',
      'escalation_policy_id TEXT',
      'check_locations TEXT',
      'dns_record_type TEXT',
      'dns_expected_values TEXT',
      'dns_resolver TEXT',
      'paused INTEGER',
      'created_at INTEGER',
      'updated_at INTEGER',
      'version INTEGER',
    ]),
    'CREATE INDEX monitors_ws ON monitors (workspace_id, created_at DESC, id DESC)',
    createTable('heartbeats', [
      'id TEXT PRIMARY KEY',
      'workspace_id TEXT',
      'display_name TEXT',
      'period_seconds INTEGER',
      'grace_seconds INTEGER',
      'state TEXT',
      'last_ping_at INTEGER',
      'escalation_policy_id TEXT',
      'paused INTEGER',
      'created_at INTEGER',
      'updated_at INTEGER',
      'version INTEGER',
    ]),
    'CREATE INDEX heartbeats_ws ON heartbeats (workspace_id, created_at DESC, id DESC)',
    createTable('pings', [
      'id TEXT',
      'heartbeat_id TEXT',
      'workspace_id TEXT',
      'kind TEXT',
      'at INTEGER',
      'received_at INTEGER',
      'source TEXT',
    ]),
    'CREATE INDEX pings_heartbeat ON pings (heartbeat_id, at DESC)',
    // open_key is set while the alert is unresolved: at most one open alert per source, cause and key.
    createTable('alerts', [
      'id TEXT PRIMARY KEY',
      'workspace_id TEXT',
      'source_type TEXT',
      'source_id TEXT',
      'cause TEXT',
      'dedup_key TEXT',
      'title TEXT',
      'description TEXT',
      'severity TEXT',
      'status TEXT',
      'escalation_policy_id TEXT',
      'created_at INTEGER',
      'updated_at INTEGER',
      'acknowledged_at INTEGER',
      'acknowledged_by TEXT',
      'resolved_at INTEGER',
      'resolved_by TEXT',
      'open_key TEXT',
    ]),
    'CREATE UNIQUE INDEX alerts_open_key ON alerts (open_key)',
    'CREATE INDEX alerts_ws ON alerts (workspace_id, created_at DESC, id DESC)',
    'CREATE INDEX alerts_ws_status ON alerts (workspace_id, status, created_at DESC)',
  ],
  [
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
  ],
  // Alert routing: escalation progress on the alert, channels, the delivery log, maintenance windows.
  [
    'ALTER TABLE alerts ADD COLUMN escalation TEXT',
    'ALTER TABLE alerts ADD COLUMN escalation_due_at INTEGER',
    'CREATE INDEX alerts_escalation_due ON alerts (escalation_due_at) WHERE escalation_due_at IS NOT NULL',
    createTable('notification_channels', [
      'id TEXT PRIMARY KEY',
      'workspace_id TEXT',
      'name TEXT',
      'type TEXT',
      'config TEXT',
      'secret TEXT',
      'created_at INTEGER',
      'updated_at INTEGER',
    ]),
    'CREATE INDEX notification_channels_ws ON notification_channels (workspace_id, created_at)',
    createTable('deliveries', [
      'id TEXT',
      'workspace_id TEXT',
      'alert_id TEXT',
      'channel_id TEXT',
      'user_id TEXT',
      'kind TEXT',
      'target TEXT',
      'step INTEGER',
      'round INTEGER',
      'attempt INTEGER',
      'outcome TEXT',
      'permanent INTEGER',
      'status_code INTEGER',
      'error TEXT',
      'idempotency_key TEXT',
      'test INTEGER',
      'at INTEGER',
    ]),
    'CREATE INDEX deliveries_alert ON deliveries (alert_id, at) WHERE alert_id IS NOT NULL',
    'CREATE INDEX deliveries_channel ON deliveries (channel_id, at) WHERE channel_id IS NOT NULL',
    'CREATE INDEX deliveries_key ON deliveries (idempotency_key) WHERE idempotency_key IS NOT NULL',
    createTable('maintenance_windows', [
      'id TEXT PRIMARY KEY',
      'workspace_id TEXT',
      'name TEXT',
      'scope_type TEXT',
      'scope_id TEXT',
      'starts_at INTEGER',
      'ends_at INTEGER',
      'created_at INTEGER',
    ]),
    'CREATE INDEX maintenance_windows_ws ON maintenance_windows (workspace_id, ends_at)',
  ],
  // The monitor feed: every monitor change and run request, in order (MonitorChange in domain/types.ts).
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
    createTable('monitor_states', monitorStateColumns, 'STRICT, WITHOUT ROWID'),
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
  ],
  // A heartbeat whose alert was resolved by hand while it was down owes a ping from then on (spec 3.2).
  ['ALTER TABLE heartbeats ADD COLUMN rearmed_at INTEGER'],
  // Web app sessions (domain/access/sessions.ts): looked up by the token's hash; pruned by expiry.
  [
    // Frozen SQL: a migration never follows the live table definition.
    'CREATE TABLE sessions (id TEXT PRIMARY KEY, workspace_id TEXT, user_id TEXT, token_hash TEXT, csrf_secret TEXT, created_at INTEGER, last_seen_at INTEGER, expires_at INTEGER) STRICT',
    'CREATE UNIQUE INDEX sessions_token ON sessions (token_hash)',
    'CREATE INDEX sessions_user ON sessions (workspace_id, user_id)',
    'CREATE INDEX sessions_expires ON sessions (expires_at)',
    'CREATE INDEX sessions_seen ON sessions (last_seen_at)',
  ],
  // The hosted MCP connector's OAuth records (domain/access/oauth-store.ts): keyed by the id's SHA-256.
  [
    // Frozen SQL: a migration never follows the live table definition.
    `CREATE TABLE oauth_records (workspace_id TEXT NOT NULL, model TEXT NOT NULL, key_hash TEXT NOT NULL,
       payload TEXT NOT NULL, grant_id TEXT, account_id TEXT, client_id TEXT, uid TEXT,
       created_at INTEGER NOT NULL, expires_at INTEGER, consumed_at INTEGER,
       PRIMARY KEY (workspace_id, model, key_hash)) STRICT`,
    'CREATE INDEX oauth_records_grant ON oauth_records (workspace_id, grant_id) WHERE grant_id IS NOT NULL',
    'CREATE INDEX oauth_records_uid ON oauth_records (workspace_id, model, uid) WHERE uid IS NOT NULL',
    'CREATE INDEX oauth_records_account ON oauth_records (workspace_id, account_id, model, created_at)',
    'CREATE INDEX oauth_records_expires ON oauth_records (expires_at) WHERE expires_at IS NOT NULL',
  ],
  // Invitations (domain/tenancy/member-store.ts): one-time links to join a workspace, looked up by the token's hash.
  [
    // Frozen SQL: a migration never follows the live table definition.
    'CREATE TABLE invitations (id TEXT PRIMARY KEY, workspace_id TEXT, user_id TEXT, token_hash TEXT, created_by TEXT, created_at INTEGER, expires_at INTEGER, used_at INTEGER) STRICT',
    'CREATE UNIQUE INDEX invitations_token ON invitations (token_hash)',
    'CREATE INDEX invitations_user ON invitations (user_id, created_at)',
  ],
  // Uptime rollups (domain/results/uptime.ts): one bucket per (monitor, hour, location) and per (monitor, UTC
  // day, location), clustered so that a monitor's buckets of a window are one range; filled from the
  // results already stored.
  [
    // Frozen SQL: a migration never follows the live table definition.
    `CREATE TABLE uptime_rollups (monitor_id TEXT NOT NULL, hour INTEGER NOT NULL, location TEXT NOT NULL,
       workspace_id TEXT NOT NULL, total INTEGER NOT NULL, ok INTEGER NOT NULL, response_ms_sum INTEGER NOT NULL,
       last_ok_at INTEGER, last_ok_ms INTEGER,
       PRIMARY KEY (monitor_id, hour, location)) STRICT, WITHOUT ROWID`,
    'CREATE INDEX uptime_rollups_hour ON uptime_rollups (hour)',
    `INSERT INTO uptime_rollups
       SELECT monitor_id, scheduled_at - scheduled_at % 3600000, location, min(workspace_id), count(*),
         sum(ok != 0), coalesce(sum(response_time_ms), 0), max(CASE WHEN ok != 0 THEN scheduled_at END), NULL
       FROM check_results GROUP BY 1, 2, 3`,
    `UPDATE uptime_rollups SET last_ok_ms = (SELECT r.response_time_ms FROM check_results r
       WHERE r.monitor_id = uptime_rollups.monitor_id AND r.scheduled_at = uptime_rollups.last_ok_at
         AND r.location = uptime_rollups.location AND r.ok != 0 LIMIT 1)
     WHERE last_ok_at IS NOT NULL`,
    `CREATE TABLE uptime_daily (monitor_id TEXT NOT NULL, day INTEGER NOT NULL, location TEXT NOT NULL,
       workspace_id TEXT NOT NULL, total INTEGER NOT NULL, ok INTEGER NOT NULL, response_ms_sum INTEGER NOT NULL,
       PRIMARY KEY (monitor_id, day, location)) STRICT, WITHOUT ROWID`,
    'CREATE INDEX uptime_daily_day ON uptime_daily (day)',
    `INSERT INTO uptime_daily
       SELECT monitor_id, hour - hour % 86400000, location, min(workspace_id), sum(total), sum(ok),
         sum(response_ms_sum)
       FROM uptime_rollups GROUP BY 1, 2, 3`,
  ],
  // The uptime buckets are written behind ingestion (rollups.ts): every result with a row id up to
  // `upto` is in them; `waiting_from` is at or before the scheduled time of every later one. Until now
  // they were written with the results, so all of them are.
  [
    `CREATE TABLE uptime_rollup_mark (id INTEGER PRIMARY KEY CHECK (id = 1), upto INTEGER NOT NULL,
       waiting_from INTEGER) STRICT`,
    'INSERT INTO uptime_rollup_mark SELECT 1, coalesce(max(rowid), 0), NULL FROM check_results',
  ],
  // Every user's connected apps (admins, domain/access/connected-apps.ts): a workspace's grants by model.
  ['CREATE INDEX oauth_records_model ON oauth_records (workspace_id, model, created_at)'],
  // Sign-in devices and activity (domain/access/sign-in-store.ts): browsers known to an account, and the
  // account's failed sign-ins for its owner and admins.
  [
    // Frozen SQL: a migration never follows the live table definition.
    'CREATE TABLE sign_in_devices (id TEXT PRIMARY KEY, workspace_id TEXT, user_id TEXT, token_hash TEXT, created_at INTEGER, expires_at INTEGER) STRICT',
    'CREATE UNIQUE INDEX sign_in_devices_token ON sign_in_devices (token_hash)',
    'CREATE INDEX sign_in_devices_user ON sign_in_devices (workspace_id, user_id, created_at)',
    'CREATE INDEX sign_in_devices_expires ON sign_in_devices (expires_at)',
    `CREATE TABLE sign_in_activity (workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, last_sign_in_at INTEGER,
       failed_count INTEGER NOT NULL DEFAULT 0, failed_since INTEGER, last_failed_at INTEGER, last_failed_address TEXT,
       PRIMARY KEY (workspace_id, user_id)) STRICT`,
  ],
  // Workspace mail settings (domain/routing/mail-settings-store.ts): a workspace's own SMTP server, one row each.
  [
    // Frozen SQL: a migration never follows the live table definition.
    `CREATE TABLE mail_settings (workspace_id TEXT PRIMARY KEY, host TEXT NOT NULL, port INTEGER NOT NULL,
       tls TEXT NOT NULL, username TEXT, password_sealed TEXT, from_address TEXT NOT NULL,
       updated_at INTEGER NOT NULL, updated_by TEXT NOT NULL) STRICT`,
  ],
  // The plan cap reads a per-workspace count of monitors, kept by every create and delete in their
  // transaction (monitors.ts), instead of counting the workspace's monitors on every create; seeded
  // from the monitors already stored.
  [
    'ALTER TABLE workspaces ADD COLUMN monitor_count INTEGER NOT NULL DEFAULT 0',
    `UPDATE workspaces SET monitor_count =
       (SELECT count(*) FROM monitors WHERE monitors.workspace_id = workspaces.id)`,
  ],
  // A run-now result's id derives from its request, not from its time: a request run twice (its
  // monitor moved between agents while it waited) gives two results with one id and two times, which
  // the (monitor_id, scheduled_at, id) index let in. Unique ids for those (a partial index: scheduled
  // results, whose id holds their time, never enter it); a duplicate already stored goes first.
  [
    `DELETE FROM check_results WHERE run_now_request_id IS NOT NULL AND rowid NOT IN
       (SELECT min(rowid) FROM check_results WHERE run_now_request_id IS NOT NULL GROUP BY id)`,
    'CREATE UNIQUE INDEX check_results_run ON check_results (id) WHERE run_now_request_id IS NOT NULL',
  ],
  // Alerts acknowledged or resolved lately, for the notifications that follow them (listSettledAlerts).
  ["CREATE INDEX alerts_settled ON alerts (updated_at) WHERE status != 'open'"],
  // The service's id of a delivered message, for replying to it or editing it when the alert resolves.
  ['ALTER TABLE deliveries ADD COLUMN remote_id TEXT'],
  // Status pages and their incidents (domain/status-pages/status-page-store.ts): a slug is unique in
  // its workspace, a custom domain in the service; at most one open automatic draft per component.
  [
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
  ],
  // One-click acknowledge links (domain/alerts/ack-link-store.ts): only the token's hash is kept.
  [
    // Frozen SQL: a migration never follows the live table definition.
    `CREATE TABLE ack_links (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, alert_id TEXT NOT NULL,
       token_hash TEXT NOT NULL, user_id TEXT, channel_id TEXT, via TEXT NOT NULL, recipient TEXT NOT NULL,
       created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL) STRICT`,
    'CREATE UNIQUE INDEX ack_links_token ON ack_links (token_hash)',
    'CREATE INDEX ack_links_expires ON ack_links (expires_at)',
  ],
  // Users' contact methods (domain/contacts/contact-method-store.ts): the pending code kept hashed.
  [
    // Frozen SQL: a migration never follows the live table definition.
    `CREATE TABLE contact_methods (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, user_id TEXT NOT NULL,
       type TEXT NOT NULL, address TEXT NOT NULL, verified_at INTEGER, code_hash TEXT, code_sent_at INTEGER,
       code_expires_at INTEGER, code_failed_attempts INTEGER, created_at INTEGER NOT NULL,
       version INTEGER NOT NULL) STRICT`,
    'CREATE INDEX contact_methods_user ON contact_methods (workspace_id, user_id, created_at)',
  ],
  // Cron heartbeats (domain/heartbeats/schedule.ts): a schedule in a time zone instead of a period, a
  // slug unique in the workspace for slug pings, the last run's duration; and each workspace's ping
  // key for slug pings (domain/heartbeats/ping-key-store.ts), found by its SHA-256, sealed to be shown.
  [
    // Frozen SQL: a migration never follows the live table definition.
    'ALTER TABLE heartbeats ADD COLUMN schedule TEXT',
    "ALTER TABLE heartbeats ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC'",
    'ALTER TABLE heartbeats ADD COLUMN slug TEXT',
    'ALTER TABLE heartbeats ADD COLUMN last_duration_ms INTEGER',
    'CREATE UNIQUE INDEX heartbeats_slug ON heartbeats (workspace_id, slug) WHERE slug IS NOT NULL',
    `CREATE TABLE ping_keys (workspace_id TEXT PRIMARY KEY, key_hash TEXT NOT NULL, key_sealed TEXT NOT NULL,
       created_at INTEGER NOT NULL) STRICT`,
    'CREATE UNIQUE INDEX ping_keys_hash ON ping_keys (key_hash)',
  ],
  // Status page subscribers (domain/status-pages/subscriber-store.ts): one per email and page; the
  // incident mail events written with the incident updates, and the outbox they fan out into (one row
  // per subscriber and update: its id is the idempotency key).
  [
    `CREATE TABLE status_subscribers (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, page_id TEXT NOT NULL,
       email TEXT NOT NULL, status TEXT NOT NULL, confirm_hash TEXT, confirm_expires_at INTEGER,
       confirm_sent_at INTEGER, unsubscribe_hash TEXT NOT NULL, unsubscribe_sealed TEXT NOT NULL,
       created_at INTEGER NOT NULL, confirmed_at INTEGER) STRICT`,
    'CREATE UNIQUE INDEX status_subscribers_email ON status_subscribers (page_id, email)',
    'CREATE INDEX status_subscribers_page ON status_subscribers (page_id, created_at DESC, id DESC)',
    'CREATE UNIQUE INDEX status_subscribers_unsubscribe ON status_subscribers (unsubscribe_hash)',
    'CREATE INDEX status_subscribers_confirm ON status_subscribers (confirm_hash) WHERE confirm_hash IS NOT NULL',
    "CREATE INDEX status_subscribers_pending ON status_subscribers (created_at) WHERE status = 'pending'",
    `CREATE TABLE status_mail_events (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, page_id TEXT NOT NULL,
       incident_id TEXT NOT NULL, created_at INTEGER NOT NULL) STRICT`,
    `CREATE TABLE status_mail_outbox (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, page_id TEXT NOT NULL,
       subscriber_id TEXT NOT NULL, kind TEXT NOT NULL, incident_id TEXT, update_id TEXT,
       due_at INTEGER NOT NULL, attempts INTEGER NOT NULL, created_at INTEGER NOT NULL) STRICT`,
    'CREATE INDEX status_mail_outbox_due ON status_mail_outbox (due_at)',
    'CREATE INDEX status_mail_outbox_subscriber ON status_mail_outbox (subscriber_id)',
  ],
  // The result store shaped for how results arrive (issue 27). Location states held in memory with the
  // results as their log (state-book.ts): each result row carries the state of its location after it;
  // monitor_states' location rows are a snapshot, current as of row id `result_state_mark.upto` (every
  // row up to now: the old ingestion wrote them all).
  [
    'ALTER TABLE check_results ADD COLUMN state_status TEXT',
    'ALTER TABLE check_results ADD COLUMN state_failures INTEGER',
    'ALTER TABLE check_results ADD COLUMN state_successes INTEGER',
    'ALTER TABLE check_results ADD COLUMN state_slow INTEGER',
    'CREATE TABLE result_state_mark (one INTEGER PRIMARY KEY CHECK (one = 1), upto INTEGER NOT NULL) STRICT',
    'INSERT INTO result_state_mark SELECT 1, coalesce(max(rowid), 0) FROM check_results',
    // The uptime buckets are flushed monitor by monitor (rollups.ts): a flush under way takes the
    // results up to `flush_to`, and has written those of the monitors up to `flush_done`.
    'ALTER TABLE uptime_rollup_mark ADD COLUMN flush_to INTEGER',
    'ALTER TABLE uptime_rollup_mark ADD COLUMN flush_done TEXT',
  ],
  // Results stored the way they arrive (issue 27): appended to check_results_recent (no per-monitor
  // index; each row with its location's state), folded into check_results monitor by monitor with
  // the uptime flush (rollups.ts). The marks' row ids become the recent table's; its rows are those
  // after either mark (the log the state book replays, the results the buckets wait for), and of those
  // only the ones not yet in the buckets leave check_results. `folded_through`: the newest scheduled
  // time a flush may have folded (results.ts looks for a replayed result's first copy in check_results only up to
  // it). check_results is pruned by row id (fold order), so its received_at index goes.
  [
    createTable('check_results_recent', [
      'rid INTEGER PRIMARY KEY AUTOINCREMENT',
      ...resultColumns,
      'state_status TEXT',
      'state_failures INTEGER',
      'state_successes INTEGER',
      'state_slow INTEGER',
    ]),
    'CREATE UNIQUE INDEX check_results_recent_time ON check_results_recent (scheduled_at, id)',
    'CREATE UNIQUE INDEX check_results_recent_run ON check_results_recent (id) WHERE run_now_request_id IS NOT NULL',
    'ALTER TABLE uptime_rollup_mark ADD COLUMN folded_through INTEGER',
    `INSERT INTO check_results_recent (rid, ${resultColumnNames}, state_status, state_failures, state_successes, state_slow)
       SELECT rowid, ${resultColumnNames}, state_status, state_failures, state_successes, state_slow FROM check_results
       WHERE rowid > min((SELECT upto FROM uptime_rollup_mark), (SELECT upto FROM result_state_mark))`,
    `DELETE FROM check_results WHERE rowid > (SELECT upto FROM uptime_rollup_mark)
       AND NOT (rowid <= coalesce((SELECT flush_to FROM uptime_rollup_mark), 0)
         AND monitor_id <= coalesce((SELECT flush_done FROM uptime_rollup_mark), ''))`,
    `INSERT INTO sqlite_sequence (name, seq) SELECT 'check_results_recent', 0
       WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'check_results_recent')`,
    `UPDATE sqlite_sequence SET seq = max(seq, (SELECT upto FROM uptime_rollup_mark),
       (SELECT upto FROM result_state_mark), (SELECT coalesce(max(rowid), 0) FROM check_results))
       WHERE name = 'check_results_recent'`,
    `UPDATE uptime_rollup_mark SET waiting_from = NULL, folded_through = max(
       (SELECT coalesce(max(scheduled_at), 0) FROM check_results),
       (SELECT coalesce(max(scheduled_at), 0) FROM check_results_recent))`,
    'DROP INDEX check_results_received',
    'ALTER TABLE check_results DROP COLUMN state_status',
    'ALTER TABLE check_results DROP COLUMN state_failures',
    'ALTER TABLE check_results DROP COLUMN state_successes',
    'ALTER TABLE check_results DROP COLUMN state_slow',
  ],
  // A sequence every insert, update or delete of a monitor-level ('*') row of monitor_states moves,
  // by trigger (whichever process or statement wrote it): a process's copy of those rows
  // (monitor-levels.ts) is good while the sequence is where it was when the copy was read.
  [
    'CREATE TABLE monitor_level_seq (id INTEGER PRIMARY KEY CHECK (id = 0), seq INTEGER NOT NULL) STRICT',
    'INSERT INTO monitor_level_seq (id, seq) VALUES (0, 0)',
    `CREATE TRIGGER monitor_level_insert AFTER INSERT ON monitor_states WHEN NEW.location = '*'
       BEGIN UPDATE monitor_level_seq SET seq = seq + 1; END`,
    `CREATE TRIGGER monitor_level_update AFTER UPDATE ON monitor_states
       WHEN OLD.location = '*' OR NEW.location = '*'
       BEGIN UPDATE monitor_level_seq SET seq = seq + 1; END`,
    `CREATE TRIGGER monitor_level_delete AFTER DELETE ON monitor_states WHEN OLD.location = '*'
       BEGIN UPDATE monitor_level_seq SET seq = seq + 1; END`,
  ],
  // Confirmation mail per recipient across the whole service (domain/status-pages/recipients.ts): one
  // row per normalised address (its SHA-256), the start of its window and the mails counted in it.
  [
    `CREATE TABLE status_recipient_budgets (recipient TEXT PRIMARY KEY, window_start INTEGER NOT NULL,
       count INTEGER NOT NULL) STRICT`,
    'CREATE INDEX status_recipient_budgets_window ON status_recipient_budgets (window_start)',
  ],
  // Custom domains need proof of ownership (domain/status-pages/custom-domain-proof.ts): a token per
  // domain, the last check's result, and an index for the hourly re-check. Domains set before this
  // start pending (not served) with a fresh token, and are checked on the job's next pass. A domain is
  // unique among verified pages only: an unproved claim blocks nobody.
  [
    'ALTER TABLE status_pages ADD COLUMN custom_domain_token TEXT',
    'ALTER TABLE status_pages ADD COLUMN custom_domain_status TEXT',
    'ALTER TABLE status_pages ADD COLUMN custom_domain_checked_at INTEGER',
    'ALTER TABLE status_pages ADD COLUMN custom_domain_failures INTEGER NOT NULL DEFAULT 0',
    'ALTER TABLE status_pages ADD COLUMN custom_domain_error TEXT',
    `UPDATE status_pages SET custom_domain_token = lower(hex(randomblob(16))), custom_domain_status = 'pending'
       WHERE custom_domain IS NOT NULL`,
    `CREATE INDEX status_pages_domain_due ON status_pages (coalesce(custom_domain_checked_at, 0))
       WHERE custom_domain IS NOT NULL`,
    'DROP INDEX status_pages_domain',
    `CREATE UNIQUE INDEX status_pages_domain_verified ON status_pages (custom_domain)
       WHERE custom_domain_status = 'verified'`,
  ],
  // Follow-ups are now due by `escalation_due_at` (listDueFollowUps, the escalation index): the index
  // of the former read of recently settled alerts goes.
  ['DROP INDEX IF EXISTS alerts_settled'],
  // The retry interval after a failure (issue 51): monitors made before it get the default, 15 s or
  // their interval when that is shorter (domain/monitors/monitors.ts, DEFAULT_RETRY_INTERVAL_SECONDS).
  [
    'ALTER TABLE monitors ADD COLUMN retry_interval_seconds INTEGER',
    'UPDATE monitors SET retry_interval_seconds = min(15, check_interval_seconds)',
  ],
  // Verification codes counted per destination, user and workspace (domain/contacts/code-limits.ts):
  // one row per counter and window, deleted once the window has ended.
  [
    // Frozen SQL: a migration never follows the live table definition.
    `CREATE TABLE code_send_counters (key TEXT PRIMARY KEY, n INTEGER NOT NULL,
       expires_at INTEGER NOT NULL) STRICT`,
    'CREATE INDEX code_send_counters_expires ON code_send_counters (expires_at)',
  ],
];

/**
 * Runs the migrations of `list` not yet recorded in `schema_migrations`, all in one IMMEDIATE
 * transaction. `list` is `migrations` except in tests (a database as an older release left it).
 */
export const migrate = ({ db, st, immediate }: SqliteContext, list: string[][] = migrations) => {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER)');
  immediate(() => {
    const done = (st('SELECT max(version) v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
    list.forEach((sqls, i) => {
      const version = i + 1;
      if (version <= done) return;
      for (const sql of sqls) db.exec(sql);
      st('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, Date.now());
    });
  });
};
