/** CREATE TABLE with its column definitions written out; the text is exactly what shipped. */
export const createTable = (name: string, columns: string[], options = 'STRICT') =>
  `CREATE TABLE ${name} (${columns.join(', ')}) ${options}`;

/** check_results as migration 2 created it (and check_results_recent repeats it). */
export const resultColumns = [
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
export const resultColumnNames = resultColumns.map((c) => c.split(' ')[0]).join(', ');

/** monitor_states as migration 2 created it and migration 4 rebuilt it (clustered on its key). */
export const monitorStateColumns = [
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
