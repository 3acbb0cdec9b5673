import type { Clock } from '@lookout/shared';
import { AppError } from '@lookout/shared';
import type { Config } from '../config.js';
import { AUTH_MESSAGES, authenticateKey, shouldRecordUse } from '../domain/access/api-keys.js';
import { createCredentialGuard } from '../domain/access/rate-limiter.js';
import type { SecondFactorStore } from '../domain/access/second-factor-store.js';
import { authenticateSession, checkCsrf } from '../domain/access/sessions.js';
import { hasSecondFactor } from '../domain/access/sign-in-challenge.js';
import { authenticateServiceKey } from '../domain/integrations/integrations.js';
import { hasRole } from '../domain/tenancy/roles.js';
import type { TenancyStore } from '../domain/tenancy/tenancy-store.js';
import { internalPrincipalOf } from './internal-principal.js';
import type { AnyRoute, ApiContext, Authed } from './route.js';
import { sessionCookieName, sessionLifetimes } from './session-cookie.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const KEYS_CANNOT =
  'API keys cannot create API keys: sign in to the web app (Settings → API keys) to create one.';

/** The ports the credentials are checked against. */
export type AuthorizerStore = Parameters<typeof authenticateKey>[0] &
  Parameters<typeof authenticateSession>[0] &
  Parameters<typeof authenticateServiceKey>[0] &
  Pick<TenancyStore, 'getUser' | 'recordApiKeyUse'> &
  Pick<SecondFactorStore, 'getSecondFactors'>;

/**
 * What a session marked for two-factor setup (a workspace requiring it, a user without one) may still
 * reach: the session itself and setting up a factor. Everything else answers 403 two_factor_setup_required.
 */
const SETUP_PATHS = /^\/(session|me\/totp|me\/passkeys|me\/recovery-codes)(\/|$)/;
export const TWO_FACTOR_SETUP_MESSAGE =
  'This workspace requires two-factor sign-in: set up an authenticator app or a passkey first (Settings → Security).';

/**
 * The service key of an inbound request: `X-Lookout-Service-Key: <key>`, `Authorization: Bearer
 * <key>` (Alertmanager's http_config.authorization, Grafana's authorization header) or the password
 * of HTTP Basic auth (Grafana's and most tools' basic auth settings; any user name).
 */
export const serviceKeyOf = (ctx: ApiContext): string | undefined => {
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

/**
 * Who is calling, for the API's routes: an API key, a web app session (with its CSRF token on writes),
 * the hosted MCP connector's in-process principal, or an integration's service key; and whether their
 * role allows the route. Failed credentials are counted per client address (createCredentialGuard).
 */
export const createAuthorizer = ({
  store,
  config,
  clock,
}: {
  store: AuthorizerStore;
  config: Config;
  clock: Clock;
}) => {
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
      // Only a marked session pays this read; once a factor exists the mark no longer holds it back.
      if (
        session.two_factor_setup === true &&
        !SETUP_PATHS.test(r.path) &&
        !hasSecondFactor(await store.getSecondFactors(user.workspace_id, user.id))
      )
        throw new AppError('two_factor_setup_required', TWO_FACTOR_SETUP_MESSAGE);
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
  return { authorize, authorizeService, credentials };
};
