import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type Reply, startHarness } from '../support/harness.js';

/**
 * Two-factor sign-in through the API: TOTP set up and confirmed (recovery codes shown once), the
 * password answered with a challenge, the second-factor step (TOTP, recovery code), and every refusal an
 * attacker meets: a replayed code, a used recovery code, a used or expired challenge, the per-challenge
 * and per-user throttles (a known browser never held back), and require_2fa (API keys unaffected).
 * Time, and so every TOTP code, comes from the harness's manual clock.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    trust_proxy: true,
    sign_in_failures_per_minute: 100,
    sign_in_failures_per_account_per_hour: 8,
    sign_in_backoff_after_failures: 0,
    sign_in_failures_per_device_per_hour: 30,
  });
});
afterAll(() => h.close());

const cookies = (r: Reply) => {
  const set = r.headers['set-cookie'];
  const lines = Array.isArray(set) ? set : set ? [set] : [];
  return new Map(lines.map((l) => [l.split('=')[0]!, l.split(';')[0]!.split('=').slice(1).join('=')]));
};
const codeAt = (secret: string, ms = h.clock.now().getTime()) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: ms });

/** A browser: keeps its device cookie and its session. */
const browser = (host: string, address = '192.0.2.10') => {
  let device: string | undefined;
  let session: { cookie: string; csrf: string } | undefined;
  const send = async (method: string, path: string, json?: unknown) => {
    const cookie = [device && `lookout_device=${device}`, session?.cookie].filter(Boolean).join('; ');
    const r = await h.request(method, `/api/v1${path}`, {
      host,
      ...(json === undefined ? {} : { json }),
      headers: {
        'x-forwarded-for': address,
        ...(cookie ? { cookie } : {}),
        ...(session ? { 'x-csrf-token': session.csrf } : {}),
      },
    });
    const set = cookies(r);
    if (set.get('lookout_device')) device = set.get('lookout_device');
    if (set.get('lookout_session'))
      session = { cookie: `lookout_session=${set.get('lookout_session')}`, csrf: r.body.csrf_token };
    return r;
  };
  return {
    send,
    signOut: () => {
      session = undefined;
    },
    get signedIn() {
      return session !== undefined;
    },
  };
};

/** Signs in `b` and sets up TOTP; returns the secret and the recovery codes. */
const setUpTotp = async (b: ReturnType<typeof browser>, email: string, password: string) => {
  expect((await b.send('POST', '/session', { email, password })).status).toBe(201);
  const setup = await b.send('POST', '/me/totp');
  expect(setup.status).toBe(200);
  expect(setup.body.otpauth_url).toMatch(/^otpauth:\/\/totp\/Lookout:.*secret=/);
  expect(setup.body.qr_svg).toMatch(/^<svg/);
  const secret = setup.body.secret as string;
  const wrong = await b.send('POST', '/me/totp/confirm', {
    code: codeAt(secret, h.clock.now().getTime() + 300_000),
  });
  expect(wrong.status).toBe(422);
  expect(wrong.body.error.details[0].field).toBe('code');
  const confirmed = await b.send('POST', '/me/totp/confirm', { code: codeAt(secret) });
  expect(confirmed.status).toBe(200);
  expect(confirmed.body.recovery_codes).toHaveLength(10);
  expect(new Set(confirmed.body.recovery_codes).size).toBe(10);
  return { secret, codes: confirmed.body.recovery_codes as string[] };
};

describe('two-factor sign-in', () => {
  it('sets up TOTP, answers the password with a challenge, and signs in with a code or a recovery code, each once', async () => {
    const w = await h.workspace('tf-flow');
    const b = browser(w.host);
    const { secret, codes } = await setUpTotp(b, w.admin.email, w.password);
    const me = await b.send('GET', '/session');
    expect(me.body.user.two_factor).toEqual({ totp: true, passkeys: 0, recovery_codes_left: 10 });
    expect(me.body.two_factor_setup_required).toBe(false);
    // Setting up again while one is confirmed is refused.
    expect((await b.send('POST', '/me/totp')).status).toBe(409);
    b.signOut();

    h.clock.advance(30_000);
    const pw = await b.send('POST', '/session', { email: w.admin.email, password: w.password });
    expect(pw.status).toBe(200);
    expect(pw.body).toEqual({
      second_factor_required: true,
      methods: ['totp', 'recovery_code'],
      challenge: expect.stringMatching(/^lc\./),
    });
    expect(cookies(pw).get('lookout_session')).toBeUndefined();
    expect(b.signedIn).toBe(false);
    const code = codeAt(secret);
    const done = await b.send('POST', '/session/second-factor', {
      challenge: pw.body.challenge,
      method: 'totp',
      code,
    });
    expect(done.status).toBe(201);
    expect(done.body.user.email).toBe(w.admin.email);
    expect((await b.send('GET', '/monitors')).status).toBe(200);

    // A challenge is bound to its workspace: on another workspace's host it is unknown.
    const other = await h.workspace('tf-flow-other');
    const pending = await browser(w.host).send('POST', '/session', {
      email: w.admin.email,
      password: w.password,
    });
    const elsewhere = await browser(other.host).send('POST', '/session/second-factor', {
      challenge: pending.body.challenge,
      method: 'totp',
      code: codeAt(secret, h.clock.now().getTime() + 30_000),
    });
    expect(elsewhere.status).toBe(401);
    // Your factors are for your web session only: an API key cannot set up or turn off TOTP.
    expect((await w.api('POST', '/me/totp')).status).toBe(403);
    expect((await w.api('DELETE', '/me/totp', { json: { code } })).status).toBe(403);
    // The challenge is spent: replaying it is refused.
    const again = await b.send('POST', '/session/second-factor', {
      challenge: pw.body.challenge,
      method: 'totp',
      code,
    });
    expect(again.status).toBe(401);
    // The same code (same time step) with a fresh challenge is a replay: refused.
    b.signOut();
    const pw2 = await b.send('POST', '/session', { email: w.admin.email, password: w.password });
    const replay = await b.send('POST', '/session/second-factor', {
      challenge: pw2.body.challenge,
      method: 'totp',
      code,
    });
    expect(replay.status).toBe(422);
    // So is the previous step's code (still inside the ±1 window).
    const earlier = codeAt(secret, h.clock.now().getTime() - 30_000);
    expect(
      (
        await b.send('POST', '/session/second-factor', {
          challenge: pw2.body.challenge,
          method: 'totp',
          code: earlier,
        })
      ).status,
    ).toBe(422);

    // A recovery code works once (typed in lower case with spaces: normalised).
    const first = codes[0]!.toLowerCase().replaceAll('-', ' ');
    const rec = await b.send('POST', '/session/second-factor', {
      challenge: pw2.body.challenge,
      method: 'recovery_code',
      code: first,
    });
    expect(rec.status).toBe(201);
    expect(rec.body.user.two_factor.recovery_codes_left).toBe(9);
    b.signOut();
    const pw3 = await b.send('POST', '/session', { email: w.admin.email, password: w.password });
    const used = await b.send('POST', '/session/second-factor', {
      challenge: pw3.body.challenge,
      method: 'recovery_code',
      code: codes[0],
    });
    expect(used.status).toBe(422);

    // An expired challenge is refused even with a right code.
    h.clock.advance(5 * 60_000);
    const late = await b.send('POST', '/session/second-factor', {
      challenge: pw3.body.challenge,
      method: 'totp',
      code: codeAt(secret),
    });
    expect(late.status).toBe(401);
    // Bad input: one 422 naming every bad field.
    const bad = await b.send('POST', '/session/second-factor', { challenge: '', method: 'sms' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'challenge',
      'method',
    ]);
    const noCode = await b.send('POST', '/session/second-factor', { challenge: 'lc.x', method: 'totp' });
    expect(noCode.body.error.details).toEqual([{ field: 'code', message: 'is required for method totp' }]);

    // Regenerating codes needs a current code; the old ones stop working. Then turning TOTP off.
    h.clock.advance(30_000);
    const pw4 = await b.send('POST', '/session', { email: w.admin.email, password: w.password });
    expect(
      (
        await b.send('POST', '/session/second-factor', {
          challenge: pw4.body.challenge,
          method: 'recovery_code',
          code: codes[1],
        })
      ).status,
    ).toBe(201);
    expect((await b.send('POST', '/me/recovery-codes', { code: '000000' })).status).toBe(422);
    const fresh = await b.send('POST', '/me/recovery-codes', { code: codeAt(secret) });
    expect(fresh.body.recovery_codes).toHaveLength(10);
    h.clock.advance(30_000);
    expect((await b.send('DELETE', '/me/totp', { code: codes[2] })).status).toBe(422);
    const off = await b.send('DELETE', '/me/totp', { code: codeAt(secret) });
    expect(off.body).toBeUndefined();
    expect(off.status).toBe(204);
    b.signOut();
    expect((await b.send('POST', '/session', { email: w.admin.email, password: w.password })).status).toBe(
      201,
    );
  });

  it('throttles wrong codes per challenge (5, then it dies) and per user, never holding back a browser the user signed in with', async () => {
    const w = await h.workspace('tf-throttle');
    const owner = browser(w.host, '192.0.2.20');
    const { secret } = await setUpTotp(owner, w.admin.email, w.password);
    owner.signOut();
    // Someone who has the password, in another browser: 5 wrong codes, then the challenge is gone.
    const thief = browser(w.host, '203.0.113.9');
    const pw = await thief.send('POST', '/session', { email: w.admin.email, password: w.password });
    for (let i = 0; i < 5; i++)
      expect(
        (
          await thief.send('POST', '/session/second-factor', {
            challenge: pw.body.challenge,
            method: 'totp',
            code: `00000${i}`,
          })
        ).status,
      ).toBe(422);
    h.clock.advance(30_000);
    const dead = await thief.send('POST', '/session/second-factor', {
      challenge: pw.body.challenge,
      method: 'totp',
      code: codeAt(secret),
    });
    expect(dead.status).toBe(401);
    expect(dead.body.error.message).toMatch(/Too many wrong codes/);
    // Per user: across fresh challenges, the unknown browser runs out (8 an hour for the account).
    let refused: Reply | undefined;
    for (let i = 0; i < 10 && !refused; i++) {
      const c = await thief.send('POST', '/session', { email: w.admin.email, password: w.password });
      const r = await thief.send('POST', '/session/second-factor', {
        challenge: c.body.challenge,
        method: 'totp',
        code: '999999',
      });
      if (r.status === 429) refused = r;
      else expect(r.status).toBe(422);
    }
    expect(refused?.body.error.code).toBe('rate_limited');
    // Even the right code is refused to that browser now.
    h.clock.advance(30_000);
    const c = await thief.send('POST', '/session', { email: w.admin.email, password: w.password });
    expect(
      (
        await thief.send('POST', '/session/second-factor', {
          challenge: c.body.challenge,
          method: 'totp',
          code: codeAt(secret),
        })
      ).status,
    ).toBe(429);
    // The owner's browser (it signed in before) is not held back.
    const mine = await owner.send('POST', '/session', { email: w.admin.email, password: w.password });
    const ok = await owner.send('POST', '/session/second-factor', {
      challenge: mine.body.challenge,
      method: 'totp',
      code: codeAt(secret),
    });
    expect(ok.status).toBe(201);
    // The failures are in the user's sign-in activity.
    const [activity] = await h.store.listSignInActivity(w.workspace.id, [w.admin.id]);
    expect(activity!.failed_count).toBe(7);
  });

  it('require_2fa: a user without a factor reaches only the setup until done; API keys are unaffected; admins only', async () => {
    const w = await h.workspace('tf-require');
    const member = await w.userWithKey('member');
    expect((await w.as(member.key)('PUT', '/security', { json: { require_2fa: true } })).status).toBe(403);
    const bad = await w.api('PUT', '/security', { json: { require_2fa: 'yes', extra: 1 } });
    expect(bad.status).toBe(422);
    expect((await w.api('PUT', '/security', { json: { require_2fa: true } })).body).toEqual({
      require_2fa: true,
    });
    expect((await w.api('GET', '/security')).body).toEqual({ require_2fa: true });

    const b = browser(w.host, '192.0.2.30');
    const signed = await b.send('POST', '/session', { email: member.user.email, password: member.password });
    expect(signed.status).toBe(201);
    expect(signed.body.two_factor_setup_required).toBe(true);
    expect((await b.send('GET', '/session')).body.two_factor_setup_required).toBe(true);
    const blocked = await b.send('GET', '/monitors');
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.code).toBe('two_factor_setup_required');
    // The same user's API key is not affected.
    expect((await w.as(member.key)('GET', '/monitors')).status).toBe(200);
    // Setting up is allowed, and lifts the block.
    const setup = await b.send('POST', '/me/totp');
    expect((await b.send('POST', '/me/totp/confirm', { code: codeAt(setup.body.secret) })).status).toBe(200);
    expect((await b.send('GET', '/monitors')).status).toBe(200);
    expect((await b.send('GET', '/session')).body.two_factor_setup_required).toBe(false);
    // Turning off the only factor is refused while the workspace requires one.
    h.clock.advance(30_000);
    expect((await b.send('DELETE', '/me/totp', { code: codeAt(setup.body.secret) })).status).toBe(409);
  });
});
