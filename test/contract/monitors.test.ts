/**
 * MonitorStore contract: monitors, the monitor feed, location states.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import type { CheckResultRecord, MonitorLocationState } from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, fixtures, T0 } from './fixtures.js';
import { contract, locationStates, putState } from './stores.js';

contract('MonitorStore', (c) => {
  let store: Store;
  let ws: ReturnType<typeof fixtures.workspace>;
  beforeEach(() => {
    ({ store, ws } = c());
  });
  const statesOf = (monitorId: string, replay?: CheckResultRecord) =>
    locationStates(store, ws.workspace.id, monitorId, replay);
  const countMonitors = async (workspaceId: string) =>
    (await store.listMonitors(workspaceId, { limit: 100 })).data.length;

  it('round-trips every field and keeps other workspaces out', async () => {
    const m = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id);
    expect(await store.insertMonitor(m, { maxMonitors: 10 })).toBe('inserted');
    expect(await store.getMonitor(ws.workspace.id, m.id)).toEqual(m);
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect(await store.getMonitor(other.workspace.id, m.id)).toBeNull();
    expect(await store.deleteMonitor(other.workspace.id, m.id)).toBe(false);
    expect(await countMonitors(ws.workspace.id)).toBe(1);
  });

  it('enforces the plan cap, also under concurrent inserts', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () =>
        store.insertMonitor(fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id), { maxMonitors: 5 }),
      ),
    );
    expect(outcomes.filter((o) => o === 'inserted').length).toBe(5);
    expect(await countMonitors(ws.workspace.id)).toBe(5);
  });

  it('counts creates and deletes against the cap: a delete makes room, a delete of nothing does not, concurrency never overshoots', async () => {
    const cap = { maxMonitors: 4 };
    const make = () => fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id);
    const first = [make(), make(), make(), make()];
    for (const m of first) expect(await store.insertMonitor(m, cap)).toBe('inserted');
    expect(await store.insertMonitor(make(), cap)).toBe('limit_reached');
    expect(await store.deleteMonitor(ws.workspace.id, first[0]!.id)).toBe(true);
    // Deleting it again, or from another workspace, frees nothing.
    expect(await store.deleteMonitor(ws.workspace.id, first[0]!.id)).toBe(false);
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect(await store.deleteMonitor(other.workspace.id, first[1]!.id)).toBe(false);
    expect(await store.insertMonitor(make(), cap)).toBe('inserted');
    expect(await store.insertMonitor(make(), cap)).toBe('limit_reached');
    // Each workspace has its own count.
    expect(await store.insertMonitor(fixtures.monitor(other.workspace.id, other.defaultPolicy.id), cap)).toBe(
      'inserted',
    );

    // Two deletes and six creates at once: never more than the cap, whatever the order.
    const outcomes = await Promise.all([
      store.deleteMonitor(ws.workspace.id, first[1]!.id),
      ...Array.from({ length: 6 }, () => store.insertMonitor(make(), cap)),
      store.deleteMonitor(ws.workspace.id, first[2]!.id),
    ]);
    const inserted = outcomes.filter((o) => o === 'inserted').length;
    expect(inserted).toBeLessThanOrEqual(2);
    expect(await countMonitors(ws.workspace.id)).toBe(2 + inserted);
    // The count agrees with the monitors there are: creates succeed exactly up to the cap again.
    while ((await store.insertMonitor(make(), cap)) === 'inserted');
    expect(await countMonitors(ws.workspace.id)).toBe(4);
    expect(await countMonitors(other.workspace.id)).toBe(1);
  });

  it('inserts a batch all or none: the cap for the whole batch, one feed entry each, a failing insert rolls back every one', async () => {
    const make = () => fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id);
    const cap = { maxMonitors: 5 };
    expect(await store.insertMonitors([], cap)).toBe('inserted');
    const before = await store.latestMonitorChange();
    const three = [make(), make(), make()];
    expect(await store.insertMonitors(three, cap)).toBe('inserted');
    expect(await store.countMonitors(ws.workspace.id)).toBe(3);
    expect(await store.getMonitor(ws.workspace.id, three[1]!.id)).toEqual(three[1]);
    const feed = await store.listMonitorChanges(before, 100);
    expect(feed.map((e) => e.monitor_id)).toEqual(three.map((m) => m.id));
    // Three more do not fit under five: none is stored, the count is unchanged.
    expect(await store.insertMonitors([make(), make(), make()], cap)).toBe('limit_reached');
    expect(await countMonitors(ws.workspace.id)).toBe(3);
    expect(await store.countMonitors(ws.workspace.id)).toBe(3);
    // A batch with a monitor that cannot be inserted (its id is taken) stores none of the others.
    const fresh = make();
    await expect(store.insertMonitors([fresh, { ...three[0]! }], cap)).rejects.toThrow();
    expect(await store.getMonitor(ws.workspace.id, fresh.id)).toBeNull();
    expect(await store.countMonitors(ws.workspace.id)).toBe(3);
    expect(await store.latestMonitorChange()).toBe(feed.at(-1)!.seq);
    // Exactly up to the cap.
    expect(await store.insertMonitors([make(), make()], cap)).toBe('inserted');
    expect(await store.countMonitors(ws.workspace.id)).toBe(5);
    expect(await store.countMonitors('no-such-workspace')).toBe(0);
  });

  it('updates by compare-and-set on version', async () => {
    const m = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id);
    await store.insertMonitor(m, { maxMonitors: 10 });
    const next = { ...m, display_name: 'Renamed', version: 2, updated_at: at(1) };
    expect(await store.updateMonitor(next, 1)).toBe('updated');
    expect(await store.updateMonitor({ ...next, display_name: 'Lost update', version: 2 }, 1)).toBe(
      'conflict',
    );
    expect(await store.getMonitor(ws.workspace.id, m.id)).toEqual(next);
    expect(await store.updateMonitor({ ...next, id: randomUUID() }, 2)).toBe('not_found');
    expect(await store.deleteMonitor(ws.workspace.id, m.id)).toBe(true);
    expect(await store.getMonitor(ws.workspace.id, m.id)).toBeNull();
  });

  it('lists newest first with cursor pagination and filters', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const m = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, {
        created_at: at(i),
        monitor_type: i % 2 ? 'tcp' : 'http',
        paused: i === 4,
        display_name: i === 3 ? 'Überwachung 3' : `Monitor ${i}`,
        ...(i === 2 ? { url: 'https://ÄPFEL.example/' } : {}),
      });
      await store.insertMonitor(m, { maxMonitors: 10 });
      ids.unshift(m.id);
    }
    const p1 = await store.listMonitors(ws.workspace.id, { limit: 2 });
    expect(p1.data.map((m) => m.id)).toEqual(ids.slice(0, 2));
    const p2 = await store.listMonitors(ws.workspace.id, { limit: 2, cursor: p1.next_cursor! });
    expect(p2.data.map((m) => m.id)).toEqual(ids.slice(2, 4));
    const p3 = await store.listMonitors(ws.workspace.id, { limit: 2, cursor: p2.next_cursor! });
    expect(p3.data.map((m) => m.id)).toEqual(ids.slice(4));
    expect(p3.next_cursor).toBeNull();
    expect((await store.listMonitors(ws.workspace.id, { limit: 10, monitor_type: 'tcp' })).data.length).toBe(
      2,
    );
    expect((await store.listMonitors(ws.workspace.id, { limit: 10, paused: true })).data.length).toBe(1);
    // By name or target, every letter folded (not only ASCII).
    const found = async (search: string) =>
      (await store.listMonitors(ws.workspace.id, { limit: 10, search })).data.map((m) => m.display_name);
    expect(await found('monitor 1')).toEqual(['Monitor 1']);
    expect(await found('überwachung')).toEqual(['Überwachung 3']);
    expect(await found('äpfel.EXAMPLE')).toEqual(['Monitor 2']);
    await expect(store.listMonitors(ws.workspace.id, { limit: 2, cursor: 'garbage' })).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });

  it('lists the monitors of a region: unpaused, with the region among their locations', async () => {
    const m1 = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, { check_locations: ['eu-west'] });
    const m2 = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, {
      check_locations: ['eu-west', 'us-east'],
    });
    const m3 = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id, {
      check_locations: ['eu-west'],
      paused: true,
    });
    for (const m of [m1, m2, m3]) await store.insertMonitor(m, { maxMonitors: 10 });
    expect((await store.listRegionMonitors('eu-west')).map((m) => m.id).sort()).toEqual(
      [m1.id, m2.id].sort(),
    );
    expect((await store.listRegionMonitors('us-east')).map((m) => m.id)).toEqual([m2.id]);
    expect((await store.getMonitorsByIds([m3.id, randomUUID()])).map((m) => m.id)).toEqual([m3.id]);
    const all = [m1, m2, m3].map((m) => m.id).sort();
    const first = await store.scanMonitors(null, 2);
    const rest = await store.scanMonitors(first[1]!.id, 2);
    expect([...first, ...rest].map((m) => m.id)).toEqual(all);
  });

  it('appends every monitor change to the feed, in commit order and without gaps', async () => {
    expect(await store.latestMonitorChange()).toBe(0);
    const m = fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id);
    await store.insertMonitor(m, { maxMonitors: 10 });
    expect(await store.updateMonitor({ ...m, display_name: 'x', version: 2 }, 1)).toBe('updated');
    expect(await store.updateMonitor({ ...m, display_name: 'y', version: 2 }, 1)).toBe('conflict');
    await store.requestRuns([
      { monitor_id: m.id, location: 'us-east', reason: 'confirm', request_id: 'r1', at: at(5) },
    ]);
    expect(await store.deleteMonitor(ws.workspace.id, m.id)).toBe(true);
    expect(await store.deleteMonitor(ws.workspace.id, m.id)).toBe(false);
    const feed = await store.listMonitorChanges(0, 100);
    expect(feed.map((e) => [e.seq, e.kind, e.monitor_id])).toEqual([
      [1, 'changed', m.id],
      [2, 'changed', m.id],
      [3, 'run', m.id],
      [4, 'changed', m.id],
    ]);
    expect(feed[2]).toMatchObject({
      location: 'us-east',
      reason: 'confirm',
      request_id: 'r1',
      at: at(5),
    });
    expect((await store.listMonitorChanges(2, 1)).map((e) => e.seq)).toEqual([3]);
    expect(await store.latestMonitorChange()).toBe(4);
    // Concurrent writers still get consecutive numbers.
    const many = Array.from({ length: 5 }, () => fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id));
    await Promise.all(many.map((x) => store.insertMonitor(x, { maxMonitors: 10 })));
    expect((await store.listMonitorChanges(4, 100)).map((e) => e.seq)).toEqual([5, 6, 7, 8, 9]);
    // Pruning keeps the newest entry, so the sequence never restarts.
    expect(await store.pruneMonitorChanges(new Date(Date.now() + 60_000), 100)).toBe(8);
    expect((await store.listMonitorChanges(0, 100)).map((e) => e.seq)).toEqual([9]);
  });

  it('changes the monitor-level state only by compare-and-set; a location state is not its to write', async () => {
    const s: MonitorLocationState = {
      monitor_id: 'm3',
      location: '*',
      status: 'unknown',
      consecutive_failures: 1,
      consecutive_successes: 0,
      consecutive_slow: 0,
      last_result_at: T0,
      last_scheduled_at: T0,
      version: 1,
    };
    expect(await putState(store, s, 0)).toBe(true);
    expect(await putState(store, { ...s, consecutive_failures: 9 }, 0)).toBe(false);
    const next = { ...s, consecutive_failures: 2, version: 2 };
    expect(await putState(store, next, 1)).toBe(true);
    expect(await putState(store, { ...s, consecutive_failures: 7, version: 2 }, 1)).toBe(false);
    expect(await statesOf('m3')).toEqual([next]);
    // Several in one step: each by its own compare-and-set, the answers in order.
    const other = { ...s, monitor_id: 'm3b' };
    expect(
      await store.putMonitorStates([
        { next: { ...next, consecutive_failures: 3, version: 3 }, expectedVersion: 2 },
        { next: other, expectedVersion: 0 },
        { next: { ...next, consecutive_failures: 8, version: 3 }, expectedVersion: 2 },
        { next: { ...other, version: 5 }, expectedVersion: 0 },
      ]),
    ).toEqual([true, true, false, false]);
    expect(await statesOf('m3')).toEqual([{ ...next, consecutive_failures: 3, version: 3 }]);
    expect(await statesOf('m3b')).toEqual([other]);
    expect(await store.putMonitorStates([])).toEqual([]);
    // Location states move with their results (recordResults), never on their own: refused whole.
    await expect(putState(store, { ...s, location: 'eu-west' }, 0)).rejects.toThrow(/monitor-level/);
  });

  it('updates many monitors all or none: one feed entry each, a stale version or another workspace changes none', async () => {
    const make = () => fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id);
    const three = [make(), make(), make()];
    expect(await store.insertMonitors(three, { maxMonitors: 10 })).toBe('inserted');
    expect(await store.updateMonitors([], ['paused'])).toBe('updated');
    const before = await store.latestMonitorChange();
    const paused = three.map((m) => ({ next: { ...m, paused: true, version: 2 }, expectedVersion: 1 }));
    expect(await store.updateMonitors(paused, ['paused'])).toBe('updated');
    for (const { next } of paused) expect(await store.getMonitor(ws.workspace.id, next.id)).toEqual(next);
    const feed = await store.listMonitorChanges(before, 100);
    expect(feed.map((e) => [e.kind, e.monitor_id])).toEqual(three.map((m) => ['changed', m.id]));
    // One stale version (the last one) leaves every monitor as it was and appends nothing.
    const last = await store.latestMonitorChange();
    const stale = paused.map(({ next }, i) => ({
      next: { ...next, paused: false, version: 3 },
      expectedVersion: i === 2 ? 1 : 2,
    }));
    expect(await store.updateMonitors(stale, ['paused'])).toBe('conflict');
    for (const { next } of paused) expect(await store.getMonitor(ws.workspace.id, next.id)).toEqual(next);
    expect(await store.latestMonitorChange()).toBe(last);
    // A monitor that is not there (deleted meanwhile) is a miss too.
    const ghost = { next: { ...make(), version: 2 }, expectedVersion: 1 };
    expect(await store.updateMonitors([{ ...stale[0]!, expectedVersion: 2 }, ghost], ['paused'])).toBe(
      'conflict',
    );
    expect((await store.getMonitor(ws.workspace.id, three[0]!.id))?.paused).toBe(true);
    // Another workspace's monitors are not reached through this one.
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    const theirs = fixtures.monitor(other.workspace.id, other.defaultPolicy.id);
    await store.insertMonitor(theirs, { maxMonitors: 10 });
    await expect(
      store.updateMonitors(
        [
          { next: { ...paused[0]!.next, version: 3 }, expectedVersion: 2 },
          { next: { ...theirs, paused: true, version: 2 }, expectedVersion: 1 },
        ],
        ['paused'],
      ),
    ).rejects.toThrow(/one workspace/);
    expect(await store.latestMonitorChange()).toBe(last + 1);
    // Only the fields named are written (with version and updated_at); the rest stay as stored.
    const policyId = randomUUID();
    const next = {
      ...paused[0]!.next,
      display_name: 'not written',
      escalation_policy_id: policyId,
      check_interval_seconds: 600,
      version: 3,
      updated_at: at(9),
    };
    expect(
      await store.updateMonitors(
        [{ next, expectedVersion: 2 }],
        ['escalation_policy_id', 'check_interval_seconds'],
      ),
    ).toBe('updated');
    expect(await store.getMonitor(ws.workspace.id, next.id)).toEqual({
      ...next,
      display_name: paused[0]!.next.display_name,
    });
  });

  it('keeps the tag and group filters in step with bulk writes and deletes', async () => {
    const make = () => fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id);
    const two = [make(), make()];
    expect(await store.insertMonitors(two, { maxMonitors: 10 })).toBe('inserted');
    const groupId = randomUUID();
    const changes = two.map((m) => ({
      next: { ...m, tags: ['env:prod', 'db'], group_id: groupId, version: 2 },
      expectedVersion: 1,
    }));
    expect(await store.updateMonitors(changes, ['tags', 'group_id'])).toBe('updated');
    const found = async (q: { tag?: string; group_id?: string }) =>
      (await store.listMonitors(ws.workspace.id, { limit: 10, ...q })).data.map((m) => m.id).sort();
    const both = two.map((m) => m.id).sort();
    expect(await found({ tag: 'env:prod' })).toEqual(both);
    expect(await found({ group_id: groupId })).toEqual(both);
    const untagged = { next: { ...changes[0]!.next, tags: ['db'], version: 3 }, expectedVersion: 2 };
    expect(await store.updateMonitors([untagged], ['tags'])).toBe('updated');
    expect(await found({ tag: 'env:prod' })).toEqual([two[1]!.id]);
    expect(await store.deleteMonitors(ws.workspace.id, [{ id: two[1]!.id, version: 2 }])).toBe('deleted');
    expect(await found({ tag: 'env:prod' })).toEqual([]);
    expect(await found({ tag: 'db' })).toEqual([two[0]!.id]);
  });

  it('deletes many monitors all or none: the plan counter by their number, one feed entry each', async () => {
    const make = () => fixtures.monitor(ws.workspace.id, ws.defaultPolicy.id);
    const four = [make(), make(), make(), make()];
    expect(await store.insertMonitors(four, { maxMonitors: 4 })).toBe('inserted');
    expect(await store.deleteMonitors(ws.workspace.id, [])).toBe('deleted');
    // A changed version, an unknown id, or a monitor of another workspace: nothing goes.
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    const theirs = fixtures.monitor(other.workspace.id, other.defaultPolicy.id);
    await store.insertMonitor(theirs, { maxMonitors: 10 });
    const last = await store.latestMonitorChange();
    const misses = [
      { id: four[1]!.id, version: 7 },
      { id: randomUUID(), version: 1 },
      { id: theirs.id, version: 1 },
    ];
    for (const miss of misses) {
      const asked = [{ id: four[0]!.id, version: 1 }, miss];
      expect(await store.deleteMonitors(ws.workspace.id, asked)).toBe('conflict');
    }
    expect(await store.countMonitors(ws.workspace.id)).toBe(4);
    expect(await countMonitors(ws.workspace.id)).toBe(4);
    expect(await store.getMonitor(other.workspace.id, theirs.id)).toEqual(theirs);
    expect(await store.latestMonitorChange()).toBe(last);
    // Three go: the counter makes room for three creates, the feed names each.
    const gone = four.slice(0, 3).map((m) => ({ id: m.id, version: 1 }));
    expect(await store.deleteMonitors(ws.workspace.id, gone)).toBe('deleted');
    expect(await countMonitors(ws.workspace.id)).toBe(1);
    expect(await store.countMonitors(ws.workspace.id)).toBe(1);
    expect((await store.listMonitorChanges(last, 100)).map((e) => e.monitor_id)).toEqual(
      gone.map((g) => g.id),
    );
    expect(await store.insertMonitors([make(), make(), make()], { maxMonitors: 4 })).toBe('inserted');
    expect(await store.insertMonitor(make(), { maxMonitors: 4 })).toBe('limit_reached');
  });
});
