import type { Middleware } from 'koa';
import {
  finishSamlSignIn,
  PENDING_MS,
  SamlError,
  serviceProviderFor,
  serviceProviderMetadata,
  startSamlSignIn,
} from '../../domain/access/saml.js';
import {
  createMetadataCache,
  type IdpMetadata,
  type MetadataCache,
  parseIdpMetadata,
} from '../../domain/access/saml-metadata.js';
import type { SamlReplayStore } from '../../domain/access/saml-replay-store.js';
import {
  completeSsoSignIn,
  type SamlSettings,
  type SsoSignInDeps,
  SsoSignInError,
} from '../../domain/access/sso.js';
import type { AuditStore } from '../../domain/audit/audit-store.js';
import { recordSignIn } from '../../domain/audit/sign-ins.js';
import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import { readRaw } from '../body.js';
import type { ApiContext, ApiState, RouteDeps } from '../route.js';
import { sessionLifetimes, startBrowserSession } from '../session-cookie.js';
import { fetchMetadataXml } from './saml-metadata-fetch.js';

/**
 * SAML sign-in's browser endpoints, outside /api/v1 (domain/access/saml.ts holds the checks):
 * - `GET /auth/saml/metadata`: the workspace's SP metadata XML (entity id, ACS, signed assertions wanted);
 * - `GET /auth/saml/start`: an AuthnRequest by the HTTP-Redirect binding; its id and the RelayState
 *   are kept in a short-lived HttpOnly cookie (Path=/auth/saml), which ties the answer to this browser;
 * - `POST /auth/saml/acs`: the IdP's response (HTTP-POST binding, a form) → the checks → a session
 *   (completeSsoSignIn) and `/`, or `/sign-in?error=<code>`.
 * The ACS is reached by a cross-site form POST, which SameSite=Lax cookies do not ride on, so the
 * pending cookie is SameSite=None, and so Secure (browsers keep Secure cookies on https and on
 * localhost only): SAML needs an https deployment.
 */
const PENDING_COOKIE = 'lookout_saml_pending';
const FORM_MAX_BYTES = 512 * 1024;

export type SamlPorts = SamlReplayStore &
  SsoSignInDeps &
  Pick<TenancyStore, 'getWorkspace'> &
  Pick<AuditStore, 'appendAuditEntry'>;

type Deps = Pick<RouteDeps<SamlPorts>, 'store' | 'clock' | 'config' | 'workspaceUrl' | 'logger'> & {
  metadata?: MetadataCache;
};

/** Where a workspace's SAML settings take the IdP's metadata from. */
const sourceOf = (saml: SamlSettings) =>
  saml.idp_metadata_xml
    ? { idp_metadata_xml: saml.idp_metadata_xml }
    : { idp_metadata_url: saml.idp_metadata_url ?? '' };

/** For PUT /sso: what is wrong with a SAML metadata source, or null (no cache: the admin's save sees the IdP now). */
export const samlMetadataProblem =
  (config: Pick<RouteDeps<unknown>['config'], 'notify_allow_private'>) =>
  async (source: { idp_metadata_url: string } | { idp_metadata_xml: string }) => {
    let xml: string;
    if ('idp_metadata_xml' in source) xml = source.idp_metadata_xml;
    else
      try {
        xml = await fetchMetadataXml(source.idp_metadata_url, { allowPrivate: config.notify_allow_private });
      } catch (e) {
        return `could not be fetched (${(e as Error).message})`;
      }
    const m = parseIdpMetadata(xml);
    return 'error' in m ? m.error : null;
  };

export const samlEndpoints = (deps: Deps): Middleware<ApiState> => {
  const { store, clock, config } = deps;
  const metadata =
    deps.metadata ??
    createMetadataCache({
      fetchXml: (url) => fetchMetadataXml(url, { allowPrivate: config.notify_allow_private }),
      now: () => clock.now().getTime(),
    });
  const life = sessionLifetimes(config);
  const log = deps.logger.child({ component: 'saml' });

  const fail = (ctx: ApiContext, code: string) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 303;
    ctx.redirect(`/sign-in?error=${encodeURIComponent(code)}`);
  };

  const setPending = (ctx: ApiContext, value: string | null, expires: Date) => {
    // SameSite=None needs Secure; behind a TLS-terminating proxy the hop to us is plain http.
    ctx.cookies.secure = true;
    ctx.cookies.set(PENDING_COOKIE, value, {
      httpOnly: true,
      secure: true,
      sameSite: 'none',
      path: '/auth/saml',
      expires,
      overwrite: true,
    });
  };

  const idpOf = async (saml: SamlSettings): Promise<IdpMetadata | null> => {
    const m = await metadata.load(sourceOf(saml));
    if ('error' in m) {
      log.warn({ reason: m.error }, 'SAML IdP metadata unusable');
      return null;
    }
    return m;
  };

  return async (ctx, next) => {
    if (!ctx.path.startsWith('/auth/saml/')) return next();
    const c = ctx as unknown as ApiContext;
    const ws = ctx.state.workspace;
    const route = `${ctx.method} ${ctx.path}`;
    if (
      route !== 'GET /auth/saml/metadata' &&
      route !== 'GET /auth/saml/start' &&
      route !== 'POST /auth/saml/acs'
    )
      return next();
    if (!ws) {
      ctx.status = 404;
      ctx.body = 'No workspace here.';
      return;
    }
    const sp = serviceProviderFor(deps.workspaceUrl(ws.subdomain));

    if (route === 'GET /auth/saml/metadata') {
      ctx.type = 'application/samlmetadata+xml';
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = serviceProviderMetadata(sp);
      return;
    }

    const settings = await store.getSsoSettings(ws.id);
    const saml = settings?.saml;
    if (!saml) return fail(c, 'sso_not_configured');
    const idp = await idpOf(saml);
    if (!idp) return fail(c, 'saml_metadata_unavailable');
    const now = clock.now();

    if (route === 'GET /auth/saml/start') {
      const started = await startSamlSignIn(sp, idp);
      const expires = new Date(now.getTime() + PENDING_MS);
      setPending(c, `${started.relayState}.${started.requestId}.${now.getTime()}`, expires);
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(started.url);
      return;
    }

    // POST /auth/saml/acs
    const type = (ctx.get('content-type') || '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') return fail(c, 'saml_invalid_response');
    const form = new URLSearchParams((await readRaw(ctx.req, FORM_MAX_BYTES)).toString('utf8'));
    const pending = (ctx.cookies.get(PENDING_COOKIE) ?? '').split('.');
    // Used once: cleared whatever happens next.
    setPending(c, null, new Date(0));
    const [relay, requestId, startedAt] = pending;
    if (
      pending.length !== 3 ||
      !relay ||
      form.get('RelayState') !== relay ||
      !(Number(startedAt) + PENDING_MS > now.getTime())
    )
      return fail(c, 'saml_no_pending_sign_in');
    /** The audit entry of a sign-in the IdP vouched for (signed, for this browser, not replayed). */
    const audit = (
      email: string,
      user: { id: string; email: string } | null,
      ok: boolean,
      session_id?: string,
    ) =>
      recordSignIn(store, {
        workspace: ws,
        user,
        email,
        via: 'saml',
        ok,
        session_id: session_id ?? null,
        ip: ctx.ip,
        user_agent: ctx.get('user-agent') || null,
        at: now,
      });
    let email: string | null = null;
    try {
      const identity = await finishSamlSignIn(store, {
        workspaceId: ws.id,
        sp,
        idp,
        samlResponse: form.get('SAMLResponse') ?? '',
        requestId: requestId ?? '',
        now,
      });
      email = identity.email;
      const r = await completeSsoSignIn(store, ws, identity, now, life);
      await audit(identity.email, r.user, true, r.session.id);
      startBrowserSession(c, config, r);
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 303;
      ctx.redirect('/');
    } catch (e) {
      if (e instanceof SsoSignInError && email !== null)
        await audit(email, await store.getUserByEmail(ws.id, email), false);
      if (e instanceof SamlError || e instanceof SsoSignInError) {
        log.info({ code: e.code, err: e.message, workspace: ws.id }, 'SAML sign-in refused');
        return fail(c, e.code);
      }
      throw e;
    }
  };
};
