import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, hashSecret, isAppError } from '@lookout/shared';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Middleware } from 'koa';
import type Provider from 'oidc-provider';
import { createLookoutClient } from '../../api-client/client.js';
import { existingGrantId } from '../../domain/access/connected-apps.js';
import { clientCapProblem } from '../../domain/access/oauth-clients.js';
import type { OAuthStore } from '../../domain/access/oauth-store.js';
import { createRateLimiter } from '../../domain/access/rate-limiter.js';
import { authenticateSession, checkCsrf, csrfToken, type SessionDeps } from '../../domain/access/sessions.js';
import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import type { User, Workspace } from '../../domain/types.js';
import { inProcessFetch } from '../../mcp/in-process-fetch.js';
import { createLookoutMcpServer, type McpIdentity } from '../../mcp/server.js';
import { readRaw } from '../body.js';
import { type InternalPrincipal, withInternalPrincipal } from '../internal-principal.js';
import type { ApiContext, ApiState, RouteDeps } from '../route.js';
import { sessionCookieName, sessionLifetimes } from '../session-cookie.js';
import { requestHost } from '../workspace-host.js';
import { consentPage, problemPage } from './consent-page.js';
import { isHostedMcpPath, MCP_PATH } from './hosted-paths.js';
import {
  createOAuthServers,
  INTERACTION_PATH,
  MCP_SCOPE,
  mcpResource,
  REGISTRATION_PATH,
} from './provider.js';

/**
 * The hosted MCP connector on every workspace subdomain:
 * - `/mcp`: MCP over Streamable HTTP (stateless: a server per request), the same tools and prompt as
 *   `lookout mcp`, each run as an in-process API request as the token's user;
 * - `/.well-known/oauth-protected-resource[/mcp]` (RFC 9728) and
 *   `/.well-known/oauth-authorization-server` (RFC 8414, the same document as openid-configuration);
 * - `/oauth/*`: the authorization server (oidc-provider, provider.ts), except
 * - `/oauth/interaction/{uid}`: sign-in (the web app's session) and the consent page.
 */

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

const HOSTED: McpIdentity = {
  actsAs: 'the user who connected this assistant to Lookout',
  whenRefused:
    'Lookout refused this connection (the user may have been removed, or the app revoked in Settings → Connected apps). Reconnect Lookout in your assistant.',
};

const json = (ctx: ApiContext, status: number, body: unknown) => {
  ctx.status = status;
  ctx.body = body;
};

const html = (ctx: ApiContext, status: number, p: { csp: string; html: string }) => {
  ctx.status = status;
  ctx.type = 'html';
  ctx.set('Content-Security-Policy', p.csp);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.body = p.html;
};

/** The registration endpoint, with or without one trailing slash as oidc-provider's router takes it (case is folded too: a path the router does not serve only costs its sender a token). */
const isRegistration = (path: string) =>
  path.replace(/\/$/, '').toLowerCase() === REGISTRATION_PATH.toLowerCase();

/** The store ports the connector uses: OAuth records, sessions (its consent page) and the users it acts for. */
export type HostedMcpStore = OAuthStore & SessionDeps & Pick<TenancyStore, 'getUser'>;

export const hostedMcp = (
  deps: RouteDeps<HostedMcpStore>,
  dispatch: (req: IncomingMessage, res: ServerResponse) => void,
): Middleware<ApiState> => {
  const { store, config, clock } = deps;
  const servers = createOAuthServers({ store, clock, trustProxy: config.trust_proxy });
  const handlers = new WeakMap<Provider, ReturnType<Provider['callback']>>();
  const cookieName = sessionCookieName(config);
  const life = sessionLifetimes(config);
  const perHour = config.oauth_registrations_per_hour;
  const registrations =
    perHour > 0 ? createRateLimiter({ capacity: perHour, perSecond: perHour / 3600 }) : null;

  /**
   * Anyone may register a client (RFC 7591), so registrations are limited per client address; past the
   * limit, 429 with Retry-After and an error in the endpoint's own (OAuth) shape. Refused and bad
   * registrations count too. Returns false when the request was answered here.
   */
  const mayRegister = (ctx: ApiContext) => {
    const taken = registrations?.take(ctx.ip, clock.now().getTime()) ?? { ok: true };
    if (taken.ok) return true;
    ctx.set('Retry-After', String(taken.retryAfterSeconds));
    ctx.set('Cache-Control', 'no-store');
    json(ctx, 429, {
      error: 'rate_limited',
      error_description: `Too many client registrations from your address; try again in ${taken.retryAfterSeconds} s.`,
    });
    return false;
  };

  /**
   * Live registered clients are capped per workspace and in all (domain/access/oauth-clients.ts
   * `clientCapProblem`); past a cap, 429 with Retry-After until the first unused client expires.
   * Counted before registering, so registrations racing on several replicas may pass a cap by a few.
   */
  const underClientCaps = async (ctx: ApiContext, ws: Workspace) => {
    const caps = { perWorkspace: config.oauth_clients_per_workspace, total: config.oauth_clients_total };
    if (!caps.perWorkspace && !caps.total) return true;
    const now = clock.now();
    const none = { count: 0, next_expiry: null };
    const problem = clientCapProblem(
      caps,
      {
        workspace: caps.perWorkspace ? await store.countOAuthClients(ws.id, now) : none,
        total: caps.total ? await store.countOAuthClients(null, now) : none,
      },
      now,
    );
    if (!problem) return true;
    ctx.set('Retry-After', String(problem.retryAfterSeconds));
    ctx.set('Cache-Control', 'no-store');
    json(ctx, 429, { error: 'too_many_clients', error_description: problem.description });
    return false;
  };

  /** Hands the request to the workspace's authorization server (its own Koa app). */
  const delegate = async (ctx: ApiContext, provider: Provider, url?: string) => {
    let handle = handlers.get(provider);
    if (!handle) {
      handle = provider.callback();
      handlers.set(provider, handle);
    }
    if (url) ctx.req.url = url;
    ctx.respond = false;
    await handle(ctx.req, ctx.res);
  };

  /** The web app's signed-in user on this workspace, or null. */
  const webUser = async (ctx: ApiContext, ws: Workspace) => {
    const token = ctx.cookies.get(cookieName);
    if (!token) return null;
    try {
      return await authenticateSession(store, token, ws, clock.now(), life);
    } catch (e) {
      if (isAppError(e) && e.code === 'unauthorized') return null;
      throw e;
    }
  };

  const readForm = async (ctx: ApiContext) => {
    const type = (ctx.get('content-type') || '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded')
      throw new AppError('bad_request', 'Send the form as application/x-www-form-urlencoded.');
    return new URLSearchParams((await readRaw(ctx.req, 4096)).toString('utf8'));
  };

  /** GET: sign in first (the web app, then back here), then the consent page. POST confirm/abort. */
  const interaction = async (
    ctx: ApiContext,
    ws: Workspace,
    provider: Provider,
    uid: string,
    action?: string,
  ) => {
    let details: Awaited<ReturnType<Provider['interactionDetails']>>;
    try {
      details = await provider.interactionDetails(ctx.req, ctx.res);
    } catch {
      return html(
        ctx,
        400,
        problemPage(
          'This request has expired',
          'This authorization request is no longer valid. Start connecting Lookout again from your assistant.',
        ),
      );
    }
    if (details.uid !== uid)
      return html(
        ctx,
        400,
        problemPage('Wrong request', 'This page belongs to another authorization request.'),
      );
    const signedIn = await webUser(ctx, ws);
    if (!signedIn) {
      if (action) return html(ctx, 401, problemPage('Signed out', 'Sign in to Lookout again, then retry.'));
      ctx.redirect(`/sign-in?next=${encodeURIComponent(`${INTERACTION_PATH}/${uid}`)}`);
      return;
    }
    const { session, user } = signedIn;
    const clientId = String(details.params.client_id);
    const client = await provider.Client.find(clientId);
    if (!client)
      return html(ctx, 400, problemPage('Unknown app', 'The app asking for access is not registered.'));
    const resource = String(details.params.resource ?? '');

    if (!action) {
      const redirect =
        typeof details.params.redirect_uri === 'string' ? URL.parse(details.params.redirect_uri) : null;
      ctx.state.auth = { user, session };
      return html(
        ctx,
        200,
        consentPage({
          clientName: client.clientName ?? 'An unnamed app',
          clientId,
          redirectHost: redirect ? redirect.host || redirect.protocol : null,
          email: user.email,
          role: user.role,
          workspaceName: ws.name,
          resource,
          action: `${INTERACTION_PATH}/${uid}`,
          csrf: csrfToken(session),
        }),
      );
    }
    const form = await readForm(ctx);
    try {
      checkCsrf(session, form.get('csrf') ?? undefined);
    } catch {
      return html(
        ctx,
        403,
        problemPage('Refused', 'This form did not come from this page. Reload it and try again.'),
      );
    }
    ctx.state.auth = { user, session };
    ctx.respond = false;
    if (action === 'abort') {
      await provider.interactionFinished(
        ctx.req,
        ctx.res,
        { error: 'access_denied', error_description: 'The user did not allow access.' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    // One grant per user and client: consenting again adds to the grant already given (so an app
    // is listed once, and revoking it ends everything it was given).
    const reuse = await existingGrantId(store, ws, user, clientId, clock.now());
    const grant =
      (reuse && (await provider.Grant.find(reuse))) || new provider.Grant({ accountId: user.id, clientId });
    grant.addOIDCScope(MCP_SCOPE);
    grant.addResourceScope(resource, MCP_SCOPE);
    const grantId = await grant.save();
    await provider.interactionFinished(
      ctx.req,
      ctx.res,
      { login: { accountId: user.id }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  };

  /** Bearer token → the user it acts for, or a 401 with the challenge the MCP spec asks for. */
  const mcp = async (ctx: ApiContext, ws: Workspace, provider: Provider, issuer: string) => {
    const metadata = `${issuer}${PROTECTED_RESOURCE_PATH}${MCP_PATH}`;
    const refuse = (message: string, error?: string) => {
      ctx.set(
        'WWW-Authenticate',
        `Bearer resource_metadata="${metadata}", scope="${MCP_SCOPE}"${error ? `, error="${error}", error_description="${message}"` : ''}`,
      );
      json(ctx, 401, { error: { code: 'unauthorized', message, details: [] } });
    };
    const bearer = /^Bearer\s+([\w.~+/=-]+)\s*$/i.exec(ctx.get('authorization'))?.[1];
    if (!bearer) return refuse('This MCP endpoint needs an OAuth access token (Authorization: Bearer).');
    const token = await provider.AccessToken.find(bearer);
    const now = clock.now().getTime();
    if (!token || (token.exp ?? 0) * 1000 <= now)
      return refuse('The access token is invalid, expired or revoked.', 'invalid_token');
    const audience = Array.isArray(token.aud) ? token.aud : [token.aud];
    if (!audience.includes(mcpResource(issuer)))
      return refuse(`The access token is not for ${mcpResource(issuer)}.`, 'invalid_token');
    const user: User | null = token.accountId ? await store.getUser(ws.id, token.accountId) : null;
    if (!user) return refuse('The user of this access token is no longer in the workspace.', 'invalid_token');
    ctx.state.auth = { user };
    if (ctx.method !== 'POST') {
      // Stateless server: no standalone SSE stream (GET) and no session to end (DELETE).
      ctx.set('Allow', 'POST');
      return json(ctx, 405, {
        error: {
          code: 'method_not_allowed',
          message: `${ctx.method} is not allowed here; use POST.`,
          details: [],
        },
      });
    }
    // The client's registered name: what the audit log shows for the changes its tools make.
    const clientId = token.clientId ?? '';
    const client = await store.findOAuthRecord(ws.id, 'Client', hashSecret(clientId));
    const clientName = client?.payload.client_name;
    const principal: InternalPrincipal = {
      workspace_id: ws.id,
      user_id: user.id,
      via: {
        kind: 'oauth',
        client_id: clientId,
        client_name: typeof clientName === 'string' ? clientName.slice(0, 200) : undefined,
      },
    };
    const baseUrl = `${issuer}/api/v1`;
    const api = {
      baseUrl,
      client: createLookoutClient({
        baseUrl,
        // Each tool call is an in-process request of the app, as this user (internal-principal.ts).
        fetch: inProcessFetch({
          dispatch: (req, res) => {
            withInternalPrincipal(req, principal);
            dispatch(req, res);
          },
          host: requestHost(ctx.req.headers, config.trust_proxy) ?? '',
        }),
        headers: { 'user-agent': `lookout-hosted-mcp (${token.clientId})` },
      }),
    };
    const server = createLookoutMcpServer(api, HOSTED);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    ctx.respond = false;
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await transport.handleRequest(ctx.req, ctx.res);
  };

  return async (ctx, next) => {
    const c = ctx as unknown as ApiContext;
    const path = ctx.path;
    if (!isHostedMcpPath(path)) return next();
    const wellKnown = path.startsWith('/.well-known/');
    const ws = ctx.state.workspace;
    if (!ws) throw new AppError('not_found', 'No workspace at this address.');
    const issuer = `${config.public_url_scheme}://${requestHost(ctx.req.headers, config.trust_proxy)}`;
    // Anyone may read the metadata and call /mcp with a token (no cookies are involved): allow any origin.
    if (path === MCP_PATH || path.startsWith(PROTECTED_RESOURCE_PATH)) {
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.set('Access-Control-Expose-Headers', 'WWW-Authenticate, Mcp-Session-Id');
      if (ctx.method === 'OPTIONS') {
        ctx.set('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
        ctx.set(
          'Access-Control-Allow-Headers',
          'Authorization, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id',
        );
        ctx.status = 204;
        return;
      }
    }
    if (path === PROTECTED_RESOURCE_PATH || path === `${PROTECTED_RESOURCE_PATH}${MCP_PATH}`) {
      return json(c, 200, {
        resource: mcpResource(issuer),
        authorization_servers: [issuer],
        scopes_supported: [MCP_SCOPE],
        bearer_methods_supported: ['header'],
        resource_name: `Lookout (${ws.name})`,
        resource_documentation: `${issuer}/settings/connected-apps`,
      });
    }
    const provider = servers.provider(ws, issuer);
    if (path === MCP_PATH) return mcp(c, ws, provider, issuer);
    if (path === '/.well-known/oauth-authorization-server' || path === '/.well-known/openid-configuration')
      return delegate(c, provider, '/.well-known/openid-configuration');
    if (wellKnown) return next();
    const m = new RegExp(`^${INTERACTION_PATH}/([\\w-]{1,100})(?:/(confirm|abort))?$`).exec(path);
    if (m) {
      if ((ctx.method === 'POST') !== (m[2] !== undefined))
        throw new AppError('method_not_allowed', `${ctx.method} is not allowed here.`);
      return interaction(c, ws, provider, m[1]!, m[2]);
    }
    if (ctx.method === 'POST' && isRegistration(path) && !(mayRegister(c) && (await underClientCaps(c, ws))))
      return;
    return delegate(c, provider);
  };
};
