/** Table layouts of passkeys and their challenges (domain/access/passkey-store.ts; tables.ts re-exports them). */
import type { ColumnKind, Table } from './tables.js';

const table = (name: string, columns: Record<string, ColumnKind>): Table => ({ name, columns });

/** Users' passkeys (domain/access/passkey-store.ts); `credential_id` unique per workspace. */
export const passkeys = table('passkeys', {
  id: 'text',
  workspace_id: 'text',
  user_id: 'text',
  credential_id: 'text',
  public_key: 'text',
  counter: 'int',
  transports: 'json',
  name: 'text',
  created_at: 'date',
  last_used_at: 'date',
});

/** Passkey challenges handed out and not yet taken; `id` is the challenge's SHA-256. */
export const passkeyChallenges = table('passkey_challenges', {
  id: 'text',
  workspace_id: 'text',
  user_id: 'text',
  purpose: 'text',
  expires_at: 'date',
});
