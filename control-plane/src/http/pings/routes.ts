import { AppError, newId } from '@lookout/shared';
import { z } from 'zod';
import type { HeartbeatStore } from '../../domain/heartbeats/heartbeat-store.js';
import {
  createHeartbeat,
  type PingSignal,
  pingBody,
  pingTime,
  SLUG,
} from '../../domain/heartbeats/heartbeats.js';
import { createPingKeyCache } from '../../domain/heartbeats/ping-key-cache.js';
import type { PingKeyStore } from '../../domain/heartbeats/ping-key-store.js';
import { createTtlCache } from '../../domain/heartbeats/ttl-cache.js';
import type { MaintenanceLookup, PolicyLookup } from '../../domain/lookups.js';
import type { DependencyGraphLookup } from '../../domain/monitors/depends-on.js';
import type { GroupStore } from '../../domain/monitors/group-store.js';
import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import type { Heartbeat } from '../../domain/types.js';
import { UUID } from '../heartbeats/routes.js';
import { type RouteDeps, route } from '../route.js';
import { pingResponse } from './responses.js';

type PingTarget = Pick<Heartbeat, 'id' | 'workspace_id' | 'created_at'>;
const target = (h: Heartbeat | null): PingTarget | null =>
  h && { id: h.id, workspace_id: h.workspace_id, created_at: h.created_at };

/** What a ping URL names: a heartbeat's uuid, or a workspace's ping key and a slug. */
export type PingAddress = { uuid: string } | { pingKey: string; slug: string };

export type PingServiceStore = HeartbeatStore &
  Pick<PingKeyStore, 'findPingKey'> &
  Pick<TenancyStore, 'getWorkspace'> &
  PolicyLookup &
  MaintenanceLookup &
  Pick<GroupStore, 'getGroupsByIds'> &
  DependencyGraphLookup;

export const PING_OK = { message: 'Ping recorded.', status: 'ok' } as const;

/**
 * Records one ping; resolves once it is durable. `json` is the parsed JSON body, `text` any other body.
 * A slug ping finds its workspace by the ping key, then the heartbeat by slug (both cached like uuids: a
 * renamed slug, or a key regenerated on another replica, keeps working for at most the TTL; a key
 * regenerated on this replica stops at once, see ping-key-cache.ts); with `?create=1` an unknown
 * slug creates its heartbeat with the workspace's defaults (a day's period, an hour's grace, the
 * default policy), within the plan's cap; without it, a 404 and nothing is created.
 */
export const createPingService = ({
  store,
  clock,
  pings,
  config,
  pingKeyCache = createPingKeyCache(store),
}: Pick<RouteDeps<PingServiceStore>, 'store' | 'clock' | 'pings' | 'config' | 'pingKeyCache'>) => {
  const heartbeats = createTtlCache(async (id) => target(await store.findHeartbeat(id)));
  const bySlug = createTtlCache(async (key) => {
    const [workspaceId, slug] = key.split('/') as [string, string];
    return target(await store.findHeartbeatBySlug(workspaceId, slug));
  });
  const createBySlug = async (workspaceId: string, slug: string, now: Date): Promise<PingTarget | null> => {
    const workspace = await store.getWorkspace(workspaceId);
    if (!workspace) return null;
    try {
      const max = config.plans[workspace.plan]?.max_heartbeats;
      return target(await createHeartbeat(store, workspace, { display_name: slug, slug }, now, max));
    } catch (e) {
      // Another ping created it meanwhile: that one is ours too.
      if (e instanceof AppError && e.code === 'conflict')
        return target(await store.findHeartbeatBySlug(workspaceId, slug));
      throw e;
    }
  };
  const resolve = async (address: PingAddress, signal: PingSignal, now: Date): Promise<PingTarget | null> => {
    if ('uuid' in address)
      return UUID.test(address.uuid) ? heartbeats.get(address.uuid.toLowerCase(), now.getTime()) : null;
    const workspaceId = await pingKeyCache.workspaceOf(address.pingKey, now.getTime());
    if (!workspaceId) return null;
    const found = await bySlug.get(`${workspaceId}/${address.slug}`, now.getTime());
    if (found || !signal.create || !SLUG.test(address.slug)) return found;
    return createBySlug(workspaceId, address.slug, now);
  };
  return async (
    address: PingAddress,
    signal: PingSignal,
    body: { json: unknown; text: string | null },
    source: string | null,
  ) => {
    const receivedAt = clock.now();
    const h = await resolve(address, signal, receivedAt);
    if (!h) {
      throw new AppError(
        'not_found',
        'uuid' in address
          ? 'No heartbeat has this ping URL. Check the uuid in the URL.'
          : 'No heartbeat has this ping URL. Check the ping key and the slug, or add ?create=1 to create the heartbeat.',
      );
    }
    // The heartbeat's creation time (cached with it: no extra read) bounds a client timestamp.
    const at = pingTime(body.json, receivedAt, h.created_at);
    await pings.record({
      id: newId(),
      heartbeat_id: h.id,
      workspace_id: h.workspace_id,
      kind: signal.kind,
      at,
      received_at: receivedAt,
      source,
      rid: signal.rid,
      exit_status: signal.exit_status,
      body: body.text,
    });
    return PING_OK;
  };
};

const ridQuery = z.strictObject({
  rid: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,64}$/)
    .optional()
    .describe('Run id (a UUID is best): pairs a /start with the finish that carries the same rid.'),
});

const BODY_NOTE =
  'A JSON body is {"timestamp": <unix seconds>} (the job’s finish time: not before the heartbeat was created, at most 5 minutes ahead; a time older than the last ping is logged but moves nothing); any other body (text/plain, e.g. the job’s output) is kept with the ping, up to 10,000 bytes, and shown on the alert it raises.';

const SIGNALS: { suffix: string; what: string }[] = [
  { suffix: '', what: 'Record a success ping: the job ran.' },
  {
    suffix: '/start',
    what: 'A run began: it must finish (success, fail or exit status) within the grace time.',
  },
  { suffix: '/fail', what: 'The job failed: the heartbeat goes down and an alert is raised at once.' },
  {
    suffix: '/{exit_status}',
    what: 'The job’s exit status, 0–255: 0 is a success, anything else a failure.',
  },
];

const slugQuery = ridQuery.extend({
  create: z
    .enum(['0', '1'])
    .optional()
    .describe(
      '1: an unknown slug creates its heartbeat (a day’s period, an hour’s grace, the default policy; within the plan’s cap). Without it an unknown slug is a 404.',
    ),
});

const FORMS = [
  { base: '/hb/ping/{uuid}', query: ridQuery, unknown: 'Unknown uuid' },
  {
    base: '/hb/ping/{ping_key}/{slug}',
    query: slugQuery,
    unknown: 'Unknown ping key, or unknown slug without ?create=1',
  },
];

/**
 * `POST|GET|HEAD /hb/ping/{uuid}[/start|/fail|/{0-255}][?rid=]`, and the same after
 * `/hb/ping/{ping_key}/{slug}` (`?create=1` too), at the root and under /api/v1. No API key: the uuid
 * (or the ping key) is the secret. Served by the raw ping endpoint (ping-endpoint.ts) ahead of Koa;
 * declared here for the API document.
 */
export const pingRoutes = (): ReturnType<typeof route>[] =>
  FORMS.flatMap(({ base, query, unknown }) =>
    SIGNALS.flatMap(({ suffix, what }) => {
      const responses: Record<number, string> = {
        200: '{"message": "Ping recorded.", "status": "ok"}',
        404: unknown,
        429: 'Pinged too often; retry after Retry-After',
      };
      if (query === slugQuery) responses[402] = 'Creating the heartbeat would pass the plan’s cap';
      return [
        route({
          method: 'post',
          path: `${base}${suffix}`,
          tag: 'Heartbeats',
          auth: 'none',
          raw: true,
          audit: { none: 'heartbeat pings: telemetry, served outside the route layer (ping-endpoint.ts)' },
          response: pingResponse,
          summary: `${what} ${BODY_NOTE} Also served at ${base}${suffix}.`,
          query,
          body: pingBody,
          responses,
        }),
        route({
          method: 'get',
          path: `${base}${suffix}`,
          tag: 'Heartbeats',
          auth: 'none',
          raw: true,
          response: pingResponse,
          summary: `${what} Recorded at arrival time. HEAD works the same (headers, no body). Also served at ${base}${suffix}.`,
          query,
          responses,
        }),
      ];
    }),
  );
