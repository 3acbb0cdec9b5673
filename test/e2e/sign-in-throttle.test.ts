import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashSecret } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type Reply, startHarness } from '../support/harness.js';

/**
 * Failed web sign-ins are slowed down without locking the real user out (OWASP device cookies): a
 * browser that has signed in to an account is judged by its own failures only; every other client
 * shares the per-address, per-(account, address) and per-account limits. Client addresses come from
 * X-Forwarded-For, which the app honours because it is configured to trust a proxy (trust_proxy).
 * Time is the harness's manual clock.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    trust_proxy: true,
    sign_in_failures_per_minute: 10,
    sign_in_failures_per_account_per_hour: 20,
    sign_in_backoff_after_failures: 3,
    sign_in_failures_per_device_per_hour: 10,
  });
});
afterAll(() => h.close());

/** The cookie pairs a response sets, by name (the value only). */
const setCookies = (r: Reply) => {
  const set = r.headers['set-cookie'];
  const lines = Array.isArray(set) ? set : set ? [set] : [];
  return new Map(lines.map((l) => [l.split('=')[0]!, { value: l.split(';')[0]!.split('=')[1]!, line: l }]));
};

/** A browser: it keeps the device cookie the server sets, and sends it on its next sign-in. */
const browser = () => {
  let device: string | undefined;
  return {
    get device() {
      return device;
    },
    async signIn(host: string, email: string, password: string, address: string) {
      const r = await h.request('POST', '/api/v1/session', {
        host,
        json: { email, password },
        headers: { 'x-forwarded-for': address, ...(device ? { cookie: `lookout_device=${device}` } : {}) },
      });
      const set = setCookies(r).get('lookout_device');
      if (set) device = set.value;
      return r;
    },
  };
};

/** A guesser without cookies: one wrong password from `address`. */
const guess = (host: string, email: string, address: string, password = 'Tr0ub4dor&3') =>
  h.request('POST', '/api/v1/session', {
    host,
    json: { email, password },
    headers: { 'x-forwarded-for': address },
  });

const expectRefused = (r: Reply, message: RegExp) => {
  expect(r.status).toBe(429);
  expect(r.body.error.code).toBe('rate_limited');
  expect(r.body.error.message).toMatch(message);
  expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
  return Number(r.headers['retry-after']);
};

describe('sign-in throttling that never locks out the real user', () => {
  it('an attacker’s guesses from other addresses never block the owner’s known browser, and guessing stays throttled', async () => {
    const w = await h.workspace('throttle-owner');
    const owner = browser();
    expect((await owner.signIn(w.host, w.admin.email, w.password, '192.0.2.10')).status).toBe(201);
    const first = owner.device;
    expect(first).toMatch(/^ld\.[\w-]{43}$/);

    // The attack of the issue: wrong passwords for one email spread over three addresses, each waiting
    // out every refusal, until the account's allowance for unknown browsers (20 an hour) is gone.
    let wrong = 0;
    for (let i = 0; wrong < 24 && i < 200; i++) {
      const r = await guess(w.host, w.admin.email, `203.0.113.${1 + (i % 3)}`);
      if (r.status === 401) wrong++;
      else if (/for this account/.test(r.body.error.message)) break;
      else h.clock.advance(expectRefused(r, /from your address/) * 1000);
    }
    expect(wrong).toBe(20);
    // Guessing stays throttled, from any address, however fresh.
    expectRefused(await guess(w.host, w.admin.email, '198.51.100.200'), /for this account/);
    const stranger = browser();
    const fresh = await stranger.signIn(w.host, w.admin.email, w.password, '198.51.100.201');
    expectRefused(fresh, /for this account.*a browser you have signed in with before/);

    // The owner's browser, from yet another address: its typo costs only its own allowance, and the
    // right password signs in at once.
    const typo = await owner.signIn(w.host, w.admin.email, 'not it', '198.51.100.7');
    expect(typo.status).toBe(401);
    const back = await owner.signIn(w.host, w.admin.email, w.password, '198.51.100.7');
    expect(back.status).toBe(201);
    expect(setCookies(back).get('lookout_session')?.value).toMatch(/^ls\./);
    // A new device token at every sign-in; the old one no longer counts.
    expect(owner.device).not.toBe(first);
    const replayed = await h.request('POST', '/api/v1/session', {
      host: w.host,
      json: { email: w.admin.email, password: w.password },
      headers: { 'x-forwarded-for': '198.51.100.8', cookie: `lookout_device=${first}` },
    });
    expectRefused(replayed, /for this account/);
    // And the attacker is still held back.
    expectRefused(await guess(w.host, w.admin.email, '203.0.113.1'), /./);
  });

  it('one address backs off per account: the wait doubles after the free failures, another address is not held back, a success starts afresh', async () => {
    const w = await h.workspace('throttle-backoff');
    const ip = '203.0.113.50';
    for (let i = 0; i < 3; i++) expect((await guess(w.host, w.admin.email, ip)).status).toBe(401);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const wait = expectRefused(await guess(w.host, w.admin.email, ip), /to this account from your address/);
      waits.push(wait);
      h.clock.advance(wait * 1000 - 1);
      expect((await guess(w.host, w.admin.email, ip)).status).toBe(429);
      h.clock.advance(1);
      expect((await guess(w.host, w.admin.email, ip)).status).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    // The right password from that address, without a known browser, waits too.
    const wait = expectRefused(
      await browser().signIn(w.host, w.admin.email, w.password, ip),
      /to this account from your address/,
    );
    expect(wait).toBe(16);
    // Another address is not held back by this pair's backoff.
    expect((await guess(w.host, w.admin.email, '203.0.113.51')).status).toBe(401);
    // Once in, the pair starts afresh: three free failures again.
    h.clock.advance(16_000);
    expect((await browser().signIn(w.host, w.admin.email, w.password, ip)).status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await guess(w.host, w.admin.email, ip)).status).toBe(401);
    expect((await guess(w.host, w.admin.email, ip)).status).toBe(429);
  });

  it('one address is limited across accounts (known and unknown emails alike)', async () => {
    const w = await h.workspace('throttle-address');
    const ip = '203.0.113.60';
    for (let i = 0; i < 10; i++)
      expect((await guess(w.host, `nobody-${i}@throttle-address.test`, ip)).status).toBe(401);
    const wait = expectRefused(await guess(w.host, w.admin.email, ip), /from your address/);
    expect(wait).toBe(6);
    expectRefused(await browser().signIn(w.host, w.admin.email, w.password, ip), /from your address/);
    expect((await browser().signIn(w.host, w.admin.email, w.password, '203.0.113.61')).status).toBe(201);
    h.clock.advance(6_000);
    expect((await guess(w.host, 'nobody@throttle-address.test', ip)).status).toBe(401);
  });

  it('a known browser has its own allowance: past it that browser is locked out, and no one else is', async () => {
    const w = await h.workspace('throttle-device');
    const mine = browser();
    expect((await mine.signIn(w.host, w.admin.email, w.password, '192.0.2.20')).status).toBe(201);
    // Ten failures an hour; the addresses change, the browser is the same.
    for (let i = 0; i < 10; i++)
      expect((await mine.signIn(w.host, w.admin.email, `wrong-${i}`, `192.0.2.${30 + i}`)).status).toBe(401);
    const wait = expectRefused(
      await mine.signIn(w.host, w.admin.email, w.password, '192.0.2.99'),
      /from this browser/,
    );
    expect(wait).toBe(360);
    // Its failures counted against nothing else: another browser at its last address signs in.
    expect((await browser().signIn(w.host, w.admin.email, w.password, '192.0.2.39')).status).toBe(201);
    h.clock.advance(360_000);
    expect((await mine.signIn(w.host, w.admin.email, w.password, '192.0.2.99')).status).toBe(201);
  });

  it('a device token counts only for its own account and workspace', async () => {
    const w = await h.workspace('throttle-scope');
    const other = await h.workspace('throttle-scope-b');
    const member = await w.userWithKey('member');
    const b = browser();
    expect((await b.signIn(w.host, member.user.email, member.password, '192.0.2.50')).status).toBe(201);
    // Use up the admin's allowance for unknown browsers, and the other workspace's admin's.
    for (const [ws, email] of [
      [w, w.admin.email],
      [other, other.admin.email],
    ] as const) {
      for (let i = 0, wrong = 0; wrong < 20 && i < 100; i++) {
        const r = await guess(ws.host, email, `198.18.0.${i}`);
        if (r.status === 401) wrong++;
        else h.clock.advance(Number(r.headers['retry-after']) * 1000);
      }
      expectRefused(await guess(ws.host, email, '198.18.1.1'), /for this account/);
    }
    // The member's device does not make this browser known to the admin's account, nor in another workspace.
    expectRefused(await b.signIn(w.host, w.admin.email, w.password, '192.0.2.51'), /for this account/);
    expectRefused(
      await b.signIn(other.host, other.admin.email, other.password, '192.0.2.52'),
      /for this account/,
    );
    // A token that was never issued counts for nothing either.
    const forged = await h.request('POST', '/api/v1/session', {
      host: w.host,
      json: { email: w.admin.email, password: w.password },
      headers: { 'x-forwarded-for': '192.0.2.53', cookie: `lookout_device=ld.${'A'.repeat(43)}` },
    });
    expectRefused(forged, /for this account/);
  });

  it('the device cookie is HttpOnly, SameSite=Lax, host-only, long-lived, kept at sign-out and stored only as a hash', async () => {
    const w = await h.workspace('throttle-cookie');
    const r = await browser().signIn(w.host, w.admin.email, w.password, '192.0.2.60');
    const device = setCookies(r).get('lookout_device')!;
    expect(device.line).toMatch(/; httponly/i);
    expect(device.line).toMatch(/; samesite=lax/i);
    expect(device.line).toMatch(/; path=\//i);
    expect(device.line).not.toMatch(/domain=/i);
    expect(device.line).not.toMatch(/; secure/i);
    const expires = new Date(/expires=([^;]+)/i.exec(device.line)![1]!).getTime();
    expect(expires - h.clock.now().getTime()).toBeGreaterThan(364 * 86_400_000);
    // Stored only as its SHA-256.
    expect(await h.store.findSignInDevice(device.value)).toBeNull();
    expect(await h.store.findSignInDevice(hashSecret(device.value))).toMatchObject({
      workspace_id: w.workspace.id,
      user_id: w.admin.id,
    });
    const session = setCookies(r).get('lookout_session')!.value;
    const out = await h.request('DELETE', '/api/v1/session', {
      host: w.host,
      headers: { cookie: `lookout_session=${session}`, 'x-csrf-token': r.body.csrf_token },
    });
    expect(out.status).toBe(204);
    expect(setCookies(out).has('lookout_device')).toBe(false);
  });

  it('with an https public scheme the device cookie is Secure and __Host- prefixed', async () => {
    const tls = await startHarness({ public_url_scheme: 'https' });
    try {
      const w = await tls.workspace('throttle-tls');
      const r = await tls.request('POST', '/api/v1/session', {
        host: w.host,
        json: { email: w.admin.email, password: w.password },
      });
      expect(r.status).toBe(201);
      const line = setCookies(r).get('__Host-lookout_device')!.line;
      expect(line).toMatch(/^__Host-lookout_device=ld\./);
      expect(line).toMatch(/; secure/i);
      expect(line).toMatch(/; httponly/i);
      expect(line).toMatch(/; path=\//i);
      expect(line).not.toMatch(/domain=/i);
    } finally {
      await tls.close();
    }
  });
});

describe('failed sign-ins shown to the owner and to admins', () => {
  it('count, last address and when, through GET /users/me and GET /users; never the passwords tried', async () => {
    const w = await h.workspace('throttle-shown');
    const member = await w.userWithKey('member');
    const me = () => w.as(member.key)('GET', '/users/me');
    const listed = async () =>
      ((await w.api('GET', '/users')).body.data as { id: string }[]).find((u) => u.id === member.user.id);

    const none = await me();
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({
      id: member.user.id,
      email: member.user.email,
      role: 'member',
      last_sign_in_at: null,
      failed_sign_ins: { count: 0, since: null, last_at: null, last_address: null },
    });

    expect((await guess(w.host, member.user.email, '203.0.113.70', 'secret-guess-one')).status).toBe(401);
    h.clock.advance(60_000);
    const t1 = h.clock.now().toISOString();
    expect((await guess(w.host, member.user.email, '203.0.113.71', 'secret-guess-two')).status).toBe(401);
    // Unknown emails are counted for no one.
    expect((await guess(w.host, `x${member.user.email}`, '203.0.113.72')).status).toBe(401);
    const failed = { count: 2, since: null, last_at: t1, last_address: '203.0.113.71' };
    expect((await me()).body.failed_sign_ins).toEqual(failed);
    expect(await listed()).toMatchObject({ last_sign_in_at: null, failed_sign_ins: failed });

    // The owner signs in: the failures before stay visible, with the time of this sign-in.
    h.clock.advance(60_000);
    const t2 = h.clock.now().toISOString();
    expect((await browser().signIn(w.host, member.user.email, member.password, '192.0.2.70')).status).toBe(
      201,
    );
    expect((await me()).body).toMatchObject({ last_sign_in_at: t2, failed_sign_ins: failed });
    // The next failure starts a new count, since that sign-in.
    h.clock.advance(60_000);
    const t3 = h.clock.now().toISOString();
    expect((await guess(w.host, member.user.email, '203.0.113.73')).status).toBe(401);
    const again = { count: 1, since: t2, last_at: t3, last_address: '203.0.113.73' };
    expect((await me()).body.failed_sign_ins).toEqual(again);
    expect(await listed()).toMatchObject({ last_sign_in_at: t2, failed_sign_ins: again });

    // Only admins list users; every role sees itself.
    expect((await w.as(member.key)('GET', '/users')).status).toBe(403);
    const viewer = await w.userWithKey('viewer');
    expect((await w.as(viewer.key)('GET', '/users/me')).body).toMatchObject({
      id: viewer.user.id,
      failed_sign_ins: { count: 0 },
    });

    // The passwords tried are nowhere in the store.
    for (const file of ['lookout.db', 'lookout.db-wal']) {
      const bytes = readFileSync(join(h.dir, file));
      for (const tried of ['secret-guess-one', 'secret-guess-two']) expect(bytes.includes(tried)).toBe(false);
    }
  });
  it('guesses sent all at once are held to the same limits as guesses sent one by one', async () => {
    const w = await h.workspace('throttle-burst');
    // 30 at once from one address, to accounts that do not exist: its 10 a minute, and no more.
    const fromOne = await Promise.all(
      Array.from({ length: 30 }, (_, i) => guess(w.host, `nobody-${i}@burst.test`, '198.51.100.70')),
    );
    expect(fromOne.filter((r) => r.status === 401)).toHaveLength(10);
    expect(fromOne.filter((r) => r.status === 429)).toHaveLength(20);
    // 30 at once for the admin, from 30 addresses: the account's 20 an hour, and no more.
    const atOne = await Promise.all(
      Array.from({ length: 30 }, (_, i) => guess(w.host, w.admin.email, `198.51.101.${i + 1}`)),
    );
    expect(atOne.filter((r) => r.status === 401)).toHaveLength(20);
    for (const r of atOne.filter((r) => r.status === 429)) expectRefused(r, /for this account/);
  });
});
