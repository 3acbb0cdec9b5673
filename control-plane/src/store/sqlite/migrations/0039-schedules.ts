/**
 * On-call schedules (domain/oncall/): schedules with their layers as JSON and a name unique per
 * workspace ignoring case (`name_key`); overrides, indexed by (schedule, starts_at) so the overlap
 * query of a window is one index range (an override spans at most 31 days), and by ends_at for
 * retention; shift offers; history by (schedule, at).
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE schedules (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, name TEXT NOT NULL,
       name_key TEXT NOT NULL, timezone TEXT NOT NULL, layers TEXT NOT NULL,
       created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL) STRICT`,
  'CREATE UNIQUE INDEX schedules_name ON schedules (workspace_id, name_key)',
  'CREATE INDEX schedules_ws ON schedules (workspace_id, created_at DESC, id DESC)',
  `CREATE TABLE schedule_overrides (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL,
       schedule_id TEXT NOT NULL, user_id TEXT NOT NULL, starts_at INTEGER NOT NULL,
       ends_at INTEGER NOT NULL, created_by TEXT, offer_id TEXT, created_at INTEGER NOT NULL) STRICT`,
  'CREATE INDEX schedule_overrides_starts ON schedule_overrides (schedule_id, starts_at)',
  'CREATE INDEX schedule_overrides_user ON schedule_overrides (workspace_id, user_id, starts_at)',
  'CREATE INDEX schedule_overrides_ends ON schedule_overrides (ends_at)',
  `CREATE TABLE shift_offers (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL,
       schedule_id TEXT NOT NULL, user_id TEXT NOT NULL, starts_at INTEGER NOT NULL,
       ends_at INTEGER NOT NULL, note TEXT, status TEXT NOT NULL, taken_by TEXT, override_id TEXT,
       created_at INTEGER NOT NULL, closed_at INTEGER) STRICT`,
  'CREATE INDEX shift_offers_schedule ON shift_offers (schedule_id, created_at DESC, id DESC)',
  "CREATE INDEX shift_offers_user ON shift_offers (workspace_id, user_id) WHERE status = 'open'",
  'CREATE INDEX shift_offers_closed ON shift_offers (closed_at) WHERE closed_at IS NOT NULL',
  "CREATE INDEX shift_offers_open_ends ON shift_offers (ends_at) WHERE status = 'open'",
  `CREATE TABLE schedule_history (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL,
       schedule_id TEXT NOT NULL, at INTEGER NOT NULL, actor_id TEXT, action TEXT NOT NULL,
       detail TEXT NOT NULL) STRICT`,
  'CREATE INDEX schedule_history_schedule ON schedule_history (schedule_id, at DESC, id DESC)',
  'CREATE INDEX schedule_history_at ON schedule_history (at)',
];
