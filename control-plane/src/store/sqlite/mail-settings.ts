import type {
  MailSettingsStore,
  WorkspaceMailSettings,
} from '../../domain/notifications/mail-settings-store.js';
import type { SqliteContext } from './db.js';
import { insertSql, type Table, toRow } from './tables.js';

/** Layout of the mail_settings table (created by migrations/0014-mail-settings.ts, frozen SQL). */
export const mailSettings: Table = {
  name: 'mail_settings',
  columns: {
    workspace_id: 'text',
    host: 'text',
    port: 'int',
    tls: 'text',
    username: 'text',
    password_sealed: 'text',
    from_address: 'text',
    updated_at: 'date',
    updated_by: 'text',
  },
};

/** Workspace mail settings in SQLite: one row per workspace, replaced whole. */
export const sqliteMailSettings = ({ st, one, immediate }: SqliteContext): MailSettingsStore => ({
  async getMailSettings(workspaceId) {
    return one<WorkspaceMailSettings>(
      mailSettings,
      'SELECT * FROM mail_settings WHERE workspace_id = ?',
      workspaceId,
    );
  },
  async putMailSettings(settings) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      st(insertSql(mailSettings).replace(/^INSERT /, 'INSERT OR REPLACE ')).run(
        toRow(mailSettings, settings),
      );
    });
  },
  async deleteMailSettings(workspaceId) {
    // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
    return immediate(() => {
      return st('DELETE FROM mail_settings WHERE workspace_id = ?').run(workspaceId).changes === 1;
    });
  },
});
