import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type Reply, startHarness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const DAY = 86_400_000;

/**
 * A user signed in on `host` as the web app is (session cookie + CSRF token): keys are minted only by
 * a session, through `POST /api/v1/api-keys`.
 */
const signIn = async (host: string, email: string, password: string) => {
  const r = await h.request('POST', '/api/v1/session', { host, json: { email, password } });
  expect(r.status, r.text).toBe(201);
  const set = r.headers['set-cookie'];
  const cookie = (Array.isArray(set) ? set : [set ?? ''])
    .find((c) => c.startsWith('lookout_session='))!
    .split(';')[0]!;
  const call = (method: string, path: string, json?: unknown): Promise<Reply> =>
    h.request(method, `/api/v1${path}`, {
      host,
      ...(json !== undefined ? { json } : {}),
      headers: { cookie, 'x-csrf-token': r.body.csrf_token as string },
    });
  return {
    call,
    /** POST /api-keys: the reply (201 with the record and its value in `key`, or the error). */
    mint: (name: string, expiry: string) => call('POST', '/api-keys', { name, expiry }),
  };
};

describe('API keys (spec 2.1, 3.1, 5, 7, 8)', () => {
  it('a key works only on its own workspace subdomain: 401 with the spec message elsewhere', async () => {
    const a = await h.workspace('keys-a');
    const b = await h.workspace('keys-b');
    expect((await a.api('GET', '/monitors')).status).toBe(200);
    const r = await h.request('GET', '/api/v1/monitors', { key: a.adminKey, host: b.host });
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({
      code: 'unauthorized',
      message: 'API Key is not valid for this subdomain',
    });
    const unknownHost = await h.request('GET', '/api/v1/monitors', {
      key: a.adminKey,
      host: 'nosuch.localhost',
    });
    expect(unknownHost.status).toBe(401);
    expect(unknownHost.body.error.message).toBe('API Key is not valid for this subdomain');
  });

  it('no key, or a key that does not exist, is a 401 JSON error and never a redirect', async () => {
    const a = await h.workspace('keys-none');
    const none = await h.request('GET', '/api/v1/alerts', { host: a.host });
    expect(none.status).toBe(401);
    expect(none.headers['content-type']).toMatch(/application\/json/);
    expect(none.body.error.code).toBe('unauthorized');
    const bogus = await h.request('GET', '/api/v1/alerts', { host: a.host, key: 'ak.not-a-real-key' });
    expect(bogus.status).toBe(401);
    expect(bogus.headers.location).toBeUndefined();
  });

  it('an expired key is refused with 401 "API key has expired" (clock moved past expiry)', async () => {
    const a = await h.workspace('keys-exp');
    const minted = await (await signIn(a.host, a.admin.email, a.password)).mint('short', '1d');
    expect(minted.status).toBe(201);
    const key = minted.body.key as string;
    expect((await a.as(key)('GET', '/monitors')).status).toBe(200);
    h.clock.advance(DAY - 1000);
    expect((await a.as(key)('GET', '/monitors')).status).toBe(200);
    h.clock.advance(1000);
    const r = await a.as(key)('GET', '/monitors');
    expect(r.status).toBe(401);
    expect(r.body.error.message).toBe('API key has expired');
  });

  it('expiry choices: none, 1d, 7d, 30d, 90d, a future date or date-time; past and malformed are refused', async () => {
    const a = await h.workspace('keys-choices');
    const s = await signIn(a.host, a.admin.email, a.password);
    const now = h.clock.now();
    const exp = async (expiry: string) => {
      const r = await s.mint(`k-${expiry}`, expiry);
      expect(r.status, `${expiry}: ${r.text}`).toBe(201);
      return r.body.expires_at as string | null;
    };
    expect(await exp('none')).toBeNull();
    for (const [choice, days] of [
      ['1d', 1],
      ['7d', 7],
      ['30d', 30],
      ['90d', 90],
    ] as const) {
      expect(await exp(choice)).toBe(new Date(now.getTime() + days * DAY).toISOString());
    }
    expect(await exp('2026-12-31')).toBe('2027-01-01T00:00:00.000Z');
    expect(await exp('2026-07-01T09:30:00+02:00')).toBe('2026-07-01T07:30:00.000Z');
    const refused = async (name: string, expiry: string) => {
      const r = await s.mint(name, expiry);
      expect(r.status, r.text).toBe(422);
      expect(r.body.error.code).toBe('validation_failed');
      return r.body.error.details as { field: string; message: string }[];
    };
    expect(await refused('past', '2020-01-01')).toEqual([
      { field: 'expiry', message: 'must be in the future' },
    ]);
    expect((await refused('soon', 'soon')).map((d) => d.field)).toEqual(['expiry']);
    expect(await refused('x'.repeat(101), 'none')).toEqual([
      { field: 'name', message: 'must be at most 100 characters' },
    ]);
    expect((await refused('', 'none')).map((d) => d.field)).toEqual(['name']);
    // Every bad field at once.
    expect((await refused('', 'soon')).map((d) => d.field).sort()).toEqual(['expiry', 'name']);
    expect((await refused('', '2020-01-01')).map((d) => d.field).sort()).toEqual(['expiry', 'name']);
    const longest = await s.mint('y'.repeat(100), 'none');
    expect(longest.status).toBe(201);
    expect(longest.body.key).toMatch(/^ak\./);
  });

  it('a user has at most 25 active keys; the 26th is refused until one is revoked', async () => {
    const a = await h.workspace('keys-cap');
    const m = await a.userWithKey('member'); // 1 key
    const s = await signIn(a.host, m.user.email, m.password);
    for (let i = 2; i <= 25; i++) expect((await s.mint(`k${i}`, 'none')).status).toBe(201);
    const refused = await s.mint('k26', 'none');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'limit_reached',
      message: expect.stringContaining('25 active API keys'),
    });
    // another user is unaffected
    const other = await a.userWithKey('member');
    expect((await (await signIn(a.host, other.user.email, other.password)).mint('k', 'none')).status).toBe(
      201,
    );
    const revoke = await a.as(m.key)('POST', `/api-keys/${m.keyId}/revoke`);
    expect(revoke.status).toBe(200);
    const k26 = await s.mint('k26', 'none');
    expect(k26.status).toBe(201);
    expect(k26.body.name).toBe('k26');
  });

  it('values are random, ak.-prefixed, at least 128 bits, and stored only as a hash', async () => {
    const a = await h.workspace('keys-hash');
    const s = await signIn(a.host, a.admin.email, a.password);
    const k1 = (await s.mint('one', 'none')).body as { id: string; key: string };
    const k2 = (await s.mint('two', 'none')).body as { id: string; key: string };
    expect(k1.key).toMatch(/^ak\.[A-Za-z0-9_-]{43}$/);
    expect(k1.key).not.toBe(k2.key);
    const stored = await h.store.getApiKey(a.workspace.id, k1.id);
    expect(JSON.stringify(stored)).not.toContain(k1.key.slice(3));
    expect(stored?.key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the list shows last four characters, creation, expiry and last use, never the value', async () => {
    const a = await h.workspace('keys-list');
    await a.api('GET', '/monitors', { headers: { 'user-agent': 'deploy-bot/1.0' } });
    const r = await a.api('GET', '/api-keys');
    expect(r.status).toBe(200);
    const mine = r.body.data.find((k: { id: string }) => k.id === a.adminKeyId);
    expect(mine).toMatchObject({
      name: 'admin key',
      last_four: a.adminKey.slice(-4),
      status: 'active',
      expires_at: null,
      created_at: h.clock.now().toISOString(),
      last_used_at: h.clock.now().toISOString(),
    });
    expect(mine.last_used_from).toContain('deploy-bot/1.0');
    expect(r.text).not.toContain(a.adminKey);
    expect(r.text).not.toContain('key_hash');
  });

  it('revoke is immediate and permanent; members see and revoke only their own keys, admins all', async () => {
    const a = await h.workspace('keys-revoke');
    const m1 = await a.userWithKey('member');
    const m2 = await a.userWithKey('member');
    const own = await a.as(m1.key)('GET', '/api-keys');
    expect(own.body.data.map((k: { id: string }) => k.id)).toEqual([m1.keyId]);
    expect((await a.as(m1.key)('GET', `/api-keys?user_id=${m2.user.id}`)).status).toBe(403);
    expect((await a.as(m1.key)('POST', `/api-keys/${m2.keyId}/revoke`)).status).toBe(404);
    const all = await a.api('GET', '/api-keys');
    expect(all.body.data.map((k: { id: string }) => k.id)).toEqual(
      expect.arrayContaining([m1.keyId, m2.keyId, a.adminKeyId]),
    );
    const rv = await a.api('POST', `/api-keys/${m2.keyId}/revoke`);
    expect(rv.body).toMatchObject({ id: m2.keyId, status: 'revoked' });
    const after = await a.as(m2.key)('GET', '/monitors');
    expect(after.status).toBe(401);
    expect(after.body.error.message).toBe('API key has been revoked.');
    const again = await a.api('POST', `/api-keys/${m2.keyId}/revoke`);
    expect(again.body.revoked_at).toBe(rv.body.revoked_at);
    expect((await a.as(m2.key)('GET', '/monitors')).status).toBe(401);
    const b = await h.workspace('keys-revoke-other');
    expect((await b.api('POST', `/api-keys/${m1.keyId}/revoke`)).status).toBe(404);
    expect((await a.as(m1.key)('GET', '/monitors')).status).toBe(200);
  });

  it('a key acts as its user with that user’s role', async () => {
    const a = await h.workspace('keys-roles');
    const viewer = await a.userWithKey('viewer');
    const member = await a.userWithKey('member');
    const body = { display_name: 'x', monitor_type: 'tcp', url: 'db.example.com', port: 5432 };
    const v = await a.as(viewer.key)('POST', '/monitors/create', { json: body });
    expect(v.status).toBe(403);
    expect(v.body.error.code).toBe('forbidden');
    expect((await a.as(viewer.key)('GET', '/monitors')).status).toBe(200);
    expect((await a.as(member.key)('POST', '/monitors/create', { json: body })).status).toBe(201);
    expect(
      (await a.as(viewer.key)('POST', '/alerts/resolve', { json: { UUIDs: [crypto.randomUUID()] } })).status,
    ).toBe(403);
  });

  it('the legacy key is listed separately, keeps working, and regenerating it kills the old value', async () => {
    const a = await h.workspace('keys-legacy');
    const s = await signIn(a.host, a.admin.email, a.password);
    const regenerate = async () => {
      const r = await s.call('POST', '/api-keys/legacy/regenerate');
      expect(r.status, r.text).toBe(201);
      return { value: r.body.key as string };
    };
    const first = await regenerate();
    expect((await a.as(first.value)('GET', '/monitors')).status).toBe(200);
    const list = await a.api('GET', '/api-keys');
    expect(list.body.legacy_keys).toHaveLength(1);
    expect(list.body.legacy_keys[0]).toMatchObject({ kind: 'legacy', last_four: first.value.slice(-4) });
    expect(list.body.data.every((k: { kind: string }) => k.kind === 'named')).toBe(true);
    const second = await regenerate();
    expect((await a.as(first.value)('GET', '/monitors')).status).toBe(401);
    expect((await a.as(second.value)('GET', '/monitors')).status).toBe(200);
    const list2 = await a.api('GET', '/api-keys');
    expect(list2.body.legacy_keys.map((k: { last_four: string }) => k.last_four)).toEqual([
      second.value.slice(-4),
    ]);
  });
});
