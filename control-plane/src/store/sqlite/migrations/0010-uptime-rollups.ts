/**
 * Uptime rollups (domain/results/uptime.ts): one bucket per (monitor, hour, location) and per (monitor, UTC
 * day, location), clustered so that a monitor's buckets of a window are one range; filled from the
 * results already stored.
 */
export default [
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
];
