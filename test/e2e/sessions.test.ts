import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type Reply, startHarness } from '../support/harness.js';

/**
 * The web app's sessions through the API: sign-in sets an HttpOnly, SameSite=Lax, host-only cookie;
 * /api/v1 accepts it with the session's CSRF token on writes; X-API-Key requests ignore cookies;
 * sign-out and password change end sessions; idle and absolute expiry; failed sign-ins rate-limited.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    session_idle_minutes: 30,
    session_max_hours: 2,
    sign_in_failures_per_minute: 0,
    sign_in_failures_per_account_per_hour: 0,
  });
});
afterAll(() => h.close());

const MIN = 60_000;

const cookieOf = (r: Reply) => {
  const set = r.headers['set-cookie'];
  const line = (Array.isArray(set) ? set : [set ?? '']).find((c) => c.includes('lookout_session='));
  return { line: line ?? '', pair: (line ?? '').split(';')[0]! };
};

const signIn = async (host: string, email: string, password: string) => {
  const r = await h.request('POST', '/api/v1/session', { host, json: { email, password } });
  return { r, cookie: cookieOf(r).pair, csrf: r.body?.csrf_token as string };
};

/** A request in a browser's shape: the session cookie, and the CSRF header when given. */
const browser =
  (host: string, s: { cookie: string; csrf?: string }) =>
  (method: string, path: string, opts: { json?: unknown; csrf?: string | null; key?: string } = {}) => {
    const csrf = opts.csrf === undefined ? s.csrf : opts.csrf;
    return h.request(method, `/api/v1${path}`, {
      host,
      ...(opts.json !== undefined ? { json: opts.json } : {}),
      ...(opts.key ? { key: opts.key } : {}),
      headers: { cookie: s.cookie, ...(csrf ? { 'x-csrf-token': csrf } : {}) },
    });
  };

describe('sessions', () => {
  it('sign-in sets an HttpOnly, SameSite=Lax, host-only cookie and returns the user and a CSRF token', async () => {
    const w = await h.workspace('sess-cookie');
    const { r, cookie } = await signIn(w.host, w.admin.email, w.password);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ user: { id: w.admin.id, email: w.admin.email, role: 'admin' } });
    expect(r.body.csrf_token).toMatch(/.{16,}/);
    const line = cookieOf(r).line;
    expect(line).toMatch(/^lookout_session=ls\.[\w-]{43};/);
    expect(line).toMatch(/; httponly/i);
    expect(line).toMatch(/; samesite=lax/i);
    expect(line).toMatch(/; path=\//i);
    expect(line).not.toMatch(/domain=/i);
    expect(line).not.toMatch(/; secure/i);
    // The token is stored only as its hash.
    const token = cookie.split('=')[1]!;
    expect(JSON.stringify(await h.store.findSessionByHash(token))).toBe('null');
    const me = await browser(w.host, { cookie })('GET', '/session');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      user: { email: w.admin.email },
      workspace: { subdomain: 'sess-cookie' },
    });
    expect(me.body.csrf_token).toMatch(/.{16,}/);
  });

  it('a wrong password or unknown email: 401 with one clear message, and no cookie', async () => {
    const w = await h.workspace('sess-wrong');
    for (const [email, password] of [
      [w.admin.email, 'not-the-password'],
      ['nobody@sess-wrong.test', w.password],
    ] as const) {
      const { r } = await signIn(w.host, email, password);
      expect(r.status).toBe(401);
      expect(r.body.error).toMatchObject({
        code: 'unauthorized',
        message: 'Email or password is incorrect.',
      });
      expect(r.headers['set-cookie']).toBeUndefined();
    }
    const bad = await h.request('POST', '/api/v1/session', { host: w.host, json: { email: 1 } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'email',
      'password',
    ]);
  });

  it('the session reads with the cookie alone; every write needs its CSRF token', async () => {
    const w = await h.workspace('sess-csrf');
    const s = await signIn(w.host, w.admin.email, w.password);
    const as = browser(w.host, s);
    expect((await as('GET', '/monitors', { csrf: null })).status).toBe(200);
    const body = { display_name: 'h', period_seconds: 60 };
    const none = await as('POST', '/heartbeats', { json: body, csrf: null });
    expect(none.status).toBe(403);
    expect(none.body.error.message).toMatch(/X-CSRF-Token/);
    expect((await as('POST', '/heartbeats', { json: body, csrf: 'forged-token' })).status).toBe(403);
    // Another session's token is worthless here.
    const other = await signIn(w.host, w.admin.email, w.password);
    expect((await as('POST', '/heartbeats', { json: body, csrf: other.csrf })).status).toBe(403);
    expect(await h.store.listHeartbeats(w.workspace.id, { limit: 10 })).toMatchObject({ data: [] });
    expect((await as('POST', '/heartbeats', { json: body })).status).toBe(201);
  });

  it('a session of one workspace is refused on another', async () => {
    const a = await h.workspace('sess-ws-a');
    const b = await h.workspace('sess-ws-b');
    const s = await signIn(a.host, a.admin.email, a.password);
    const r = await browser(b.host, s)('GET', '/monitors');
    expect(r.status).toBe(401);
    expect(r.body.error.message).toBe('This session belongs to another workspace; sign in here.');
    expect((await browser('nosuch.localhost', s)('GET', '/monitors')).status).toBe(401);
  });

  it('a request with X-API-Key is a pure API call: cookies are ignored for it', async () => {
    const w = await h.workspace('sess-key');
    const viewer = await w.userWithKey('viewer');
    const s = await signIn(w.host, w.admin.email, w.password);
    // The viewer's key with the admin's cookie: the viewer's role applies.
    const r = await browser(w.host, s)('POST', '/heartbeats', {
      key: viewer.key,
      json: { display_name: 'x', period_seconds: 60 },
    });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toMatch(/viewer/);
    // A bad key with a good cookie is still a bad key.
    const bad = await browser(w.host, s)('GET', '/monitors', { key: 'ak.nope' });
    expect(bad.status).toBe(401);
    expect(bad.headers.location).toBeUndefined();
  });

  it('role checks are the same for a session: a viewer cannot create a monitor', async () => {
    const w = await h.workspace('sess-role');
    const viewer = await w.userWithKey('viewer');
    const s = await signIn(w.host, viewer.user.email, viewer.password);
    const r = await browser(w.host, s)('POST', '/monitors/create', {
      json: { display_name: 'm', monitor_type: 'tcp', url: 'a.test', port: 22 },
    });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toBe('This needs the member role; you are a viewer.');
  });

  it('signing out ends the session', async () => {
    const w = await h.workspace('sess-out');
    const s = await signIn(w.host, w.admin.email, w.password);
    const as = browser(w.host, s);
    expect((await as('DELETE', '/session', { csrf: null })).status).toBe(403);
    const out = await as('DELETE', '/session');
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/lookout_session=;.*expires=Thu, 01 Jan 1970/i);
    const after = await as('GET', '/monitors');
    expect(after.status).toBe(401);
    expect(after.body.error.message).toBe('Your session has ended; sign in again.');
  });

  it('idle expiry and absolute expiry end a session (clock moved)', async () => {
    const w = await h.workspace('sess-expiry');
    const idle = await signIn(w.host, w.admin.email, w.password);
    h.clock.advance(29 * MIN);
    expect((await browser(w.host, idle)('GET', '/monitors')).status).toBe(200);
    h.clock.advance(29 * MIN); // used 29 min ago: still alive
    expect((await browser(w.host, idle)('GET', '/monitors')).status).toBe(200);
    h.clock.advance(31 * MIN);
    expect((await browser(w.host, idle)('GET', '/monitors')).status).toBe(401);

    const busy = await signIn(w.host, w.admin.email, w.password);
    for (let i = 0; i < 4; i++) {
      h.clock.advance(25 * MIN);
      expect((await browser(w.host, busy)('GET', '/monitors')).status, `after ${(i + 1) * 25} min`).toBe(200);
    }
    h.clock.advance(20 * MIN); // exactly 2 h after sign-in, used 20 min ago
    expect((await browser(w.host, busy)('GET', '/monitors')).status).toBe(401);
  });

  it('changing the password needs the current one, ends every other session and keeps this browser signed in', async () => {
    const w = await h.workspace('sess-pw');
    const here = await signIn(w.host, w.admin.email, w.password);
    const elsewhere = await signIn(w.host, w.admin.email, w.password);
    const wrong = await browser(w.host, here)('POST', '/session/password', {
      json: { current_password: 'nope', new_password: 'a-brand-new-password' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.details).toEqual([
      { field: 'current_password', message: 'The current password is not correct.' },
    ]);
    const short = await browser(w.host, here)('POST', '/session/password', {
      json: { current_password: w.password, new_password: 'short' },
    });
    expect(short.status).toBe(422);
    expect(short.body.error.details[0].field).toBe('new_password');
    const ok = await browser(w.host, here)('POST', '/session/password', {
      json: { current_password: w.password, new_password: 'a-brand-new-password' },
    });
    expect(ok.status).toBe(200);
    const renewed = { cookie: cookieOf(ok).pair, csrf: ok.body.csrf_token as string };
    expect(renewed.cookie).not.toBe(here.cookie);
    expect((await browser(w.host, elsewhere)('GET', '/monitors')).status).toBe(401);
    expect((await browser(w.host, here)('GET', '/monitors')).status).toBe(401);
    expect((await browser(w.host, renewed)('GET', '/monitors')).status).toBe(200);
    expect((await signIn(w.host, w.admin.email, w.password)).r.status).toBe(401);
    expect((await signIn(w.host, w.admin.email, 'a-brand-new-password')).r.status).toBe(201);
    // An API key cannot change the password.
    const byKey = await w.api('POST', '/session/password', {
      json: { current_password: 'a-brand-new-password', new_password: 'yet-another-password' },
    });
    expect(byKey.status).toBe(403);
  });

  it('POST /api-keys needs a session: an API key cannot mint keys', async () => {
    const w = await h.workspace('sess-mint');
    const byKey = await w.api('POST', '/api-keys', { json: { name: 'ci', expiry: '30d' } });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.message).toBe(
      'API keys cannot create API keys: sign in to the web app (Settings → API keys) to create one.',
    );
    const s = await signIn(w.host, w.admin.email, w.password);
    const created = await browser(w.host, s)('POST', '/api-keys', { json: { name: 'ci', expiry: '30d' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'ci', status: 'active', key: expect.stringMatching(/^ak\./) });
    expect(created.body.last_four).toBe(created.body.key.slice(-4));
    expect((await w.as(created.body.key)('GET', '/monitors')).status).toBe(200);
    const invalid = await browser(w.host, s)('POST', '/api-keys', {
      json: { name: 'x'.repeat(101), expiry: 'soon' },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.details.map((d: { field: string }) => d.field)).toContain('name');
  });

  it('failed sign-ins are limited per address and per account', async () => {
    const limited = await startHarness({
      sign_in_failures_per_minute: 3,
      sign_in_failures_per_account_per_hour: 5,
    });
    try {
      const w = await limited.workspace('sess-limit');
      const attempt = (email: string, password: string, ip: string) =>
        limited.request('POST', '/api/v1/session', {
          host: w.host,
          json: { email, password },
          headers: { 'x-forwarded-for': ip },
        });
      // Per address (no proxy trusted: every request here comes from 127.0.0.1).
      for (let i = 0; i < 3; i++) expect((await attempt(w.admin.email, 'wrong', '')).status).toBe(401);
      const blocked = await attempt(w.admin.email, w.password, '');
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.body.error.message).toMatch(/Too many failed sign-ins from your address/);
    } finally {
      await limited.close();
    }
    const perAccount = await startHarness({
      trust_proxy: true,
      sign_in_failures_per_minute: 3,
      sign_in_failures_per_account_per_hour: 5,
    });
    try {
      const w = await perAccount.workspace('sess-limit');
      const attempt = (password: string, ip: string) =>
        perAccount.request('POST', '/api/v1/session', {
          host: w.host,
          json: { email: w.admin.email, password },
          headers: { 'x-forwarded-for': ip },
        });
      for (let i = 0; i < 5; i++) expect((await attempt('wrong', `10.0.0.${i}`)).status).toBe(401);
      const blocked = await attempt(w.password, '10.0.1.1');
      expect(blocked.status).toBe(429);
      expect(blocked.body.error.message).toMatch(/Too many failed sign-ins for this account/);
      // Another account is not affected.
      const other = await w.userWithKey('member');
      const ok = await perAccount.request('POST', '/api/v1/session', {
        host: w.host,
        json: { email: other.user.email, password: other.password },
        headers: { 'x-forwarded-for': '10.0.2.1' },
      });
      expect(ok.status).toBe(201);
    } finally {
      await perAccount.close();
    }
  });

  it('with an https public scheme the cookie is Secure and __Host- prefixed', async () => {
    const tls = await startHarness({ public_url_scheme: 'https' });
    try {
      const w = await tls.workspace('sess-tls');
      const r = await tls.request('POST', '/api/v1/session', {
        host: w.host,
        json: { email: w.admin.email, password: w.password },
      });
      expect(r.status).toBe(201);
      const line = String(r.headers['set-cookie']);
      expect(line).toMatch(/^__Host-lookout_session=ls\./);
      expect(line).toMatch(/; secure/i);
      expect(line).toMatch(/; path=\//i);
      expect(line).not.toMatch(/domain=/i);
    } finally {
      await tls.close();
    }
  });
});
