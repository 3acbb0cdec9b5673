/**
 * GroupStore contract: groups (names unique per workspace ignoring case, a cap), the delete that
 * ungroups its members in the same step; and the tag and group filters of the monitor and heartbeat
 * lists, with the monitors' tag rows kept in step with every monitor write.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, fixtures } from './fixtures.js';
import { contract } from './stores.js';

contract('GroupStore', (c) => {
  let store: Store;
  let ws: ReturnType<typeof fixtures.workspace>;
  beforeEach(() => {
    ({ store, ws } = c());
  });
  const cap = { maxGroups: 1000 };
  const monitorIds = async (q: { tag?: string; group_id?: string }, workspaceId = ws.workspace.id) =>
    (await store.listMonitors(workspaceId, { limit: 100, ...q })).data.map((m) => m.id).sort();
  const heartbeatIds = async (q: { tag?: string; group_id?: string }) =>
    (await store.listHeartbeats(ws.workspace.id, { limit: 100, ...q })).data.map((h) => h.id).sort();

  it('round-trips a group, keeps other workspaces out, and refuses a name taken in any case', async () => {
    const g = fixtures.group(ws.workspace.id, { name: 'Edge Routers' });
    expect(await store.insertGroup(g, cap)).toBe('inserted');
    expect(await store.getGroup(ws.workspace.id, g.id)).toEqual(g);
    expect(await store.insertGroup(fixtures.group(ws.workspace.id, { name: 'EDGE routers' }), cap)).toBe(
      'name_taken',
    );
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect(await store.getGroup(other.workspace.id, g.id)).toBeNull();
    expect(await store.getGroupsByIds(other.workspace.id, [g.id])).toEqual([]);
    expect(await store.deleteGroup(other.workspace.id, g.id, at(1))).toBe(false);
    expect(await store.updateGroup({ ...g, workspace_id: other.workspace.id, name: 'x' })).toBe('not_found');
    // The same name in another workspace is its own.
    expect(await store.insertGroup(fixtures.group(other.workspace.id, { name: 'edge routers' }), cap)).toBe(
      'inserted',
    );
    expect((await store.getGroupsByIds(ws.workspace.id, [g.id, randomUUID()])).map((x) => x.id)).toEqual([
      g.id,
    ]);
  });

  it('renames, refusing a name another group has (ignoring case) and keeping its own in another case', async () => {
    const a = fixtures.group(ws.workspace.id, { name: 'Core' });
    const b = fixtures.group(ws.workspace.id, { name: 'Edge' });
    await store.insertGroup(a, cap);
    await store.insertGroup(b, cap);
    expect(await store.updateGroup({ ...b, name: 'CORE', updated_at: at(5) })).toBe('name_taken');
    expect((await store.getGroup(ws.workspace.id, b.id))?.name).toBe('Edge');
    expect(await store.updateGroup({ ...b, name: 'EDGE', updated_at: at(5) })).toBe('updated');
    expect(await store.getGroup(ws.workspace.id, b.id)).toEqual({ ...b, name: 'EDGE', updated_at: at(5) });
    // The old name is free again.
    expect(await store.insertGroup(fixtures.group(ws.workspace.id, { name: 'edge' }), cap)).toBe(
      'name_taken',
    );
    expect(await store.insertGroup(fixtures.group(ws.workspace.id, { name: 'Edge 2' }), cap)).toBe(
      'inserted',
    );
  });

  it('holds a workspace to its cap, also under concurrent inserts', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        store.insertGroup(fixtures.group(ws.workspace.id, { name: `g${i}` }), { maxGroups: 3 }),
      ),
    );
    expect(outcomes.filter((o) => o === 'inserted')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'limit_reached')).toHaveLength(3);
  });

  it('lists newest first in pages, and searches by a part of the name in any case', async () => {
    for (let i = 0; i < 5; i++)
      await store.insertGroup(fixtures.group(ws.workspace.id, { name: `Rack ${i}`, created_at: at(i) }), cap);
    const first = await store.listGroups(ws.workspace.id, { limit: 3 });
    expect(first.data.map((g) => g.name)).toEqual(['Rack 4', 'Rack 3', 'Rack 2']);
    const second = await store.listGroups(ws.workspace.id, { limit: 3, cursor: first.next_cursor! });
    expect(second.data.map((g) => g.name)).toEqual(['Rack 1', 'Rack 0']);
    expect(second.next_cursor).toBeNull();
    expect(
      (await store.listGroups(ws.workspace.id, { limit: 10, search: 'rACK 3' })).data.map((g) => g.name),
    ).toEqual(['Rack 3']);
  });

  it('a delete ungroups its monitors and heartbeats in the same step, moving their versions and the feed', async () => {
    const g = fixtures.group(ws.workspace.id);
    const keep = fixtures.group(ws.workspace.id, { name: 'Other' });
    await store.insertGroup(g, cap);
    await store.insertGroup(keep, cap);
    const inG = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, { group_id: g.id });
    const inKeep = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, { group_id: keep.id });
    await store.insertMonitors([inG, inKeep], { maxMonitors: 10 });
    const hb = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, { group_id: g.id });
    await store.insertHeartbeat(hb);
    expect(await monitorIds({ group_id: g.id })).toEqual([inG.id]);
    expect(await heartbeatIds({ group_id: g.id })).toEqual([hb.id]);
    const feedBefore = await store.latestMonitorChange();

    expect(await store.deleteGroup(ws.workspace.id, g.id, at(60))).toBe(true);
    expect(await store.getGroup(ws.workspace.id, g.id)).toBeNull();
    const m = await store.getMonitor(ws.workspace.id, inG.id);
    expect(m).toMatchObject({ group_id: null, version: inG.version + 1, updated_at: at(60) });
    expect(await store.getMonitor(ws.workspace.id, inKeep.id)).toEqual(inKeep);
    expect(await store.getHeartbeat(ws.workspace.id, hb.id)).toMatchObject({
      group_id: null,
      version: hb.version + 1,
    });
    const feed = await store.listMonitorChanges(feedBefore, 10);
    expect(feed.map((f) => [f.monitor_id, f.kind])).toEqual([[inG.id, 'changed']]);
    expect(await monitorIds({ group_id: 'none' })).toEqual([inG.id]);
    expect(await heartbeatIds({ group_id: 'none' })).toEqual([hb.id]);
    expect(await store.deleteGroup(ws.workspace.id, g.id, at(61))).toBe(false);
  });

  it('filters monitors by tag, kept in step by inserts, batches, updates and deletes', async () => {
    const a = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, { tags: ['env:prod', 'db'] });
    const b = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, { tags: ['env:staging'] });
    const c2 = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, { tags: ['env:prod'] });
    await store.insertMonitor(a, { maxMonitors: 10 });
    await store.insertMonitors([b, c2], { maxMonitors: 10 });
    expect(await monitorIds({ tag: 'env:prod' })).toEqual([a.id, c2.id].sort());
    expect(await monitorIds({ tag: 'db' })).toEqual([a.id]);
    // A tag is matched whole: a key alone does not match its key:value tags.
    expect(await monitorIds({ tag: 'env' })).toEqual([]);
    expect(
      await store.updateMonitor({ ...a, tags: ['env:staging'], version: a.version + 1 }, a.version),
    ).toBe('updated');
    expect(await monitorIds({ tag: 'env:prod' })).toEqual([c2.id]);
    expect(await monitorIds({ tag: 'db' })).toEqual([]);
    expect(await monitorIds({ tag: 'env:staging' })).toEqual([a.id, b.id].sort());
    // A refused update (stale version) changes no tag either.
    expect(await store.updateMonitor({ ...b, tags: ['x'], version: 9 }, 7)).toBe('conflict');
    expect(await monitorIds({ tag: 'x' })).toEqual([]);
    expect(await store.deleteMonitor(ws.workspace.id, b.id)).toBe(true);
    expect(await monitorIds({ tag: 'env:staging' })).toEqual([a.id]);
    // Another workspace's monitors with the tag are not listed, nor are its tags matched here.
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    const theirs = fixtures.monitor(other.workspace.id, other.defaultPolicy.id, { tags: ['env:staging'] });
    await store.insertMonitor(theirs, { maxMonitors: 10 });
    expect(await monitorIds({ tag: 'env:staging' })).toEqual([a.id]);
    expect(await monitorIds({ tag: 'env:staging' }, other.workspace.id)).toEqual([theirs.id]);
    // Tag and group filters combine.
    const g = fixtures.group(ws.workspace.id);
    await store.insertGroup(g, cap);
    const grouped = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, {
      tags: ['env:staging'],
      group_id: g.id,
    });
    await store.insertMonitor(grouped, { maxMonitors: 10 });
    expect(await monitorIds({ tag: 'env:staging', group_id: g.id })).toEqual([grouped.id]);
    expect(await monitorIds({ tag: 'env:staging', group_id: 'none' })).toEqual([a.id]);
  });

  it('keeps tag rows in step with the bulk steps too (updateMonitors, deleteMonitors)', async () => {
    const a = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, { tags: ['env:prod'] });
    const b = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, { tags: ['env:prod'] });
    await store.insertMonitors([a, b], { maxMonitors: 10 });
    expect(
      await store.updateMonitors(
        [
          { next: { ...a, tags: ['env:prod', 'db'], version: a.version + 1 }, expectedVersion: a.version },
          { next: { ...b, tags: [], version: b.version + 1 }, expectedVersion: b.version },
        ],
        ['tags'],
      ),
    ).toBe('updated');
    expect(await monitorIds({ tag: 'env:prod' })).toEqual([a.id]);
    expect(await monitorIds({ tag: 'db' })).toEqual([a.id]);
    expect(await store.deleteMonitors(ws.workspace.id, [{ id: a.id, version: a.version + 1 }])).toBe(
      'deleted',
    );
    expect(await monitorIds({ tag: 'db' })).toEqual([]);
    // A bulk step that fails on one record changes no tag of the others.
    const c2 = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, { tags: ['x'] });
    await store.insertMonitor(c2, { maxMonitors: 10 });
    expect(
      await store.updateMonitors(
        [
          { next: { ...c2, tags: ['y'], version: 2 }, expectedVersion: 1 },
          { next: { ...b, tags: ['y'], version: 9 }, expectedVersion: 8 },
        ],
        ['tags'],
      ),
    ).toBe('conflict');
    expect(await monitorIds({ tag: 'x' })).toEqual([c2.id]);
    expect(await monitorIds({ tag: 'y' })).toEqual([]);
  });

  it('filters heartbeats by tag and group, following edits', async () => {
    const g = fixtures.group(ws.workspace.id);
    await store.insertGroup(g, cap);
    const a = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, { tags: ['job:backup', 'nightly'] });
    const b = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, { tags: ['nightly'], group_id: g.id });
    await store.insertHeartbeat(a);
    await store.insertHeartbeat(b);
    expect(await store.getHeartbeat(ws.workspace.id, a.id)).toMatchObject({
      tags: ['job:backup', 'nightly'],
      group_id: null,
      severity: 'critical',
    });
    expect(await heartbeatIds({ tag: 'nightly' })).toEqual([a.id, b.id].sort());
    expect(await heartbeatIds({ tag: 'job:backup' })).toEqual([a.id]);
    expect(await heartbeatIds({ tag: 'nightly', group_id: g.id })).toEqual([b.id]);
    expect(
      await store.updateHeartbeat(
        { ...a, tags: [], group_id: g.id, severity: 'warning', version: a.version + 1 },
        a.version,
      ),
    ).toBe('updated');
    expect(await heartbeatIds({ tag: 'job:backup' })).toEqual([]);
    expect(await heartbeatIds({ group_id: g.id })).toEqual([a.id, b.id].sort());
    expect((await store.getHeartbeat(ws.workspace.id, a.id))?.severity).toBe('warning');
  });

  it("lists the members of groups for a status page: both kinds, bounded, only the workspace's", async () => {
    const a = fixtures.group(ws.workspace.id, { name: 'A' });
    const b = fixtures.group(ws.workspace.id, { name: 'B' });
    await store.insertGroup(a, cap);
    await store.insertGroup(b, cap);
    const inA = [0, 1, 2].map(() =>
      fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, { group_id: a.id }),
    );
    const inB = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, { group_id: b.id });
    const loose = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id);
    await store.insertMonitors([...inA, inB, loose], { maxMonitors: 10 });
    const hb = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, {
      group_id: a.id,
      state: 'down',
      last_ping_at: at(5),
    });
    await store.insertHeartbeat(hb);
    const members = await store.listGroupMembers(ws.workspace.id, [a.id, b.id], 100);
    expect(members.monitors.map((m) => [m.id, m.group_id]).sort()).toEqual(
      [...inA.map((m) => [m.id, a.id]), [inB.id, b.id]].sort(),
    );
    expect(members.heartbeats).toEqual([{ id: hb.id, group_id: a.id, state: 'down', last_ping_at: at(5) }]);
    expect((await store.listGroupMembers(ws.workspace.id, [a.id], 2)).monitors).toHaveLength(2);
    expect(await store.listGroupMembers(ws.workspace.id, [], 100)).toEqual({ monitors: [], heartbeats: [] });
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect(await store.listGroupMembers(other.workspace.id, [a.id], 100)).toEqual({
      monitors: [],
      heartbeats: [],
    });
  });
});
