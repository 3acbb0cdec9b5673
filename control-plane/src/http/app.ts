import { randomUUID } from 'node:crypto';
import { Router } from '@koa/router';
import { AppError, digestsEqual, hashSecret, isAppError } from '@lookout/shared';
import Koa from 'koa';
import { z } from 'zod';
import { configJsonSchema, SCHEMA_FILE_NAME } from '../config-as-code/config-file.js';
import { AUTH_MESSAGES, authenticateKey, shouldRecordUse } from '../domain/access/api-keys.js';
import { createCredentialGuard } from '../domain/access/rate-limiter.js';
import { authenticateSession, checkCsrf } from '../domain/access/sessions.js';
import { authenticateServiceKey } from '../domain/integrations/integrations.js';
import { loadStatusView } from '../domain/status-pages/public-view.js';
import { createViewCache } from '../domain/status-pages/view-cache.js';
import { hasRole } from '../domain/tenancy/roles.js';
import type { Integration } from '../domain/types.js';
import { parseOrThrow } from '../domain/validation.js';
import { ackPage } from './ack-page.js';
import { alertRoutes } from './alerts/routes.js';
import { apiKeyRoutes } from './api-keys/routes.js';
import { readJson } from './body.js';
import { channelRoutes } from './channels/routes.js';
import { connectedAppRoutes } from './connected-apps/routes.js';
import { contactMethodRoutes } from './contact-methods/routes.js';
import { escalationPolicyRoutes } from './escalation-policies/routes.js';
import { heartbeatRoutes } from './heartbeats/routes.js';
import { integrationRoutes } from './integrations/routes.js';
import { internalPrincipalOf } from './internal-principal.js';
import { loadedOnFirstUse } from './loaded-on-first-use.js';
import { mailSettingsRoutes } from './mail-settings/routes.js';
import { maintenanceWindowRoutes } from './maintenance-windows/routes.js';
import { monitorRoutes } from './monitors/routes.js';
import { isHostedMcpPath } from './oauth/hosted-paths.js';
import { buildOpenApi } from './openapi.js';
import { pingKeyRoutes } from './ping-key/routes.js';
import { pingRoutes } from './pings/routes.js';
import { regionRoutes } from './regions/routes.js';
import { checkResponse } from './response-check.js';
import { errorJson } from './responses.js';
import { resultRoutes } from './results/routes.js';
import type { AnyRoute, ApiContext, ApiState, AppDeps, Authed } from './route.js';
import { sessionRoutes } from './session/routes.js';
import { sessionCookieName, sessionLifetimes } from './session-cookie.js';
import { statusPageRoutes } from './status-pages/routes.js';
import { createCustomDomains } from './status-public/custom-domains.js';
import { createPublicStatus } from './status-public/serve.js';
import { userRoutes } from './users/routes.js';
import { serveWebApp } from './web-app.js';
import {
  assertOneHost,
  createWorkspaceResolver,
  onlyWorkspace,
  requestHost,
  subdomainOf,
} from './workspace-host.js';

export const API_PREFIX = '/api/v1';
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const KEYS_CANNOT =
  'API keys cannot create API keys: sign in to the web app (Settings → API keys) to create one.';

/** Routes without a query schema take no query parameters; without a body schema, no body (or `{}`). */
const noQuery = z.strictObject({});
const noBody = z.strictObject({}, { error: 'this endpoint takes no body' });

export const allRoutes = (deps: AppDeps): AnyRoute[] => [
  ...sessionRoutes(deps),
  ...apiKeyRoutes(deps),
  ...connectedAppRoutes(deps),
  ...userRoutes(deps),
  ...contactMethodRoutes(deps),
  ...monitorRoutes(deps),
  ...resultRoutes(deps),
  ...regionRoutes(deps),
  ...heartbeatRoutes(deps),
  ...pingKeyRoutes(deps),
  ...alertRoutes(deps),
  ...escalationPolicyRoutes(deps),
  ...channelRoutes(deps),
  ...mailSettingsRoutes(deps),
  ...maintenanceWindowRoutes(deps),
  ...statusPageRoutes(deps),
  ...integrationRoutes(deps),
  ...pingRoutes(),
];

/**
 * The service key of an inbound request: `X-Lookout-Service-Key: <key>`, `Authorization: Bearer
 * <key>` (Alertmanager's http_config.authorization, Grafana's authorization header) or the password
 * of HTTP Basic auth (Grafana's and most tools' basic auth settings; any user name).
 */
const serviceKeyOf = (ctx: ApiContext): string | undefined => {
  const header = ctx.get('x-lookout-service-key');
  if (header) return header.trim();
  const [scheme, value] = ctx.get('authorization').trim().split(/\s+/, 2);
  if (!value) return undefined;
  if (/^bearer$/i.test(scheme!)) return value;
  if (/^basic$/i.test(scheme!)) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : undefined;
  }
  return undefined;
};

/** Builds the HTTP API; listening is the caller's business (see server.ts). */
export const createApp = (deps: AppDeps) => {
  const { store, config, clock, logger } = deps;
  const app = new Koa<ApiState>({ proxy: config.trust_proxy });
  // What Koa reports after a response (a socket that failed or timed out mid-request): one JSON log
  // line, never its default plain-text stack on stderr. Errors in handlers are logged where they are
  // answered (below).
  app.on('error', (err: Error & { code?: string }) => {
    logger.info({ code: err.code, message: err.message }, 'request ended by the connection');
  });
  const resolveWorkspace = createWorkspaceResolver(store);
  // Public status pages read through one cache per replica; the API's edits invalidate it.
  const statusCache =
    deps.statusCache ??
    createViewCache({
      now: () => clock.now().getTime(),
      load: (page) => loadStatusView(store, page, clock.now()),
    });
  const publicStatus = createPublicStatus({ ...deps, cache: statusCache });
  const customDomains = createCustomDomains({
    ...deps,
    cache: statusCache,
    publicStatus,
    workspaceOf: resolveWorkspace,
  });
  const routes = allRoutes({ ...deps, statusCache });

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
    // Pings (thousands a second), public status pages (read by crowds during an outage) and probes and
    // scrapes (every few seconds) log at debug level.
    const quiet =
      ctx.path.includes('/hb/ping/') || PROBE_PATHS.has(ctx.path) || ctx.path.startsWith('/status/');
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

  // Public status pages (/status/{slug}…, and `/` on a page's custom domain): no key, no session;
  // served from the cache.
  app.use(publicStatus.middleware);
  app.use(customDomains.middleware);

  // The hosted MCP connector (/mcp, OAuth metadata, /oauth/*): its tools call this same app in-process.
  // Loaded on its first request: oidc-provider and the MCP SDK are ~13 MB of heap that a control plane
  // nobody connects an assistant to never needs (docs/decisions.md, "Code loaded when first used").
  let callback: ReturnType<typeof app.callback> | undefined;
  app.use(
    loadedOnFirstUse(isHostedMcpPath, async () =>
      (await import('./oauth/hosted-mcp.js')).hostedMcp(deps, (req, res) => {
        callback ??= app.callback();
        return callback(req, res);
      }),
    ),
  );

  // One-click acknowledge (/ack/{alert id}): a server-rendered page and its button, no sign-in.
  app.use(ackPage(deps));

  // The web app (control-plane/web): its pages and hashed assets, before the API's router.
  app.use(
    serveWebApp({
      sessionCookie: sessionCookieName(config),
      secure: config.public_url_scheme === 'https',
      noWorkspace: {
        serviceDomain: config.service_domain,
        scheme: config.public_url_scheme,
        trustProxy: config.trust_proxy,
        onlyWorkspace: onlyWorkspace(store, () => clock.now().getTime()),
      },
    }),
  );

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
  // The JSON Schema of `lookout export` files, which name it on their first line (for editors).
  router.get(`${API_PREFIX}/${SCHEMA_FILE_NAME}`, (ctx) => {
    ctx.body = configJsonSchema();
  });
  // Caddy's on-demand TLS asks before it gets a certificate for a name (deploy/caddy/Caddyfile).
  router.get('/_tls/ask', customDomains.tlsAsk);
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
      let integration: Integration | undefined;
      const mode = r.auth ?? 'api_key';
      if (mode === 'api_key' || mode === 'session') auth = await authorize(c, r);
      // A service key in the headers is checked before the body is even read.
      if (r.serviceKey && !r.serviceKey.inBody) integration = await authorizeService(c, r, serviceKeyOf(c));
      const query = parseOrThrow(r.query ?? noQuery, { ...ctx.query }, 'query');
      const body =
        ctx.method === 'GET' || ctx.method === 'DELETE' || ctx.method === 'HEAD'
          ? undefined
          : await readJson(ctx.req, r.maxBodyBytes ?? config.max_body_bytes);
      // One in the body (PagerDuty's routing_key) right after parsing, before validation or rendering.
      if (r.serviceKey?.inBody) integration = await authorizeService(c, r, r.serviceKey.inBody(body));
      if (!r.body && body !== undefined) parseOrThrow(noBody, body, 'body');
      const params = (ctx as unknown as { params: Record<string, string> }).params;
      const result = await handler({
        ctx: c,
        params,
        query,
        body,
        auth: auth as Authed,
        integration: integration as Integration,
      });
      if (config.validate_responses) checkResponse(r, result);
      ctx.status = r.status ?? 200;
      if (result !== undefined) ctx.body = result;
    });
  }

  // Failed credentials per client address, API keys, session tokens and service keys alike (all are
  // 256-bit random: this is defence in depth). A valid one always works; see createCredentialGuard.
  const credentials = createCredentialGuard(config.auth_failures_per_minute);
  const cookieName = sessionCookieName(config);
  const life = sessionLifetimes(config);
  /**
   * Two credentials, one set of role checks. A request carrying X-API-Key is a pure API call: the key
   * alone decides and cookies are ignored. Otherwise the session cookie, and on every write the
   * session's CSRF token in X-CSRF-Token. Routes with auth 'session' refuse API keys.
   */
  const authorize = async (ctx: ApiContext, r: AnyRoute): Promise<Authed> => {
    const now = clock.now();
    const ws = ctx.state.workspace;
    const needed = r.role ?? 'viewer';
    const internal = internalPrincipalOf(ctx.req);
    if (internal) {
      // The hosted MCP connector's tools (mcp/in-process-fetch.ts): the user an OAuth grant acts for.
      if (r.auth === 'session')
        throw new AppError(
          'forbidden',
          'This is for the web app’s signed-in session; an AI connector cannot use it.',
        );
      const user =
        ws && ws.id === internal.workspace_id ? await store.getUser(ws.id, internal.user_id) : null;
      if (!user) throw new AppError('unauthorized', 'The connected user is no longer in this workspace.');
      ctx.state.auth = { user };
      if (!hasRole(user.role, needed))
        throw new AppError('forbidden', `This needs the ${needed} role; you are a ${user.role}.`);
      return { workspace: ws!, user };
    }
    if (!ctx.get('x-api-key')) {
      const token = ctx.cookies.get(cookieName);
      if (!token) throw new AppError('unauthorized', AUTH_MESSAGES.missing);
      const { session, user } = await credentials.check(ctx.ip, now.getTime(), () =>
        authenticateSession(store, token, ws, now, life),
      );
      if (!SAFE_METHODS.has(ctx.method)) checkCsrf(session, ctx.get('x-csrf-token') || undefined);
      ctx.state.auth = { user, session };
      if (!hasRole(user.role, needed))
        throw new AppError('forbidden', `This needs the ${needed} role; you are a ${user.role}.`);
      return { workspace: ws!, user, session };
    }
    if (r.auth === 'session')
      throw new AppError(
        'forbidden',
        r.path.startsWith('/api-keys')
          ? KEYS_CANNOT
          : 'This is for the web app’s signed-in session; an API key cannot use it.',
      );
    const { key, user } = await credentials.check(ctx.ip, now.getTime(), () =>
      authenticateKey(store, ctx.get('x-api-key') || undefined, ws, now),
    );
    ctx.state.auth = { key, user };
    if (shouldRecordUse(key, now)) {
      const from = `${ctx.ip} ${ctx.get('user-agent')}`.trim().slice(0, 200);
      store
        .recordApiKeyUse(key.id, now, from)
        .catch((err) => ctx.state.log.warn({ err }, 'could not record key use'));
    }
    if (!hasRole(user.role, needed)) {
      throw new AppError('forbidden', `This needs the ${needed} role; the key's user is a ${user.role}.`);
    }
    return { workspace: ws!, user, key };
  };

  const authorizeService = (ctx: ApiContext, r: AnyRoute, value: string | undefined) =>
    credentials.check(ctx.ip, clock.now().getTime(), () =>
      authenticateServiceKey(store, value, r.serviceKey!.kind, ctx.state.workspace),
    );

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
