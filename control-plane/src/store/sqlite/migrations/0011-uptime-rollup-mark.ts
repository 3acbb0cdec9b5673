/**
 * The uptime buckets are written behind ingestion (rollups.ts): every result with a row id up to
 * `upto` is in them; `waiting_from` is at or before the scheduled time of every later one. Until now
 * they were written with the results, so all of them are.
 */
export default [
  `CREATE TABLE uptime_rollup_mark (id INTEGER PRIMARY KEY CHECK (id = 1), upto INTEGER NOT NULL,
       waiting_from INTEGER) STRICT`,
  'INSERT INTO uptime_rollup_mark SELECT 1, coalesce(max(rowid), 0), NULL FROM check_results',
];
