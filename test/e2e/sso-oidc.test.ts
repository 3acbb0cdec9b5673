/**
 * OpenID Connect sign-in end to end against a real OpenID provider (oidc-provider in its own process,
 * its own key): users created just in time, groups mapped to roles, refused domains and unverified
 * emails, state checked and callbacks answered once, and SSO enforcement with break-glass admins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { startOidcIdp, throughIdp } from '../support/oidc-idp.js';

let h: Harness;
let idp: Awaited<ReturnType<typeof startOidcIdp>>;
let ws: Awaited<ReturnType<Harness['workspace']>>;
let base: string;

const accounts = {
  ann: { email: 'ann@acme.test', email_verified: true, groups: ['staff'] },
  boss: { email: 'Boss@ACME.test', email_verified: true, groups: ['staff', 'lookout-admins'] },
  eve: { email: 'eve@elsewhere.test', email_verified: true, groups: ['lookout-admins'] },
  unverified: { email: 'unv@acme.test', email_verified: false, groups: [] },
};

const cookieOf = (setCookie: string | string[] | undefined, name: string) =>
  ([] as string[])
    .concat(setCookie ?? [])
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1);

/** GET /auth/oidc/start: the flow cookie and the IdP's authorization URL. */
const start = async () => {
  const r = await h.request('GET', '/auth/oidc/start', { host: ws.host });
  expect(r.status).toBe(303);
  return { cookie: cookieOf(r.headers['set-cookie'], 'lookout_oidc')!, to: String(r.headers.location) };
};

/** The callback as the browser makes it: its path and query, with the flow cookie (or none). */
const callback = (url: string, cookie: string | undefined) =>
  h.request('GET', url.slice(base.length), { host: ws.host, headers: cookie ? { cookie } : {} });

const signIn = async (login: string) => {
  const s = await start();
  const back = await throughIdp(s.to, login, `${base}/auth/oidc/callback`);
  return { ...s, back, answer: await callback(back, s.cookie) };
};

const settings = (over: Record<string, unknown> = {}) => ({
  oidc: {
    issuer: idp.issuer,
    client_id: 'lookout',
    client_secret: idp.clientSecret,
    allowed_domains: ['acme.test'],
    default_role: 'viewer',
    group_claim: 'groups',
    group_roles: [{ group: 'lookout-admins', role: 'admin' }],
  },
  ...over,
});

beforeAll(async () => {
  h = await startHarness();
  ws = await h.workspace('acme');
  base = `http://acme.localhost:${h.cp.port}`;
  idp = await startOidcIdp({ redirectUri: `${base}/auth/oidc/callback`, accounts });
  const put = await ws.api('PUT', '/sso', { json: settings() });
  expect(put.status, put.text).toBe(200);
}, 60_000);
afterAll(async () => {
  await idp?.stop();
  await h?.close();
});

describe('OIDC sign-in', () => {
  it('creates a new user at their first sign-in with the default role, and signs them in', async () => {
    const { answer } = await signIn('ann');
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/');
    const session = cookieOf(answer.headers['set-cookie'], 'lookout_session')!;
    expect(session).toBeDefined();
    const me = await h.request('GET', '/api/v1/session', { host: ws.host, headers: { cookie: session } });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: 'ann@acme.test', role: 'viewer' });
    const user = await h.store.getUserByEmail(ws.workspace.id, 'ann@acme.test');
    expect(user).toMatchObject({ role: 'viewer', password_hash: null });
  });

  it('maps an IdP group to the admin role', async () => {
    const { answer } = await signIn('boss');
    expect(answer.headers.location).toBe('/');
    expect(await h.store.getUserByEmail(ws.workspace.id, 'boss@acme.test')).toMatchObject({ role: 'admin' });
  });

  it('refuses an email outside the allowed domains, creating no one', async () => {
    const { answer } = await signIn('eve');
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/sign-in?error=sso_domain_not_allowed');
    expect(cookieOf(answer.headers['set-cookie'], 'lookout_session')).toBeUndefined();
    expect(await h.store.getUserByEmail(ws.workspace.id, 'eve@elsewhere.test')).toBeNull();
  });

  it('refuses an email the IdP has not verified', async () => {
    const { answer } = await signIn('unverified');
    expect(answer.headers.location).toBe('/sign-in?error=sso_email_unverified');
    expect(await h.store.getUserByEmail(ws.workspace.id, 'unv@acme.test')).toBeNull();
  });

  it('refuses a callback whose state is not this browser’s, and one without the flow cookie (login CSRF)', async () => {
    const mine = await start();
    const theirs = await start();
    const back = await throughIdp(theirs.to, 'ann', `${base}/auth/oidc/callback`);
    const crossed = await callback(back, mine.cookie);
    expect(crossed.headers.location).toBe('/sign-in?error=sso_state_mismatch');
    expect(cookieOf(crossed.headers['set-cookie'], 'lookout_session')).toBeUndefined();
    const bare = await callback(back, undefined);
    expect(bare.headers.location).toBe('/sign-in?error=sso_state_mismatch');
  });

  it('answers a callback once: replayed, with or without the captured flow cookie, it signs no one in', async () => {
    const first = await signIn('ann');
    expect(first.answer.headers.location).toBe('/');
    // The browser's cookie was cleared by the first answer.
    expect(String(first.answer.headers['set-cookie'])).toMatch(/lookout_oidc=;/);
    const again = await callback(first.back, undefined);
    expect(again.headers.location).toBe('/sign-in?error=sso_state_mismatch');
    // Someone who captured both the URL and the cookie: the IdP refuses the used code.
    const captured = await callback(first.back, first.cookie);
    expect(captured.headers.location).toBe('/sign-in?error=sso_failed');
    expect(cookieOf(captured.headers['set-cookie'], 'lookout_session')).toBeUndefined();
  });

  it('writes each sign-in the IdP vouched for to the audit log, made or refused', async () => {
    const log = async (action: string) =>
      (await ws.api('GET', `/audit-log?action=${action}`)).body.data as {
        actor: { name: string };
        changes: unknown;
      }[];
    const made = await log('session.sign_in');
    expect(made.map((e) => e.actor.name)).toContain('ann@acme.test');
    expect(made.find((e) => e.actor.name === 'ann@acme.test')?.changes).toEqual({ via: [null, 'oidc'] });
    const refused = (await log('session.sign_in_failed')).map((e) => e.actor.name);
    expect(refused).toEqual(expect.arrayContaining(['eve@elsewhere.test', 'unv@acme.test']));
  });

  it('the sign-in page’s options show the SSO button', async () => {
    const r = await h.request('GET', '/api/v1/session/options', { host: ws.host });
    expect(r.body).toEqual({
      sso: { label: 'Sign in with SSO', start_url: '/auth/oidc/start' },
      password: true,
      passkey: true,
    });
  });
});

describe('SSO settings', () => {
  it('never returns the client secret, keeps it when omitted, and refuses it for another issuer', async () => {
    const got = await ws.api('GET', '/sso');
    expect(got.status).toBe(200);
    expect(got.body.oidc.client_secret_set).toBe(true);
    expect(got.text).not.toContain(idp.clientSecret);
    expect(got.body.service_provider.oidc_redirect_uri).toBe(`${base}/auth/oidc/callback`);
    const { client_secret: _, ...kept } = settings().oidc;
    expect((await ws.api('PUT', '/sso', { json: { oidc: kept } })).body.oidc.client_secret_set).toBe(true);
    expect((await signIn('ann')).answer.headers.location).toBe('/');
    const moved = await ws.api('PUT', '/sso', {
      json: { oidc: { ...kept, issuer: 'https://idp.elsewhere.test' } },
    });
    expect(moved.status).toBe(422);
    expect(moved.body.error.details.map((d: { field: string }) => d.field)).toEqual(['oidc.client_secret']);
    // Saving is audited, the secret redacted.
    const log = await ws.api('GET', '/audit-log?resource_type=sso');
    expect(log.body.data.length).toBeGreaterThan(0);
    expect(log.text).not.toContain(idp.clientSecret);
  });

  it('one 422 names every bad field, and nothing is saved', async () => {
    const member = await ws.userWithKey('member');
    const other = await h.workspace('other-sso');
    const before = await ws.api('GET', '/sso');
    const r = await ws.api('PUT', '/sso', {
      json: {
        oidc: {
          issuer: 'http://idp.example.com',
          client_id: '',
          allowed_domains: ['not a domain'],
          default_role: 'owner',
          group_roles: [{ group: 'x', role: 'root' }],
        },
        enforced: true,
        break_glass_user_ids: [member.user.id, other.admin.id],
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      [
        'break_glass_user_ids[0]',
        'break_glass_user_ids[1]',
        'oidc.allowed_domains[0]',
        'oidc.client_id',
        'oidc.default_role',
        'oidc.group_roles[0].role',
        'oidc.issuer',
      ].sort(),
    );
    expect((await ws.api('GET', '/sso')).body).toEqual(before.body);
    expect((await ws.as(member.key)('GET', '/sso')).status).toBe(403);
    expect((await ws.as(member.key)('PUT', '/sso', { json: settings() })).status).toBe(403);
  });

  it('enforcing needs a configuration whose IdP answers', async () => {
    const none = await ws.api('PUT', '/sso', { json: { enforced: true } });
    expect(none.body.error.details).toEqual([{ field: 'enforced', message: expect.any(String) }]);
    const dead = await ws.api('PUT', '/sso', {
      json: settings({ enforced: true, oidc: { ...settings().oidc, issuer: 'http://127.0.0.1:9' } }),
    });
    expect(dead.status).toBe(422);
    expect(dead.body.error.details[0].field).toBe('oidc.issuer');
  });
});

describe('enforced SSO', () => {
  it('refuses passwords with 403 sso_required except for break-glass admins', async () => {
    const member = await ws.userWithKey('member');
    const signInWith = (email: string, password: string) =>
      h.request('POST', '/api/v1/session', { host: ws.host, json: { email, password } });
    expect((await signInWith(member.user.email, member.password)).status).toBe(201);
    const put = await ws.api('PUT', '/sso', {
      json: settings({ enforced: true, break_glass_user_ids: [ws.admin.id] }),
    });
    expect(put.status, put.text).toBe(200);
    const refused = await signInWith(member.user.email, member.password);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('sso_required');
    expect((await signInWith('nobody@acme.test', 'whatever-password')).body.error.code).toBe('sso_required');
    expect((await signInWith(ws.admin.email, ws.password)).status).toBe(201);
    const options = await h.request('GET', '/api/v1/session/options', { host: ws.host });
    expect(options.body).toMatchObject({ password: false, sso: { start_url: '/auth/oidc/start' } });
    // A passkey is a Lookout credential too: passwordless sign-in is off while SSO is enforced.
    for (const path of ['/api/v1/session/passkey/options', '/api/v1/session/passkey']) {
      const passkey = await h.request('POST', path, {
        host: ws.host,
        json: path.endsWith('options') ? {} : { challenge: 'x', credential: {} },
      });
      expect(passkey.status, path).toBe(403);
      expect(passkey.body.error.code, path).toBe('sso_required');
    }
    // SSO itself still signs people in.
    expect((await signIn('ann')).answer.headers.location).toBe('/');
    await ws.api('PUT', '/sso', { json: settings() });
  });
});

describe('the IdP behind the SSRF guard', () => {
  it('an issuer on a private address is refused unless the operator allows private destinations', async () => {
    const guarded = await startHarness({ notify_allow_private: false });
    try {
      const w = await guarded.workspace('guarded');
      const enforce = await w.api('PUT', '/sso', { json: settings({ enforced: true }) });
      expect(enforce.status).toBe(422);
      expect(enforce.body.error.details[0]).toMatchObject({ field: 'oidc.issuer' });
      expect(enforce.body.error.details[0].message).toMatch(/discovery failed/);
      expect((await w.api('PUT', '/sso', { json: settings() })).status).toBe(200);
      const r = await guarded.request('GET', '/auth/oidc/start', { host: w.host });
      expect(r.headers.location).toBe('/sign-in?error=sso_failed');
    } finally {
      await guarded.close();
    }
  });
});
