import type { Middleware } from 'koa';
import * as client from 'openid-client';
import type { SsoSignInDeps } from '../../domain/access/sso.js';
import { completeSsoSignIn, type SsoErrorCode, SsoSignInError } from '../../domain/access/sso.js';
import type { AuditStore } from '../../domain/audit/audit-store.js';
import { recordSignIn } from '../../domain/audit/sign-ins.js';
import type { ApiContext, ApiState, RouteDeps } from '../route.js';
import { sessionLifetimes, startBrowserSession } from '../session-cookie.js';
import { createOidcClients, type OidcClients } from './oidc-client.js';

/**
 * OpenID Connect sign-in, as browser redirects outside the API: `GET /auth/oidc/start` sends the
 * browser to the IdP (authorization code with PKCE, state and nonce); `GET /auth/oidc/callback`
 * takes it back, redeems the code (openid-client checks the state, the ID token's signature, issuer,
 * audience, expiry and nonce, and the PKCE verifier), reads the email, its verification and the group
 * claim (ID token, then userinfo), and ends with a Lookout session (domain/access/sso.ts). The flow's
 * secrets live in one short-lived cookie, sealed by the deployment's secret box, HttpOnly,
 * SameSite=Lax (a top-level redirect back from the IdP carries it), `__Host-` over https; it is
 * cleared at the callback, so a callback replayed finds none. Every failure lands on
 * `/sign-in?error=<code>`.
 */
export const OIDC_START = '/auth/oidc/start';
export const OIDC_CALLBACK = '/auth/oidc/callback';
const FLOW_MINUTES = 10;

type Flow = { w: string; v: string; s: string; n: string; exp: number };
type Ports = SsoSignInDeps & Pick<AuditStore, 'appendAuditEntry'>;

const flowContext = (workspaceId: string) => `oidc-flow:${workspaceId}`;

const cookieName = (https: boolean) => (https ? '__Host-lookout_oidc' : 'lookout_oidc');

/** Where a refused sign-in lands. */
const fail = (ctx: ApiContext, code: SsoErrorCode) => {
  ctx.set('Cache-Control', 'no-store');
  ctx.status = 303;
  ctx.redirect(`/sign-in?error=${code}`);
};

const claimString = (v: unknown) => (typeof v === 'string' ? v : '');
const groupsOf = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.filter((g): g is string => typeof g === 'string').slice(0, 1000)
    : typeof v === 'string'
      ? [v]
      : [];

export const oidcFlow = (
  deps: Pick<RouteDeps<Ports>, 'store' | 'config' | 'clock' | 'box' | 'workspaceUrl'> & {
    clients?: OidcClients;
  },
): Middleware<ApiState> => {
  const { store, config, clock, box } = deps;
  const https = config.public_url_scheme === 'https';
  const clients =
    deps.clients ??
    createOidcClients({
      box,
      now: () => clock.now().getTime(),
      blockPrivate: !config.notify_allow_private,
    });
  const life = sessionLifetimes(config);
  const cookieAttrs = (expires: Date) => ({
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: https,
    path: '/',
    expires,
    overwrite: true,
  });
  const setFlow = (ctx: ApiContext, value: string | null, expires = new Date(0)) => {
    if (https) ctx.cookies.secure = true;
    ctx.cookies.set(cookieName(https), value, cookieAttrs(expires));
  };
  const readFlow = (ctx: ApiContext, workspaceId: string): Flow | null => {
    const raw = ctx.cookies.get(cookieName(https));
    if (!raw || raw.length > 4096) return null;
    try {
      const flow = JSON.parse(
        box.open(Buffer.from(raw, 'base64url').toString('utf8'), flowContext(workspaceId)),
      ) as Flow;
      if (flow.w !== workspaceId || !(flow.exp > clock.now().getTime())) return null;
      return flow;
    } catch {
      return null;
    }
  };

  const start = async (ctx: ApiContext) => {
    const ws = ctx.state.workspace!;
    const settings = await store.getSsoSettings(ws.id);
    if (!settings?.oidc) return fail(ctx, 'sso_not_configured');
    let config: client.Configuration;
    try {
      config = await clients.configFor(ws.id, settings.oidc);
    } catch (err) {
      ctx.state.log.warn({ err: String(err) }, 'OIDC discovery failed');
      return fail(ctx, 'sso_failed');
    }
    const flow: Flow = {
      w: ws.id,
      v: client.randomPKCECodeVerifier(),
      s: client.randomState(),
      n: client.randomNonce(),
      exp: clock.now().getTime() + FLOW_MINUTES * 60_000,
    };
    const scopes = ['openid', 'email', 'profile'];
    const supported = config.serverMetadata().scopes_supported ?? [];
    const claim = settings.oidc.group_claim;
    if (claim && supported.includes(claim)) scopes.push(claim);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: `${deps.workspaceUrl(ws.subdomain)}${OIDC_CALLBACK}`,
      scope: scopes.join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(flow.v),
      code_challenge_method: 'S256',
      state: flow.s,
      nonce: flow.n,
    });
    const sealed = box.seal(JSON.stringify(flow), flowContext(ws.id));
    setFlow(ctx, Buffer.from(sealed, 'utf8').toString('base64url'), new Date(flow.exp));
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 303;
    ctx.redirect(url.href);
  };

  const callback = async (ctx: ApiContext) => {
    const ws = ctx.state.workspace!;
    const flow = readFlow(ctx, ws.id);
    // Cleared whatever happens next: a callback is answered once.
    setFlow(ctx, null);
    // Not this browser's flow (a link someone else started, or one answered already): refused before
    // anything is sent to the IdP (openid-client checks the state again).
    if (!flow || ctx.query.state !== flow.s) return fail(ctx, 'sso_state_mismatch');
    const settings = await store.getSsoSettings(ws.id);
    if (!settings?.oidc) return fail(ctx, 'sso_not_configured');
    const oidc = settings.oidc;
    let email: string;
    let verified: boolean;
    let groups: string[];
    let subject: string;
    try {
      const config = await clients.configFor(ws.id, oidc);
      // The URL as the IdP was told it, from configuration (never the request's Host).
      const current = new URL(`${deps.workspaceUrl(ws.subdomain)}${OIDC_CALLBACK}${ctx.search}`);
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.v,
        expectedState: flow.s,
        expectedNonce: flow.n,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims()!;
      subject = idClaims.sub;
      let claims: Record<string, unknown> = { ...idClaims };
      if (config.serverMetadata().userinfo_endpoint && tokens.access_token)
        claims = { ...(await client.fetchUserInfo(config, tokens.access_token, subject)), ...claims };
      email = claimString(claims.email);
      verified = claims.email_verified === true;
      groups = oidc.group_claim ? groupsOf(claims[oidc.group_claim]) : [];
    } catch (err) {
      const e = err as { error?: string; code?: string; message?: string };
      ctx.state.log.info({ err: e.message, code: e.code ?? e.error }, 'OIDC sign-in refused');
      if (e.error === 'access_denied' || e.error === 'login_required') return fail(ctx, 'sso_denied');
      return fail(ctx, 'sso_failed');
    }
    /** The audit entry of a sign-in the IdP vouched for (made or refused here). */
    const audit = async (user: { id: string; email: string } | null, ok: boolean, session_id?: string) =>
      recordSignIn(store, {
        workspace: ws,
        user,
        email,
        via: 'oidc',
        ok,
        session_id: session_id ?? null,
        ip: ctx.ip,
        user_agent: ctx.get('user-agent') || null,
        at: clock.now(),
      });
    try {
      const r = await completeSsoSignIn(
        store,
        ws,
        { email, email_verified: verified, groups, via: 'oidc', subject },
        clock.now(),
        life,
      );
      await audit(r.user, true, r.session.id);
      startBrowserSession(ctx, config, r);
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 303;
      ctx.redirect('/');
    } catch (err) {
      if (err instanceof SsoSignInError) {
        ctx.state.log.info({ code: err.code, err: err.message }, 'SSO sign-in refused');
        const known = email ? await store.getUserByEmail(ws.id, email.trim().toLowerCase()) : null;
        await audit(known, false);
        return fail(ctx, err.code);
      }
      throw err;
    }
  };

  return async (ctx, next) => {
    if (ctx.path !== OIDC_START && ctx.path !== OIDC_CALLBACK) return next();
    const c = ctx as unknown as ApiContext;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET');
      ctx.status = 405;
      return;
    }
    if (!c.state.workspace) {
      ctx.status = 404;
      ctx.type = 'text';
      ctx.body = 'No workspace at this address.';
      return;
    }
    if (ctx.path === OIDC_START) return start(c);
    return callback(c);
  };
};
