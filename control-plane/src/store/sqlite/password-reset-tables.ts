/** Table layouts of password reset links (tables.ts re-exports them; a new column goes here and into a new migration). */
import type { ColumnKind, Table } from './tables.js';

const table = (name: string, columns: Record<string, ColumnKind>): Table => ({ name, columns });

/** Password reset links (domain/access/password-reset.ts): looked up by the token's hash. */
export const passwordResets = table('password_resets', {
  id: 'text',
  workspace_id: 'text',
  user_id: 'text',
  token_hash: 'text',
  created_at: 'date',
  expires_at: 'date',
  used_at: 'date',
});
