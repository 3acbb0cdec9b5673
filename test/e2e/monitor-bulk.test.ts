import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

/** POST /monitors/bulk: one action on many monitors, all or nothing, through the real API. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type W = Awaited<ReturnType<Harness['workspace']>>;
const tcp = (i: number) => ({
  display_name: `db ${i}`,
  monitor_type: 'tcp',
  url: `db${i}.example.com`,
  port: 5432,
  check_interval_seconds: 300,
});
const create = async (w: W, n: number, from = 1): Promise<string[]> => {
  const r = await w.api('POST', '/monitors/batch', {
    json: { monitors: Array.from({ length: n }, (_, i) => tcp(from + i)) },
  });
  expect(r.status).toBe(201);
  return r.body.data.map((m: { id: string }) => m.id);
};
const get = async (w: W, id: string) => (await w.api('GET', `/monitors/${id}`)).body;
const bulk = (w: W, json: unknown, key?: string) =>
  (key ? w.as(key) : w.api)('POST', '/monitors/bulk', { json });

describe('POST /monitors/bulk by ids', () => {
  it('pauses and resumes: the records, their versions and the monitor feed the agents follow', async () => {
    const w = await h.workspace('bulk-pause');
    const ids = await create(w, 3);
    const before = await h.store.latestMonitorChange();
    const r = await bulk(w, { action: 'pause', ids: ids.slice(0, 2) });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ affected: 2 });
    for (const id of ids.slice(0, 2))
      expect(await get(w, id)).toMatchObject({ paused: true, status: 'paused', version: 2 });
    expect(await get(w, ids[2]!)).toMatchObject({ paused: false, version: 1 });
    // One feed entry per changed monitor: what every replica's catalog, and so every agent, reads.
    const feed = await h.store.listMonitorChanges(before, 100);
    expect(feed.filter((e) => e.kind === 'changed').map((e) => e.monitor_id)).toEqual(ids.slice(0, 2));
    // The agents' view of a region no longer holds them.
    const running = (await h.store.listRegionMonitors('eu-west')).map((m) => m.id);
    expect(running).not.toContain(ids[0]);
    expect(running).toContain(ids[2]);
    // Pausing them again changes nothing; resuming all three changes the two.
    expect((await bulk(w, { action: 'pause', ids: ids.slice(0, 2) })).body).toEqual({ affected: 0 });
    const mark = await h.store.latestMonitorChange();
    expect((await bulk(w, { action: 'resume', ids })).body).toEqual({ affected: 2 });
    expect(await get(w, ids[0]!)).toMatchObject({ paused: false, version: 3 });
    const after = await h.store.listMonitorChanges(mark, 100);
    // Resumed monitors are checked at once (run requests, like a create), besides their feed entries.
    expect(after.filter((e) => e.kind === 'changed').map((e) => e.monitor_id)).toEqual(ids.slice(0, 2));
    expect(after.filter((e) => e.kind === 'run').length).toBe(4);
  });

  it("is all or nothing: one unknown id, or another workspace's, is named and nothing changes", async () => {
    const w = await h.workspace('bulk-atomic');
    const other = await h.workspace('bulk-atomic-other');
    const ids = await create(w, 3);
    const [theirs] = await create(other, 1);
    const mark = await h.store.latestMonitorChange();
    const r = await bulk(w, { action: 'pause', ids: [ids[0], randomUUID(), ids[1], theirs, ids[0]] });
    expect(r.status).toBe(422);
    expect(r.body.error.details).toEqual([
      { field: 'ids[1]', message: 'no monitor with this id in the workspace' },
      { field: 'ids[3]', message: 'no monitor with this id in the workspace' },
      { field: 'ids[4]', message: 'repeats ids[0]' },
    ]);
    for (const id of ids) expect(await get(w, id)).toMatchObject({ paused: false, version: 1 });
    expect(await get(other, theirs!)).toMatchObject({ paused: false, version: 1 });
    expect(await h.store.latestMonitorChange()).toBe(mark);
    // The same for a delete: nothing is deleted.
    expect((await bulk(w, { action: 'delete', ids: [...ids, theirs] })).status).toBe(422);
    expect((await w.api('GET', '/monitors')).body.data.length).toBe(3);
    expect((await other.api('GET', '/monitors')).body.data.length).toBe(1);
  });

  it('deletes: the plan cap makes room again, and the agents drop them', async () => {
    const w = await h.workspace('bulk-delete', 'free'); // 10 monitors
    const slow = (i: number) => ({ ...tcp(i), check_interval_seconds: 300 });
    const ids = (
      await w.api('POST', '/monitors/batch', {
        json: { monitors: Array.from({ length: 10 }, (_, i) => slow(i)) },
      })
    ).body.data.map((m: { id: string }) => m.id);
    expect((await w.api('POST', '/monitors/create', { json: slow(11) })).status).toBe(402);
    const mark = await h.store.latestMonitorChange();
    expect((await bulk(w, { action: 'delete', ids: ids.slice(0, 4) })).body).toEqual({ affected: 4 });
    expect((await w.api('GET', `/monitors/${ids[0]}`)).status).toBe(404);
    expect((await h.store.listMonitorChanges(mark, 100)).map((e) => e.monitor_id)).toEqual(ids.slice(0, 4));
    expect(
      (await w.api('POST', '/monitors/batch', { json: { monitors: [1, 2, 3, 4].map(slow) } })).status,
    ).toBe(201);
  });

  it('sets the escalation policy, null for the workspace default; an unknown policy is a 422', async () => {
    const w = await h.workspace('bulk-policy');
    const ids = await create(w, 2);
    const p = await w.api('POST', '/escalation-policies', {
      json: { name: 'Night', steps: [{ wait_minutes: 0, notify_user_ids: [w.admin.id] }] },
    });
    expect(p.status).toBe(201);
    const defaultPolicy = (await get(w, ids[0]!)).escalation_policy_id;
    expect((await bulk(w, { action: 'set_policy', ids, escalation_policy_id: p.body.id })).body).toEqual({
      affected: 2,
    });
    expect((await get(w, ids[1]!)).escalation_policy_id).toBe(p.body.id);
    const bad = await bulk(w, { action: 'set_policy', ids, escalation_policy_id: randomUUID() });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([
      { field: 'escalation_policy_id', message: 'no escalation policy with this id in the workspace' },
    ]);
    expect((await bulk(w, { action: 'set_policy', ids, escalation_policy_id: null })).body).toEqual({
      affected: 2,
    });
    expect((await get(w, ids[0]!)).escalation_policy_id).toBe(defaultPolicy);
  });

  it('names every bad field at once and bounds the list', async () => {
    const w = await h.workspace('bulk-bad');
    const [id] = await create(w, 1);
    const r = await bulk(w, { action: 'explode', ids: ['nope'], escalation_policy_id: 'x', extra: 1 });
    expect(r.status).toBe(422);
    expect(r.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'action',
      'escalation_policy_id',
      'extra',
      'ids[0]',
    ]);
    const rules = await bulk(w, { action: 'pause', escalation_policy_id: null });
    expect(rules.body.error.details).toEqual([
      { field: 'escalation_policy_id', message: 'applies only to set_policy' },
      {
        field: 'ids',
        message:
          'name the monitors with ids or filter ({"filter": {}} spelled out means every monitor of the workspace)',
      },
    ]);
    const both = await bulk(w, { action: 'set_policy', ids: [id], filter: {} });
    expect(both.body.error.details.map((d: { field: string }) => d.field)).toEqual([
      'escalation_policy_id',
      'filter',
    ]);
    const tooMany = await bulk(w, { action: 'pause', ids: Array.from({ length: 1001 }, () => randomUUID()) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.details).toEqual([{ field: 'ids', message: 'must have at most 1000 items' }]);
  });

  it('is for members: a viewer gets 403 and changes nothing', async () => {
    const w = await h.workspace('bulk-roles');
    const ids = await create(w, 2);
    const viewer = await w.userWithKey('viewer');
    const member = await w.userWithKey('member');
    expect((await bulk(w, { action: 'pause', ids }, viewer.key)).status).toBe(403);
    expect(await get(w, ids[0]!)).toMatchObject({ paused: false });
    expect((await bulk(w, { action: 'delete', ids }, viewer.key)).status).toBe(403);
    expect((await bulk(w, { action: 'pause', ids }, member.key)).body).toEqual({ affected: 2 });
  });

  it('resumes nothing faster than the plan allows: an interval below the minimum is raised, and said so', async () => {
    const w = await h.workspace('bulk-plan', 'free'); // 180 s minimum
    const ids = await create(w, 2);
    // Monitors kept from a bigger plan: paused, checking every 10 s.
    for (const id of ids) {
      const m = (await h.store.getMonitor(w.workspace.id, id))!;
      const next = {
        ...m,
        paused: true,
        check_interval_seconds: 10,
        retry_interval_seconds: 5,
        timeout_seconds: 5,
      };
      expect(await h.store.updateMonitor({ ...next, version: m.version + 1 }, m.version)).toBe('updated');
    }
    const r = await bulk(w, { action: 'resume', ids });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      affected: 2,
      warnings: [
        {
          field: 'check_interval_seconds',
          message:
            "2 monitors checked more often than the free plan's minimum of 180 s; they now check every 180 s. Upgrade the plan for shorter intervals.",
        },
      ],
    });
    for (const id of ids)
      expect(await get(w, id)).toMatchObject({ paused: false, check_interval_seconds: 180 });
    // Pausing leaves the interval alone: a paused monitor runs nothing.
    expect((await bulk(w, { action: 'pause', ids })).body).toEqual({ affected: 2 });
  });
});

describe('POST /monitors/bulk: groups and tags', () => {
  it('sets the group (null ungroups); a group of another workspace, or none, is a 422', async () => {
    const w = await h.workspace('bulk-group');
    const other = await h.workspace('bulk-group-other');
    const ids = await create(w, 3);
    const g = (await w.api('POST', '/groups', { json: { name: 'Databases' } })).body;
    const theirs = (await other.api('POST', '/groups', { json: { name: 'Theirs' } })).body;
    const mark = await h.store.latestMonitorChange();
    expect((await bulk(w, { action: 'set_group', ids: ids.slice(0, 2), group_id: g.id })).body).toEqual({
      affected: 2,
    });
    expect((await h.store.listMonitorChanges(mark, 100)).map((e) => e.monitor_id)).toEqual(ids.slice(0, 2));
    // The store's own filters (monitor_tags and group_id kept in step with the records).
    const inGroup = (await h.store.listMonitors(w.workspace.id, { limit: 100, group_id: g.id })).data.map(
      (m) => m.id,
    );
    expect(inGroup.sort()).toEqual(ids.slice(0, 2).sort());
    for (const group_id of [theirs.id, randomUUID()]) {
      const r = await bulk(w, { action: 'set_group', ids, group_id });
      expect(r.status).toBe(422);
      expect(r.body.error.details).toEqual([
        { field: 'group_id', message: 'no group with this id in the workspace' },
      ]);
    }
    expect((await bulk(w, { action: 'set_group', ids, group_id: null })).body).toEqual({ affected: 2 });
    expect((await h.store.listMonitors(w.workspace.id, { limit: 100, group_id: g.id })).data).toEqual([]);
    const missing = await bulk(w, { action: 'set_group', ids });
    expect(missing.body.error.details).toEqual([
      { field: 'group_id', message: 'is required for set_group (null: no group)' },
    ]);
  });

  it('adds and removes tags, which the tag filter then finds; past 20 tags or a bad tag is a 422', async () => {
    const w = await h.workspace('bulk-tags');
    const ids = await create(w, 3);
    // The store's tag filter (monitor_tags, kept in step by every monitor write).
    const tagged = async (tag: string) =>
      (await h.store.listMonitors(w.workspace.id, { limit: 100, tag })).data.map((m) => m.id).sort();
    expect(
      (await bulk(w, { action: 'add_tags', ids: ids.slice(0, 2), tags: ['env:prod', 'db'] })).body,
    ).toEqual({
      affected: 2,
    });
    expect(await tagged('env:prod')).toEqual(ids.slice(0, 2).sort());
    // Adding what is there changes nothing; adding to all three changes the one without.
    expect((await bulk(w, { action: 'add_tags', ids, tags: ['db'] })).body).toEqual({ affected: 1 });
    expect((await get(w, ids[0]!)).tags).toEqual(['env:prod', 'db']);
    expect((await bulk(w, { action: 'remove_tags', ids, tags: ['env:prod'] })).body).toEqual({
      affected: 2,
    });
    expect(await tagged('env:prod')).toEqual([]);
    expect(await tagged('db')).toEqual([...ids].sort());
    // A monitor would pass 20 tags: named by its place, nothing changes.
    const many = Array.from({ length: 19 }, (_, i) => `t${i}`);
    expect((await bulk(w, { action: 'add_tags', ids: [ids[1]], tags: many })).body).toEqual({ affected: 1 });
    const over = await bulk(w, { action: 'add_tags', ids, tags: ['one-more'] });
    expect(over.status).toBe(422);
    expect(over.body.error.details).toEqual([
      { field: 'ids[1]', message: 'would carry more than 20 tags; remove some first' },
    ]);
    expect(await tagged('one-more')).toEqual([]);
    const byFilter = await bulk(w, { action: 'add_tags', filter: {}, tags: ['one-more'] });
    expect(byFilter.body.error.details).toEqual([
      {
        field: 'filter',
        message: '1 of its monitors would carry more than 20 tags (“db 2”); remove some first',
      },
    ]);
    const bad = await bulk(w, { action: 'add_tags', ids, tags: ['Env:Prod', 'ok'] });
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(['tags[0]']);
    const wrong = await bulk(w, { action: 'pause', ids, tags: ['x'], group_id: null });
    expect(wrong.body.error.details).toEqual([
      { field: 'group_id', message: 'applies only to set_group' },
      { field: 'tags', message: 'applies only to add_tags and remove_tags' },
    ]);
    // Deleted monitors leave the tag filter too.
    expect((await bulk(w, { action: 'delete', ids })).body).toEqual({ affected: 3 });
    expect(await tagged('db')).toEqual([]);
  });
});

describe('POST /monitors/bulk by filter', () => {
  it('acts on what the list shows for the same filter; {} spelled out is the whole workspace', async () => {
    const w = await h.workspace('bulk-filter');
    const other = await h.workspace('bulk-filter-other');
    const ids = await create(w, 5);
    await create(other, 2);
    expect((await bulk(w, { action: 'pause', filter: { q: 'db 2' } })).body).toEqual({ affected: 1 });
    expect(await get(w, ids[1]!)).toMatchObject({ paused: true });
    const listed = (await w.api('GET', '/monitors?status=paused')).body.data.map((m: { id: string }) => m.id);
    expect(listed).toEqual([ids[1]]);
    // The status filter as the list takes it.
    expect((await bulk(w, { action: 'resume', filter: { status: 'paused' } })).body).toEqual({ affected: 1 });
    expect((await bulk(w, { action: 'pause', filter: {} })).body).toEqual({ affected: 5 });
    expect((await other.api('GET', '/monitors?status=paused')).body.data).toEqual([]);
    const bad = await bulk(w, { action: 'pause', filter: { status: 'sleeping', colour: 'red' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'filter.colour',
      'filter.status',
    ]);
    expect((await bulk(w, { action: 'delete', filter: {} })).body).toEqual({ affected: 5 });
    expect((await other.api('GET', '/monitors')).body.data.length).toBe(2);
  });

  it("takes the list's tag and group filters: only the monitors carrying them change", async () => {
    const w = await h.workspace('bulk-filter-labels');
    const ids = await create(w, 4);
    const g = (await w.api('POST', '/groups', { json: { name: 'Edge' } })).body;
    expect((await bulk(w, { action: 'add_tags', ids: ids.slice(0, 2), tags: ['db'] })).body).toEqual({
      affected: 2,
    });
    expect((await bulk(w, { action: 'set_group', ids: ids.slice(1, 3), group_id: g.id })).body).toEqual({
      affected: 2,
    });
    expect((await bulk(w, { action: 'pause', filter: { tag: 'db' } })).body).toEqual({ affected: 2 });
    const paused = async () =>
      (await w.api('GET', '/monitors?status=paused')).body.data.map((m: { id: string }) => m.id).sort();
    expect(await paused()).toEqual(ids.slice(0, 2).sort());
    expect((await bulk(w, { action: 'resume', filter: { group_id: g.id } })).body).toEqual({ affected: 1 });
    expect(await paused()).toEqual([ids[0]]);
    expect((await bulk(w, { action: 'delete', filter: { group_id: 'none', tag: 'db' } })).body).toEqual({
      affected: 1,
    });
    expect((await w.api('GET', '/monitors')).body.data.length).toBe(3);
  });

  it('refuses a filter that matches more monitors than the plan allows in one action', async () => {
    const w = await h.workspace('bulk-cap', 'free');
    const ids = await create(w, 3);
    // A workspace holding more than its cap (monitors kept from a bigger plan): 11 on free.
    for (let i = 0; i < 8; i++) {
      const m = (await h.store.getMonitor(w.workspace.id, ids[0]!))!;
      expect(await h.store.insertMonitor({ ...m, id: randomUUID(), version: 1 }, { maxMonitors: 100 })).toBe(
        'inserted',
      );
    }
    const r = await bulk(w, { action: 'pause', filter: {} });
    expect(r.status).toBe(422);
    expect(r.body.error.details).toEqual([
      {
        field: 'filter',
        message:
          "matches more than 10 monitors, the most one bulk action takes (the free plan's monitor cap); narrow the filter",
      },
    ]);
    expect((await bulk(w, { action: 'pause', filter: { q: 'db 2' } })).body).toEqual({ affected: 1 });
  });
});

describe('POST /monitors/bulk racing an edit', () => {
  it('fails whole when a monitor changes between the read and the write: 409, nothing changed', async () => {
    // The store as the control plane sees it, with one edit slipped in just before the bulk step.
    let race: (() => Promise<unknown>) | null = null;
    const raced = await startHarness(
      {},
      {
        wrapStore: (s) =>
          new Proxy(s, {
            get(target, key, receiver) {
              if (key !== 'updateMonitors') return Reflect.get(target, key, receiver);
              return async (...args: Parameters<typeof s.updateMonitors>) => {
                const before = race;
                race = null;
                await before?.();
                return target.updateMonitors(...args);
              };
            },
          }),
      },
    );
    try {
      const w = await raced.workspace('bulk-race');
      const ids = await create(w, 3);
      race = () => w.api('PATCH', `/monitors/${ids[2]}`, { json: { display_name: 'renamed meanwhile' } });
      const mark = await raced.store.latestMonitorChange();
      const r = await w.api('POST', '/monitors/bulk', { json: { action: 'pause', ids } });
      expect(r.status).toBe(409);
      expect(r.body.error.message).toContain('nothing was changed');
      // Only the edit landed (one feed entry); no monitor is paused.
      expect((await raced.store.listMonitorChanges(mark, 100)).map((e) => e.monitor_id)).toEqual([ids[2]]);
      for (const id of ids) expect((await w.api('GET', `/monitors/${id}`)).body.paused).toBe(false);
      // Asked again, it goes through.
      expect((await w.api('POST', '/monitors/bulk', { json: { action: 'pause', ids } })).body).toEqual({
        affected: 3,
      });
    } finally {
      await raced.close();
    }
  });
});
