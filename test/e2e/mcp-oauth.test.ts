import { join } from 'node:path';
import { ManualClock } from '@lookout/shared';
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  exchangeAuthorization,
  refreshAuthorization,
  registerClient,
  startAuthorization,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed } from '@modelcontextprotocol/sdk/shared/auth.js';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_SECONDS } from '../../control-plane/src/http/oauth/provider.js';
import { tools } from '../../control-plane/src/mcp/tools.js';
import { type Harness, startHarness } from '../support/harness.js';
import { cookieJar, localhostFetch, MemoryOAuthProvider } from '../support/oauth-client.js';

/**
 * The hosted MCP connector without a browser: the MCP SDK's own client (its OAuth functions and its
 * Streamable HTTP transport with an OAuthClientProvider) against a real control plane; the sign-in and
 * consent pages are driven over plain HTTP (test/browser/mcp-oauth.test.ts does them in chromium).
 * The clock starts at the real time (oidc-provider stamps tokens with it) and is moved by hand.
 */

type Workspace = Awaited<ReturnType<Harness['workspace']>>;
let h: Harness;
let clock: ManualClock;
let acme: Workspace;
let member: Awaited<ReturnType<Workspace['userWithKey']>>;
const REDIRECT = 'http://127.0.0.1:1/callback';
const clients: Client[] = [];

const origin = (sub: string) => `http://${sub}.localhost:${h.cp.port}`;
const mcpUrl = (sub: string) => `${origin(sub)}/mcp`;
const fetchFn = localhostFetch;

beforeAll(async () => {
  clock = new ManualClock(new Date());
  // Many registrations from one address: the limit is tested on its own harness below.
  h = await startHarness({ oauth_registrations_per_hour: 0 }, { clock });
  acme = await h.workspace('acme');
  await h.workspace('beta');
  member = await acme.userWithKey('member', 'mia@acme.test');
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await h.close();
});

const go = async (jar: ReturnType<typeof cookieJar>, url: string | URL, init: RequestInit = {}) => {
  const r = await fetchFn(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
  });
  jar.take(r);
  return r;
};

/**
 * What a person does in the browser, over HTTP: open the authorization URL, get sent to sign-in,
 * sign in (the web app's POST /session), come back to the consent page, press Allow (or Deny).
 * Returns the URL the authorization server sends the browser back to (the client's redirect URI).
 */
const consent = async (
  authorizationUrl: URL,
  who: { email: string; password: string },
  decision: 'confirm' | 'abort' = 'confirm',
) => {
  const jar = cookieJar();
  let r = await go(jar, authorizationUrl);
  expect(r.status, await r.clone().text()).toBeGreaterThanOrEqual(300);
  const interaction = new URL(r.headers.get('location')!, authorizationUrl);
  expect(interaction.pathname).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
  r = await go(jar, interaction);
  expect(r.status).toBe(302);
  expect(r.headers.get('location')).toBe(`/sign-in?next=${encodeURIComponent(interaction.pathname)}`);
  r = await go(jar, new URL('/api/v1/session', authorizationUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  expect(r.status).toBe(201);
  r = await go(jar, interaction);
  const page = await r.text();
  expect(r.status, page).toBe(200);
  expect(page).toContain('Test Assistant');
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
  r = await go(jar, `${interaction.href}/${decision}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf }).toString(),
  });
  expect(r.status, await r.clone().text()).toBeGreaterThanOrEqual(300);
  const resume = new URL(r.headers.get('location')!, authorizationUrl);
  r = await go(jar, resume);
  expect(r.status, await r.clone().text()).toBeGreaterThanOrEqual(300);
  if (!r.headers.get('location'))
    throw new Error(`resume ${resume.href} answered ${r.status}: ${await r.text()}`);
  return { callback: new URL(r.headers.get('location')!, 'http://x.invalid'), page, jar };
};

/** Registration, PKCE and the code, step by step with the SDK's functions. */
const authorizeStepByStep = async (
  sub: string,
  who: { email: string; password: string },
  redirect = REDIRECT,
  registered?: OAuthClientInformationMixed,
) => {
  const resource = await discoverOAuthProtectedResourceMetadata(mcpUrl(sub), undefined, fetchFn);
  const issuer = resource.authorization_servers![0]!;
  const metadata = (await discoverAuthorizationServerMetadata(issuer, { fetchFn }))!;
  const info =
    registered ??
    (await registerClient(issuer, {
      metadata,
      clientMetadata: new MemoryOAuthProvider(redirect).clientMetadata,
      fetchFn,
    }));
  const { authorizationUrl, codeVerifier } = await startAuthorization(issuer, {
    metadata,
    clientInformation: info,
    redirectUrl: redirect,
    scope: 'mcp',
    resource: new URL(resource.resource),
  });
  const { callback } = await consent(authorizationUrl, who);
  expect(callback.href.startsWith(redirect), callback.href).toBe(true);
  const code = callback.searchParams.get('code')!;
  if (!code) throw new Error(callback.href);
  expect(code).toBeTruthy();
  const exchange = (c = code, resourceUrl = new URL(resource.resource)) =>
    exchangeAuthorization(issuer, {
      metadata,
      clientInformation: info,
      authorizationCode: c,
      codeVerifier,
      redirectUri: redirect,
      resource: resourceUrl,
      fetchFn,
    });
  const tokens = await exchange();
  return { issuer, metadata, info, tokens, code, codeVerifier, exchange, resource };
};

/** An MCP client session over /mcp with a bearer token (no provider: a refused token stays refused). */
const withToken = async (sub: string, token: string) => {
  const client = new Client({ name: 'lookout-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl(sub)), {
      fetch: fetchFn,
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
};

const postMcp = (sub: string, token?: string) =>
  fetchFn(mcpUrl(sub), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

const challengeOf = async (r: Response) => {
  expect(r.status).toBe(401);
  return r.headers.get('www-authenticate') ?? '';
};

describe('discovery', () => {
  it('/mcp without a token is a 401 naming the protected-resource metadata, which names the authorization server', async () => {
    const challenge = await challengeOf(await postMcp('acme'));
    expect(challenge).toMatch(
      new RegExp(`^Bearer resource_metadata="${origin('acme')}/.well-known/oauth-protected-resource/mcp"`),
    );
    const prm = await discoverOAuthProtectedResourceMetadata(mcpUrl('acme'), undefined, fetchFn);
    expect(prm).toMatchObject({ resource: mcpUrl('acme'), authorization_servers: [origin('acme')] });
    const r = await fetchFn(`${origin('acme')}/.well-known/oauth-authorization-server`);
    expect(r.status).toBe(200);
    const as = await discoverAuthorizationServerMetadata(origin('acme'), { fetchFn });
    expect(as).toMatchObject({
      issuer: origin('acme'),
      authorization_endpoint: `${origin('acme')}/oauth/authorize`,
      token_endpoint: `${origin('acme')}/oauth/token`,
      registration_endpoint: `${origin('acme')}/oauth/register`,
      revocation_endpoint: `${origin('acme')}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
    expect(await r.json()).toEqual(as);
  });
});

describe('registration', () => {
  it('registers public clients only: no client secret is issued, and a confidential registration is refused', async () => {
    const register = (body: object) =>
      fetchFn(`${origin('acme')}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT], ...body }),
      });
    const pub = await register({ token_endpoint_auth_method: 'none' });
    expect(pub.status).toBe(201);
    const client = (await pub.json()) as Record<string, unknown>;
    expect(client.token_endpoint_auth_method).toBe('none');
    expect(client.client_secret).toBeUndefined();
    for (const method of ['client_secret_basic', 'client_secret_post']) {
      const refused = await register({ token_endpoint_auth_method: method });
      expect(refused.status, method).toBe(400);
      expect(((await refused.json()) as { error: string }).error, method).toBe('invalid_client_metadata');
    }
  });
});

describe('the whole flow with the SDK client and its OAuth provider', () => {
  it('401 → discovery → registration → PKCE → sign-in and consent → token → tools/list → create_monitor', async () => {
    const provider = new MemoryOAuthProvider(REDIRECT);
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl('acme')), {
      authProvider: provider,
      fetch: fetchFn,
    });
    const first = new Client({ name: 'lookout-e2e', version: '1.0.0' });
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.info?.client_id).toBeTruthy();
    const url = provider.authorizationUrl!;
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(mcpUrl('acme'));
    const { callback, page } = await consent(url, { email: member.user.email, password: member.password });
    expect(page).toContain('mia@acme.test');
    expect(page).toContain('member');
    await transport.finishAuth(callback.searchParams.get('code')!);
    expect(provider.saved?.access_token).toBeTruthy();
    expect(provider.saved?.refresh_token).toBeTruthy();

    const client = new Client({ name: 'lookout-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcpUrl('acme')), { authProvider: provider, fetch: fetchFn }),
    );
    clients.push(client);
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name).sort()).toEqual(tools.map((t) => t.name).sort());
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['triage_open_alerts']);
    const r = await client.callTool({
      name: 'create_monitor',
      arguments: {
        display_name: 'Made by the assistant',
        monitor_type: 'http',
        url: 'https://example.com/health',
        http_method: 'GET',
        expected_status_code: 200,
        check_interval_seconds: 300,
      },
    });
    const text = (r.content as { text: string }[])[0]!.text;
    expect(r.isError, text).toBeFalsy();
    const created = JSON.parse(text);
    const seen = await acme.api('GET', `/monitors/${created.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      display_name: 'Made by the assistant',
      url: 'https://example.com/health',
    });
    // The audit log names the OAuth client and the user it acts for.
    const [entry] = (await acme.api('GET', '/audit-log?action=monitor.create&limit=1')).body.data;
    expect(entry).toMatchObject({
      actor: { type: 'oauth_client', id: provider.info!.client_id, name: 'Test Assistant' },
      resource_id: created.id,
    });
    const [stored] = (
      await h.store.listAuditEntries(acme.workspace.id, { action: 'monitor.create' }, { limit: 1 })
    ).data;
    expect(stored!.actor.user_id).toBe(member.user.id);
  });
});

describe('tokens', () => {
  it('refresh tokens rotate: the new pair works, the used refresh token is refused', async () => {
    const a = await authorizeStepByStep('acme', { email: member.user.email, password: member.password });
    const refresh = (token: string) =>
      refreshAuthorization(a.issuer, {
        metadata: a.metadata,
        clientInformation: a.info as OAuthClientInformationMixed,
        refreshToken: token,
        resource: new URL(a.resource.resource),
        fetchFn,
      });
    const next = await refresh(a.tokens.refresh_token!);
    expect(next.refresh_token).toBeTruthy();
    expect(next.refresh_token).not.toBe(a.tokens.refresh_token);
    expect((await (await withToken('acme', next.access_token)).listTools()).tools.length).toBe(tools.length);
    await expect(refresh(a.tokens.refresh_token!)).rejects.toThrow(/grant/i);
  });

  it('revocation (RFC 7009) stops the access token at once', async () => {
    const a = await authorizeStepByStep('acme', { email: member.user.email, password: member.password });
    expect((await postMcp('acme', a.tokens.access_token)).status).toBe(200);
    const r = await fetchFn((a.metadata as { revocation_endpoint?: string }).revocation_endpoint!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: a.tokens.access_token,
        token_type_hint: 'access_token',
        client_id: a.info.client_id,
      }).toString(),
    });
    expect(r.status).toBe(200);
    expect(await challengeOf(await postMcp('acme', a.tokens.access_token))).toMatch(/error="invalid_token"/);
  });

  it('an expired access token gets 401 with the challenge', async () => {
    const a = await authorizeStepByStep('acme', { email: member.user.email, password: member.password });
    expect((await postMcp('acme', a.tokens.access_token)).status).toBe(200);
    // oidc-provider stamps tokens with the real time: start from it, then move past the token's life.
    expect(a.tokens.expires_in).toBe(ACCESS_TOKEN_SECONDS);
    clock.set(new Date());
    clock.advance(ACCESS_TOKEN_SECONDS * 1000);
    const reply = await postMcp('acme', a.tokens.access_token);
    clock.set(new Date());
    const challenge = await challengeOf(reply);
    expect(challenge).toContain(
      `resource_metadata="${origin('acme')}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(challenge).toContain('error="invalid_token"');
  });

  it('a token for one workspace is refused on another', async () => {
    const a = await authorizeStepByStep('acme', { email: member.user.email, password: member.password });
    expect((await postMcp('acme', a.tokens.access_token)).status).toBe(200);
    expect(await challengeOf(await postMcp('beta', a.tokens.access_token))).toContain(
      `resource_metadata="${origin('beta')}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('an authorization code works once', async () => {
    const a = await authorizeStepByStep('acme', { email: member.user.email, password: member.password });
    await expect(a.exchange()).rejects.toThrow(/grant/i);
    // Reusing a code revokes what it issued (RFC 6749 §4.1.2).
    expect((await postMcp('acme', a.tokens.access_token)).status).toBe(401);
  });

  it('a code is bound to its PKCE verifier', async () => {
    const resource = await discoverOAuthProtectedResourceMetadata(mcpUrl('acme'), undefined, fetchFn);
    const issuer = resource.authorization_servers![0]!;
    const metadata = (await discoverAuthorizationServerMetadata(issuer, { fetchFn }))!;
    const info = await registerClient(issuer, {
      metadata,
      clientMetadata: new MemoryOAuthProvider(REDIRECT).clientMetadata,
      fetchFn,
    });
    const { authorizationUrl } = await startAuthorization(issuer, {
      metadata,
      clientInformation: info,
      redirectUrl: REDIRECT,
      resource: new URL(resource.resource),
    });
    const { callback } = await consent(authorizationUrl, {
      email: member.user.email,
      password: member.password,
    });
    await expect(
      exchangeAuthorization(issuer, {
        metadata,
        clientInformation: info,
        authorizationCode: callback.searchParams.get('code')!,
        codeVerifier: 'x'.repeat(43),
        redirectUri: REDIRECT,
        resource: new URL(resource.resource),
        fetchFn,
      }),
    ).rejects.toThrow(/grant/i);
  });
});

describe('authorization requests that are refused', () => {
  const authorizeWith = async (edit: (u: URL) => void) => {
    const metadata = (await discoverAuthorizationServerMetadata(origin('acme'), { fetchFn }))!;
    const info = await registerClient(origin('acme'), {
      metadata,
      clientMetadata: new MemoryOAuthProvider(REDIRECT).clientMetadata,
      fetchFn,
    });
    const { authorizationUrl } = await startAuthorization(origin('acme'), {
      metadata,
      clientInformation: info,
      redirectUrl: REDIRECT,
      resource: new URL(mcpUrl('acme')),
    });
    edit(authorizationUrl);
    const r = await fetchFn(authorizationUrl, { redirect: 'manual' });
    const to = r.headers.get('location');
    return to ? new URL(to) : null;
  };

  it('without a resource, with another workspace’s resource, or another audience: invalid_target', async () => {
    for (const edit of [
      (u: URL) => u.searchParams.delete('resource'),
      (u: URL) => u.searchParams.set('resource', mcpUrl('beta')),
      (u: URL) => u.searchParams.set('resource', `${origin('acme')}/api/v1`),
    ]) {
      const back = await authorizeWith(edit);
      expect(back?.origin + (back?.pathname ?? '')).toBe(REDIRECT);
      expect(back?.searchParams.get('error')).toBe('invalid_target');
    }
  });

  it('without PKCE, or with the plain method: refused', async () => {
    for (const edit of [
      (u: URL) => {
        u.searchParams.delete('code_challenge');
        u.searchParams.delete('code_challenge_method');
      },
      (u: URL) => u.searchParams.set('code_challenge_method', 'plain'),
    ]) {
      const back = await authorizeWith(edit);
      expect(back?.searchParams.get('error')).toBe('invalid_request');
    }
  });

  it('a token request for another resource than the code’s is refused', async () => {
    const a = await authorizeStepByStep('acme', { email: member.user.email, password: member.password });
    const again = await startAuthorization(a.issuer, {
      metadata: a.metadata,
      clientInformation: a.info,
      redirectUrl: REDIRECT,
      resource: new URL(a.resource.resource),
    });
    const { callback } = await consent(again.authorizationUrl, {
      email: member.user.email,
      password: member.password,
    });
    await expect(
      exchangeAuthorization(a.issuer, {
        metadata: a.metadata,
        clientInformation: a.info,
        authorizationCode: callback.searchParams.get('code')!,
        codeVerifier: again.codeVerifier,
        redirectUri: REDIRECT,
        resource: new URL(mcpUrl('beta')),
        fetchFn,
      }),
    ).rejects.toThrow(/grant|target|resource/i);
  });

  it('Deny sends the user back with access_denied', async () => {
    const metadata = (await discoverAuthorizationServerMetadata(origin('acme'), { fetchFn }))!;
    const info = await registerClient(origin('acme'), {
      metadata,
      clientMetadata: new MemoryOAuthProvider(REDIRECT).clientMetadata,
      fetchFn,
    });
    const { authorizationUrl } = await startAuthorization(origin('acme'), {
      metadata,
      clientInformation: info,
      redirectUrl: REDIRECT,
      resource: new URL(mcpUrl('acme')),
    });
    const { callback } = await consent(
      authorizationUrl,
      { email: member.user.email, password: member.password },
      'abort',
    );
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('code')).toBeNull();
  });
});

describe('the token acts as its user, as that user is now', () => {
  it('roles apply as for keys, and a role change applies at once', async () => {
    const viewer = await acme.userWithKey('viewer', 'vic@acme.test');
    const a = await authorizeStepByStep('acme', { email: viewer.user.email, password: viewer.password });
    const client = await withToken('acme', a.tokens.access_token);
    const r = await client.callTool({
      name: 'create_monitor',
      arguments: {
        display_name: 'x',
        monitor_type: 'http',
        url: 'https://example.com',
        http_method: 'GET',
        expected_status_code: 200,
      },
    });
    expect(r.isError).toBe(true);
    expect((r.content as { text: string }[])[0]!.text).toMatch(/needs the member role; you are a viewer/);
    expect(await h.store.changeUserRole(acme.workspace.id, viewer.user.id, 'member')).toBe('changed');
    const again = await client.callTool({
      name: 'create_monitor',
      arguments: {
        display_name: 'now allowed',
        monitor_type: 'http',
        url: 'https://example.com',
        http_method: 'GET',
        expected_status_code: 200,
        check_interval_seconds: 300,
      },
    });
    expect(again.isError, (again.content as { text: string }[])[0]!.text).toBeFalsy();
  });

  it('the on-call tools answer for the signed-in user: their shifts, and who is on call by schedule name', async () => {
    const sam = await acme.userWithKey('member', 'sam@acme.test');
    const created = await acme.api('POST', '/schedules', {
      json: {
        name: 'Hosted on call',
        timezone: 'Asia/Kolkata',
        layers: [
          {
            name: 'Everyone',
            users: [sam.user.id],
            rotation: 'daily',
            handoff: '09:00',
            starts_at: new Date(clock.now().getTime() - 86_400_000).toISOString(),
          },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const a = await authorizeStepByStep('acme', { email: sam.user.email, password: sam.password });
    const client = await withToken('acme', a.tokens.access_token);
    const text = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      const t = (r.content as { text: string }[])[0]!.text;
      expect(r.isError, t).toBeFalsy();
      return t;
    };
    const who = await text('who_is_on_call', { schedule: 'hosted on call' });
    expect(who).toContain(`Hosted on call (Asia/Kolkata, schedule id ${created.body.id})`);
    expect(who).toContain('On call: sam@acme.test');
    expect(who).toContain('Why: layer 1 "Everyone".');
    const mine = await text('list_my_shifts', { days: 3 });
    expect(mine).toMatch(
      /^sam@acme\.test has 1 on-call shift in the next 3 days:\n- Hosted on call .*GMT\+5:30/,
    );
  });

  it('a removed user’s tokens stop at once, and cannot be refreshed', async () => {
    const gone = await acme.userWithKey('member', 'gone@acme.test');
    const a = await authorizeStepByStep('acme', { email: gone.user.email, password: gone.password });
    expect((await postMcp('acme', a.tokens.access_token)).status).toBe(200);
    // No removal endpoint exists yet: take the user out of the store as one would.
    const db = new Database(join(h.dir, 'lookout.db'));
    db.prepare('DELETE FROM sessions WHERE user_id = ?').run(gone.user.id);
    db.prepare('DELETE FROM api_keys WHERE user_id = ?').run(gone.user.id);
    db.prepare('DELETE FROM users WHERE id = ?').run(gone.user.id);
    db.close();
    expect(await challengeOf(await postMcp('acme', a.tokens.access_token))).toContain(
      'error="invalid_token"',
    );
    await expect(
      refreshAuthorization(a.issuer, {
        metadata: a.metadata,
        clientInformation: a.info,
        refreshToken: a.tokens.refresh_token!,
        resource: new URL(a.resource.resource),
        fetchFn,
      }),
    ).rejects.toThrow();
  });

  it('tokens are stored only as hashes', async () => {
    const a = await authorizeStepByStep('acme', { email: member.user.email, password: member.password });
    const db = new Database(join(h.dir, 'lookout.db'), { readonly: true });
    const dump = JSON.stringify(db.prepare('SELECT * FROM oauth_records').all());
    db.close();
    expect(dump).not.toContain(a.tokens.access_token);
    expect(dump).not.toContain(a.tokens.refresh_token);
    expect(dump).not.toContain(a.code);
  });
});

describe('Settings → Connected apps (API)', () => {
  it('lists the user’s grants with the client’s name, and revoking one stops its tokens', async () => {
    const a = await authorizeStepByStep('acme', { email: member.user.email, password: member.password });
    const jar = cookieJar();
    const signIn = await go(jar, `${origin('acme')}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: member.user.email, password: member.password }),
    });
    const { csrf_token } = (await signIn.json()) as { csrf_token: string };
    const list = await go(jar, `${origin('acme')}/api/v1/connected-apps`);
    expect(list.status).toBe(200);
    const apps = (
      (await list.json()) as { data: { id: string; client_id: string; client_name: string; scope: string }[] }
    ).data;
    const app = apps.find((x) => x.client_id === a.info.client_id)!;
    expect(app).toMatchObject({ client_name: 'Test Assistant', scope: 'mcp' });
    // A key cannot see or revoke them: connected apps are the signed-in user's business.
    expect(((await member) && (await acme.as(member.key)('GET', '/connected-apps'))).status).toBe(403);
    const revoke = await go(jar, `${origin('acme')}/api/v1/connected-apps/${app.id}/revoke`, {
      method: 'POST',
      headers: { 'x-csrf-token': csrf_token },
    });
    expect(revoke.status).toBe(200);
    expect((await postMcp('acme', a.tokens.access_token)).status).toBe(401);
    await expect(
      refreshAuthorization(a.issuer, {
        metadata: a.metadata,
        clientInformation: a.info,
        refreshToken: a.tokens.refresh_token!,
        resource: new URL(a.resource.resource),
        fetchFn,
      }),
    ).rejects.toThrow();
    const after = (await (await go(jar, `${origin('acme')}/api/v1/connected-apps`)).json()) as {
      data: { id: string }[];
    };
    expect(after.data.map((x) => x.id)).not.toContain(app.id);
  });
});

/** POST /oauth/register on a workspace, as a client would (any JSON). */
const register = (
  body: unknown,
  sub = 'acme',
  path = '/oauth/register',
  headers: Record<string, string> = {},
) =>
  fetchFn(`${origin(sub)}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** The clients stored for every workspace, straight from the SQLite file. */
const storedClients = () => {
  const db = new Database(join(h.dir, 'lookout.db'), { readonly: true });
  const rows = db.prepare("SELECT client_id, expires_at FROM oauth_records WHERE model = 'Client'").all() as {
    client_id: string;
    expires_at: number | null;
  }[];
  db.close();
  return rows;
};

const oauthError = async (r: Response) => {
  expect(r.headers.get('content-type')).toMatch(/application\/json/);
  return (await r.json()) as { error: string; error_description: string };
};

describe('client registration is bounded (RFC 7591 errors)', () => {
  it('a registration bomb (1,900 redirect URIs, huge metadata, 11 URIs, one over-long URI) is refused and nothing is stored', async () => {
    const before = storedClients().length;
    const bomb = {
      client_name: 'bomb',
      redirect_uris: Array.from({ length: 1900 }, (_, i) => `https://a.example/cb/${i}`),
    };
    expect(JSON.stringify(bomb).length).toBeGreaterThan(45_000);
    const cases: [unknown, number, string][] = [
      [bomb, 400, 'invalid_client_metadata'],
      [{ client_name: 'x'.repeat(17_000), redirect_uris: [REDIRECT] }, 400, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], 'urn:padding': 'x'.repeat(17_000) }, 400, 'invalid_client_metadata'],
      [
        { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) },
        400,
        'invalid_redirect_uri',
      ],
      [{ redirect_uris: [`https://a.example/${'x'.repeat(2000)}`] }, 400, 'invalid_redirect_uri'],
    ];
    for (const [body, status, error] of cases) {
      const r = await register(body);
      expect(r.status).toBe(status);
      const e = await oauthError(r);
      expect(e.error).toBe(error);
      expect(e.error_description.length).toBeGreaterThan(10);
    }
    // Past what the authorization server reads at all (56 KB): refused unread.
    const huge = await register({ redirect_uris: [REDIRECT], client_name: 'x'.repeat(60_000) });
    expect(huge.status).toBe(400);
    expect(storedClients().length).toBe(before);
  });

  it('http: redirect URIs only on loopback hosts (OAuth 2.1, the MCP spec)', async () => {
    for (const uri of [
      'http://example.com/cb',
      'http://192.168.1.10:8080/cb',
      'http://localhost.example/cb',
    ]) {
      const r = await register({ redirect_uris: [uri] });
      expect(r.status, uri).toBe(400);
      const e = await oauthError(r);
      expect(e.error, uri).toBe('invalid_redirect_uri');
      expect(e.error_description, uri).toMatch(
        /use https:, or http: only on localhost, 127\.0\.0\.1 or \[::1\]/,
      );
    }
  });

  it('accepts https:, loopback http: (127.0.0.1 with a port, localhost, [::1]) and an app’s own scheme', async () => {
    for (const uri of [
      'https://assistant.example/oauth/callback',
      'http://127.0.0.1:33418/callback',
      'http://localhost/callback',
      'http://[::1]:9000/cb',
      'com.example.app:/cb',
    ]) {
      const r = await register({ client_name: 'Test Assistant', redirect_uris: [uri] });
      expect(r.status, uri).toBe(201);
      const client = (await r.json()) as Record<string, unknown>;
      expect(client.redirect_uris, uri).toEqual([uri]);
      expect(client.registration_access_token, uri).toBeUndefined();
      expect(client.application_type, uri).toBe(uri.startsWith('com.') ? 'native' : 'web');
    }
  });

  it('app schemes only in reverse-DNS form: view-source:, filesystem:, ftp:, ws: and a bare word are refused, nothing stored', async () => {
    const before = storedClients().length;
    for (const uri of [
      'view-source:https://assistant.example/cb',
      'filesystem:https://assistant.example/temporary/cb',
      'ftp://assistant.example/cb',
      'ws://127.0.0.1:9000/cb',
      'wss://assistant.example/cb',
      'myapp:/cb',
      'vbscript:msgbox',
    ]) {
      const r = await register({ client_name: 'Test Assistant', redirect_uris: [uri] });
      expect(r.status, uri).toBe(400);
      const e = await oauthError(r);
      expect(e.error, uri).toBe('invalid_redirect_uri');
      expect(e.error_description, uri).toMatch(/must not use the [\w-]+ scheme; use https:/);
    }
    expect(storedClients().length).toBe(before);
  });

  it('client_name is at most 100 characters', async () => {
    const before = storedClients().length;
    const long = await register({ client_name: 'x'.repeat(101), redirect_uris: [REDIRECT] });
    expect(long.status).toBe(400);
    const e = await oauthError(long);
    expect(e.error).toBe('invalid_client_metadata');
    expect(e.error_description).toBe('client_name must be at most 100 characters (got 101)');
    expect(storedClients().length).toBe(before);
    const ok = await register({ client_name: 'x'.repeat(100), redirect_uris: [REDIRECT] });
    expect(ok.status).toBe(201);
  });

  it('an app with its own scheme completes the whole flow: the code comes back on com.example.app:/cb', async () => {
    const a = await authorizeStepByStep(
      'acme',
      { email: member.user.email, password: member.password },
      'com.example.app:/cb',
    );
    expect(a.tokens.access_token).toBeTruthy();
    expect((await postMcp('acme', a.tokens.access_token)).status).toBe(200);
  });
});

describe('registrations per client address', () => {
  it('the N+1-th registration from one address within the window gets 429 with Retry-After; another address, or a token back, may register', async () => {
    const limitClock = new ManualClock(new Date());
    const limited = await startHarness(
      { oauth_registrations_per_hour: 3, trust_proxy: true },
      { clock: limitClock },
    );
    try {
      await limited.workspace('acme');
      const url = (path: string) => `http://acme.localhost:${limited.cp.port}${path}`;
      const send = (from: string, path = '/oauth/register', body: unknown = { redirect_uris: [REDIRECT] }) =>
        fetchFn(url(path), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
          body: JSON.stringify(body),
        });
      expect((await send('203.0.113.7')).status).toBe(201);
      // A refused registration counts too.
      expect(
        (await send('203.0.113.7', '/oauth/register', { redirect_uris: ['http://x.example/'] })).status,
      ).toBe(400);
      expect((await send('203.0.113.7')).status).toBe(201);
      for (const path of ['/oauth/register', '/oauth/REGISTER/']) {
        const r = await send('203.0.113.7', path);
        expect(r.status, path).toBe(429);
        expect(r.headers.get('retry-after'), path).toBe('1200');
        const e = await oauthError(r);
        expect(e.error).toBe('rate_limited');
        expect(e.error_description).toMatch(/try again in 1200 s/);
      }
      expect((await send('198.51.100.2')).status).toBe(201);
      limitClock.advance(1_200_000);
      expect((await send('203.0.113.7')).status).toBe(201);
      expect((await send('203.0.113.7')).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('registered clients are capped per workspace and in all', () => {
  it('past a cap, 429 with Retry-After until the first unused client expires; then a place is free again', async () => {
    const capClock = new ManualClock(new Date());
    const capped = await startHarness(
      { oauth_registrations_per_hour: 0, oauth_clients_per_workspace: 2, oauth_clients_total: 3 },
      { clock: capClock },
    );
    try {
      await capped.workspace('acme');
      await capped.workspace('beta');
      const send = (sub: string) =>
        fetchFn(`http://${sub}.localhost:${capped.cp.port}/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_name: 'Bot', redirect_uris: [REDIRECT] }),
        });
      expect((await send('acme')).status).toBe(201);
      capClock.advance(60_000);
      expect((await send('acme')).status).toBe(201);
      const full = await send('acme');
      expect(full.status).toBe(429);
      // The first client expires a day after it registered, a minute ago.
      expect(full.headers.get('retry-after')).toBe(String(86_400 - 60));
      const e = await oauthError(full);
      expect(e.error).toBe('too_many_clients');
      expect(e.error_description).toMatch(/This workspace has 2 registered OAuth clients, its limit/);
      // Another workspace has its own places, until the service is full.
      expect((await send('beta')).status).toBe(201);
      const all = await send('beta');
      expect(all.status).toBe(429);
      expect((await oauthError(all)).error_description).toMatch(/The service has reached its limit/);
      // A day on, acme's first unused client is gone: one place is free in both scopes.
      capClock.advance(86_400_000 - 60_000);
      expect((await send('acme')).status).toBe(201);
      expect((await send('acme')).status).toBe(429);
    } finally {
      await capped.close();
    }
  });
});

/** Signs in to the web app over HTTP: the cookie jar and the session's CSRF token. */
const signIn = async (who: { email: string; password: string }, sub = 'acme') => {
  const jar = cookieJar();
  const r = await go(jar, `${origin(sub)}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  expect(r.status).toBe(201);
  const { csrf_token } = (await r.json()) as { csrf_token: string };
  return { jar, csrf: csrf_token };
};

type AppJson = { id: string; client_id: string; client_name: string; user_id: string; user_email: string };
const appsOf = async (s: Awaited<ReturnType<typeof signIn>>, path = '/api/v1/connected-apps') => {
  const r = await go(s.jar, `${origin('acme')}${path}`);
  return { status: r.status, data: r.status === 200 ? ((await r.json()) as { data: AppJson[] }).data : [] };
};

describe('Connected apps: each app once', () => {
  it('a consent whose code was never exchanged, then a normal one: the app is listed once', async () => {
    const who = await acme.userWithKey('member', 'twice@acme.test');
    const credentials = { email: who.user.email, password: who.password };
    const metadata = (await discoverAuthorizationServerMetadata(origin('acme'), { fetchFn }))!;
    const info = await registerClient(origin('acme'), {
      metadata,
      clientMetadata: new MemoryOAuthProvider(REDIRECT).clientMetadata,
      fetchFn,
    });
    const first = await startAuthorization(origin('acme'), {
      metadata,
      clientInformation: info,
      redirectUrl: REDIRECT,
      scope: 'mcp',
      resource: new URL(mcpUrl('acme')),
    });
    const abandoned = await consent(first.authorizationUrl, credentials);
    expect(abandoned.callback.searchParams.get('code'), abandoned.callback.href).toBeTruthy(); // and never exchanged
    // Another registration of the same assistant whose code was never exchanged either.
    const other = await registerClient(origin('acme'), {
      metadata,
      clientMetadata: new MemoryOAuthProvider(REDIRECT).clientMetadata,
      fetchFn,
    });
    const otherStart = await startAuthorization(origin('acme'), {
      metadata,
      clientInformation: other,
      redirectUrl: REDIRECT,
      scope: 'mcp',
      resource: new URL(mcpUrl('acme')),
    });
    await consent(otherStart.authorizationUrl, credentials);
    const a = await authorizeStepByStep('acme', credentials, REDIRECT, info);
    expect((await postMcp('acme', a.tokens.access_token)).status).toBe(200);
    const apps = (await appsOf(await signIn(credentials))).data;
    expect(apps.map((x) => x.client_id)).toEqual([info.client_id]);
    expect(apps[0]).toMatchObject({ client_name: 'Test Assistant', user_email: 'twice@acme.test' });
  });
});

describe('Connected apps of every user (admins)', () => {
  it('an admin lists every user’s apps and revokes one; members and API keys get 403', async () => {
    const who = await acme.userWithKey('member', 'listed@acme.test');
    const credentials = { email: who.user.email, password: who.password };
    const a = await authorizeStepByStep('acme', credentials);
    const admin = await signIn({ email: acme.admin.email, password: acme.password });
    const all = await appsOf(admin, '/api/v1/workspace/connected-apps');
    expect(all.status).toBe(200);
    const app = all.data.find((x) => x.client_id === a.info.client_id)!;
    expect(app).toMatchObject({
      client_name: 'Test Assistant',
      user_id: who.user.id,
      user_email: 'listed@acme.test',
    });
    // Not in the admin's own list: it acts as the member.
    expect((await appsOf(admin)).data.map((x) => x.id)).not.toContain(app.id);

    const memberSession = await signIn(credentials);
    expect((await appsOf(memberSession, '/api/v1/workspace/connected-apps')).status).toBe(403);
    const refused = await go(
      memberSession.jar,
      `${origin('acme')}/api/v1/workspace/connected-apps/${app.id}/revoke`,
      {
        method: 'POST',
        headers: { 'x-csrf-token': memberSession.csrf },
      },
    );
    expect(refused.status).toBe(403);
    expect((await acme.api('GET', '/workspace/connected-apps')).status).toBe(403);
    // Another workspace's admin does not find it.
    const beta = await h.workspace('gamma');
    const betaAdmin = await signIn({ email: beta.admin.email, password: beta.password }, 'gamma');
    const elsewhere = await go(
      betaAdmin.jar,
      `${origin('gamma')}/api/v1/workspace/connected-apps/${app.id}/revoke`,
      {
        method: 'POST',
        headers: { 'x-csrf-token': betaAdmin.csrf },
      },
    );
    expect(elsewhere.status).toBe(404);

    const revoke = await go(admin.jar, `${origin('acme')}/api/v1/workspace/connected-apps/${app.id}/revoke`, {
      method: 'POST',
      headers: { 'x-csrf-token': admin.csrf },
    });
    expect(revoke.status).toBe(200);
    expect(((await revoke.json()) as AppJson).user_email).toBe('listed@acme.test');
    expect((await postMcp('acme', a.tokens.access_token)).status).toBe(401);
    expect((await appsOf(memberSession)).data.map((x) => x.id)).not.toContain(app.id);
  });
});

describe('clients that are never used expire', () => {
  it('a day after registering, the sweep removes a client that never got a token and keeps one that did', async () => {
    const unused = (await (
      await register({ client_name: 'never used', redirect_uris: [REDIRECT] })
    ).json()) as {
      client_id: string;
    };
    const used = await authorizeStepByStep('acme', { email: member.user.email, password: member.password });
    const rows = () => new Map(storedClients().map((c) => [c.client_id, c.expires_at]));
    expect(rows().get(unused.client_id)).toBe(clock.now().getTime() + 86_400_000);
    expect(rows().get(used.info.client_id)).toBeNull();
    try {
      clock.advance(86_400_000 - 1000);
      expect(await h.store.pruneOAuthRecords(clock.now(), 10_000)).toBeGreaterThanOrEqual(0);
      expect(rows().has(unused.client_id)).toBe(true);
      clock.advance(1000);
      // The retention sweep, as the prune-oauth job runs it every minute.
      expect(await h.store.pruneOAuthRecords(clock.now(), 10_000)).toBeGreaterThanOrEqual(1);
      expect(rows().has(unused.client_id)).toBe(false);
      expect(rows().has(used.info.client_id)).toBe(true);
      const start = await startAuthorization(origin('acme'), {
        metadata: used.metadata,
        clientInformation: unused,
        redirectUrl: REDIRECT,
        resource: new URL(mcpUrl('acme')),
      });
      const r = await fetchFn(start.authorizationUrl, { redirect: 'manual' });
      expect(r.status).toBe(400);
      expect((await oauthError(r)).error).toBe('invalid_client');
      const next = await refreshAuthorization(used.issuer, {
        metadata: used.metadata,
        clientInformation: used.info,
        refreshToken: used.tokens.refresh_token!,
        resource: new URL(used.resource.resource),
        fetchFn,
      });
      expect(next.access_token).toBeTruthy();
    } finally {
      clock.set(new Date());
    }
  });
});

describe('the audit log through the hosted connector', () => {
  it('list_audit_log: an admin sees a change made through the connector under the OAuth client; a member is refused', async () => {
    const a = await authorizeStepByStep('acme', { email: acme.admin.email, password: acme.password });
    const client = await withToken('acme', a.tokens.access_token);
    const text = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      const t = (r.content as { text: string }[])[0]!.text;
      expect(r.isError, t).toBeFalsy();
      return t;
    };
    const made = JSON.parse(
      await text('create_monitor', {
        display_name: 'Audited from an assistant',
        monitor_type: 'http',
        url: 'https://example.com',
        http_method: 'GET',
        expected_status_code: 200,
        check_interval_seconds: 300,
      }),
    );
    const log = JSON.parse(await text('list_audit_log', { action: 'monitor.create' }));
    expect(log.data.find((e: { resource_id: string }) => e.resource_id === made.id)).toMatchObject({
      actor: { type: 'oauth_client', name: 'Test Assistant' },
      resource_type: 'monitor',
      changes: { display_name: [null, 'Audited from an assistant'] },
    });

    const m = await authorizeStepByStep('acme', { email: member.user.email, password: member.password });
    const refused = await (await withToken('acme', m.tokens.access_token)).callTool({
      name: 'list_audit_log',
      arguments: {},
    });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]!.text).toContain('HTTP 403');
  });
});
