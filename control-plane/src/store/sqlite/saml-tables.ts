/** The SAML replay store's layout (migrations/0049-saml-assertions.ts); re-exported by tables.ts. */
import type { ColumnKind, Table } from './tables.js';

const table = (name: string, columns: Record<string, ColumnKind>): Table => ({ name, columns });

/** SAML assertions already accepted (domain/access/saml-replay-store.ts); the primary key is the replay check. */
export const samlAssertions = table('saml_assertions', {
  workspace_id: 'text',
  issuer: 'text',
  assertion_id: 'text',
  expires_at: 'date',
});
