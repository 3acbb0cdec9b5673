import type {
  MailSettingsStore,
  WorkspaceMailSettings,
} from '../../domain/notifications/mail-settings-store.js';
import type { MongoContext } from './db.js';

/**
 * Workspace mail settings in MongoDB: one document per workspace in `mail_settings`, keyed by the
 * workspace id (`_id`, so no other index), replaced whole by an upsert (the last write wins).
 */
export const mongoMailSettings = ({ col, inTransaction }: MongoContext): MailSettingsStore => {
  const { mailSettings } = col;
  return {
    async getMailSettings(workspaceId) {
      const doc = await mailSettings.findOne({ _id: workspaceId });
      if (!doc) return null;
      const { _id, ...rest } = doc;
      return { workspace_id: _id, ...rest } as WorkspaceMailSettings;
    },
    async putMailSettings(settings) {
      const { workspace_id, ...rest } = settings;
      // In a transaction: the request's audit entry is written with it (db.ts `inTransaction`).
      await inTransaction((session) =>
        mailSettings.replaceOne({ _id: workspace_id }, rest, { upsert: true, session }),
      );
    },
    async deleteMailSettings(workspaceId) {
      return inTransaction(
        async (session) =>
          (await mailSettings.deleteOne({ _id: workspaceId }, { session })).deletedCount === 1,
      );
    },
  };
};
