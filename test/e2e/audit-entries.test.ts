import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * What an entry records, through the real API: the actor (API key by name, session user), the
 * address (X-Forwarded-For behind a trusted proxy) and user agent, the resource and its id, the
 * before/after with secrets redacted; sign-ins and failed sign-ins (known and unknown email) with how
 * they were made; and nothing for a change that was refused.
 */

let h: Harness;
let w: Awaited<ReturnType<Harness['workspace']>>;
beforeAll(async () => {
  h = await startHarness({ trust_proxy: true });
  w = await h.workspace('audit-entries', 'business');
}, 60_000);
afterAll(() => h.close());

/** Entries share the harness's manual clock: each step moves it so the newest is the last. */
const tick = () => h.clock.advance(1000);
const newest = async (n = 1) => (await w.api('GET', `/audit-log?limit=${n}`)).body.data;

describe('audit entries', () => {
  it('records the API key, address, user agent, resource and the redacted before/after', async () => {
    const headers = { 'x-forwarded-for': '198.51.100.23', 'user-agent': `deploy-bot/1.0 ${'x'.repeat(600)}` };
    const made = await w.api('POST', '/channels', {
      headers,
      json: {
        name: 'Hooks',
        type: 'webhook',
        config: { url: 'https://hooks.example.test/T0/B0/s3cr3t-path' },
      },
    });
    expect(made.status, made.text).toBe(201);
    const [created] = await newest();
    expect(created).toMatchObject({
      actor: { type: 'api_key', id: w.adminKeyId, name: 'admin key' },
      ip: '198.51.100.23',
      action: 'channel.create',
      resource_type: 'channel',
      resource_id: made.body.id,
      changes: { name: [null, 'Hooks'], type: [null, 'webhook'], config: [null, { url: '[redacted]' }] },
    });
    expect(created.user_agent).toHaveLength(512);
    expect(JSON.stringify(created)).not.toContain('s3cr3t');

    tick();
    const renamed = await w.api('PATCH', `/channels/${made.body.id}`, { json: { name: 'Hooks 2' } });
    expect(renamed.status).toBe(200);
    const [updated] = await newest();
    expect(updated).toMatchObject({
      action: 'channel.update',
      resource_id: made.body.id,
      changes: { name: ['Hooks', 'Hooks 2'] },
    });
    expect(Object.keys(updated.changes)).toEqual(['name']);

    tick();
    expect((await w.api('DELETE', `/channels/${made.body.id}`)).status).toBe(204);
    const [deleted] = await newest();
    expect(deleted).toMatchObject({ action: 'channel.delete', resource_id: made.body.id });
    expect(deleted.changes.name).toEqual(['Hooks 2', null]);
    expect(JSON.stringify(deleted)).not.toContain('s3cr3t');
  });

  it('writes nothing for a refused change (a conflict, bad input, a missing record)', async () => {
    tick();
    await w.api('POST', '/groups', { json: { name: 'Core' } });
    const [before] = await newest();
    expect((await w.api('POST', '/groups', { json: { name: 'CORE' } })).status).toBe(409);
    expect((await w.api('POST', '/groups', { json: { name: '' } })).status).toBe(422);
    expect((await w.api('DELETE', '/groups/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await newest())[0].id).toBe(before.id);
  });

  it('records sign-ins, failed ones for known and unknown emails, and sign-outs by the session user', async () => {
    tick();
    const signIn = (email: string, password: string) =>
      h.request('POST', '/api/v1/session', {
        host: w.host,
        json: { email, password },
        headers: { 'x-forwarded-for': '203.0.113.50', 'user-agent': 'Firefox' },
      });
    expect((await signIn(w.admin.email, 'wrong password')).status).toBe(401);
    tick();
    expect((await signIn('nobody@audit-entries.test', 'guess')).status).toBe(401);
    tick();
    const ok = await signIn(w.admin.email, w.password);
    expect(ok.status).toBe(201);
    const [success, unknown, known] = await newest(3);
    expect(known).toMatchObject({
      action: 'session.sign_in_failed',
      actor: { type: 'user', id: w.admin.id, name: w.admin.email },
      ip: '203.0.113.50',
      user_agent: 'Firefox',
      resource_type: 'session',
      changes: { via: [null, 'password'] },
    });
    expect(unknown).toMatchObject({
      action: 'session.sign_in_failed',
      actor: { type: 'user', id: null, name: 'nobody@audit-entries.test' },
    });
    expect(success).toMatchObject({
      action: 'session.sign_in',
      actor: { type: 'user', id: w.admin.id, name: w.admin.email },
      resource_type: 'session',
      changes: { via: [null, 'password'] },
    });
    // A sign-in names the session it made; a failed one names none.
    expect(success!.resource_id).toEqual(expect.any(String));
    expect(success!.resource_id).not.toBe(w.admin.id);
    expect(known!.resource_id).toBeNull();
    const log = JSON.stringify(await newest(3));
    expect(log).not.toContain('wrong password');
    expect(log).not.toContain(w.password);

    tick();
    const cookie = String(ok.headers['set-cookie']).split(';')[0]!;
    const out = await h.request('DELETE', '/api/v1/session', {
      host: w.host,
      headers: { cookie, 'x-csrf-token': ok.body.csrf_token },
    });
    expect(out.status).toBe(204);
    const [signOut] = await newest();
    expect(signOut).toMatchObject({
      action: 'session.sign_out',
      actor: { type: 'user', id: w.admin.id, name: w.admin.email },
      resource_type: 'session',
    });
    // Signing out ends the very session the sign-in made.
    expect(signOut!.resource_id).toBe(success!.resource_id);
  });

  it('a client throttled on sign-in cannot fill the log: its refusals are entries ten a minute at most', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++)
      statuses.push(
        (
          await h.request('POST', '/api/v1/session', {
            host: w.host,
            json: { email: `spray-${i}@audit-entries.test`, password: 'guess' },
            headers: { 'x-forwarded-for': '192.0.2.99' },
          })
        ).status,
      );
    const refused = statuses.filter((s) => s === 429).length;
    expect(refused).toBeGreaterThan(20);
    const logged = (
      await h.store.listAuditEntries(w.workspace.id, { action: 'session.sign_in_failed' }, { limit: 100 })
    ).data.filter((e) => e.ip === '192.0.2.99');
    expect(logged.length).toBe(60 - refused + 10);
  });
});
