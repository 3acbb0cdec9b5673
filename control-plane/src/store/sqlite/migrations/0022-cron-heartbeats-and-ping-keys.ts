/**
 * Cron heartbeats (domain/heartbeats/schedule.ts): a schedule in a time zone instead of a period, a
 * slug unique in the workspace for slug pings, the last run's duration; and each workspace's ping
 * key for slug pings (domain/heartbeats/ping-key-store.ts), found by its SHA-256, sealed to be shown.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  'ALTER TABLE heartbeats ADD COLUMN schedule TEXT',
  "ALTER TABLE heartbeats ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC'",
  'ALTER TABLE heartbeats ADD COLUMN slug TEXT',
  'ALTER TABLE heartbeats ADD COLUMN last_duration_ms INTEGER',
  'CREATE UNIQUE INDEX heartbeats_slug ON heartbeats (workspace_id, slug) WHERE slug IS NOT NULL',
  `CREATE TABLE ping_keys (workspace_id TEXT PRIMARY KEY, key_hash TEXT NOT NULL, key_sealed TEXT NOT NULL,
       created_at INTEGER NOT NULL) STRICT`,
  'CREATE UNIQUE INDEX ping_keys_hash ON ping_keys (key_hash)',
];
