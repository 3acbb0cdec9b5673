import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PING_OK } from '../../control-plane/src/http/pings/routes.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';
import { type Harness, startHarness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('heartbeats and pings (spec 4.2, 5.8)', () => {
  it('create, list, get, update, delete; the record carries its ping URL', async () => {
    const w = await h.workspace('hb-crud');
    const c = await w.api('POST', '/heartbeats', {
      json: { display_name: 'nightly backup', period_seconds: 86400, grace_seconds: 1800 },
    });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({
      display_name: 'nightly backup',
      period_seconds: 86400,
      grace_seconds: 1800,
      state: 'new',
      last_ping_at: null,
    });
    expect(c.body.ping_url).toBe(`http://${w.host}:${h.cp.port}/hb/ping/${c.body.id}`);
    expect((await w.api('GET', '/heartbeats')).body.data.map((x: { id: string }) => x.id)).toEqual([
      c.body.id,
    ]);
    const u = await w.api('PATCH', `/heartbeats/${c.body.id}`, { json: { period_seconds: 3600 } });
    expect(u.body).toMatchObject({ period_seconds: 3600, grace_seconds: 1800, version: 2 });
    const bad = await w.api('PATCH', `/heartbeats/${c.body.id}`, { json: { period_seconds: 5, grace: 1 } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'grace',
      'period_seconds',
    ]);
    const other = await h.workspace('hb-crud-other');
    expect((await other.api('GET', `/heartbeats/${c.body.id}`)).status).toBe(404);
    expect((await other.api('DELETE', `/heartbeats/${c.body.id}`)).status).toBe(404);
    expect((await w.api('DELETE', `/heartbeats/${c.body.id}`)).status).toBe(204);
    expect((await w.api('GET', `/heartbeats/${c.body.id}`)).status).toBe(404);
  });

  it('POST and GET pings, under /api/v1 and at the root, without a key; the ping is durable before the 200', async () => {
    const w = await h.workspace('hb-ping');
    const hb = (await w.api('POST', '/heartbeats', { json: { display_name: 'job' } })).body;
    const paths = [`/hb/ping/${hb.id}`, `/api/v1/hb/ping/${hb.id}`];
    for (const path of paths) {
      for (const method of ['POST', 'GET']) {
        const r = await h.request(method, path, { host: 'anything.example' });
        expect(r.status, `${method} ${path}`).toBe(200);
        expect(r.body).toEqual({ message: 'Ping recorded.', status: 'ok' });
      }
    }
    // A second, independent connection to the same file sees every acknowledged ping.
    const reader = createSqliteStore({ path: join(h.dir, 'lookout.db') });
    await reader.init();
    expect((await reader.listPings(w.workspace.id, hb.id, { limit: 10 })).data.length).toBe(4);
    expect((await reader.findHeartbeat(hb.id))?.state).toBe('up');
    await reader.close();
  });

  it('HEAD pings like GET (as Healthchecks): recorded, 200 with headers and no body; errors too', async () => {
    const w = await h.workspace('hb-head');
    const hb = (await w.api('POST', '/heartbeats', { json: { display_name: 'job' } })).body;
    for (const path of [`/hb/ping/${hb.id}`, `/api/v1/hb/ping/${hb.id}/start`, `/hb/ping/${hb.id}/0`]) {
      const r = await h.request('HEAD', path);
      expect(r.status, path).toBe(200);
      expect(r.text).toBe('');
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(r.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(PING_OK))));
    }
    const pings = (await w.api('GET', `/heartbeats/${hb.id}/pings`)).body.data as { kind: string }[];
    expect(pings.map((p) => p.kind).sort()).toEqual(['start', 'success', 'success']);
    expect((await w.api('GET', `/heartbeats/${hb.id}`)).body.state).toBe('up');
    const unknown = await h.request('HEAD', `/hb/ping/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('');
    expect((await h.request('HEAD', `/hb/ping/${hb.id}/256`)).status).toBe(422);
  });

  it('a client timestamp becomes the recorded ping time', async () => {
    const w = await h.workspace('hb-ts');
    const hb = (await w.api('POST', '/heartbeats', { json: { display_name: 'job' } })).body;
    // The job finished two minutes ago, after the heartbeat was created (an earlier time is refused).
    h.clock.advance(300_000);
    const finished = Math.floor(h.clock.now().getTime() / 1000) - 120;
    const r = await h.request('POST', `/hb/ping/${hb.id}`, { json: { timestamp: finished } });
    expect(r.status).toBe(200);
    const got = (await w.api('GET', `/heartbeats/${hb.id}`)).body;
    expect(got.last_ping_at).toBe(new Date(finished * 1000).toISOString());
    const pings = (await w.api('GET', `/heartbeats/${hb.id}/pings`)).body.data;
    expect(pings[0]).toMatchObject({
      at: new Date(finished * 1000).toISOString(),
      received_at: h.clock.now().toISOString(),
    });
  });

  it('refuses non-integer, negative, far-future and mistyped timestamps, and records nothing', async () => {
    const w = await h.workspace('hb-badts');
    const hb = (await w.api('POST', '/heartbeats', { json: { display_name: 'job' } })).body;
    const now = Math.floor(h.clock.now().getTime() / 1000);
    for (const timestamp of [1.5, -1, now + 3600, '1700000000', null]) {
      const r = await h.request('POST', `/hb/ping/${hb.id}`, { json: { timestamp } });
      expect(r.status, String(timestamp)).toBe(422);
      expect(r.body.error.details[0].field).toBe('timestamp');
    }
    const extra = await h.request('POST', `/hb/ping/${hb.id}`, { json: { timestamp: now, exit: 0 } });
    expect(extra.status).toBe(422);
    const broken = await h.request('POST', `/hb/ping/${hb.id}`, {
      raw: '{"timestamp":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect((await w.api('GET', `/heartbeats/${hb.id}/pings`)).body.data).toEqual([]);
    // a small clock skew ahead is accepted
    expect((await h.request('POST', `/hb/ping/${hb.id}`, { json: { timestamp: now + 60 } })).status).toBe(
      200,
    );
    // a non-JSON body (job output) is kept with the ping, not refused
    expect(
      (
        await h.request('POST', `/hb/ping/${hb.id}`, {
          raw: 'backup ok',
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(200);
    const kept = (await w.api('GET', `/heartbeats/${hb.id}/pings`)).body.data;
    expect(kept.map((p: { body: string | null }) => p.body)).toContain('backup ok');
  });

  it('an unknown uuid gets a 404 JSON error', async () => {
    for (const id of [crypto.randomUUID(), 'not-a-uuid']) {
      const r = await h.request('POST', `/hb/ping/${id}`);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
  });

  it('many concurrent pings are all acknowledged and all stored (group commit)', async () => {
    const w = await h.workspace('hb-burst');
    const hb = (await w.api('POST', '/heartbeats', { json: { display_name: 'busy' } })).body;
    const replies = await Promise.all(
      Array.from({ length: 200 }, () => h.request('GET', `/hb/ping/${hb.id}`)),
    );
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect((await h.store.listPings(w.workspace.id, hb.id, { limit: 1000 })).data.length).toBe(200);
  });
});
