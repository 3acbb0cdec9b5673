import { randomUUID } from 'node:crypto';
import { AppError, isAppError, type Logger } from '@lookout/shared';
import type { Middleware } from 'koa';
import type { Metrics } from '../process/metrics.js';
import { errorJson } from './responses.js';
import type { ApiState } from './route.js';

const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The path as logged: a calendar feed's path is its secret token (http/calendar-feed.ts), never written. */
const loggedPath = (path: string) => (path.startsWith('/calendars/') ? '/calendars/[token].ics' : path);

/**
 * The outermost middleware: a request id (the caller's `X-Request-Id` if it is sane), a per-request
 * child logger, the one place errors become responses (an `AppError` as its status and JSON body, any
 * other error as a logged 500 that leaks nothing), the request metric and one access-log line (debug
 * for the loud paths: pings, public status pages, probes and scrapes).
 */
export const requestLog =
  ({ logger, metrics }: { logger: Logger; metrics?: Metrics | undefined }): Middleware<ApiState> =>
  async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    let log: typeof logger | undefined;
    Object.defineProperty(ctx.state, 'log', { get: () => (log ??= logger.child({ req_id: requestId })) });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError('not_found', `No endpoint ${ctx.method} ${ctx.path}.`);
      }
    } catch (err) {
      const e = isAppError(err)
        ? err
        : new AppError('internal', 'Something went wrong on our side; it has been logged.');
      if (!isAppError(err)) ctx.state.log.error({ err }, 'unhandled error');
      ctx.status = e.status;
      ctx.body = errorJson(e);
      if (e.code === 'unauthorized') ctx.set('WWW-Authenticate', 'X-API-Key');
      if (e.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(e.retryAfterSeconds));
    }
    const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
    metrics?.request(ctx.method, route, ctx.status, Number(process.hrtime.bigint() - started) / 1e9);
    // Pings (thousands a second), public status pages (read by crowds during an outage) and probes and
    // scrapes (every few seconds) log at debug level.
    const quiet =
      ctx.path.includes('/hb/ping/') || PROBE_PATHS.has(ctx.path) || ctx.path.startsWith('/status/');
    const level = ctx.status < 500 && quiet ? 'debug' : 'info';
    if (logger.isLevelEnabled(level))
      ctx.state.log[level](
        {
          method: ctx.method,
          path: loggedPath(ctx.path),
          status: ctx.status,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          workspace: ctx.state.workspace?.subdomain,
          user: ctx.state.auth?.user.id,
        },
        'request',
      );
  };
