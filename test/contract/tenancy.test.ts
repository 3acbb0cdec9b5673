/**
 * TenancyStore contract: workspaces, users, API keys.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import type { ApiKey, User } from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, fixtures, T0 } from './fixtures.js';
import { contract } from './stores.js';

contract('TenancyStore', (c) => {
  let store: Store;
  let ws: ReturnType<typeof fixtures.workspace>;
  beforeEach(() => {
    ({ store, ws } = c());
  });

  it('creates a workspace with its admin and default policy, found by subdomain', async () => {
    expect(await store.getWorkspaceBySubdomain(ws.workspace.subdomain)).toEqual(ws.workspace);
    expect(await store.getWorkspace(ws.workspace.id)).toEqual(ws.workspace);
    expect(await store.getUserByEmail(ws.workspace.id, ws.admin.email)).toEqual(ws.admin);
    expect(await store.getDefaultEscalationPolicy(ws.workspace.id)).toEqual(ws.defaultPolicy);
    expect(await store.getEscalationPolicy(ws.workspace.id, ws.defaultPolicy.id)).toEqual(ws.defaultPolicy);
  });

  it('names the only workspace while there is one, none once there are two', async () => {
    expect(await store.getOnlyWorkspace()).toEqual(ws.workspace);
    await store.createWorkspace(fixtures.workspace());
    expect(await store.getOnlyWorkspace()).toBeNull();
  });

  it('refuses a taken subdomain and writes nothing of the second workspace', async () => {
    const dup = fixtures.workspace(ws.workspace.subdomain);
    await expect(store.createWorkspace(dup)).rejects.toMatchObject({ code: 'conflict' });
    expect(await store.getWorkspace(dup.workspace.id)).toBeNull();
    expect(await store.getUser(dup.workspace.id, dup.admin.id)).toBeNull();
    expect(await store.getDefaultEscalationPolicy(dup.workspace.id)).toBeNull();
  });

  it('refuses a second user with the same email in a workspace, allows it in another', async () => {
    const u = { ...ws.admin, id: randomUUID(), role: 'viewer' as const };
    await expect(store.createUser(u)).rejects.toMatchObject({ code: 'conflict' });
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    await store.createUser({ ...u, workspace_id: other.workspace.id });
    expect((await store.listUsers(other.workspace.id, { limit: 10 })).data.length).toBe(2);
    expect(await store.getUser(ws.workspace.id, u.id)).toBeNull();
  });

  it('pages users newest first, ties broken by id; every user once', async () => {
    const more: User[] = [1, 2, 2, 3].map((s, i) => ({
      ...ws.admin,
      id: randomUUID(),
      email: `u${i}@page.test`,
      role: 'viewer',
      created_at: at(s),
    }));
    for (const u of more) await store.createUser(u);
    const seen: User[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.listUsers(ws.workspace.id, { limit: 2, cursor });
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen.map((u) => u.id)).toEqual(
      [...more, ws.admin]
        .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1))
        .map((u) => u.id),
    );
    expect((await store.listUsers(randomUUID(), { limit: 10 })).data).toEqual([]);
  });

  it('finds a key by hash and round-trips every field', async () => {
    const k = fixtures.apiKey(ws.workspace.id, ws.admin.id, { expires_at: at(3600) });
    expect(await store.insertApiKey(k, { maxActive: 25, now: T0 })).toBe('inserted');
    expect(await store.findApiKeyByHash(k.key_hash)).toEqual(k);
    expect(await store.getApiKey(ws.workspace.id, k.id)).toEqual(k);
    expect(await store.findApiKeyByHash('0'.repeat(64))).toBeNull();
  });

  it('counts only active named keys against the cap: revoked and expired ones free a slot', async () => {
    const mk = (over: Partial<ApiKey> = {}) => fixtures.apiKey(ws.workspace.id, ws.admin.id, over);
    await store.insertApiKey(mk(), { maxActive: 3, now: T0 });
    const revoked = mk();
    await store.insertApiKey(revoked, { maxActive: 3, now: T0 });
    await store.insertApiKey(mk({ expires_at: at(10) }), { maxActive: 3, now: T0 });
    expect(await store.insertApiKey(mk(), { maxActive: 3, now: T0 })).toBe('limit_reached');
    await store.revokeApiKey(ws.workspace.id, revoked.id, T0);
    expect(await store.insertApiKey(mk(), { maxActive: 3, now: T0 })).toBe('inserted');
    expect(await store.insertApiKey(mk(), { maxActive: 3, now: at(5) })).toBe('limit_reached');
    expect(await store.insertApiKey(mk(), { maxActive: 3, now: at(10) })).toBe('inserted');
    // legacy keys do not count
    await store.replaceLegacyKey(mk({ kind: 'legacy' }), T0);
    expect(await store.insertApiKey(mk(), { maxActive: 3, now: at(10) })).toBe('limit_reached');
  });

  it('enforces the cap under concurrent inserts', async () => {
    const attempts = Array.from({ length: 10 }, () =>
      store.insertApiKey(fixtures.apiKey(ws.workspace.id, ws.admin.id), { maxActive: 4, now: T0 }),
    );
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((o) => o === 'inserted').length).toBe(4);
    expect((await store.listApiKeys(ws.workspace.id, { limit: 100 })).data.length).toBe(4);
  });

  it('revokes once: a second revoke keeps the first time', async () => {
    const k = fixtures.apiKey(ws.workspace.id, ws.admin.id);
    await store.insertApiKey(k, { maxActive: 25, now: T0 });
    expect((await store.revokeApiKey(ws.workspace.id, k.id, at(1)))?.revoked_at).toEqual(at(1));
    expect((await store.revokeApiKey(ws.workspace.id, k.id, at(2)))?.revoked_at).toEqual(at(1));
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect(await store.revokeApiKey(other.workspace.id, k.id, at(3))).toBeNull();
  });

  it('regenerating the legacy key revokes the old one', async () => {
    const a = fixtures.apiKey(ws.workspace.id, ws.admin.id, { kind: 'legacy', name: 'Legacy key' });
    const b = fixtures.apiKey(ws.workspace.id, ws.admin.id, { kind: 'legacy', name: 'Legacy key' });
    await store.replaceLegacyKey(a, T0);
    await store.replaceLegacyKey(b, at(5));
    expect((await store.findApiKeyByHash(a.key_hash))?.revoked_at).toEqual(at(5));
    expect((await store.findApiKeyByHash(b.key_hash))?.revoked_at).toBeNull();
  });

  it('lists a user’s keys or the workspace’s, newest first', async () => {
    const u: User = { ...ws.admin, id: randomUUID(), email: 'm@x.test', role: 'member' };
    await store.createUser(u);
    const k1 = fixtures.apiKey(ws.workspace.id, ws.admin.id, { created_at: at(1) });
    const k2 = fixtures.apiKey(ws.workspace.id, u.id, { created_at: at(2) });
    await store.insertApiKey(k1, { maxActive: 25, now: T0 });
    await store.insertApiKey(k2, { maxActive: 25, now: T0 });
    const ids = async (q: Omit<Parameters<Store['listApiKeys']>[1], 'limit'>) =>
      (await store.listApiKeys(ws.workspace.id, { limit: 10, ...q })).data.map((k) => k.id);
    expect(await ids({})).toEqual([k2.id, k1.id]);
    expect(await ids({ userId: u.id })).toEqual([k2.id]);
    // by kind: legacy keys are listed apart from named ones
    const legacy = fixtures.apiKey(ws.workspace.id, u.id, { kind: 'legacy', created_at: at(3) });
    await store.replaceLegacyKey(legacy, at(3));
    expect(await ids({ kind: 'named' })).toEqual([k2.id, k1.id]);
    expect(await ids({ kind: 'legacy' })).toEqual([legacy.id]);
    expect(await ids({ kind: 'legacy', userId: ws.admin.id })).toEqual([]);
  });

  it('pages keys newest first with a cursor; every key once', async () => {
    const keys = [1, 2, 2, 2, 3].map((s) =>
      fixtures.apiKey(ws.workspace.id, ws.admin.id, { created_at: at(s) }),
    );
    for (const k of keys) await store.insertApiKey(k, { maxActive: 25, now: T0 });
    const first = await store.listApiKeys(ws.workspace.id, { limit: 2, kind: 'named' });
    expect(first.data.map((k) => k.id)[0]).toBe(keys[4]!.id);
    const seen = [...first.data];
    let cursor = first.next_cursor ?? undefined;
    while (cursor) {
      const page = await store.listApiKeys(ws.workspace.id, { limit: 2, cursor, kind: 'named' });
      seen.push(...page.data);
      cursor = page.next_cursor ?? undefined;
    }
    expect(seen.map((k) => k.id).sort()).toEqual(keys.map((k) => k.id).sort());
    expect(seen.map((k) => k.created_at.getTime())).toEqual([3, 2, 2, 2, 1].map((s) => at(s).getTime()));
  });

  it('records last use, never moving it back', async () => {
    const k = fixtures.apiKey(ws.workspace.id, ws.admin.id);
    await store.insertApiKey(k, { maxActive: 25, now: T0 });
    await store.recordApiKeyUse(k.id, at(10), '10.0.0.1 curl/8');
    await store.recordApiKeyUse(k.id, at(5), 'older');
    const got = await store.getApiKey(ws.workspace.id, k.id);
    expect(got?.last_used_at).toEqual(at(10));
    expect(got?.last_used_from).toBe('10.0.0.1 curl/8');
  });
});
