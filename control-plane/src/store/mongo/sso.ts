import type { SsoSettings, SsoStore } from '../../domain/access/sso.js';
import type { MongoContext } from './db.js';

/**
 * Workspace SSO settings in MongoDB: one document per workspace in `sso_settings`, keyed by the
 * workspace id (`_id`, so no other index), replaced whole by an upsert (the last write wins). Group
 * names are values in an array, never field names (a dot or a `$` in one is fine).
 */
export const mongoSso = ({ col, inTransaction }: MongoContext): SsoStore => {
  const { ssoSettings } = col;
  return {
    async getSsoSettings(workspaceId) {
      const doc = await ssoSettings.findOne({ _id: workspaceId });
      if (!doc) return null;
      const { _id, ...rest } = doc;
      return { workspace_id: _id, ...rest } as SsoSettings;
    },
    async putSsoSettings(settings) {
      const { workspace_id, ...rest } = settings;
      // In a transaction: the request's audit entry is written with it (db.ts `inTransaction`).
      await inTransaction((session) =>
        ssoSettings.replaceOne({ _id: workspace_id }, rest, { upsert: true, session }),
      );
    },
  };
};
