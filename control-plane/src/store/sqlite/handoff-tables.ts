/** Table layouts of handoff notices (tables.ts re-exports them; a new column goes here and into a new migration). */
import type { ColumnKind, Table } from './tables.js';

const table = (name: string, columns: Record<string, ColumnKind>): Table => ({ name, columns });

/** Handoff notices (migrations/0040-handoff-notices.ts): each user's settings. */
export const handoffSettings = table('handoff_settings', {
  workspace_id: 'text',
  user_id: 'text',
  enabled: 'bool',
  lead_minutes: 'int',
  updated_at: 'date',
});

/** Each schedule's next handoff notice due. */
export const handoffCursors = table('handoff_cursors', {
  workspace_id: 'text',
  schedule_id: 'text',
  due_at: 'date',
});

/** Handoff notices sent, unique by key. */
export const handoffNotices = table('handoff_notices', {
  key: 'text',
  workspace_id: 'text',
  schedule_id: 'text',
  user_id: 'text',
  shift_starts_at: 'date',
  kind: 'text',
  sent_at: 'date',
});
