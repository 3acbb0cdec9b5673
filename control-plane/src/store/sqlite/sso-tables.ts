/** The SSO settings' table layout (tables.ts re-exports it; a new column goes here and into a new migration). */
import type { ColumnKind, Table } from './tables.js';

const table = (name: string, columns: Record<string, ColumnKind>): Table => ({ name, columns });

/** Layout of the sso_settings table (created by migrations/0045-sso-settings.ts, frozen SQL). */
export const ssoSettings = table('sso_settings', {
  workspace_id: 'text',
  oidc: 'json',
  saml: 'json',
  enforced: 'bool',
  break_glass_user_ids: 'json',
  updated_at: 'date',
  updated_by: 'text',
});
