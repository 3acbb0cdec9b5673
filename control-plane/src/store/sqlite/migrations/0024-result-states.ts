/**
 * The result store shaped for how results arrive (issue 27). Location states held in memory with the
 * results as their log (state-book.ts): each result row carries the state of its location after it;
 * monitor_states' location rows are a snapshot, current as of row id `result_state_mark.upto` (every
 * row up to now: the old ingestion wrote them all).
 */
export default [
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
];
