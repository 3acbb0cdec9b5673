import { AppError, newId } from '@lookout/shared';
import { z } from 'zod';
import type { HeartbeatStore } from '../../domain/heartbeats/heartbeat-store.js';
import { type PingSignal, pingBody, pingTime } from '../../domain/heartbeats/heartbeats.js';
import type { Heartbeat } from '../../domain/types.js';
import { type RouteDeps, route } from '../route.js';
import { responseSchemas } from '../serialize.js';
import { UUID } from './heartbeats.js';

/**
 * Which heartbeat a ping uuid names, cached for a few seconds: the lookup is the one store read on the
 * hot path. Bounded; unknown uuids are not cached (so a new heartbeat works at once). A heartbeat
 * deleted meanwhile keeps taking pings for at most the TTL; the store drops those pings.
 */
const createHeartbeatCache = (store: Pick<HeartbeatStore, 'findHeartbeat'>, ttlMs = 5_000, max = 100_000) => {
  const cache = new Map<string, { at: number; h: Pick<Heartbeat, 'id' | 'workspace_id' | 'created_at'> }>();
  return async (id: string, nowMs: number) => {
    const hit = cache.get(id);
    if (hit && nowMs - hit.at < ttlMs) return hit.h;
    const h = await store.findHeartbeat(id);
    if (!h) return null;
    if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    cache.set(id, { at: nowMs, h: { id: h.id, workspace_id: h.workspace_id, created_at: h.created_at } });
    return h;
  };
};

/** What a recorded ping answers (the spec's shape). */
export const pingResponse = z
  .strictObject({ message: z.string(), status: z.literal('ok') })
  .register(responseSchemas, { id: 'PingRecorded' });

export const PING_OK = { message: 'Ping recorded.', status: 'ok' } as const;

/** Records one ping; resolves once it is durable. `json` is the parsed JSON body, `text` any other body. */
export const createPingService = ({
  store,
  clock,
  pings,
}: Pick<RouteDeps<Pick<HeartbeatStore, 'findHeartbeat'>>, 'store' | 'clock' | 'pings'>) => {
  const findHeartbeat = createHeartbeatCache(store);
  return async (
    id: string,
    signal: PingSignal,
    body: { json: unknown; text: string | null },
    source: string | null,
  ) => {
    const receivedAt = clock.now();
    const h = UUID.test(id) ? await findHeartbeat(id.toLowerCase(), receivedAt.getTime()) : null;
    if (!h) throw new AppError('not_found', 'No heartbeat has this ping URL. Check the uuid in the URL.');
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

/**
 * `POST|GET|HEAD /hb/ping/{uuid}[/start|/fail|/{0-255}][?rid=]`, at the root and under /api/v1. No API key:
 * the uuid is the secret. Served by the raw ping endpoint (ping-endpoint.ts) ahead of Koa; declared
 * here for the API document.
 */
export const pingRoutes = (): ReturnType<typeof route>[] =>
  SIGNALS.flatMap(({ suffix, what }) => [
    route({
      method: 'post',
      path: `/hb/ping/{uuid}${suffix}`,
      tag: 'Heartbeats',
      auth: 'none',
      raw: true,
      response: pingResponse,
      summary: `${what} ${BODY_NOTE} Also served at /hb/ping/{uuid}${suffix}.`,
      query: ridQuery,
      body: pingBody,
      responses: {
        200: '{"message": "Ping recorded.", "status": "ok"}',
        404: 'Unknown uuid',
        429: 'Pinged too often; retry after Retry-After',
      },
    }),
    route({
      method: 'get',
      path: `/hb/ping/{uuid}${suffix}`,
      tag: 'Heartbeats',
      auth: 'none',
      raw: true,
      response: pingResponse,
      summary: `${what} Recorded at arrival time. HEAD works the same (headers, no body). Also served at /hb/ping/{uuid}${suffix}.`,
      query: ridQuery,
      responses: {
        200: '{"message": "Ping recorded.", "status": "ok"}',
        404: 'Unknown uuid',
        429: 'Pinged too often; retry after Retry-After',
      },
    }),
  ]);
