import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, isAppError } from '@lookout/shared';
import { createRateLimiter } from '../domain/access/rate-limiter.js';
import { PING_BODY_MAX_BYTES, pingBodyText, pingSignal } from '../domain/heartbeats/heartbeats.js';
import { isJsonType, parseJson, readRaw } from './body.js';
import { createPingService, type PingAddress, type PingServiceStore } from './pings/routes.js';
import { errorJson } from './responses.js';
import type { RouteDeps } from './route.js';
import { assertOneHost } from './workspace-host.js';

/** `/hb/ping/{uuid}[/action]` or `/hb/ping/{ping_key}/{slug}[/action]`, at the root or under /api/v1. */
const PING_PATH = /^(?:\/api\/v1)?\/hb\/ping\/([^/?#]+)(?:\/([^/?#]+))?(?:\/([^/?#]+))?(\?.*)?$/;
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Which form a ping path is: a first segment shaped like a uuid is a heartbeat's uuid (then the
 * action); anything else is a workspace's ping key, then a slug, then the action. Null: no such URL.
 */
const pingAddress = (
  m: RegExpExecArray,
): { address: PingAddress; action?: string; limitKey: string } | null => {
  const [, first, second, third] = m as unknown as [string, string, string?, string?];
  if (UUID_SHAPE.test(first)) {
    if (third !== undefined) return null;
    const uuid = first.toLowerCase();
    return { address: { uuid }, ...(second !== undefined ? { action: second } : {}), limitKey: uuid };
  }
  if (second === undefined) return { address: { uuid: first }, limitKey: first.toLowerCase() };
  return {
    address: { pingKey: first, slug: second },
    ...(third !== undefined ? { action: third } : {}),
    limitKey: `${first}/${second}`,
  };
};

/**
 * A ping's body: JSON (the spec's {"timestamp"}) is parsed and validated; anything else, such as a
 * job's output in text/plain, is kept as text (the first PING_BODY_MAX_BYTES of it).
 */
const readPingBody = async (req: IncomingMessage, limit: number) => {
  const raw = await readRaw(req, limit);
  if (raw.length === 0) return { json: undefined, text: null };
  if (isJsonType(req.headers['content-type'])) return { json: parseJson(raw), text: null };
  return { json: undefined, text: pingBodyText(raw.subarray(0, PING_BODY_MAX_BYTES + 4)) };
};

export const errorBody = (e: AppError) => JSON.stringify(errorJson(e));

/**
 * The heartbeat ping endpoint on plain node:http, ahead of Koa: pings are the hottest path (thousands
 * a second per process) and need none of the API's workspace, key or router machinery. Same error
 * shape as the API. Returns false for anything that is not a ping, which then goes to Koa.
 */
export const createPingEndpoint = (deps: RouteDeps<PingServiceStore>) => {
  const ping = createPingService(deps);
  const { config, logger } = deps;
  const perHeartbeat =
    config.pings_per_heartbeat_per_second > 0
      ? createRateLimiter({
          capacity: config.pings_per_heartbeat_per_second * 10,
          perSecond: config.pings_per_heartbeat_per_second,
        })
      : null;
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    // HEAD pings like GET (Healthchecks and many senders use it); node:http sends no body for HEAD.
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'HEAD') return false;
    const m = PING_PATH.exec(req.url ?? '');
    if (!m) return false;
    const requestId = randomUUID();
    const started = process.hrtime.bigint();
    const reply = (status: number, body: string, retryAfter?: number) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        // The length a GET would get: a HEAD reply carries it without the body.
        'content-length': String(Buffer.byteLength(body)),
        'x-request-id': requestId,
        ...(retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {}),
      });
      res.end(body);
      if (deps.metrics) {
        if (status === 200) deps.metrics.pingAccepted();
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        deps.metrics.request(
          req.method ?? 'GET',
          m[3] !== undefined || (m[2] !== undefined && !UUID_SHAPE.test(m[1]!))
            ? '/hb/ping/{ping_key}/{slug}'
            : '/hb/ping/{uuid}',
          status,
          seconds,
        );
      }
      if (logger.isLevelEnabled('debug') || status >= 500) {
        logger[status >= 500 ? 'error' : 'debug'](
          { req_id: requestId, method: req.method, path: req.url, status },
          'ping',
        );
      }
    };
    (async () => {
      assertOneHost(req);
      const where = pingAddress(m);
      if (!where) throw new AppError('not_found', 'No heartbeat has this ping URL.');
      // Per heartbeat: by its uuid, or by its ping key and slug (the same heartbeat, the same budget).
      const limited = perHeartbeat?.take(where.limitKey, deps.clock.now().getTime());
      if (limited && !limited.ok) {
        throw new AppError(
          'rate_limited',
          `Too many pings for this heartbeat; try again in ${limited.retryAfterSeconds} s.`,
          [],
          { retryAfterSeconds: limited.retryAfterSeconds },
        );
      }
      const bySlug = 'slug' in where.address;
      const signal = pingSignal(where.action, new URLSearchParams(m[4]?.slice(1) ?? ''), bySlug);
      if (!signal) {
        throw new AppError(
          'not_found',
          `No ping action "${where.action}": use /hb/ping/${bySlug ? '{ping_key}/{slug}' : '{uuid}'}, /start, /fail or /{exit status 0-255}.`,
        );
      }
      const body =
        req.method === 'POST'
          ? await readPingBody(req, config.max_body_bytes)
          : { json: undefined, text: null };
      const forwarded = config.trust_proxy
        ? String(req.headers['x-forwarded-for'] ?? '')
            .split(',')[0]!
            .trim()
        : '';
      // A uuid, key or slug is plain ASCII: anything percent-encoded is none (and must not throw).
      return ping(where.address, signal, body, forwarded || req.socket.remoteAddress || null);
    })().then(
      (ok) => reply(200, JSON.stringify(ok)),
      (err: unknown) => {
        if (isAppError(err)) return reply(err.status, errorBody(err), err.retryAfterSeconds);
        logger.error({ err, req_id: requestId }, 'ping failed');
        reply(
          500,
          errorBody(new AppError('internal', 'Something went wrong on our side; it has been logged.')),
        );
      },
    );
    return true;
  };
};
