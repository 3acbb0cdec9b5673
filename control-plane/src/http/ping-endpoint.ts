import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, isAppError } from '@lookout/shared';
import { createRateLimiter } from '../domain/access/rate-limiter.js';
import { PING_BODY_MAX_BYTES, pingBodyText, pingSignal } from '../domain/heartbeats/heartbeats.js';
import { isJsonType, parseJson, readRaw } from './body.js';
import type { AppDeps } from './route.js';
import { createPingService } from './routes/pings.js';
import { errorJson } from './serialize.js';
import { assertOneHost } from './workspace-host.js';

const PING_PATH = /^(?:\/api\/v1)?\/hb\/ping\/([^/?#]+)(?:\/([^/?#]+))?(\?.*)?$/;

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
export const createPingEndpoint = (deps: AppDeps) => {
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
        deps.metrics.request(req.method ?? 'GET', '/hb/ping/{uuid}', status, seconds);
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
      const limited = perHeartbeat?.take(m[1]!.toLowerCase(), deps.clock.now().getTime());
      if (limited && !limited.ok) {
        throw new AppError(
          'rate_limited',
          `Too many pings for this heartbeat; try again in ${limited.retryAfterSeconds} s.`,
          [],
          { retryAfterSeconds: limited.retryAfterSeconds },
        );
      }
      const signal = pingSignal(m[2], new URLSearchParams(m[3]?.slice(1) ?? ''));
      if (!signal) {
        throw new AppError(
          'not_found',
          `No ping action "${m[2]}": use /hb/ping/{uuid}, /start, /fail or /{exit status 0-255}.`,
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
      // A uuid is plain hex and dashes: anything percent-encoded is not one (and must not throw).
      return ping(m[1]!, signal, body, forwarded || req.socket.remoteAddress || null);
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
