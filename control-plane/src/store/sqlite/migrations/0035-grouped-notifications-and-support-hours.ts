/**
 * Grouped notifications (domain/escalation/notification-group-store.ts): one row per group (workspace,
 * policy, recipient) with its due time and claim, and the notifications waiting in it, deleted once
 * sent. An acknowledge link may stand for every alert of a grouped message (`alert_ids`). Escalation
 * policies take `support_hours` (domain/escalation/support-hours.ts).
 */
export default [
  // Frozen SQL: a migration never follows the live table definition.
  `CREATE TABLE notification_groups (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL,
       policy_id TEXT NOT NULL, recipient_key TEXT NOT NULL, due_at INTEGER, last_flush_at INTEGER,
       claim TEXT, updated_at INTEGER NOT NULL) STRICT`,
  'CREATE INDEX notification_groups_due ON notification_groups (due_at) WHERE due_at IS NOT NULL',
  'CREATE INDEX notification_groups_idle ON notification_groups (last_flush_at) WHERE due_at IS NULL',
  `CREATE TABLE notification_group_items (id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL,
       group_id TEXT NOT NULL, alert_id TEXT NOT NULL, event TEXT NOT NULL, step INTEGER, round INTEGER,
       created_at INTEGER NOT NULL) STRICT`,
  'CREATE INDEX notification_group_items_group ON notification_group_items (group_id, created_at)',
  'ALTER TABLE ack_links ADD COLUMN alert_ids TEXT',
  'ALTER TABLE escalation_policies ADD COLUMN support_hours TEXT',
];
