/** Table layouts of second factors and sign-in challenges (domain/access/second-factor-store.ts; tables.ts re-exports them). */
import type { ColumnKind, Table } from './tables.js';

const table = (name: string, columns: Record<string, ColumnKind>): Table => ({ name, columns });

export const totpFactors = table('totp_factors', {
  workspace_id: 'text',
  user_id: 'text',
  secret_sealed: 'text',
  created_at: 'date',
  confirmed_at: 'date',
  last_step: 'int',
});

export const recoveryCodes = table('recovery_codes', {
  id: 'text',
  workspace_id: 'text',
  user_id: 'text',
  code_hash: 'text',
  created_at: 'date',
});

export const signInChallenges = table('sign_in_challenges', {
  id: 'text',
  workspace_id: 'text',
  user_id: 'text',
  token_hash: 'text',
  created_at: 'date',
  expires_at: 'date',
  failures: 'int',
});
