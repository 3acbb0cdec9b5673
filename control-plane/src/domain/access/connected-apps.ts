import { AppError, hashSecret } from '@lookout/shared';
import type { TenancyStore } from '../tenancy/tenancy-store.js';
import type { User, Workspace } from '../types.js';
import type { OAuthStore } from './oauth-store.js';

/**
 * "Settings → Connected apps": the OAuth grants users gave AI assistants (the hosted MCP connector),
 * and revoking one, which deletes the grant with every code and token issued under it.
 *
 * One app is one grant, and a user has one grant per client: consenting again to the same client
 * adds to the grant it already has (http/oauth/hosted-mcp.ts). A grant is listed once it is in use
 * (it holds a live access or refresh token): a consent whose code was never exchanged connected
 * nothing and is not an app.
 */
export interface ConnectedApp {
  id: string;
  client_id: string;
  client_name: string | null;
  client_uri: string | null;
  redirect_uris: string[];
  scope: string;
  /** The user the app acts as. */
  user_id: string;
  user_email: string | null;
  granted_at: Date;
  expires_at: Date | null;
}

type Store = OAuthStore & Pick<TenancyStore, 'getUser'>;

const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** The connected apps of `owner`, or of every user of the workspace when `owner` is null (admins). */
export const listConnectedApps = async (
  store: Store,
  workspace: Workspace,
  owner: User | null,
  now: Date,
): Promise<ConnectedApp[]> => {
  const grants = await store.listOAuthGrants(
    workspace.id,
    owner ? { accountId: owner.id, inUse: true } : { inUse: true },
    now,
  );
  const users = new Map<string, Promise<User | null>>();
  const userOf = (id: string) => {
    if (owner?.id === id) return Promise.resolve(owner);
    if (!users.has(id)) users.set(id, store.getUser(workspace.id, id));
    return users.get(id)!;
  };
  return Promise.all(
    grants.map(async (g) => {
      const clientId = g.client_id ?? '';
      const client = (await store.findOAuthRecord(workspace.id, 'Client', hashSecret(clientId)))?.payload;
      const resources = (g.payload.resources ?? {}) as Record<string, string>;
      const userId = g.account_id ?? '';
      return {
        id: g.grant_id!,
        client_id: clientId,
        client_name: str(client?.client_name),
        client_uri: str(client?.client_uri),
        redirect_uris: Array.isArray(client?.redirect_uris) ? (client.redirect_uris as string[]) : [],
        scope: [...new Set(Object.values(resources).flatMap((s) => s.split(' ')))].join(' '),
        user_id: userId,
        user_email: (await userOf(userId))?.email ?? null,
        granted_at: g.created_at,
        expires_at: g.expires_at,
      };
    }),
  );
};

/**
 * Revokes a connected app of `owner` (or, when `owner` is null, any in the workspace: admins);
 * anything else (another user's, an unknown id) is a 404.
 */
export const revokeConnectedApp = async (
  store: Store,
  workspace: Workspace,
  owner: User | null,
  id: string,
  now: Date,
) => {
  const apps = await listConnectedApps(store, workspace, owner, now);
  const app = apps.find((a) => a.id === id);
  if (!app)
    throw new AppError('not_found', owner ? 'No such connected app of yours.' : 'No such connected app.');
  await store.revokeOAuthGrant(workspace.id, id);
  return app;
};

/** The grant `user` already gave `clientId`, if any (in use or not): a new consent adds to it. */
export const existingGrantId = async (
  store: OAuthStore,
  workspace: Workspace,
  user: User,
  clientId: string,
  now: Date,
) => (await store.listOAuthGrants(workspace.id, { accountId: user.id, clientId }, now))[0]?.grant_id ?? null;
