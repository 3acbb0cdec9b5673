import { createTable } from './frozen-tables.js';

/**
 * Alert routing: escalation progress on the alert, channels, the delivery log, maintenance windows.
 */
export default [
  'ALTER TABLE alerts ADD COLUMN escalation TEXT',
  'ALTER TABLE alerts ADD COLUMN escalation_due_at INTEGER',
  'CREATE INDEX alerts_escalation_due ON alerts (escalation_due_at) WHERE escalation_due_at IS NOT NULL',
  createTable('notification_channels', [
    'id TEXT PRIMARY KEY',
    'workspace_id TEXT',
    'name TEXT',
    'type TEXT',
    'config TEXT',
    'secret TEXT',
    'created_at INTEGER',
    'updated_at INTEGER',
  ]),
  'CREATE INDEX notification_channels_ws ON notification_channels (workspace_id, created_at)',
  createTable('deliveries', [
    'id TEXT',
    'workspace_id TEXT',
    'alert_id TEXT',
    'channel_id TEXT',
    'user_id TEXT',
    'kind TEXT',
    'target TEXT',
    'step INTEGER',
    'round INTEGER',
    'attempt INTEGER',
    'outcome TEXT',
    'permanent INTEGER',
    'status_code INTEGER',
    'error TEXT',
    'idempotency_key TEXT',
    'test INTEGER',
    'at INTEGER',
  ]),
  'CREATE INDEX deliveries_alert ON deliveries (alert_id, at) WHERE alert_id IS NOT NULL',
  'CREATE INDEX deliveries_channel ON deliveries (channel_id, at) WHERE channel_id IS NOT NULL',
  'CREATE INDEX deliveries_key ON deliveries (idempotency_key) WHERE idempotency_key IS NOT NULL',
  createTable('maintenance_windows', [
    'id TEXT PRIMARY KEY',
    'workspace_id TEXT',
    'name TEXT',
    'scope_type TEXT',
    'scope_id TEXT',
    'starts_at INTEGER',
    'ends_at INTEGER',
    'created_at INTEGER',
  ]),
  'CREATE INDEX maintenance_windows_ws ON maintenance_windows (workspace_id, ends_at)',
];
