import { generateKeyPairSync } from 'node:crypto';
import { isAppError } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  passkeyRelyingParty,
  verifyPasskeyAssertion,
} from '../../control-plane/src/domain/access/passkeys.js';
import { type Harness, type Reply, startHarness } from '../support/harness.js';
import { assert, createCredential } from '../support/soft-authenticator.js';

/**
 * Passkeys through the API with a software authenticator: adding one (session only), signing in with it
 * alone, and what is refused: a replayed assertion or registration, another workspace's passkey, a
 * counter that went back (a cloned authenticator), another origin, no user verification for a
 * passwordless sign-in, another user's passkey as a second factor; the cap; failures throttled per
 * address (addresses from X-Forwarded-For: trust_proxy).
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ trust_proxy: true, sign_in_failures_per_minute: 3 });
});
afterAll(() => h.close());

type Ws = Awaited<ReturnType<Harness['workspace']>>;
let address = 0;
const nextAddress = () => `198.51.100.${++address}`;

const sessionCookie = (r: Reply) => {
  const set = r.headers['set-cookie'];
  const line = (Array.isArray(set) ? set : [set ?? '']).find((c) => c.includes('lookout_session='));
  return (line ?? '').split(';')[0]!;
};

/** A browser signed in with a password, and its API calls (cookie and CSRF token). */
const signedIn = async (w: Ws, email = w.admin.email, password = w.password) => {
  const r = await h.request('POST', '/api/v1/session', { host: w.host, json: { email, password } });
  expect(r.status).toBe(201);
  const cookie = sessionCookie(r);
  const csrf = r.body.csrf_token as string;
  return (method: string, path: string, json?: unknown) =>
    h.request(method, `/api/v1${path}`, {
      host: w.host,
      ...(json !== undefined ? { json } : {}),
      headers: { cookie, 'x-csrf-token': csrf },
    });
};

const originOf = (w: Ws) => `http://${w.host}:${h.cp.port}`;

const addPasskey = async (w: Ws, call: Awaited<ReturnType<typeof signedIn>>, name = 'Laptop') => {
  const options = await call('POST', '/me/passkeys/options');
  expect(options.status).toBe(200);
  const made = createCredential(options.body, originOf(w));
  const r = await call('POST', '/me/passkeys', { name, credential: made.json });
  return { r, credential: made.credential, body: { name, credential: made.json } };
};

const passwordless = async (w: Ws, sign: (challenge: string) => unknown, from = nextAddress()) => {
  const o = await h.request('POST', '/api/v1/session/passkey/options', {
    host: w.host,
    headers: { 'x-forwarded-for': from },
  });
  expect(o.status).toBe(200);
  const body = { challenge: o.body.challenge, credential: sign(o.body.challenge) };
  const r = await h.request('POST', '/api/v1/session/passkey', {
    host: w.host,
    json: body,
    headers: { 'x-forwarded-for': from },
  });
  return { r, body, options: o.body };
};

describe('passkeys', () => {
  it('adds a passkey, lists it, and signs in with it alone: the same session answer as a password', async () => {
    const w = await h.workspace('pk-basic');
    const call = await signedIn(w);
    const { r, credential } = await addPasskey(w, call, 'Work laptop');
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(String),
      name: 'Work laptop',
      created_at: expect.any(String),
      last_used_at: null,
    });
    const list = await call('GET', '/me/passkeys');
    expect(list.body.data).toEqual([r.body]);

    const { r: s, options } = await passwordless(w, (c) => assert(credential, c, originOf(w)));
    expect(options).toMatchObject({ rpId: 'pk-basic.localhost', userVerification: 'required' });
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({
      user: { id: w.admin.id, email: w.admin.email },
      workspace: { subdomain: 'pk-basic' },
    });
    const me = await h.request('GET', '/api/v1/session', {
      host: w.host,
      headers: { cookie: sessionCookie(s) },
    });
    expect(me.status).toBe(200);
    expect((await call('GET', '/me/passkeys')).body.data[0].last_used_at).toBe(h.clock.now().toISOString());
    // The audit log says how they signed in.
    const log = await w.api('GET', '/audit-log?action=session.sign_in');
    // (The password sign-in before it is at the same instant of the harness's clock: either may be first.)
    expect(log.body.data).toContainEqual(
      expect.objectContaining({
        actor: expect.objectContaining({ id: w.admin.id }),
        changes: { via: [null, 'passkey'] },
      }),
    );
  });

  it('refuses a replayed assertion, and a replayed registration', async () => {
    const w = await h.workspace('pk-replay');
    const call = await signedIn(w);
    const { credential, body: registration } = await addPasskey(w, call);
    expect((await call('POST', '/me/passkeys', registration)).status).toBe(422);
    const from = nextAddress();
    // An authenticator that keeps no counter (0 every time): only the challenge, taken once, stops a replay.
    const { r, body } = await passwordless(
      w,
      (c) => assert(credential, c, originOf(w), { counter: 0 }),
      from,
    );
    expect(r.status).toBe(201);
    const again = await h.request('POST', '/api/v1/session/passkey', {
      host: w.host,
      json: body,
      headers: { 'x-forwarded-for': from },
    });
    expect(again.status).toBe(401);
    expect(again.headers['set-cookie'] ?? []).toEqual([]);
  });

  it('refuses another workspace’s passkey, another origin, and a counter that went back', async () => {
    const a = await h.workspace('pk-ws-a');
    const b = await h.workspace('pk-ws-b');
    const { credential } = await addPasskey(a, await signedIn(a));
    // Presented to workspace b (as its own rp id would be asked: the key is not b's either way).
    expect((await passwordless(b, (c) => assert(credential, c, originOf(b)))).r.status).toBe(401);
    expect(
      (await passwordless(b, (c) => assert(credential, c, originOf(b), { rpId: 'pk-ws-b.localhost' }))).r
        .status,
    ).toBe(401);
    // A phishing page's origin.
    expect(
      (await passwordless(a, (c) => assert(credential, c, 'http://pk-ws-a.localhost.evil.test'))).r.status,
    ).toBe(401);
    // Without user verification, a passkey alone does not sign in.
    expect(
      (await passwordless(a, (c) => assert(credential, c, originOf(a), { userVerified: false }))).r.status,
    ).toBe(401);
    expect((await passwordless(a, (c) => assert(credential, c, originOf(a), { counter: 10 }))).r.status).toBe(
      201,
    );
    // A clone reporting an older count is refused, and so is the same count.
    expect((await passwordless(a, (c) => assert(credential, c, originOf(a), { counter: 7 }))).r.status).toBe(
      401,
    );
    expect((await passwordless(a, (c) => assert(credential, c, originOf(a), { counter: 10 }))).r.status).toBe(
      401,
    );
    expect((await passwordless(a, (c) => assert(credential, c, originOf(a), { counter: 11 }))).r.status).toBe(
      201,
    );
  });

  it('as a second factor: only the user’s own passkey', async () => {
    const w = await h.workspace('pk-second');
    const member = await w.userWithKey('member');
    const { credential } = await addPasskey(w, await signedIn(w));
    const rp = passkeyRelyingParty(originOf(w), 'x');
    const options = async () => (await passwordless(w, () => ({}))).options.challenge as string;
    const tryAs = async (user: typeof member.user) => {
      try {
        return await verifyPasskeyAssertion(
          h.store,
          w.workspace,
          user,
          null,
          assert(credential, await options(), originOf(w), { userHandle: false }),
          rp,
          h.clock.now(),
        );
      } catch (e) {
        return isAppError(e) ? e.code : e;
      }
    };
    expect(await tryAs(member.user)).toBe('unauthorized');
    expect(await tryAs(w.admin)).toMatchObject({ id: w.admin.id });
  });

  it('after a password: the passkey is the second factor, through POST /session/second-factor', async () => {
    const w = await h.workspace('pk-2fa');
    const member = await w.userWithKey('member');
    const { credential } = await addPasskey(w, await signedIn(w));
    const other = await addPasskey(w, await signedIn(w, member.user.email, member.password));
    const password = await h.request('POST', '/api/v1/session', {
      host: w.host,
      json: { email: w.admin.email, password: w.password },
    });
    expect(password.status).toBe(200);
    expect(password.body).toMatchObject({ second_factor_required: true, methods: ['passkey'] });
    expect(password.headers['set-cookie'] ?? []).not.toContainEqual(
      expect.stringContaining('lookout_session='),
    );
    const finish = async (cred: typeof credential) => {
      const o = await h.request('POST', '/api/v1/session/passkey/options', { host: w.host });
      return h.request('POST', '/api/v1/session/second-factor', {
        host: w.host,
        json: {
          challenge: password.body.challenge,
          method: 'passkey',
          credential: assert(cred, o.body.challenge, originOf(w), { userHandle: false }),
        },
      });
    };
    // Another user's passkey does not finish the admin's sign-in.
    const wrong = await finish(other.credential);
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.details).toEqual([{ field: 'credential', message: expect.any(String) }]);
    const ok = await finish(credential);
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      user: { id: w.admin.id, two_factor: { passkeys: 1 } },
      two_factor_setup_required: false,
    });
  });

  it('with require_2fa, a passkey is the second factor the user was asked to set up', async () => {
    const w = await h.workspace('pk-require');
    expect((await w.api('PUT', '/security', { json: { require_2fa: true } })).status).toBe(200);
    const call = await signedIn(w);
    expect((await call('GET', '/monitors')).status).toBe(403);
    expect((await call('GET', '/session')).body.two_factor_setup_required).toBe(true);
    const { r } = await addPasskey(w, call);
    expect(r.status).toBe(201);
    expect((await call('GET', '/session')).body.two_factor_setup_required).toBe(false);
    expect((await call('GET', '/monitors')).status).toBe(200);
    // The only factor stays while the workspace requires one; with a second passkey, one may go.
    expect((await call('DELETE', `/me/passkeys/${r.body.id}`)).status).toBe(409);
    expect((await addPasskey(w, call, 'Spare key')).r.status).toBe(201);
    expect((await call('DELETE', `/me/passkeys/${r.body.id}`)).status).toBe(204);
  });

  it('bad input: one 422 naming every bad field; at most 10 passkeys; remove only your own', async () => {
    const w = await h.workspace('pk-limits');
    const call = await signedIn(w);
    const bad = await call('POST', '/me/passkeys', {
      name: '',
      credential: { id: 'x', type: 'nope', response: {} },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'credential.rawId',
      'credential.response.clientDataJSON',
      'credential.type',
      'name',
    ]);
    const long = await call('POST', '/me/passkeys', {
      name: 'x'.repeat(101),
      credential: { id: 'x'.repeat(2000) },
    });
    expect(long.body.error.details.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining(['name', 'credential.id']),
    );
    const added = [];
    for (let i = 0; i < 10; i++) added.push((await addPasskey(w, call, `Key ${i}`)).r);
    expect(added.map((r) => r.status)).toEqual(Array(10).fill(201));
    const eleventh = await addPasskey(w, call, 'One more');
    expect(eleventh.r.status).toBe(422);
    expect(eleventh.r.body.error.details).toEqual([
      { field: 'credential', message: expect.stringContaining('10 passkeys') },
    ]);

    const member = await w.userWithKey('member');
    const memberCall = await signedIn(w, member.user.email, member.password);
    expect((await memberCall('DELETE', `/me/passkeys/${added[0]!.body.id}`)).status).toBe(404);
    expect((await memberCall('GET', '/me/passkeys')).body.data).toEqual([]);
    expect((await call('DELETE', `/me/passkeys/${added[0]!.body.id}`)).status).toBe(204);
    expect((await call('GET', '/me/passkeys')).body.data).toHaveLength(9);
    // An API key cannot add a way to sign in.
    expect((await w.api('POST', '/me/passkeys/options')).status).toBe(403);
    expect((await w.api('GET', '/me/passkeys')).status).toBe(403);
  });

  it('a removed passkey no longer signs in; failures are throttled per address only', async () => {
    const w = await h.workspace('pk-throttle');
    const call = await signedIn(w);
    const { r, credential } = await addPasskey(w, call);
    const stranger = nextAddress();
    // A signature by a key that is not the passkey's.
    const stolenId = { ...credential, key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey };
    const forged = (c: string) => assert(stolenId, c, originOf(w));
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await passwordless(w, forged, stranger)).r.status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // The owner elsewhere is not locked out by the stranger.
    expect((await passwordless(w, (c) => assert(credential, c, originOf(w)))).r.status).toBe(201);
    expect((await call('DELETE', `/me/passkeys/${r.body.id}`)).status).toBe(204);
    expect((await passwordless(w, (c) => assert(credential, c, originOf(w)))).r.status).toBe(401);
  });
});
