import type { SsoSettings, SsoStore } from '../../domain/access/sso.js';
import type { SqliteContext } from './db.js';
import { insertSql, ssoSettings, toRow } from './tables.js';

/** Workspace SSO settings in SQLite: one row per workspace, replaced whole. */
export const sqliteSso = ({ st, one, immediate }: SqliteContext): SsoStore => ({
  async getSsoSettings(workspaceId) {
    return one<SsoSettings>(ssoSettings, 'SELECT * FROM sso_settings WHERE workspace_id = ?', workspaceId);
  },
  async putSsoSettings(settings) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    immediate(() => {
      st(insertSql(ssoSettings).replace(/^INSERT /, 'INSERT OR REPLACE ')).run(toRow(ssoSettings, settings));
    });
  },
});
