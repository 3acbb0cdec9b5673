import { Readable } from 'node:stream';
import { Router } from '@koa/router';
import { AppError } from '@lookout/shared';
import Koa from 'koa';
import { z } from 'zod';
import { claimingStore } from '../domain/audit/audit-scope.js';
import { loadStatusView } from '../domain/status-pages/public-view.js';
import { createViewCache } from '../domain/status-pages/view-cache.js';
import type { Integration } from '../domain/types.js';
import { parseOrThrow } from '../domain/validation.js';
import { ackPage } from './ack-page.js';
import { alertRoutes } from './alerts/routes.js';
import { apiKeyRoutes } from './api-keys/routes.js';
import { auditLogRoutes } from './audit-log/routes.js';
import { createRouteAudit } from './audit-route.js';
import { createAuthorizer, serviceKeyOf } from './authorize.js';
import { readJson } from './body.js';
import { calendarFeed } from './calendar-feed.js';
import { calendarRoutes } from './calendars/routes.js';
import { channelRoutes } from './channels/routes.js';
import { checkTypeRoutes } from './checks/routes.js';
import { connectedAppRoutes } from './connected-apps/routes.js';
import { contactMethodRoutes } from './contact-methods/routes.js';
import { escalationPolicyRoutes } from './escalation-policies/routes.js';
import { exportRoutes } from './export/routes.js';
import { groupRoutes } from './groups/routes.js';
import { handoffNoticeRoutes } from './handoff-notices/routes.js';
import { heartbeatRoutes } from './heartbeats/routes.js';
import { integrationRoutes } from './integrations/routes.js';
import { loadedOnFirstUse } from './loaded-on-first-use.js';
import { mailSettingsRoutes } from './mail-settings/routes.js';
import { maintenanceWindowRoutes } from './maintenance-windows/routes.js';
import { monitorRoutes } from './monitors/routes.js';
import { isHostedMcpPath } from './oauth/hosted-paths.js';
import { passkeyRoutes } from './passkeys/routes.js';
import { passwordResetRoutes } from './password-reset/routes.js';
import { pingKeyRoutes } from './ping-key/routes.js';
import { pingRoutes } from './pings/routes.js';
import { regionRoutes } from './regions/routes.js';
import { reportScheduleRoutes } from './report-schedule/routes.js';
import { reportRoutes } from './reports/routes.js';
import { requestLog } from './request-log.js';
import { checkResponse } from './response-check.js';
import { resultRoutes } from './results/routes.js';
import type { AnyRoute, ApiContext, ApiState, AppDeps, Authed } from './route.js';
import { scheduleRoutes } from './schedules/routes.js';
import { scriptRunRoutes } from './script-runs/routes.js';
import { secretRoutes } from './secrets/routes.js';
import { securityRoutes } from './security/routes.js';
import { API_PREFIX, serviceEndpoints } from './service-endpoints.js';
import { sessionRoutes } from './session/routes.js';
import { sessionCookieName } from './session-cookie.js';
import { oidcFlow } from './sso/oidc-flow.js';
import { ssoRoutes } from './sso/routes.js';
import { samlEndpoints } from './sso/saml-endpoints.js';
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

/** Routes without a query schema take no query parameters; without a body schema, no body (or `{}`). */
const noQuery = z.strictObject({});
const noBody = z.strictObject({}, { error: 'this endpoint takes no body' });

export const allRoutes = (deps: AppDeps): AnyRoute[] => [
  ...sessionRoutes(deps),
  ...passkeyRoutes(deps),
  ...passwordResetRoutes(deps),
  ...apiKeyRoutes(deps),
  ...connectedAppRoutes(deps),
  ...userRoutes(deps),
  ...contactMethodRoutes(deps),
  ...handoffNoticeRoutes(deps),
  ...monitorRoutes(deps),
  ...checkTypeRoutes(deps),
  ...groupRoutes(deps),
  ...secretRoutes(deps),
  ...securityRoutes(deps),
  ...resultRoutes(deps),
  ...scriptRunRoutes(deps),
  ...regionRoutes(deps),
  ...heartbeatRoutes(deps),
  ...pingKeyRoutes(deps),
  ...alertRoutes(deps),
  ...escalationPolicyRoutes(deps),
  ...channelRoutes(deps),
  ...mailSettingsRoutes(deps),
  ...ssoRoutes(deps),
  ...maintenanceWindowRoutes(deps),
  ...statusPageRoutes(deps),
  ...integrationRoutes(deps),
  ...scheduleRoutes(deps),
  ...calendarRoutes(deps),
  ...auditLogRoutes(deps),
  ...reportRoutes(deps),
  ...reportScheduleRoutes(deps),
  ...exportRoutes(deps),
  ...pingRoutes(),
];

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
  // Inserts name the resource of the request's audit draft (a create's id; audit-route.ts).
  const routes = allRoutes({ ...deps, store: claimingStore(store), statusCache });
  const audited = createRouteAudit(deps, routes);
  const { authorize, authorizeService, credentials } = createAuthorizer(deps);

  // Request id, access log, and the one place errors become responses.
  app.use(requestLog(deps));

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

  // OpenID Connect sign-in (/auth/oidc/start, /auth/oidc/callback): browser redirects to and from the IdP.
  app.use(oidcFlow(deps));

  // SAML sign-in (/auth/saml/metadata, /start, /acs): browser redirects and the IdP's form POST.
  app.use(samlEndpoints(deps));

  // Calendar feeds (/calendars/{token}.ics): the token is the credential, counted by the same limit.
  app.use(calendarFeed({ ...deps, credentials }));

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
  serviceEndpoints(router, { ...deps, routes, tlsAsk: customDomains.tlsAsk });

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
        // A DELETE is read only when its route declares a body (DELETE /me/totp needs a current code).
        ctx.method === 'GET' || ctx.method === 'HEAD' || (ctx.method === 'DELETE' && !r.body)
          ? undefined
          : await readJson(ctx.req, r.maxBodyBytes ?? config.max_body_bytes);
      // One in the body (PagerDuty's routing_key) right after parsing, before validation or rendering.
      if (r.serviceKey?.inBody) integration = await authorizeService(c, r, r.serviceKey.inBody(body));
      if (!r.body && body !== undefined) parseOrThrow(noBody, body, 'body');
      const params = (ctx as unknown as { params: Record<string, string> }).params;
      const result = await audited(r, { ctx: c, params, body, auth }, () =>
        handler({
          ctx: c,
          params,
          query,
          body,
          auth: auth as Authed,
          integration: integration as Integration,
        }),
      );
      ctx.status = c.state.status ?? r.status ?? 200;
      // A route that answers JSON or, when asked, bytes of another type (a report's CSV).
      if (r.binary && (!r.response || result instanceof Uint8Array || result instanceof Readable)) {
        // A stream (an export) as it comes; bytes as they are (Koa sends a Buffer as is; any other
        // object as JSON).
        if (result instanceof Readable) {
          ctx.body = result;
          return;
        }
        const bytes = result as Uint8Array;
        ctx.body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        return;
      }
      if (config.validate_responses) checkResponse(r, result);
      if (result !== undefined) ctx.body = result;
    });
  }

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
