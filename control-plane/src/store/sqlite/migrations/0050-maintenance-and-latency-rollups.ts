/**
 * Maintenance and response times in the rollups (issue 58): each result says whether a maintenance
 * window covered its monitor when it came in (`in_maintenance`, 0 for every result stored before), and
 * each daily bucket counts those results (`maint_total`, `maint_ok`) and keeps a response-time
 * histogram (`latency`, domain/results/latency-histogram.ts; NULL for the buckets before: no entry).
 * ADD COLUMN with a constant default rewrites no row.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  'ALTER TABLE check_results ADD COLUMN in_maintenance INTEGER NOT NULL DEFAULT 0',
  'ALTER TABLE check_results_recent ADD COLUMN in_maintenance INTEGER NOT NULL DEFAULT 0',
  'ALTER TABLE uptime_daily ADD COLUMN maint_total INTEGER NOT NULL DEFAULT 0',
  'ALTER TABLE uptime_daily ADD COLUMN maint_ok INTEGER NOT NULL DEFAULT 0',
  'ALTER TABLE uptime_daily ADD COLUMN latency BLOB',
];
