import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, isAppError } from '@lookout/shared';
import { readJson } from './body.js';
import type { AppDeps } from './route.js';
import { createPingService } from './routes/pings.js';

const PING_PATH = /^(?:\/api\/v1)?\/hb\/ping\/([^/?#]+)(\?.*)?$/;

export const errorBody = (e: AppError) =>
  JSON.stringify({ error: { code: e.code, message: e.message, details: e.details } });

/**
 * The heartbeat ping endpoint on plain node:http, ahead of Koa: pings are the hottest path (thousands
 * a second per process) and need none of the API's workspace, key or router machinery. Same error
 * shape as the API. Returns false for anything that is not a ping, which then goes to Koa.
 */
export const createPingEndpoint = (deps: AppDeps) => {
  const ping = createPingService(deps);
  const { config, logger } = deps;
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'POST' && req.method !== 'GET') return false;
    const m = PING_PATH.exec(req.url ?? '');
    if (!m) return false;
    const requestId = randomUUID();
    const reply = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId });
      res.end(body);
      if (logger.isLevelEnabled('debug') || status >= 500) {
        logger[status >= 500 ? 'error' : 'debug'](
          { req_id: requestId, method: req.method, path: req.url, status },
          'ping',
        );
      }
    };
    (async () => {
      if (m[2] && m[2].length > 1) {
        const fields = [...new URLSearchParams(m[2].slice(1)).keys()];
        throw new AppError(
          'validation_failed',
          'The request has invalid fields.',
          fields.map((field) => ({ field, message: 'is not a known field' })),
        );
      }
      const body =
        req.method === 'POST' ? await readJson(req, config.max_body_bytes, { lenientType: true }) : undefined;
      const forwarded = config.trust_proxy
        ? String(req.headers['x-forwarded-for'] ?? '')
            .split(',')[0]!
            .trim()
        : '';
      return ping(decodeURIComponent(m[1]!), body, forwarded || req.socket.remoteAddress || null);
    })().then(
      (ok) => reply(200, JSON.stringify(ok)),
      (err: unknown) => {
        if (isAppError(err)) return reply(err.status, errorBody(err));
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
