/**
 * Table layouts of the latest schema, for the SQLite adapter's row <-> record conversion and its
 * INSERT/UPDATE statements. The schema itself is built by the frozen SQL in migrations/ (listed in
 * migrations.ts): a new column goes here and into one new migration file appended to that list
 * (migrations.test.ts checks both agree). Extra columns (not in the record) are computed.
 */
import type { RunResult, Statement } from 'better-sqlite3';

// The audit log's layout.
export * from './audit-tables.js';
export * from './handoff-tables.js';
// The on-call schedules' layouts.
export * from './oncall-tables.js';
// Passkeys and their challenges.
export * from './passkey-tables.js';
// Password reset links.
export * from './password-reset-tables.js';
// Monthly SLA reports by mail.
export * from './report-schedule-tables.js';
// The uptime buckets' layouts.
export * from './rollup-tables.js';
// The SAML replay store's layout.
export * from './saml-tables.js';
// Scripted checks' runs and screenshots.
export * from './script-run-tables.js';
// Second factors: TOTP, recovery codes, sign-in challenges.
export * from './second-factor-tables.js';
// Single sign-on settings.
export * from './sso-tables.js';
// The status pages' layouts (listed with these: migrations.test.ts reads every export).
export * from './status-tables.js';

/** `flag`: a boolean whose absence is false (stored 0/1, never NULL; false reads back as undefined). */
export type ColumnKind = 'text' | 'int' | 'bool' | 'flag' | 'json' | 'date' | 'blob';

export interface Table {
  name: string;
  columns: Record<string, ColumnKind>;
  /** The table whose columns come first (recentResults: results, then the state after each one). */
  base?: Table;
}

const table = (name: string, columns: Record<string, ColumnKind>): Table => ({ name, columns });

/** `base`'s columns, then `more`. */
const extend = (base: Table, name: string, more: Record<string, ColumnKind>): Table => ({
  name,
  columns: { ...base.columns, ...more },
  base,
});

/** Also `monitor_count`, the plan cap's counter: the adapter's own (monitors.ts), not in the record. */
export const workspaces = table('workspaces', {
  id: 'text',
  subdomain: 'text',
  name: 'text',
  plan: 'text',
  created_at: 'date',
});

export const users = table('users', {
  id: 'text',
  workspace_id: 'text',
  email: 'text',
  role: 'text',
  password_hash: 'text',
  created_at: 'date',
});

export const apiKeys = table('api_keys', {
  id: 'text',
  workspace_id: 'text',
  user_id: 'text',
  kind: 'text',
  name: 'text',
  key_hash: 'text',
  last_four: 'text',
  created_at: 'date',
  expires_at: 'date',
  revoked_at: 'date',
  last_used_at: 'date',
  last_used_from: 'text',
});

export const policies = table('escalation_policies', {
  id: 'text',
  workspace_id: 'text',
  name: 'text',
  is_default: 'bool',
  steps: 'json',
  repeat: 'int',
  support_hours: 'json',
  created_at: 'date',
  updated_at: 'date',
});

export const monitors = table('monitors', {
  id: 'text',
  workspace_id: 'text',
  display_name: 'text',
  monitor_type: 'text',
  url: 'text',
  http_method: 'text',
  check_interval_seconds: 'int',
  timeout_seconds: 'int',
  expected_status_code: 'int',
  required_keyword: 'text',
  auth: 'json',
  port: 'int',
  request_headers: 'json',
  request_body: 'text',
  follow_redirects: 'bool',
  ssl_cert_monitoring: 'bool',
  ssl_cert_expiry_alert_days: 'int',
  domain_expiry_alert_days: 'int',
  response_time_threshold_ms: 'int',
  failure_threshold: 'int',
  retry_interval_seconds: 'int',
  escalation_policy_id: 'text',
  check_locations: 'json',
  dns_record_type: 'text',
  dns_expected_values: 'json',
  dns_resolver: 'text',
  depends_on: 'json',
  paused: 'bool',
  group_id: 'text',
  tags: 'json',
  severity: 'text',
  settings: 'json',
  created_at: 'date',
  updated_at: 'date',
  version: 'int',
});

export const heartbeats = table('heartbeats', {
  id: 'text',
  workspace_id: 'text',
  display_name: 'text',
  period_seconds: 'int',
  schedule: 'text',
  timezone: 'text',
  slug: 'text',
  grace_seconds: 'int',
  state: 'text',
  last_ping_at: 'date',
  escalation_policy_id: 'text',
  depends_on: 'json',
  paused: 'bool',
  group_id: 'text',
  tags: 'json',
  severity: 'text',
  created_at: 'date',
  updated_at: 'date',
  version: 'int',
  due_at: 'date',
  started_at: 'date',
  start_rid: 'text',
  alert_id: 'text',
  state_version: 'int',
  rearmed_at: 'date',
  last_duration_ms: 'int',
});

export const pingKeys = table('ping_keys', {
  workspace_id: 'text',
  key_hash: 'text',
  key_sealed: 'text',
  created_at: 'date',
});

export const pings = table('pings', {
  id: 'text',
  heartbeat_id: 'text',
  workspace_id: 'text',
  kind: 'text',
  at: 'date',
  received_at: 'date',
  source: 'text',
  rid: 'text',
  exit_status: 'int',
  body: 'text',
});

export const integrations = table('integrations', {
  id: 'text',
  workspace_id: 'text',
  name: 'text',
  kind: 'text',
  key_hash: 'text',
  key_last_four: 'text',
  escalation_policy_id: 'text',
  created_at: 'date',
  updated_at: 'date',
});

export const sessions = table('sessions', {
  id: 'text',
  workspace_id: 'text',
  user_id: 'text',
  token_hash: 'text',
  csrf_secret: 'text',
  created_at: 'date',
  last_seen_at: 'date',
  expires_at: 'date',
  two_factor_setup: 'bool',
});

/** Browsers that have signed in to an account (domain/access/sign-in-store.ts): looked up by the token's hash. */
export const signInDevices = table('sign_in_devices', {
  id: 'text',
  workspace_id: 'text',
  user_id: 'text',
  token_hash: 'text',
  created_at: 'date',
  expires_at: 'date',
});

/** One row per user who has signed in or failed to: what the owner and admins see. */
export const signInActivity = table('sign_in_activity', {
  workspace_id: 'text',
  user_id: 'text',
  last_sign_in_at: 'date',
  failed_count: 'int',
  failed_since: 'date',
  last_failed_at: 'date',
  last_failed_address: 'text',
});

export const alerts = table('alerts', {
  id: 'text',
  workspace_id: 'text',
  source_type: 'text',
  source_id: 'text',
  cause: 'text',
  dedup_key: 'text',
  title: 'text',
  description: 'text',
  severity: 'text',
  status: 'text',
  escalation_policy_id: 'text',
  created_at: 'date',
  updated_at: 'date',
  acknowledged_at: 'date',
  acknowledged_by: 'json',
  resolved_at: 'date',
  resolved_by: 'json',
  escalation: 'json',
  escalation_due_at: 'date',
  held_back: 'int',
});

export const channels = table('notification_channels', {
  id: 'text',
  workspace_id: 'text',
  name: 'text',
  type: 'text',
  config: 'json',
  secret: 'text',
  created_at: 'date',
  updated_at: 'date',
});

export const deliveries = table('deliveries', {
  id: 'text',
  workspace_id: 'text',
  alert_id: 'text',
  channel_id: 'text',
  user_id: 'text',
  kind: 'text',
  target: 'text',
  step: 'int',
  round: 'int',
  attempt: 'int',
  outcome: 'text',
  permanent: 'bool',
  status_code: 'int',
  error: 'text',
  idempotency_key: 'text',
  test: 'bool',
  at: 'date',
  remote_id: 'text',
});

export const maintenanceWindows = table('maintenance_windows', {
  id: 'text',
  workspace_id: 'text',
  name: 'text',
  scope_type: 'text',
  scope_id: 'text',
  starts_at: 'date',
  ends_at: 'date',
  schedule: 'text',
  timezone: 'text',
  duration_seconds: 'int',
  created_at: 'date',
});

export const agentTokens = table('agent_tokens', {
  id: 'text',
  region: 'text',
  name: 'text',
  token_hash: 'text',
  created_at: 'date',
  revoked_at: 'date',
});

export const agentSessions = table('agent_sessions', {
  instance_id: 'text',
  region: 'text',
  session_id: 'text',
  epoch: 'int',
  hostname: 'text',
  agent_version: 'text',
  started_at: 'date',
  last_seen_at: 'date',
  last_result_at: 'date',
  health: 'json',
  check_types: 'json',
});

export const results = table('check_results', {
  id: 'text',
  workspace_id: 'text',
  monitor_id: 'text',
  monitor_version: 'int',
  location: 'text',
  instance_id: 'text',
  scheduled_at: 'date',
  started_at: 'date',
  received_at: 'date',
  ok: 'bool',
  error_kind: 'text',
  error_message: 'text',
  response_time_ms: 'int',
  status_code: 'int',
  timings: 'json',
  tls_valid_to: 'date',
  domain_expires_at: 'date',
  dns_records: 'json',
  run_now_request_id: 'text',
  in_maintenance: 'flag',
});

/**
 * The results not yet folded into `check_results` (results.ts, rollups.ts): appended as they arrive,
 * each with the state of its location after it (state-book.ts); `rid` is the row id, AUTOINCREMENT so
 * that it only rises.
 */
export const recentResults = extend(results, 'check_results_recent', {
  state_status: 'text',
  state_failures: 'int',
  state_successes: 'int',
  state_slow: 'int',
});

export const monitorStates = table('monitor_states', {
  monitor_id: 'text',
  location: 'text',
  status: 'text',
  consecutive_failures: 'int',
  consecutive_successes: 'int',
  consecutive_slow: 'int',
  last_result_at: 'date',
  last_scheduled_at: 'date',
  version: 'int',
});

/** Groups of monitors and heartbeats; `name_key` (groupNameKey) is the adapter's own, unique per workspace. */
export const groups = table('groups', {
  id: 'text',
  workspace_id: 'text',
  name: 'text',
  created_at: 'date',
  updated_at: 'date',
});

/** Calendar feeds' secret URLs (domain/oncall/calendar-feed-store.ts): the token's hash only. */
export const calendarFeeds = table('calendar_feeds', {
  id: 'text',
  workspace_id: 'text',
  kind: 'text',
  subject_id: 'text',
  token_hash: 'text',
  created_by: 'text',
  created_at: 'date',
  last_used_at: 'date',
});

/** Workspace secrets (domain/secrets/secret-store.ts): the value sealed, unique per (workspace_id, name). */
export const secrets = table('secrets', {
  workspace_id: 'text',
  name: 'text',
  sealed_value: 'text',
  hint: 'text',
  created_at: 'date',
  updated_at: 'date',
  updated_by: 'text',
});

type Row = Record<string, unknown>;

/**
 * The row <-> record conversions of one table, compiled once from its layout: each builds its object
 * as one literal of fixed shape, where a loop over the columns (generic keyed stores, an object
 * reshaped per property) cost several microseconds per row on the result ingestion path.
 */
interface Codec {
  toRow(record: object): Row;
  fromRow(row: Row): unknown;
  run(statement: Statement, record: object, more?: object): RunResult;
}
const codecs = new WeakMap<Table, Codec>();
const codecOf = (t: Table): Codec => {
  let c = codecs.get(t);
  if (c) return c;
  const cols = Object.entries(t.columns).map(([col, kind]) => [JSON.stringify(col), kind] as const);
  const to: Record<ColumnKind, (v: string) => string> = {
    date: (v) => `${v} == null ? null : ${v}.getTime()`,
    bool: (v) => `${v} == null ? null : ${v} ? 1 : 0`,
    flag: (v) => `${v} ? 1 : 0`,
    json: (v) => `${v} == null ? null : JSON.stringify(${v})`,
    text: (v) => `${v} ?? null`,
    int: (v) => `${v} ?? null`,
    // better-sqlite3 binds a Buffer as a BLOB (not any Uint8Array): a view of the same bytes, no copy.
    blob: (v) => `${v} == null ? null : Buffer.from(${v}.buffer, ${v}.byteOffset, ${v}.byteLength)`,
  };
  const from: Record<ColumnKind, (v: string) => string> = {
    date: (v) => `${v} == null ? null : new Date(${v})`,
    bool: (v) => `${v} == null ? null : ${v} === 1`,
    // Read back as the record writes it: true, or absent (undefined) for false.
    flag: (v) => `${v} === 1 ? true : undefined`,
    json: (v) => `${v} == null ? null : JSON.parse(${v})`,
    text: (v) => `${v} ?? null`,
    int: (v) => `${v} ?? null`,
    // A BLOB reads back as a Buffer: handed on as a plain Uint8Array of its bytes.
    blob: (v) => `${v} == null ? null : new Uint8Array(${v})`,
  };
  const body = (conv: Record<ColumnKind, (v: string) => string>) =>
    `return (s) => ({ ${cols.map(([col, kind]) => `${col}: ${conv[kind](`s[${col}]`)}`).join(', ')} });`;
  // A column of the base table from `s`; one the table adds from `m` (`more`, or `s` without it).
  const baseCols = new Set(Object.keys(t.base?.columns ?? t.columns).map((c) => JSON.stringify(c)));
  const run = `return (st, s, more) => { const m = more ?? s; return st.run(${cols
    .map(([col, kind]) => to[kind](`${baseCols.has(col) ? 's' : 'm'}[${col}]`))
    .join(', ')}); };`;
  // Column names and kinds come from the layouts above (code, not input); names are JSON-quoted.
  c = {
    toRow: new Function(body(to))(),
    fromRow: new Function(body(from))(),
    run: new Function(run)(),
  } as Codec;
  codecs.set(t, c);
  return c;
};

/** Record -> bind parameters (dates as epoch ms, booleans as 0/1, objects as JSON). */
export const toRow = (t: Table, record: object): Row => codecOf(t).toRow(record);

/** Row -> record, the inverse of toRow. Computed columns are dropped. */
export const fromRow = <T>(t: Table, row: Row): T => codecOf(t).fromRow(row) as T;

/**
 * Runs a statement of positional parameters (`insertSql(t, [], 'positional')`) with the record's
 * columns in layout order, converted as by toRow: no object of named parameters to build and look up.
 * For a table that extends another (`base`), `more` may give the columns it adds, `record` the base's:
 * no merged object to build. A spread of each result with the four state columns added gave every
 * result a hidden class of its own on Node 20: ~2.4 KB a result that only a full collection frees, and
 * half of all the control plane allocated that outlived a scavenge (docs/decisions.md, "Objects on
 * hot paths").
 */
export const runWith = (t: Table, statement: Statement, record: object, more?: object): RunResult =>
  codecOf(t).run(statement, record, more);

export const insertSql = (t: Table, extra: string[] = [], bind: 'named' | 'positional' = 'named'): string => {
  const cols = [...Object.keys(t.columns), ...extra];
  const values = cols.map((c) => (bind === 'named' ? `@${c}` : '?'));
  return `INSERT INTO ${t.name} (${cols.join(', ')}) VALUES (${values.join(', ')})`;
};

export const updateSql = (t: Table, where: string, extra: string[] = []): string => {
  const cols = [...Object.keys(t.columns).filter((c) => c !== 'id'), ...extra];
  return `UPDATE ${t.name} SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE ${where}`;
};
