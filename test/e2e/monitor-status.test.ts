import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcAgent } from '../support/agent-client.js';
import { type Harness, startHarness } from '../support/harness.js';
import { type HarnessAgent, registerAgent } from '../support/harness-agent.js';

/**
 * Monitor status (`domain/monitors/monitor-status.ts`): every monitor record carries `status` (up, down, paused,
 * pending, maintenance) and `last_checked_at`; `GET /monitors?status=` filters on it.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Api = Awaited<ReturnType<Harness['workspace']>>['api'];

const create = async (api: Api, name: string) => {
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
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; status: string; last_checked_at: string | null };
};

/** An agent of eu-west, registered with the control plane's agent service (gRPC on its RPC port). */
let agent: Promise<HarnessAgent> | undefined;
const euAgent = () => {
  agent ??= registerAgent(h, 'eu-west', 'test-agent');
  return agent;
};

/** A result from eu-west, checked now, sent as an agent sends it: ReportResults. */
const report = async (monitorId: string, ok: boolean, responseTimeMs = 12) => {
  const now = BigInt(h.clock.now().getTime());
  const { client, sessionId } = await euAgent();
  const reply = await client.reportResults({
    instanceId: 'test-agent',
    sessionId,
    results: [
      {
        // The id is derived again on ingestion (resultId); the agent's is not trusted.
        resultId: '',
        monitorId,
        monitorVersion: 1n,
        scheduledAtMs: now,
        startedAtMs: now,
        ok,
        errorKind: ok ? '' : 'connect',
        errorMessage: ok ? '' : 'connection refused',
        responseTimeMs,
      },
    ],
  });
  expect(reply.accepted).toBe(1);
};

const statusOf = async (api: Api, id: string) => (await api('GET', `/monitors/${id}`)).body;
const names = (r: { body: { data: { display_name: string }[] } }) =>
  r.body.data.map((m) => m.display_name).sort();

describe('monitor status', () => {
  it('each monitor record says up, down, paused, pending or maintenance, with last_checked_at', async () => {
    const w = await h.workspace('status-all');
    const fresh = await create(w.api, 'fresh');
    expect(fresh).toMatchObject({ status: 'pending', last_checked_at: null });

    const up = await create(w.api, 'up');
    const down = await create(w.api, 'down');
    const paused = await create(w.api, 'paused');
    const maint = await create(w.api, 'maint');
    h.clock.advance(1000);
    const checkedAt = h.clock.now().toISOString();
    await report(up.id, true);
    await report(down.id, false);
    await report(maint.id, false);
    expect(await statusOf(w.api, up.id)).toMatchObject({ status: 'up', last_checked_at: checkedAt });
    expect(await statusOf(w.api, down.id)).toMatchObject({ status: 'down', last_checked_at: checkedAt });

    const p = await w.api('POST', `/monitors/${paused.id}/pause`);
    expect(p.body).toMatchObject({ status: 'paused', last_checked_at: null });
    const mw = await w.api('POST', '/maintenance-windows', {
      json: {
        name: 'db upgrade',
        scope_type: 'monitor',
        scope_id: maint.id,
        starts_at: h.clock.now().toISOString(),
        ends_at: new Date(h.clock.now().getTime() + 3_600_000).toISOString(),
      },
    });
    expect(mw.status).toBe(201);
    expect(await statusOf(w.api, maint.id)).toMatchObject({
      status: 'maintenance',
      last_checked_at: checkedAt,
    });

    const list = await w.api('GET', '/monitors');
    expect(
      Object.fromEntries(
        list.body.data.map((m: { display_name: string; status: string }) => [m.display_name, m.status]),
      ),
    ).toEqual({ fresh: 'pending', up: 'up', down: 'down', paused: 'paused', maint: 'maintenance' });

    // Recovery flips it back; the window ends and the monitor shows its checks' verdict again.
    h.clock.advance(60_000);
    await report(down.id, true);
    expect((await statusOf(w.api, down.id)).status).toBe('up');
    h.clock.advance(3_600_000);
    expect((await statusOf(w.api, maint.id)).status).toBe('down');
  });

  it('GET /monitors?status= filters on one or several statuses, paging like every list', async () => {
    const w = await h.workspace('status-filter');
    const ids: Record<string, string> = {};
    for (const name of ['a', 'b', 'c', 'd', 'e']) ids[name] = (await create(w.api, name)).id;
    await report(ids.a!, false);
    await report(ids.b!, false);
    await report(ids.c!, true);
    await w.api('POST', `/monitors/${ids.d!}/pause`);

    expect(names(await w.api('GET', '/monitors?status=down'))).toEqual(['a', 'b']);
    expect(names(await w.api('GET', '/monitors?status=up,pending'))).toEqual(['c', 'e']);
    expect(names(await w.api('GET', '/monitors?status=paused&status=up'))).toEqual(['c', 'd']);
    expect(names(await w.api('GET', '/monitors?status=maintenance'))).toEqual([]);

    const first = await w.api('GET', '/monitors?status=down&limit=1');
    expect(first.body.data).toHaveLength(1);
    const second = await w.api('GET', `/monitors?status=down&limit=1&cursor=${first.body.next_cursor}`);
    expect([...names(first), ...names(second)].sort()).toEqual(['a', 'b']);
    expect(second.body.next_cursor).toBeNull();

    // A workspace-wide window puts every monitor that is not paused in maintenance.
    await w.api('POST', '/maintenance-windows', {
      json: {
        name: 'everything',
        scope_type: 'workspace',
        starts_at: h.clock.now().toISOString(),
        ends_at: new Date(h.clock.now().getTime() + 60_000).toISOString(),
      },
    });
    expect(names(await w.api('GET', '/monitors?status=maintenance'))).toEqual(['a', 'b', 'c', 'e']);
    h.clock.advance(60_000);

    const bad = await w.api('GET', '/monitors?status=up,sideways');
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([
      {
        field: 'status',
        message: 'must be one or more of up, down, paused, pending, maintenance (comma-separated)',
      },
    ]);
  });

  it('each record carries uptime over 24 h and 30 d, the last response time and the recent checks, oldest first', async () => {
    const w = await h.workspace('status-checks');
    const m = await create(w.api, 'checked');
    const fresh = await create(w.api, 'fresh');
    expect(fresh).toMatchObject({
      uptime_24h: null,
      uptime_30d: null,
      last_response_time_ms: null,
      recent_checks: [],
    });
    const times: string[] = [];
    for (const [i, ok] of [true, true, false, true].entries()) {
      h.clock.advance(60_000);
      times.push(h.clock.now().toISOString());
      await report(m.id, ok, 20 + i);
    }
    // A replayed result (same monitor, location and scheduled time) counts once.
    await report(m.id, true, 99);
    const expected = {
      uptime_24h: 75,
      uptime_30d: 75,
      last_response_time_ms: 23,
      recent_checks: times.map((at, i) => ({
        at,
        ok: i !== 2,
        location: 'eu-west',
        // a failure without a response has no response time
        response_time_ms: i === 2 ? null : 20 + i,
      })),
    };
    expect(await statusOf(w.api, m.id)).toMatchObject(expected);
    const listed = (await w.api('GET', '/monitors')).body.data;
    expect(listed.find((x: { id: string }) => x.id === m.id)).toMatchObject(expected);
    expect(listed.find((x: { id: string }) => x.id === fresh.id)).toMatchObject({
      uptime_24h: null,
      recent_checks: [],
    });
    // Viewers get the same fields (and secrets masked as ever).
    const viewer = await w.userWithKey('viewer');
    expect((await w.as(viewer.key)('GET', `/monitors/${m.id}`)).body).toMatchObject(expected);
    // The uptime endpoint agrees, answered from the rollups (its window ends before `until`: now).
    h.clock.advance(1000);
    const uptime = await w.api('GET', `/monitors/${m.id}/uptime`);
    expect(uptime.body).toMatchObject({ total_checks: 4, successful_checks: 3, uptime_percentage: 75 });
  });

  it('a monitor that has never succeeded is pending until its checks decide, then down: never up (ReportResults over gRPC)', async () => {
    const w = await h.workspace('status-never-up');
    const agent = (region: string) =>
      grpcAgent({ store: h.store, config: h.config, rpcUrl: h.cp.rpcUrl, region, instance: `${region}-1` });
    const eu = await agent('eu-west');
    const us = await agent('us-east');
    const created = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'closed port',
        monitor_type: 'http',
        url: 'http://127.0.0.1:9/',
        http_method: 'GET',
        expected_status_code: 200,
        check_interval_seconds: 60,
        timeout_seconds: 5,
        failure_threshold: 3,
        check_locations: ['eu-west', 'us-east'],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const m = created.body as { id: string; status: string };
    expect(m.status).toBe('pending');
    const seen = async () => {
      const one = (await statusOf(w.api, m.id)) as { status: string; uptime_24h: number | null };
      const listed = (await w.api('GET', '/monitors')).body.data.find((x: { id: string }) => x.id === m.id);
      expect(listed.status).toBe(one.status);
      return one;
    };
    // Two failures from each location, then a third from eu-west alone: eu-west is failing, us-east is
    // not yet, and the quorum (two locations) is not met. No location has ever succeeded: pending.
    for (const [i, a] of [eu, us, eu, us, eu].entries()) {
      h.clock.advance(i % 2 === 0 ? 60_000 : 1000);
      await a.report(m.id, h.clock.now(), false);
      expect(await seen(), `after failure ${i + 1}`).toMatchObject({ status: 'pending', uptime_24h: 0 });
    }
    expect((await w.api('GET', '/monitors?status=up')).body.data).toEqual([]);
    expect((await w.api('GET', `/alerts?source_id=${m.id}`)).body.data).toEqual([]);
    // us-east reaches the threshold too: the quorum says down, and one alert opens.
    h.clock.advance(1000);
    await us.report(m.id, h.clock.now(), false);
    expect((await seen()).status).toBe('down');
    const alerts = (await w.api('GET', `/alerts?source_id=${m.id}`)).body.data as { status: string }[];
    expect(alerts.map((a) => a.status)).toEqual(['open']);
    // A success at last: up (eu-west alone is failing, below the quorum), and the alert resolves.
    h.clock.advance(60_000);
    await us.report(m.id, h.clock.now(), true);
    expect((await seen()).status).toBe('up');
    const after = (await w.api('GET', `/alerts?source_id=${m.id}`)).body.data as { status: string }[];
    expect(after.map((a) => a.status)).toEqual(['resolved']);

    // One location, threshold 2: the first failure leaves it pending, the second makes it down.
    const single = (
      await w.api('POST', '/monitors/create', {
        json: {
          display_name: 'closed port, eu only',
          monitor_type: 'http',
          url: 'http://127.0.0.1:9/',
          http_method: 'GET',
          expected_status_code: 200,
          check_interval_seconds: 60,
          failure_threshold: 2,
          check_locations: ['eu-west'],
        },
      })
    ).body as { id: string };
    h.clock.advance(1000);
    await eu.report(single.id, h.clock.now(), false);
    expect((await statusOf(w.api, single.id)).status).toBe('pending');
    h.clock.advance(60_000);
    await eu.report(single.id, h.clock.now(), false);
    expect((await statusOf(w.api, single.id)).status).toBe('down');
  });

  it('POST /monitors/{id}/check asks every location for a run now: 202, 409 when paused, 404 elsewhere', async () => {
    const w = await h.workspace('check-now');
    const r = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'two regions',
        monitor_type: 'tcp',
        url: 'db.example.test',
        port: 5432,
        check_locations: ['eu-west', 'us-east'],
      },
    });
    const m = r.body as { id: string };
    const seqBefore = await h.store.latestMonitorChange();
    const asked = await w.api('POST', `/monitors/${m.id}/check`);
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ requested: ['eu-west', 'us-east'] });
    const runs = (await h.store.listMonitorChanges(seqBefore, 100)).filter((c) => c.kind === 'run');
    expect(runs.map((c) => [c.monitor_id, c.location, c.reason])).toEqual([
      [m.id, 'eu-west', 'test'],
      [m.id, 'us-east', 'test'],
    ]);
    expect(new Set(runs.map((c) => c.request_id)).size).toBe(2);

    const viewer = await w.userWithKey('viewer');
    expect((await w.as(viewer.key)('POST', `/monitors/${m.id}/check`)).status).toBe(403);
    const other = await h.workspace('check-now-other');
    const elsewhere = await other.api('POST', `/monitors/${m.id}/check`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error.code).toBe('not_found');

    await w.api('POST', `/monitors/${m.id}/pause`);
    const paused = await w.api('POST', `/monitors/${m.id}/check`);
    expect(paused.status).toBe(409);
    expect(paused.body.error).toMatchObject({ code: 'conflict' });
  });
});
