/**
 * Verification codes counted per destination, user and workspace (domain/contacts/code-limits.ts):
 * one row per counter and window, deleted once the window has ended.
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE code_send_counters (key TEXT PRIMARY KEY, n INTEGER NOT NULL,
       expires_at INTEGER NOT NULL) STRICT`,
  'CREATE INDEX code_send_counters_expires ON code_send_counters (expires_at)',
];
