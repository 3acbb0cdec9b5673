/** The audit log's table layout (tables.ts re-exports it; a new column goes here and into a new migration). */
import type { ColumnKind, Table } from './tables.js';

const table = (name: string, columns: Record<string, ColumnKind>): Table => ({ name, columns });

/** The audit log (domain/audit/audit-store.ts); the actor is flattened into four columns. */
export const auditLog = table('audit_log', {
  id: 'text',
  workspace_id: 'text',
  at: 'date',
  actor_type: 'text',
  actor_id: 'text',
  actor_name: 'text',
  actor_user_id: 'text',
  ip: 'text',
  user_agent: 'text',
  action: 'text',
  resource_type: 'text',
  resource_id: 'text',
  changes: 'json',
});
