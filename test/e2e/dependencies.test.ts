import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { type HarnessAgent, registerAgent } from '../support/harness-agent.js';

/**
 * Dependencies (issue 53): `depends_on` through the API, and a storm's alerts decided through the real
 * result ingestion (an agent's ReportResults) and the control plane's own dependency job, on the
 * harness's manual clock.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Api = Awaited<ReturnType<Harness['workspace']>>['api'];

const create = async (
  api: Api,
  name: string,
  dependsOn: string[] = [],
  more: Record<string, unknown> = {},
) => {
  const r = await api('POST', '/monitors/create', {
    json: {
      display_name: name,
      monitor_type: 'tcp',
      url: `${name}.example.test`,
      port: 443,
      check_interval_seconds: 60,
      timeout_seconds: 5,
      failure_threshold: 1,
      check_locations: ['eu-west'],
      depends_on: dependsOn,
      ...more,
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; depends_on: string[]; suppressed_by: string | null };
};

let agent: Promise<HarnessAgent> | undefined;
const euAgent = () => {
  agent ??= registerAgent(h, 'eu-west', 'deps-agent');
  return agent;
};

/** Results from eu-west, checked now, in the order given, as an agent reports them. */
const report = async (...results: [string, boolean][]) => {
  const now = BigInt(h.clock.now().getTime());
  const { client, sessionId } = await euAgent();
  const reply = await client.reportResults({
    instanceId: 'deps-agent',
    sessionId,
    results: results.map(([monitorId, ok]) => ({
      resultId: '',
      monitorId,
      monitorVersion: 1n,
      scheduledAtMs: now,
      startedAtMs: now,
      ok,
      errorKind: ok ? '' : 'connect',
      errorMessage: ok ? '' : 'connection refused',
      responseTimeMs: 10,
    })),
  });
  expect(reply.accepted).toBe(results.length);
};

/** Polls until `check` passes (the dependency job runs on its own timer). */
const until = async (check: () => Promise<void>) => {
  for (let i = 0; ; i++) {
    try {
      return await check();
    } catch (e) {
      if (i > 200) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
};

const alertsOf = async (api: Api, id: string) =>
  (await api('GET', `/alerts?source_id=${id}`)).body.data as { status: string; held_back: number }[];
const timeline = async (api: Api, id: string) =>
  ((await api('GET', `/monitors/${id}/timeline`)).body.data as { kind: string; message: string }[]).map(
    (e) => e.kind,
  );

describe('depends_on', () => {
  it('names monitors and heartbeats of the workspace; unknown, foreign, self and cycles are one 422 each naming the place and the path', async () => {
    const w = await h.workspace('deps-input');
    const other = await h.workspace('deps-other');
    const foreign = await create(other.api, 'foreign');
    const core = await create(w.api, 'core-switch');
    const hb = await w.api('POST', '/heartbeats', {
      json: { display_name: 'backup', depends_on: [core.id] },
    });
    expect(hb.status, JSON.stringify(hb.body)).toBe(201);
    expect(hb.body).toMatchObject({ depends_on: [core.id], suppressed_by: null });
    const web = await create(w.api, 'web', [core.id, hb.body.id]);
    expect(web.depends_on).toEqual([core.id, hb.body.id]);

    const bad = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'x',
        monitor_type: 'tcp',
        url: 'x.example.test',
        port: 1,
        depends_on: [foreign.id, '00000000-0000-4000-8000-000000000000', 'nope'],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['depends_on[2]']);
    const unknown = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'x',
        monitor_type: 'tcp',
        url: 'x.example.test',
        port: 1,
        depends_on: [foreign.id, core.id],
      },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details).toEqual([
      { field: 'depends_on[0]', message: 'no monitor, heartbeat or group with this id in the workspace' },
    ]);

    // core → web → core, and core → backup → core: both refused, with the path by names.
    const cycle = await w.api('PATCH', `/monitors/${core.id}`, { json: { depends_on: [web.id] } });
    expect(cycle.status).toBe(422);
    expect(cycle.body.error.details).toEqual([
      { field: 'depends_on[0]', message: 'would make a cycle: core-switch → web → core-switch' },
    ]);
    const self = await w.api('PATCH', `/monitors/${core.id}`, { json: { depends_on: [core.id] } });
    expect(self.body.error.details[0]).toEqual({
      field: 'depends_on[0]',
      message: 'is this record itself: core-switch → core-switch',
    });
    const viaHeartbeat = await w.api('PATCH', `/monitors/${core.id}`, { json: { depends_on: [hb.body.id] } });
    expect(viaHeartbeat.body.error.details[0].message).toBe(
      'would make a cycle: core-switch → backup → core-switch',
    );
    const hbCycle = await w.api('PATCH', `/heartbeats/${hb.body.id}`, { json: { depends_on: [web.id] } });
    expect(hbCycle.status).toBe(422);
    expect(hbCycle.body.error.details[0].message).toBe('would make a cycle: backup → web → backup');
    const tooMany = await w.api('PATCH', `/monitors/${web.id}`, {
      json: { depends_on: Array.from({ length: 21 }, () => core.id) },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.details[0].field).toBe('depends_on');
    // Nothing was written by the refused edits.
    expect((await w.api('GET', `/monitors/${core.id}`)).body.depends_on).toEqual([]);
    // A viewer may read but not set it.
    const viewer = w.as((await w.userWithKey('viewer')).key);
    expect((await viewer('GET', `/monitors/${web.id}`)).body.depends_on).toEqual([core.id, hb.body.id]);
    expect((await viewer('PATCH', `/monitors/${web.id}`, { json: { depends_on: [] } })).status).toBe(403);
  });
});

describe('a dependency that is deleted', () => {
  it('stays in its dependents’ lists without blocking their edits; a new unknown id is still refused', async () => {
    const w = await h.workspace('deps-deleted');
    const old = await create(w.api, 'old-switch');
    const other = await create(w.api, 'new-switch');
    const web = await create(w.api, 'web-behind', [old.id]);
    const hb = await w.api('POST', '/heartbeats', {
      json: { display_name: 'job-behind', depends_on: [old.id] },
    });
    expect(hb.status).toBe(201);
    expect((await w.api('DELETE', `/monitors/${old.id}`)).status).toBeLessThan(300);
    // The web form sends the whole list back with any edit.
    const edit = await w.api('PATCH', `/monitors/${web.id}`, {
      json: { display_name: 'web-behind 2', depends_on: [old.id, other.id] },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const hbEdit = await w.api('PATCH', `/heartbeats/${hb.body.id}`, {
      json: { display_name: 'job-behind 2', depends_on: [old.id] },
    });
    expect(hbEdit.status, JSON.stringify(hbEdit.body)).toBe(200);
    // A monitor that never named the deleted one may not start to.
    const fresh = await w.api('PATCH', `/monitors/${other.id}`, { json: { depends_on: [old.id] } });
    expect(fresh.status).toBe(422);
    expect(fresh.body.error.details[0].field).toBe('depends_on[0]');
  });
});

describe('an alert storm behind one dependency', () => {
  it('dependents whose verdict comes before their parent’s wait, then are suppressed: one alert; after the parent recovers a dependent still failing raises', async () => {
    const w = await h.workspace('deps-storm');
    const parent = await create(w.api, 'switch');
    const kids: Awaited<ReturnType<typeof create>>[] = [];
    for (let i = 0; i < 4; i++) kids.push(await create(w.api, `server-${i}`, [parent.id]));
    h.clock.advance(1000);
    await report([parent.id, true], ...kids.map((k): [string, boolean] => [k.id, true]));

    // The failure: two dependents' verdicts arrive BEFORE the parent's, two after it.
    h.clock.advance(60_000);
    await report([kids[0]!.id, false], [kids[1]!.id, false]);
    expect((await w.api('GET', `/monitors/${kids[0]!.id}`)).body.status).toBe('down');
    await report([parent.id, false]);
    await report([kids[2]!.id, false], [kids[3]!.id, false]);
    // A held dependent looks again every 2 s (HOLD_POLL_MS) until its dependencies are checked.
    h.clock.advance(2_000);

    for (const k of kids)
      await until(async () => {
        const m = (await w.api('GET', `/monitors/${k.id}`)).body;
        expect(m).toMatchObject({ status: 'down', suppressed_by: parent.id });
      });
    const all = (await w.api('GET', '/alerts?status=open')).body.data as {
      source_id: string;
      held_back: number;
    }[];
    expect(all.map((a) => a.source_id)).toEqual([parent.id]);
    expect(all[0]!.held_back).toBe(4);
    expect(await timeline(w.api, kids[0]!.id)).toEqual(['suppressed', 'held']);
    const listed = (await w.api('GET', '/monitors?status=down')).body.data as {
      id: string;
      suppressed_by: string | null;
    }[];
    expect(listed.find((m) => m.id === parent.id)?.suppressed_by).toBeNull();
    expect(listed.filter((m) => m.suppressed_by === parent.id)).toHaveLength(4);

    // The parent recovers; server-0 recovers too (no alert, ever), the others still fail.
    h.clock.advance(60_000);
    await report([parent.id, true], [kids[0]!.id, true]);
    expect((await alertsOf(w.api, parent.id))[0]!.status).toBe('resolved');
    // The dependents look again at their dependency (a suppressed hold is re-checked within 30 s).
    h.clock.advance(31_000);
    await until(async () => expect(await timeline(w.api, kids[1]!.id)).toContain('released'));
    expect(await alertsOf(w.api, kids[1]!.id)).toEqual([]);
    // Their next check still fails: now each raises its own alert.
    h.clock.advance(30_000);
    await report([kids[1]!.id, false], [kids[2]!.id, false], [kids[3]!.id, false]);
    for (const k of kids.slice(1))
      await until(async () => expect((await alertsOf(w.api, k.id)).map((a) => a.status)).toEqual(['open']));
    expect(await alertsOf(w.api, kids[0]!.id)).toEqual([]);
    expect((await timeline(w.api, kids[0]!.id))[0]).toBe('cleared');
    expect((await timeline(w.api, kids[1]!.id))[0]).toBe('raised');
    expect((await w.api('GET', `/monitors/${kids[1]!.id}`)).body.suppressed_by).toBeNull();
  });

  it('a dependent whose dependency is up and checked raises as usual (after its hold is decided)', async () => {
    const w = await h.workspace('deps-solo');
    const parent = await create(w.api, 'db');
    const kid = await create(w.api, 'api', [parent.id]);
    h.clock.advance(1000);
    await report([parent.id, true]);
    await report([kid.id, false]);
    await until(async () => expect((await alertsOf(w.api, kid.id)).map((a) => a.status)).toEqual(['open']));
    expect(await timeline(w.api, kid.id)).toEqual(['raised', 'held']);
  });

  it('a group as a dependency is down while any member is; a member may not depend on its own group', async () => {
    const w = await h.workspace('deps-group');
    const g = await w.api('POST', '/groups', { json: { name: 'Rack 4' } });
    expect(g.status, JSON.stringify(g.body)).toBe(201);
    const a = await create(w.api, 'rack-a', [], { group_id: g.body.id });
    const b = await create(w.api, 'rack-b', [], { group_id: g.body.id });
    const app = await create(w.api, 'app', [g.body.id]);
    expect((await w.api('GET', `/monitors/${app.id}`)).body.dependencies).toEqual([
      { id: g.body.id, kind: 'group', name: 'Rack 4' },
    ]);
    const own = await w.api('PATCH', `/monitors/${a.id}`, { json: { depends_on: [g.body.id] } });
    expect(own.status).toBe(422);
    expect(own.body.error.details[0].message).toBe('would make a cycle: rack-a → Rack 4 → rack-a');

    h.clock.advance(1000);
    await report([a.id, true], [b.id, true], [app.id, true]);
    h.clock.advance(60_000);
    await report([app.id, false]);
    await report([b.id, false]);
    // A held dependent looks again every 2 s (HOLD_POLL_MS) until its dependencies are checked.
    h.clock.advance(2_000);
    await until(async () =>
      expect(
        (await w.api('GET', `/monitors/${app.id}`)).body.suppressed_by,
        JSON.stringify([await timeline(w.api, app.id), await alertsOf(w.api, app.id)]),
      ).toBe(g.body.id),
    );
    const open = (await w.api('GET', '/alerts?status=open')).body.data as {
      source_id: string;
      held_back: number;
    }[];
    expect(open.map((x) => x.source_id)).toEqual([b.id]);
    expect(open[0]!.held_back).toBe(1);
  });

  it('a heartbeat whose job fails while the monitor it depends on is down raises nothing; after the monitor recovers, its next failure alerts', async () => {
    const w = await h.workspace('deps-heartbeat');
    const db = await create(w.api, 'database');
    const hb = (
      await w.api('POST', '/heartbeats', {
        json: {
          display_name: 'nightly export',
          period_seconds: 3600,
          grace_seconds: 600,
          depends_on: [db.id],
        },
      })
    ).body as { id: string };
    const ping = (suffix = '') => h.request('GET', `/hb/ping/${hb.id}${suffix}`);
    h.clock.advance(1000);
    await report([db.id, true]);
    await ping();
    h.clock.advance(60_000);
    await report([db.id, false]);
    expect((await ping('/fail')).status).toBe(200);
    await until(async () =>
      expect((await w.api('GET', `/heartbeats/${hb.id}`)).body).toMatchObject({
        state: 'down',
        suppressed_by: db.id,
      }),
    );
    expect(await alertsOf(w.api, hb.id)).toEqual([]);
    expect((await alertsOf(w.api, db.id))[0]!.held_back).toBe(1);
    const events = (await w.api('GET', `/heartbeats/${hb.id}/timeline`)).body.data as { kind: string }[];
    expect(events.map((e) => e.kind)).toEqual(['suppressed', 'held']);

    // The database recovers; the heartbeat, still down, raises once its suppression is looked at again.
    h.clock.advance(60_000);
    await report([db.id, true]);
    h.clock.advance(31_000);
    await until(async () => expect((await alertsOf(w.api, hb.id)).map((a) => a.status)).toEqual(['open']));
    expect((await w.api('GET', `/heartbeats/${hb.id}`)).body.suppressed_by).toBeNull();
  });
});
