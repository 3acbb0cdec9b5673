import { AppError, hashSecret } from '@lookout/shared';
import type { OAuthStore } from './oauth-store.js';
import type { User, Workspace } from './types.js';

/**
 * "Settings → Connected apps": the OAuth grants a user gave AI assistants (the hosted MCP
 * connector), and revoking one, which deletes the grant with every code and token issued under it.
 */
export interface ConnectedApp {
  id: string;
  client_id: string;
  client_name: string | null;
  client_uri: string | null;
  redirect_uris: string[];
  scope: string;
  granted_at: Date;
  expires_at: Date | null;
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);

export const listConnectedApps = async (
  store: OAuthStore,
  workspace: Workspace,
  user: User,
  now: Date,
): Promise<ConnectedApp[]> => {
  const grants = await store.listOAuthGrants(workspace.id, user.id, now);
  return Promise.all(
    grants.map(async (g) => {
      const clientId = g.client_id ?? '';
      const client = (await store.findOAuthRecord(workspace.id, 'Client', hashSecret(clientId)))?.payload;
      const resources = (g.payload.resources ?? {}) as Record<string, string>;
      return {
        id: g.grant_id!,
        client_id: clientId,
        client_name: str(client?.client_name),
        client_uri: str(client?.client_uri),
        redirect_uris: Array.isArray(client?.redirect_uris) ? (client.redirect_uris as string[]) : [],
        scope: [...new Set(Object.values(resources).flatMap((s) => s.split(' ')))].join(' '),
        granted_at: g.created_at,
        expires_at: g.expires_at,
      };
    }),
  );
};

/** Revokes one of the user's own grants; another's (or an unknown id) is a 404. */
export const revokeConnectedApp = async (
  store: OAuthStore,
  workspace: Workspace,
  user: User,
  id: string,
  now: Date,
) => {
  const mine = await listConnectedApps(store, workspace, user, now);
  const app = mine.find((a) => a.id === id);
  if (!app) throw new AppError('not_found', 'No such connected app of yours.');
  await store.revokeOAuthGrant(workspace.id, id);
  return app;
};
