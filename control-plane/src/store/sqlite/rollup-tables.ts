/** The uptime buckets' layouts (rollups.ts; migrations 0010, 0050); re-exported by tables.ts. */
import type { ColumnKind, Table } from './tables.js';

const table = (name: string, columns: Record<string, ColumnKind>): Table => ({ name, columns });

/** Hourly uptime buckets (domain/results/uptime.ts); written by recordResults, read by sumRollups and the monitor list (monitor-status.ts). */
export const uptimeRollups = table('uptime_rollups', {
  monitor_id: 'text',
  hour: 'int',
  location: 'text',
  workspace_id: 'text',
  total: 'int',
  ok: 'int',
  response_ms_sum: 'int',
  last_ok_at: 'int',
  last_ok_ms: 'int',
});

/**
 * Daily uptime buckets (UTC days): the dashboard's 30-day figure reads these for whole days, SLA
 * reports their maintenance counts and `latency` (latency-histogram.ts `encodeCounts`; NULL: none).
 */
export const uptimeDaily = table('uptime_daily', {
  monitor_id: 'text',
  day: 'int',
  location: 'text',
  workspace_id: 'text',
  total: 'int',
  ok: 'int',
  response_ms_sum: 'int',
  maint_total: 'int',
  maint_ok: 'int',
  latency: 'blob',
});
