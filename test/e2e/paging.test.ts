import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNamedKey, regenerateLegacyKey } from '../../control-plane/src/domain/access/api-keys.js';
import { type Harness, startHarness } from '../support/harness.js';

/** Every list pages the same way: `limit`, `cursor`, `{"data", "next_cursor"}`. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Api = Awaited<ReturnType<Harness['workspace']>>['api'];

/** Walks a list page by page; checks each page's size and that the last one says there is no more. */
const walk = async (api: Api, path: string, limit: number) => {
  // biome-ignore lint/suspicious/noExplicitAny: JSON from the API
  const pages: any[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const r = await api(
      'GET',
      `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.length).toBeLessThanOrEqual(limit);
    expect(r.body).toHaveProperty('next_cursor');
    pages.push(r.body);
    cursor = r.body.next_cursor;
  } while (cursor);
  return pages;
};

describe('lists page with limit and cursor', () => {
  it('GET /heartbeats/{uuid}/pings: every ping once, newest first, beyond the latest 100', async () => {
    const w = await h.workspace('page-pings');
    const hb = (await w.api('POST', '/heartbeats', { json: { display_name: 'job' } })).body;
    // (times after the heartbeat was made: a ping cannot predate its heartbeat)
    h.clock.advance(1000_000);
    const base = Math.floor(h.clock.now().getTime() / 1000) - 500;
    for (let i = 0; i < 130; i++) {
      // each with its own time; a few share one (ties are broken by id)
      const r = await h.request('POST', `/hb/ping/${hb.id}`, {
        json: { timestamp: base + Math.floor(i / 3) },
      });
      expect(r.status).toBe(200);
    }
    const pages = await walk(w.api, `/heartbeats/${hb.id}/pings`, 50);
    expect(pages.map((p) => p.data.length)).toEqual([50, 50, 30]);
    const all = pages.flatMap((p) => p.data);
    expect(new Set(all.map((p: { id: string }) => p.id)).size).toBe(130);
    const times = all.map((p: { at: string }) => Date.parse(p.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const bad = await w.api('GET', `/heartbeats/${hb.id}/pings?cursor=nonsense`);
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toBe('cursor');
  });

  it('GET /api-keys: named keys paged; the legacy key listed separately on every page', async () => {
    const w = await h.workspace('page-keys');
    for (let i = 0; i < 4; i++) {
      h.clock.advance(1000);
      await createNamedKey(h.store, w.workspace, w.admin, { name: `k${i}`, expiry: 'none' }, h.clock.now());
    }
    const legacy = await regenerateLegacyKey(h.store, w.workspace, w.admin, h.clock.now());
    const pages = await walk(w.api, '/api-keys', 2);
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    const names = pages.flatMap((p) => p.data.map((k: { name: string }) => k.name));
    expect(names).toEqual(['k3', 'k2', 'k1', 'k0', 'admin key']);
    for (const p of pages) {
      expect(p.legacy_keys.map((k: { id: string }) => k.id)).toEqual([legacy.record.id]);
      expect(p.data.every((k: { kind: string }) => k.kind === 'named')).toBe(true);
    }
  });

  it('GET /users (admins): id, email, role, status, invitation_expires_at, created_at and sign-in activity, paged; members get 403', async () => {
    const w = await h.workspace('page-users');
    h.clock.advance(1000);
    const member = await w.userWithKey('member', 'm@page-users.test');
    h.clock.advance(1000);
    await w.userWithKey('viewer', 'v@page-users.test');
    const pages = await walk(w.api, '/users', 2);
    const users = pages.flatMap((p) => p.data);
    expect(users.map((u: { email: string; role: string }) => [u.email, u.role])).toEqual([
      ['v@page-users.test', 'viewer'],
      ['m@page-users.test', 'member'],
      ['admin@page-users.test', 'admin'],
    ]);
    expect(Object.keys(users[0]).sort()).toEqual([
      'created_at',
      'email',
      'failed_sign_ins',
      'id',
      'invitation_expires_at',
      'last_sign_in_at',
      'role',
      'status',
    ]);
    expect(users[2].id).toBe(w.admin.id);
    expect((await w.as(member.key)('GET', '/users')).status).toBe(403);
  });

  it('GET /escalation-policies, /channels, /maintenance-windows page too', async () => {
    const w = await h.workspace('page-routing');
    for (let i = 0; i < 3; i++) {
      h.clock.advance(1000);
      await w.api('POST', '/channels', {
        json: { name: `mail ${i}`, type: 'email', config: { addresses: [`ops${i}@page.test`] } },
      });
      await w.api('POST', '/escalation-policies', {
        json: { name: `policy ${i}`, steps: [{ wait_minutes: 0, notify_user_ids: [w.admin.id] }] },
      });
      const start = new Date(h.clock.now().getTime() + (i + 1) * 3_600_000);
      await w.api('POST', '/maintenance-windows', {
        json: {
          name: `window ${i}`,
          scope_type: 'workspace',
          starts_at: start.toISOString(),
          ends_at: new Date(start.getTime() + 600_000).toISOString(),
        },
      });
    }
    const names = async (path: string) =>
      (await walk(w.api, path, 2)).flatMap((p) => p.data.map((x: { name: string }) => x.name));
    expect(await names('/channels')).toEqual(['mail 2', 'mail 1', 'mail 0']);
    expect(await names('/escalation-policies')).toEqual(['policy 2', 'policy 1', 'policy 0', 'Default']);
    expect(await names('/maintenance-windows')).toEqual(['window 2', 'window 1', 'window 0']);
  });
});
