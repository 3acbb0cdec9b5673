import { AppError, newId } from '@lookout/shared';
import { pingBody, pingTime } from '../../domain/heartbeats.js';
import type { Heartbeat } from '../../domain/types.js';
import { type AppDeps, route } from '../route.js';
import { UUID } from './heartbeats.js';

/**
 * Which heartbeat a ping uuid names, cached for a few seconds: the lookup is the one store read on the
 * hot path. Bounded; unknown uuids are not cached (so a new heartbeat works at once). A heartbeat
 * deleted meanwhile keeps taking pings for at most the TTL; the store drops those pings.
 */
const createHeartbeatCache = (store: AppDeps['store'], ttlMs = 5_000, max = 100_000) => {
  const cache = new Map<string, { at: number; h: Pick<Heartbeat, 'id' | 'workspace_id'> }>();
  return async (id: string, nowMs: number) => {
    const hit = cache.get(id);
    if (hit && nowMs - hit.at < ttlMs) return hit.h;
    const h = await store.findHeartbeat(id);
    if (!h) return null;
    if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    cache.set(id, { at: nowMs, h: { id: h.id, workspace_id: h.workspace_id } });
    return h;
  };
};

export const PING_OK = { message: 'Ping recorded.', status: 'ok' } as const;

/** Records one ping; resolves once it is durable. `body` is the parsed JSON body, if any. */
export const createPingService = ({ store, clock, pings }: Pick<AppDeps, 'store' | 'clock' | 'pings'>) => {
  const findHeartbeat = createHeartbeatCache(store);
  return async (id: string, body: unknown, source: string | null) => {
    const receivedAt = clock.now();
    const at = pingTime(body, receivedAt);
    const h = UUID.test(id) ? await findHeartbeat(id.toLowerCase(), receivedAt.getTime()) : null;
    if (!h) throw new AppError('not_found', 'No heartbeat has this ping URL. Check the uuid in the URL.');
    await pings.record({
      id: newId(),
      heartbeat_id: h.id,
      workspace_id: h.workspace_id,
      kind: 'success',
      at,
      received_at: receivedAt,
      source,
    });
    return PING_OK;
  };
};

/**
 * `POST|GET /hb/ping/{uuid}`, at the root and under /api/v1. No API key: the uuid is the secret.
 * Served by the raw ping endpoint (ping-endpoint.ts) ahead of Koa; declared here for the API document.
 */
export const pingRoutes = (): ReturnType<typeof route>[] => [
  route({
    method: 'post',
    path: '/hb/ping/{uuid}',
    tag: 'Heartbeats',
    auth: 'none',
    raw: true,
    summary:
      'Record a ping. Optional JSON body {"timestamp": <unix seconds>} records the job’s finish time instead of arrival. Also served at /hb/ping/{uuid}.',
    body: pingBody,
    responses: { 200: '{"message": "Ping recorded.", "status": "ok"}', 404: 'Unknown uuid' },
  }),
  route({
    method: 'get',
    path: '/hb/ping/{uuid}',
    tag: 'Heartbeats',
    auth: 'none',
    raw: true,
    summary: 'Record a ping at arrival time. Also served at /hb/ping/{uuid}.',
    responses: { 200: '{"message": "Ping recorded.", "status": "ok"}', 404: 'Unknown uuid' },
  }),
];
