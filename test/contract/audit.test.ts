/**
 * AuditStore contract: entries round-trip, newest first in keyset pages, filtered by actor (id, name or
 * the user behind a key), resource type, action and time, each workspace's its own; pruned by age in
 * batches. And the one-step rule: a request's draft is written by the transaction that commits its
 * change, so a failed change leaves no entry and a failed entry leaves no change.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import { newDraft, withAuditDraft } from '../../control-plane/src/domain/audit/audit-scope.js';
import type { AuditEntry } from '../../control-plane/src/domain/audit/audit-store.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, fixtures } from './fixtures.js';
import { contract } from './stores.js';

const entry = (workspaceId: string, s: number, over: Partial<AuditEntry> = {}): AuditEntry => ({
  id: randomUUID(),
  workspace_id: workspaceId,
  at: at(s),
  actor: { type: 'user', id: 'u1', name: 'ada@example.com' },
  ip: '203.0.113.9',
  user_agent: 'curl/8',
  action: 'monitor.update',
  resource_type: 'monitor',
  resource_id: 'm1',
  changes: { name: ['a', 'b'], 'headers.x$y': [{ 'a.b': 1 }, null] },
  ...over,
});

contract('AuditStore', (c) => {
  let store: Store;
  let ws: ReturnType<typeof fixtures.workspace>;
  beforeEach(() => {
    ({ store, ws } = c());
  });
  const all = async (f: Parameters<Store['listAuditEntries']>[1] = {}, workspaceId = ws.workspace.id) =>
    (await store.listAuditEntries(workspaceId, f, { limit: 100 })).data.map((e) => e.id);
  const draft = (over: Partial<Parameters<typeof newDraft>[0]> = {}) =>
    newDraft({
      workspace_id: ws.workspace.id,
      at: at(50),
      actor: { type: 'api_key', id: 'k1', name: 'deploy', user_id: 'u1' },
      ip: null,
      user_agent: null,
      action: 'group.create',
      resource_type: 'group',
      resource_id: null,
      changes: { name: [null, 'Core'] },
      ...over,
    });

  it('round-trips entries newest first, in keyset pages, and keeps other workspaces out', async () => {
    const es = [1, 2, 2, 3, 4].map((s) => entry(ws.workspace.id, s));
    for (const e of es) await store.appendAuditEntry(e);
    const keyed = entry(ws.workspace.id, 5, {
      actor: { type: 'api_key', id: 'k1', name: 'deploy', user_id: 'u1' },
      changes: null,
      ip: null,
      user_agent: null,
      resource_id: null,
    });
    await store.appendAuditEntry(keyed);
    const first = await store.listAuditEntries(ws.workspace.id, {}, { limit: 2 });
    expect(first.data[0]).toEqual(keyed);
    expect(first.data[1]).toEqual(es[4]);
    const seen = [...first.data.map((e) => e.id)];
    let cursor = first.next_cursor;
    while (cursor) {
      const p = await store.listAuditEntries(ws.workspace.id, {}, { limit: 2, cursor });
      seen.push(...p.data.map((e) => e.id));
      cursor = p.next_cursor;
    }
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect(await all({}, other.workspace.id)).toEqual([]);
  });

  it('filters by actor (id, name or the user behind a key), resource type, action and time', async () => {
    const a = entry(ws.workspace.id, 1);
    const b = entry(ws.workspace.id, 2, {
      actor: { type: 'api_key', id: 'k9', name: 'deploy', user_id: 'u7' },
      action: 'channel.delete',
      resource_type: 'channel',
    });
    const d = entry(ws.workspace.id, 3, { action: 'session.sign_in', resource_type: 'session' });
    for (const e of [a, b, d]) await store.appendAuditEntry(e);
    expect(await all({ actor: 'u1' })).toEqual([d.id, a.id]);
    expect(await all({ actor: 'ada@example.com' })).toEqual([d.id, a.id]);
    expect(await all({ actor: 'k9' })).toEqual([b.id]);
    expect(await all({ actor: 'deploy' })).toEqual([b.id]);
    expect(await all({ actor: 'u7' })).toEqual([b.id]);
    expect(await all({ resource_type: 'channel' })).toEqual([b.id]);
    expect(await all({ action: 'session.sign_in' })).toEqual([d.id]);
    expect(await all({ from: at(2), to: at(3) })).toEqual([b.id]);
    expect(await all({ from: at(2) })).toEqual([d.id, b.id]);
    expect(await all({ to: at(2) })).toEqual([a.id]);
  });

  it('prunes entries older than the cut, at most `limit` at a time', async () => {
    for (const s of [1, 2, 3, 10]) await store.appendAuditEntry(entry(ws.workspace.id, s));
    expect(await store.pruneAuditEntries(at(5), 2)).toBe(2);
    expect(await store.pruneAuditEntries(at(5), 2)).toBe(1);
    expect(await store.pruneAuditEntries(at(5), 2)).toBe(0);
    expect(await all()).toHaveLength(1);
  });

  it('writes the request draft in the step that commits the change, naming a created record', async () => {
    const d = draft();
    const g = fixtures.group(ws.workspace.id, { name: 'Core' });
    d.resource_id = g.id;
    await withAuditDraft(d, () => store.insertGroup(g, { maxGroups: 10 }));
    expect(d.written).toBe(true);
    const [e] = (await store.listAuditEntries(ws.workspace.id, {}, { limit: 10 })).data;
    expect(e).toMatchObject({ id: d.id, action: 'group.create', resource_id: g.id });
    // A second step of the same request writes no second entry.
    await withAuditDraft(d, () => store.deleteGroup(ws.workspace.id, g.id, at(60)));
    expect(await all()).toHaveLength(1);
  });

  it('a change refused in its step (a unique conflict) leaves no entry', async () => {
    await store.insertGroup(fixtures.group(ws.workspace.id, { name: 'Core' }), { maxGroups: 10 });
    const d = draft();
    expect(
      await withAuditDraft(d, () =>
        store.insertGroup(fixtures.group(ws.workspace.id, { name: 'CORE' }), { maxGroups: 10 }),
      ),
    ).toBe('name_taken');
    expect(d.written).toBe(false);
    expect(await all()).toEqual([]);
    // Nothing to delete: no entry either.
    expect(await withAuditDraft(d, () => store.deleteGroup(ws.workspace.id, randomUUID(), at(60)))).toBe(
      false,
    );
    expect(await all()).toEqual([]);
  });

  it('an entry that cannot be written leaves no change', async () => {
    const taken = entry(ws.workspace.id, 1);
    await store.appendAuditEntry(taken);
    const d = draft();
    d.id = taken.id; // the entry's insert fails on its primary key
    const g = fixtures.group(ws.workspace.id, { name: 'Edge' });
    await expect(withAuditDraft(d, () => store.insertGroup(g, { maxGroups: 10 }))).rejects.toThrow();
    expect(d.written).toBe(false);
    expect(await store.getGroup(ws.workspace.id, g.id)).toBeNull();
    expect(await all()).toEqual([taken.id]);
  });
});
