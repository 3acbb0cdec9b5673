import { z } from 'zod';
import type { PingKeyStore } from '../../domain/heartbeats/ping-key-store.js';
import { regeneratePingKey, showPingKey } from '../../domain/heartbeats/ping-keys.js';
import { responseSchemas, time } from '../responses.js';
import { type Authed, type RouteDeps, route } from '../route.js';

export const pingKeyResponse = z
  .strictObject({
    ping_key: z.string().describe('The workspace’s key for slug pings: keep it secret, like a ping URL.'),
    ping_url_template: z.string().describe('Slug ping URL: put a heartbeat’s slug in place of {slug}.'),
    created_at: time,
  })
  .register(responseSchemas, { id: 'PingKey' });

/**
 * The workspace's ping key (admins): the secret of slug ping URLs, `/hb/ping/{ping_key}/{slug}`, made on
 * first read. Regenerating it stops every slug URL with the old key: at once on this replica, within the ping
 * cache's seconds on the others (domain/heartbeats/ping-key-cache.ts).
 */
export const pingKeyRoutes = ({ store, clock, box, workspaceUrl, pingKeyCache }: RouteDeps<PingKeyStore>) => {
  const view = (auth: Authed, k: { ping_key: string; created_at: Date }) => ({
    ping_key: k.ping_key,
    ping_url_template: `${workspaceUrl(auth.workspace.subdomain)}/hb/ping/${k.ping_key}/{slug}`,
    created_at: k.created_at.toISOString(),
  });
  return [
    route({
      method: 'get',
      path: '/ping-key',
      tag: 'Heartbeats',
      response: pingKeyResponse,
      summary:
        'The workspace’s ping key for slug pings (/hb/ping/{ping_key}/{slug}, also /start, /fail, /{exit_status}; ?create=1 creates an unknown slug’s heartbeat). Made on first read.',
      role: 'admin',
      async handler({ auth }) {
        return view(auth, await showPingKey(store, box, auth.workspace.id, clock.now()));
      },
    }),
    route({
      method: 'post',
      path: '/ping-key/regenerate',
      tag: 'Heartbeats',
      response: pingKeyResponse,
      summary: 'Replace the workspace’s ping key: slug URLs with the old key stop working.',
      role: 'admin',
      async handler({ auth }) {
        const key = await regeneratePingKey(store, box, auth.workspace.id, clock.now());
        pingKeyCache?.forgetWorkspace(auth.workspace.id);
        return view(auth, key);
      },
    }),
  ];
};
