import { randomUUID } from 'node:crypto';
import { Router } from '@koa/router';
import { AppError, digestsEqual, hashSecret, isAppError } from '@lookout/shared';
import Koa from 'koa';
import { z } from 'zod';
import { authenticateKey, shouldRecordUse } from '../domain/api-keys.js';
import { createRateLimiter } from '../domain/rate-limiter.js';
import { hasRole } from '../domain/roles.js';
import { parseOrThrow } from '../domain/validation.js';
import { readJson } from './body.js';
import { buildOpenApi } from './openapi.js';
import type { AnyRoute, ApiContext, ApiState, AppDeps, Authed } from './route.js';
import { alertRoutes } from './routes/alerts.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { channelRoutes } from './routes/channels.js';
import { escalationPolicyRoutes } from './routes/escalation-policies.js';
import { heartbeatRoutes } from './routes/heartbeats.js';
import { integrationRoutes } from './routes/integrations.js';
import { maintenanceWindowRoutes } from './routes/maintenance-windows.js';
import { monitorRoutes } from './routes/monitors.js';
import { pingRoutes } from './routes/pings.js';
import { agentRoutes, resultRoutes } from './routes/results.js';
import { assertOneHost, createWorkspaceResolver, requestHost, subdomainOf } from './workspace-host.js';

export const API_PREFIX = '/api/v1';
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** Routes without a query schema take no query parameters; without a body schema, no body (or `{}`). */
const noQuery = z.strictObject({});
const noBody = z.strictObject({}, { error: 'this endpoint takes no body' });

export const allRoutes = (deps: AppDeps): AnyRoute[] => [
  ...apiKeyRoutes(deps),
  ...monitorRoutes(deps),
  ...resultRoutes(deps),
  ...agentRoutes(deps),
  ...heartbeatRoutes(deps),
  ...alertRoutes(deps),
  ...escalationPolicyRoutes(deps),
  ...channelRoutes(deps),
  ...maintenanceWindowRoutes(deps),
  ...integrationRoutes(deps),
  ...pingRoutes(),
];

const errorJson = (e: AppError) => ({ error: { code: e.code, message: e.message, details: e.details } });

/** Builds the HTTP API; listening is the caller's business (see server.ts). */
export const createApp = (deps: AppDeps) => {
  const { store, config, clock, logger } = deps;
  const app = new Koa<ApiState>({ proxy: config.trust_proxy });
  const resolveWorkspace = createWorkspaceResolver(store);
  const routes = allRoutes(deps);

  // Request id, access log, and the one place errors become responses.
  app.use(async (ctx, next) => {
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
    deps.metrics?.request(ctx.method, route, ctx.status, Number(process.hrtime.bigint() - started) / 1e9);
    // Pings (thousands a second) and probes and scrapes (every few seconds) log at debug level.
    const quiet = ctx.path.includes('/hb/ping/') || PROBE_PATHS.has(ctx.path);
    const level = ctx.status < 500 && quiet ? 'debug' : 'info';
    if (logger.isLevelEnabled(level))
      ctx.state.log[level](
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          workspace: ctx.state.workspace?.subdomain,
          user: ctx.state.auth?.user.id,
        },
        'request',
      );
  });

  app.use(async (ctx, next) => {
    assertOneHost(ctx.req);
    const sub = subdomainOf(requestHost(ctx.req.headers, config.trust_proxy), config.service_domain);
    ctx.state.workspace = await resolveWorkspace(sub, clock.now().getTime());
    await next();
  });

  const router = new Router<ApiState>();
  router.get('/healthz', (ctx) => {
    // Liveness: 200 while the process serves; the detail (local agents) is for people reading it.
    ctx.body = { status: 'ok', ...deps.health?.() };
  });
  router.get('/readyz', async (ctx) => {
    if (deps.isDraining?.()) throw new AppError('unavailable', 'Shutting down.');
    try {
      await store.ping();
    } catch (err) {
      ctx.state.log.warn({ err }, 'store unreachable');
      throw new AppError('unavailable', 'The store is unreachable.');
    }
    ctx.body = { status: 'ready', store: store.kind };
  });
  router.get('/metrics', async (ctx) => {
    const token = config.metrics_token;
    const given = /^Bearer (.+)$/i.exec(ctx.get('authorization'))?.[1];
    if (!deps.metrics) throw new AppError('not_found', 'No metrics here.');
    if (token && (!given || !digestsEqual(hashSecret(given), hashSecret(token)))) {
      throw new AppError('unauthorized', 'GET /metrics needs the metrics token (Authorization: Bearer).');
    }
    ctx.type = deps.metrics.registry.contentType;
    ctx.body = await deps.metrics.registry.metrics();
  });
  router.get(`${API_PREFIX}/openapi.json`, (ctx) => {
    // The workspace's own URL; without one, a template with the workspace as a server variable.
    const ws = ctx.state.workspace;
    ctx.body = buildOpenApi(
      routes,
      ws
        ? { url: `${deps.workspaceUrl(ws.subdomain)}${API_PREFIX}` }
        : {
            url: `${deps.workspaceUrl('{workspace}')}${API_PREFIX}`,
            variables: { workspace: { default: 'demo', description: 'Your workspace’s subdomain.' } },
          },
    );
  });

  for (const r of routes) {
    if (r.raw || !r.handler) continue;
    const handler = r.handler;
    const koaPath = r.path.replace(/\{(\w+)\}/g, ':$1');
    router[r.method]([`${API_PREFIX}${koaPath}`, ...(r.aliases ?? [])], async (ctx) => {
      const c = ctx as unknown as ApiContext;
      let auth: Authed | undefined;
      if ((r.auth ?? 'api_key') === 'api_key') auth = await authorize(c, r);
      const query = parseOrThrow(r.query ?? noQuery, { ...ctx.query }, 'query');
      const body =
        ctx.method === 'GET' || ctx.method === 'DELETE' || ctx.method === 'HEAD'
          ? undefined
          : await readJson(ctx.req, r.maxBodyBytes ?? config.max_body_bytes);
      if (!r.body && body !== undefined) parseOrThrow(noBody, body, 'body');
      const params = (ctx as unknown as { params: Record<string, string> }).params;
      const result = await handler({ ctx: c, params, query, body, auth: auth as Authed });
      ctx.status = r.status ?? 200;
      if (result !== undefined) ctx.body = result;
    });
  }

  // Failed key attempts per client address (keys are 256-bit random: this is defence in depth).
  const authFailures =
    config.auth_failures_per_minute > 0
      ? createRateLimiter({
          capacity: config.auth_failures_per_minute,
          perSecond: config.auth_failures_per_minute / 60,
        })
      : null;
  const authorize = async (ctx: ApiContext, r: AnyRoute): Promise<Authed> => {
    const now = clock.now();
    const ws = ctx.state.workspace;
    const wait = authFailures?.retryAfter(ctx.ip, now.getTime()) ?? 0;
    if (wait > 0) {
      throw new AppError(
        'rate_limited',
        `Too many failed API key attempts from your address; try again in ${wait} s.`,
        [],
        { retryAfterSeconds: wait },
      );
    }
    const { key, user } = await authenticateKey(store, ctx.get('x-api-key') || undefined, ws, now).catch(
      (e: unknown) => {
        if (isAppError(e) && e.code === 'unauthorized') authFailures?.take(ctx.ip, now.getTime());
        throw e;
      },
    );
    ctx.state.auth = { key, user };
    if (shouldRecordUse(key, now)) {
      const from = `${ctx.ip} ${ctx.get('user-agent')}`.trim().slice(0, 200);
      store
        .recordApiKeyUse(key.id, now, from)
        .catch((err) => ctx.state.log.warn({ err }, 'could not record key use'));
    }
    const needed = r.role ?? 'viewer';
    if (!hasRole(user.role, needed)) {
      throw new AppError('forbidden', `This needs the ${needed} role; the key's user is a ${user.role}.`);
    }
    return { workspace: ws!, user, key };
  };

  app.use(router.routes());
  app.use(async (ctx) => {
    // A known path with another method: say which methods exist.
    const allowed = router.match(ctx.path, ctx.method).path.flatMap((l) => l.methods);
    if (allowed.length > 0) {
      ctx.set('Allow', [...new Set(allowed)].join(', '));
      throw new AppError(
        'method_not_allowed',
        `${ctx.method} is not allowed here; use ${[...new Set(allowed)].join(' or ')}.`,
      );
    }
  });
  return app;
};
