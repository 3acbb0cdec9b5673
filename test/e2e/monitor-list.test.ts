import { type Client, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { AgentService } from '@lookout/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * The monitor list at scale through the API (`GET /monitors` with `sort`, `q` and filters, and
 * `GET /monitors/counts`): status order across pages, counts that agree with it, maintenance from the
 * cover, cursors bound to their sort, one 422 naming every bad filter, another workspace invisible.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Api = Awaited<ReturnType<Harness['workspace']>>['api'];

const create = async (api: Api, name: string, over: Record<string, unknown> = {}) => {
  const r = await api('POST', '/monitors/create', {
    json: {
      display_name: name,
      monitor_type: 'tcp',
      url: `${name.toLowerCase()}.example.test`,
      port: 443,
      check_interval_seconds: 60,
      failure_threshold: 1,
      check_locations: ['eu-west'],
      ...over,
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string };
};

let agent: Promise<{ client: Client<typeof AgentService>; sessionId: string }> | undefined;
/** A result from eu-west, checked now, sent as an agent sends it: ReportResults. */
const report = async (monitorId: string, ok: boolean) => {
  agent ??= (async () => {
    const token = (await createAgentToken(h.store, h.config.regions, { region: 'eu-west' }, h.clock.now()))
      .value;
    const client = createClient(
      AgentService,
      createGrpcTransport({
        baseUrl: h.cp.rpcUrl,
        interceptors: [
          (next) => (req) => {
            req.header.set('authorization', `Bearer ${token}`);
            return next(req);
          },
        ],
      }),
    );
    const { sessionId } = await client.register({ instanceId: 'list-agent' });
    return { client, sessionId };
  })();
  const { client, sessionId } = await agent;
  const now = BigInt(h.clock.now().getTime());
  const reply = await client.reportResults({
    instanceId: 'list-agent',
    sessionId,
    results: [
      {
        resultId: '',
        monitorId,
        monitorVersion: 1n,
        scheduledAtMs: now,
        startedAtMs: now,
        ok,
        errorKind: ok ? '' : 'connect',
        errorMessage: ok ? '' : 'connection refused',
        responseTimeMs: 10,
      },
    ],
  });
  expect(reply.accepted).toBe(1);
};

/** Every page of `path` (pages of 2), as "name:status". */
const walk = async (api: Api, path: string) => {
  const out: string[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const r = await api('GET', `${path}${sep}limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    out.push(
      ...r.body.data.map((m: { display_name: string; status: string }) => `${m.display_name}:${m.status}`),
    );
    cursor = r.body.next_cursor;
  } while (cursor);
  return out;
};

describe('the monitor list at scale', () => {
  it('sorts by status then name across pages; counts agree; a maintenance window moves a monitor to its own bucket', async () => {
    const w = await h.workspace('list-order');
    const m: Record<string, string> = {};
    for (const name of ['web', 'Api', 'db', 'cache', 'queue', 'Mail', 'dns'])
      m[name] = (await create(w.api, name)).id;
    h.clock.advance(1000);
    for (const name of ['web', 'Api', 'db']) await report(m[name]!, true);
    for (const name of ['cache', 'Mail']) await report(m[name]!, false);
    h.clock.advance(1000);
    await w.api('POST', `/monitors/${m.dns}/pause`);

    expect(await walk(w.api, '/monitors')).toEqual([
      'cache:down',
      'Mail:down',
      'queue:pending',
      'dns:paused',
      'Api:up',
      'db:up',
      'web:up',
    ]);
    expect((await w.api('GET', '/monitors/counts')).body).toEqual({
      up: 3,
      down: 2,
      pending: 1,
      paused: 1,
      maintenance: 0,
      total: 7,
    });

    const win = await w.api('POST', '/maintenance-windows', {
      json: {
        name: 'db upgrade',
        scope_type: 'monitor',
        scope_id: m.db,
        starts_at: h.clock.now().toISOString(),
        ends_at: new Date(h.clock.now().getTime() + 3_600_000).toISOString(),
      },
    });
    expect(win.status).toBe(201);
    expect(await walk(w.api, '/monitors?sort=status')).toEqual([
      'cache:down',
      'Mail:down',
      'queue:pending',
      'db:maintenance',
      'dns:paused',
      'Api:up',
      'web:up',
    ]);
    expect((await w.api('GET', '/monitors/counts')).body).toMatchObject({ up: 2, maintenance: 1, total: 7 });
    expect((await w.api('GET', '/monitors/counts?status=maintenance,down')).body).toEqual({
      up: 0,
      down: 2,
      pending: 0,
      paused: 0,
      maintenance: 1,
      total: 3,
    });
    expect(await walk(w.api, '/monitors?sort=name&q=CA')).toEqual(['cache:down']);
    expect(await walk(w.api, '/monitors?sort=name&status=up,down')).toEqual([
      'Api:up',
      'cache:down',
      'Mail:down',
      'web:up',
    ]);
    // The newest change first: the pause came after the flips.
    expect((await walk(w.api, '/monitors?sort=last_change'))[0]).toBe('dns:paused');
    expect(await walk(w.api, '/monitors?sort=response_time&status=pending')).toEqual(['queue:pending']);

    // Another workspace sees none of them.
    const other = await h.workspace('list-order-other');
    expect((await other.api('GET', '/monitors/counts')).body.total).toBe(0);
    expect((await other.api('GET', '/monitors')).body.data).toEqual([]);
    // A viewer may list and count.
    const viewer = await w.userWithKey('viewer');
    expect((await w.as(viewer.key)('GET', '/monitors/counts?region=eu-west')).body.total).toBe(7);
  });

  it('filters by type and region; a cursor is bound to its sort; every bad filter is named in one 422', async () => {
    const w = await h.workspace('list-filters');
    await create(w.api, 'alpha');
    await create(w.api, 'beta', { check_locations: ['us-east'] });
    await create(w.api, 'gamma', {
      monitor_type: 'http',
      url: 'https://gamma.example.test',
      port: undefined,
      http_method: 'GET',
      expected_status_code: 200,
    });
    expect(await walk(w.api, '/monitors?region=us-east')).toEqual(['beta:pending']);
    expect(await walk(w.api, '/monitors?monitor_type=http')).toEqual(['gamma:pending']);

    const first = await w.api('GET', '/monitors?sort=name&limit=1');
    expect(first.body.next_cursor).toBeTruthy();
    const mismatched = await w.api('GET', `/monitors?sort=status&limit=1&cursor=${first.body.next_cursor}`);
    expect(mismatched.status).toBe(422);
    expect(mismatched.body.error.details).toEqual([
      { field: 'cursor', message: 'is not a cursor this API returned for sort=status' },
    ]);
    expect((await w.api('GET', '/monitors?cursor=garbage')).status).toBe(422);

    for (const path of ['/monitors', '/monitors/counts']) {
      const bad = await w.api(
        'GET',
        `${path}?status=sideways&region=mars&tag=Not%20A%20Tag&group_id=nope&monitor_type=carrier-pigeon${path === '/monitors' ? '&sort=loudest' : ''}`,
      );
      expect(bad.status).toBe(422);
      expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
        [
          'group_id',
          'monitor_type',
          'region',
          'status',
          'tag',
          ...(path === '/monitors' ? ['sort'] : []),
        ].sort(),
      );
    }
  });
});
