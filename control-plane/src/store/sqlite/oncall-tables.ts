/**
 * Table layouts of on-call schedules, their overrides, shift offers and history (tables.ts re-exports
 * them; the same rules hold: a new column goes here and into a new migration).
 */
import type { ColumnKind, Table } from './tables.js';

const table = (name: string, columns: Record<string, ColumnKind>): Table => ({ name, columns });

/**
 * Schedules (domain/oncall/schedule-store.ts); layers as JSON in order (each layer's `starts_at` an ISO
 * string there, revived by the adapter); `name_key` (scheduleNameKey) is the adapter's own, unique per
 * workspace.
 */
export const schedules = table('schedules', {
  id: 'text',
  workspace_id: 'text',
  name: 'text',
  timezone: 'text',
  layers: 'json',
  created_at: 'date',
  updated_at: 'date',
});

export const scheduleOverrides = table('schedule_overrides', {
  id: 'text',
  workspace_id: 'text',
  schedule_id: 'text',
  user_id: 'text',
  starts_at: 'date',
  ends_at: 'date',
  created_by: 'text',
  offer_id: 'text',
  created_at: 'date',
});

export const shiftOffers = table('shift_offers', {
  id: 'text',
  workspace_id: 'text',
  schedule_id: 'text',
  user_id: 'text',
  starts_at: 'date',
  ends_at: 'date',
  note: 'text',
  status: 'text',
  taken_by: 'text',
  override_id: 'text',
  created_at: 'date',
  closed_at: 'date',
});

export const scheduleHistory = table('schedule_history', {
  id: 'text',
  workspace_id: 'text',
  schedule_id: 'text',
  at: 'date',
  actor_id: 'text',
  action: 'text',
  detail: 'text',
});
