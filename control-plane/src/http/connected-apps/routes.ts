import { listConnectedApps, revokeConnectedApp } from '../../domain/access/connected-apps.js';
import type { OAuthStore } from '../../domain/access/oauth-store.js';
import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import { page } from '../responses.js';
import { type RouteDeps, route } from '../route.js';
import { appJson, connectedAppResponse } from './responses.js';

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
