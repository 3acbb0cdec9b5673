import { z } from 'zod';
import {
  type ConnectedApp,
  listConnectedApps,
  revokeConnectedApp,
} from '../../domain/access/connected-apps.js';
import type { OAuthStore } from '../../domain/access/oauth-store.js';
import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import { page, responseSchemas, time } from '../responses.js';
import { type RouteDeps, route } from '../route.js';

const appJson = (a: ConnectedApp) => ({
  ...a,
  granted_at: a.granted_at.toISOString(),
  expires_at: a.expires_at?.toISOString() ?? null,
});

export const connectedAppResponse = z
  .strictObject({
    id: z.string(),
    client_id: z.string(),
    client_name: z.string().nullable(),
    client_uri: z.string().nullable(),
    redirect_uris: z.array(z.string()),
    scope: z.string(),
    user_id: z.string(),
    user_email: z.string().nullable(),
    granted_at: time,
    expires_at: time.nullable(),
  })
  .register(responseSchemas, { id: 'ConnectedApp' });

/**
 * Settings → Connected apps: the AI assistants you authorized (hosted MCP, OAuth), and revoking them;
 * for admins, every user's, under /workspace/connected-apps.
 */
export const connectedAppRoutes = ({ store, clock }: RouteDeps<OAuthStore & TenancyStore>) => [
  route({
    method: 'get',
    path: '/connected-apps',
    tag: 'Connected apps',
    response: page(connectedAppResponse),
    auth: 'session',
    summary:
      'The apps (AI assistants using the hosted MCP connector) you authorized with OAuth, newest first: the client, what it may do (scope "mcp": act as you, with your role), when granted and until when.',
    async handler({ auth }) {
      const apps = await listConnectedApps(store, auth.workspace, auth.user, clock.now());
      return { data: apps.map(appJson), next_cursor: null };
    },
  }),
  route({
    method: 'post',
    path: '/connected-apps/{id}/revoke',
    tag: 'Connected apps',
    response: connectedAppResponse,
    auth: 'session',
    summary:
      'Revoke one of your connected apps: its grant and every access and refresh token issued under it stop working at once.',
    responses: { 200: 'Revoked', 404: 'No such connected app of yours' },
    async handler({ auth, params }) {
      return appJson(await revokeConnectedApp(store, auth.workspace, auth.user, params.id!, clock.now()));
    },
  }),
  route({
    method: 'get',
    path: '/workspace/connected-apps',
    tag: 'Connected apps',
    response: page(connectedAppResponse),
    auth: 'session',
    role: 'admin',
    summary:
      "Every user's connected apps in this workspace (admins), newest first: as GET /connected-apps, each with the user it acts as (`user_id`, `user_email`).",
    responses: { 403: 'Not an admin, or called with an API key' },
    async handler({ auth }) {
      const apps = await listConnectedApps(store, auth.workspace, null, clock.now());
      return { data: apps.map(appJson), next_cursor: null };
    },
  }),
  route({
    method: 'post',
    path: '/workspace/connected-apps/{id}/revoke',
    tag: 'Connected apps',
    response: connectedAppResponse,
    auth: 'session',
    role: 'admin',
    summary:
      "Revoke any user's connected app (admins): its grant and every access and refresh token issued under it stop working at once.",
    responses: {
      200: 'Revoked',
      403: 'Not an admin, or called with an API key',
      404: 'No such connected app',
    },
    async handler({ auth, params }) {
      return appJson(await revokeConnectedApp(store, auth.workspace, null, params.id!, clock.now()));
    },
  }),
];
