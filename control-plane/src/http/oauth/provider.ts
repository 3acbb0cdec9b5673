import { generateKeyPairSync } from 'node:crypto';
import { type Clock, hashSecret } from '@lookout/shared';
import Provider, { type Configuration, errors, interactionPolicy } from 'oidc-provider';
import {
  hasOwnSchemeRedirect,
  registrationProblem,
  UNUSED_CLIENT_SECONDS,
} from '../../domain/access/oauth-clients.js';
import type { OAuthRecord, OAuthStore } from '../../domain/access/oauth-store.js';
import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import type { Workspace } from '../../domain/types.js';
import { hasVisible, NAME_PATTERN } from '../../domain/validation.js';
import { MCP_PATH } from './hosted-paths.js';

/**
 * The hosted MCP connector's authorization server: oidc-provider (a certified OAuth 2.0 / OpenID
 * Connect server, itself a Koa app), one Provider per workspace, because each workspace subdomain is
 * its own issuer (RFC 8414 metadata on the same host as its /mcp). Providers are created on first
 * use and kept in a bounded cache; everything they remember lives in the store (OAuthStore), so any
 * replica can serve any step of a flow.
 *
 * What the library does and we do not: client registration (RFC 7591), the authorization code flow
 * with PKCE (S256 only), resource indicators (RFC 8707), refresh token rotation with reuse detection
 * (a used refresh token is refused and its grant revoked), revocation (RFC 7009), the metadata
 * document, and every check of every parameter. What we add: where records are kept (the adapter
 * below), who the user is (the web app's session, in oauth-routes.ts) and which resource exists.
 */

/** Access tokens are short-lived; the connector refreshes them. */
export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_SECONDS = 30 * 86_400;
/** The only scope: use Lookout's tools as the user who consented, with that user's role. */
export const MCP_SCOPE = 'mcp';
export const INTERACTION_PATH = '/oauth/interaction';
export const REGISTRATION_PATH = '/oauth/register';

/** The resource (RFC 8707) a workspace's tokens are for: its /mcp endpoint. */
export const mcpResource = (issuer: string) => `${issuer}${MCP_PATH}`;

type OAuthDeps = { store: OAuthStore & Pick<TenancyStore, 'getUser'>; clock: Clock };

/**
 * oidc-provider's storage Adapter over the OAuthStore port. A record's id (a token, a code, a client
 * id, a cookie value) is never stored: its SHA-256 is the key, and `jti` (the id again) is dropped
 * from the payload and restored from the id the caller looked up with.
 *
 * Registered clients (saved without an expiry by the library) expire UNUSED_CLIENT_SECONDS after
 * registering; the first access token issued to a client keeps it for good (domain/access/oauth-clients.ts).
 */
const adapterFor = ({ store, clock }: OAuthDeps, workspaceId: string) =>
  class OAuthAdapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
      const { jti: _jti, ...rest } = payload;
      const now = clock.now();
      const client = this.model === 'Client';
      const ttl = expiresIn ?? (client ? UNUSED_CLIENT_SECONDS : undefined);
      const record: OAuthRecord = {
        workspace_id: workspaceId,
        model: this.model,
        key_hash: hashSecret(id),
        payload: client ? payload : rest,
        grant_id: this.model === 'Grant' ? id : ((payload.grantId as string | undefined) ?? null),
        account_id: (payload.accountId as string | undefined) ?? null,
        client_id: ((payload.clientId ?? payload.client_id) as string | undefined) ?? null,
        uid: (payload.uid as string | undefined) ?? null,
        created_at: now,
        expires_at: ttl ? new Date(now.getTime() + ttl * 1000) : null,
        consumed_at: null,
      };
      await store.upsertOAuthRecord(record);
      if (this.model === 'AccessToken' && record.client_id)
        await store.keepOAuthClient(workspaceId, hashSecret(record.client_id));
    }

    private revive(id: string | undefined, r: OAuthRecord | null) {
      if (!r) return undefined;
      // Clients carry no `exp` for the library to check: one past its expiry is gone, swept or not.
      if (this.model === 'Client' && r.expires_at && r.expires_at <= clock.now()) return undefined;
      const payload: Record<string, unknown> = { ...r.payload };
      if (id !== undefined && this.model !== 'Client') payload.jti = id;
      if (r.consumed_at) payload.consumed = Math.floor(r.consumed_at.getTime() / 1000);
      return payload;
    }

    async find(id: string) {
      return this.revive(id, await store.findOAuthRecord(workspaceId, this.model, hashSecret(id)));
    }

    /** Sessions only; the caller reads the account, never the (unstored) id. */
    async findByUid(uid: string) {
      return this.revive(undefined, await store.findOAuthRecordByUid(workspaceId, this.model, uid));
    }

    /** The device flow is off. */
    async findByUserCode() {
      return undefined;
    }

    async consume(id: string) {
      await store.consumeOAuthRecord(workspaceId, this.model, hashSecret(id), clock.now());
    }

    async destroy(id: string) {
      await store.deleteOAuthRecord(workspaceId, this.model, hashSecret(id));
    }

    async revokeByGrantId(grantId: string) {
      await store.revokeOAuthGrant(workspaceId, grantId);
    }
  };

const { base, Check } = interactionPolicy;

/**
 * Every authorization asks: the signed-in web app user (whoever that is now) logs in to the
 * authorization server and consents, in one step (oauth-routes.ts). Nothing is skipped because an
 * earlier browser session of the authorization server said so.
 */
const policy = () => {
  const p = base();
  p.get('login')!.checks.add(
    new Check('lookout_session', 'the web app session decides who signs in', (ctx) =>
      ctx.oidc.result?.login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
    ),
  );
  p.get('consent')!.checks.add(
    new Check('lookout_consent', 'consent is asked on every authorization', (ctx) =>
      ctx.oidc.result?.consent ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
    ),
  );
  return p;
};

/**
 * The registration bounds and redirect URI policy (domain/access/oauth-clients.ts), through the library's
 * client metadata validator. It runs once per listed property; listing the standard `redirect_uris`
 * adds no property and makes it run once per client built. `ctx` is there only when the client is
 * being registered: stored clients load as they were accepted. A client whose redirect URIs use an
 * app's own scheme and that did not say what it is becomes `native`, the type the library accepts
 * such URIs for (and for which it matches loopback redirects on any port, RFC 8252 §7.3).
 */
const registrationPolicy: Configuration['extraClientMetadata'] = {
  properties: ['redirect_uris', 'client_name'],
  validator(ctx, key, value, metadata) {
    if (!ctx) return; // a stored client loading: judged when it registered
    if (key === 'client_name') {
      if (typeof value === 'string' && !NAME_PATTERN.test(value))
        throw new errors.InvalidClientMetadata(
          'client_name must be one line without control or bidirectional formatting characters',
        );
      if (typeof value === 'string' && !hasVisible(value))
        throw new errors.InvalidClientMetadata('client_name must have at least one visible character');
      return;
    }
    const body = ctx.oidc.body as Record<string, unknown> | undefined;
    const problem = registrationProblem(body);
    if (problem) throw new errors.CustomOIDCProviderError(problem.error, problem.description);
    if (body?.application_type === undefined && hasOwnSchemeRedirect(metadata.redirect_uris))
      metadata.application_type = 'native';
  },
};

const configuration = (deps: OAuthDeps, workspace: Workspace, issuer: string): Configuration => ({
  adapter: adapterFor(deps, workspace.id),
  // Signs ID tokens only, which this server issues to nobody (access tokens are opaque and stored).
  jwks: {
    keys: [
      {
        ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }),
        alg: 'ES256',
        use: 'sig',
      } as never,
    ],
  },
  enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
  clientDefaults: {
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    id_token_signed_response_alg: 'ES256',
  },
  // Public clients only (PKCE is their proof): no client secret is ever issued, so none is stored
  // (oidc-provider would keep one in clear to compare it). A registration asking for another
  // token_endpoint_auth_method is refused with invalid_client_metadata.
  clientAuthMethods: ['none'],
  // A client's name is shown on the consent page and in Connected apps: it follows the rule of every
  // name (nameText in domain/validation.ts). The library checks the rest of client_name (a string).
  responseTypes: ['code'],
  // 'mcp' is also listed here so that clients may register it as their scope (RFC 7591 `scope`).
  scopes: ['openid', 'offline_access', MCP_SCOPE],
  pkce: { required: () => true },
  extraClientMetadata: registrationPolicy,
  features: {
    devInteractions: { enabled: false },
    // Open registration (RFC 7591), bounded: see registrationPolicy and domain/access/oauth-clients.ts. No
    // registration access token: management (RFC 7592) is off, so it would be a row nobody uses.
    registration: { enabled: true, issueRegistrationAccessToken: false },
    revocation: { enabled: true },
    userinfo: { enabled: false },
    rpInitiatedLogout: { enabled: false },
    resourceIndicators: {
      enabled: true,
      /** RFC 8707: the client names the resource; there is no default. */
      defaultResource: async (_ctx, _client, oneOf) => {
        if (oneOf) return oneOf;
        throw new errors.InvalidTarget(
          `the resource parameter is required; use ${mcpResource(issuer)} (this workspace's MCP endpoint)`,
        );
      },
      useGrantedResource: async () => true,
      getResourceServerInfo: async (_ctx, resource) => {
        if (resource !== mcpResource(issuer))
          throw new errors.InvalidTarget(`the only resource here is ${mcpResource(issuer)}`);
        return {
          scope: MCP_SCOPE,
          audience: resource,
          accessTokenTTL: ACCESS_TOKEN_SECONDS,
          accessTokenFormat: 'opaque',
        };
      },
    },
  },
  issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
  rotateRefreshToken: () => true,
  /** Tokens live by their own expiry, not the authorization server's browser session. */
  expiresWithSession: async () => false,
  ttl: {
    AccessToken: ACCESS_TOKEN_SECONDS,
    AuthorizationCode: 60,
    RefreshToken: REFRESH_TOKEN_SECONDS,
    Grant: REFRESH_TOKEN_SECONDS,
    Interaction: 3600,
    Session: 3600,
    IdToken: 3600,
  },
  routes: {
    authorization: '/oauth/authorize',
    token: '/oauth/token',
    registration: REGISTRATION_PATH,
    revocation: '/oauth/revoke',
    jwks: '/oauth/jwks',
    pushed_authorization_request: '/oauth/par',
  },
  interactions: {
    policy: policy(),
    url: async (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}`,
  },
  cookies: {
    names: {
      session: 'lookout_oauth_session',
      interaction: 'lookout_oauth_interaction',
      resume: 'lookout_oauth_resume',
    },
  },
  /** A user removed from the workspace cannot refresh (and /mcp refuses their access tokens). */
  findAccount: async (_ctx, sub) => {
    const user = await deps.store.getUser(workspace.id, sub);
    return user ? { accountId: user.id, claims: async () => ({ sub: user.id }) } : undefined;
  },
  renderError: async (ctx, out) => {
    ctx.type = 'json';
    ctx.body = out;
  },
});

export interface OAuthServers {
  /** The workspace's authorization server at `issuer` (scheme://host[:port], no path). */
  provider(workspace: Workspace, issuer: string): Provider;
}

/** One Provider per (workspace, issuer), least recently used dropped beyond `max`. */
export const createOAuthServers = (deps: OAuthDeps & { trustProxy: boolean; max?: number }): OAuthServers => {
  const cache = new Map<string, Provider>();
  const max = deps.max ?? 500;
  return {
    provider(workspace, issuer) {
      const key = `${workspace.id} ${issuer}`;
      let p = cache.get(key);
      if (p) {
        cache.delete(key);
      } else {
        p = new Provider(issuer, configuration(deps, workspace, issuer));
        p.proxy = deps.trustProxy;
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
      }
      cache.set(key, p);
      return p;
    },
  };
};
