import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import {
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
} from '@connectrpc/connect-node';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import {
  AgentService,
  CheckResultSchema,
  EncodedReportResultsRequestSchema,
  type WatchAssignmentsResponse,
} from '@lookout/proto';
import { createSecretBox, ManualClock, silentLogger } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createAgentToken } from '../domain/agents/agent-tokens.js';
import { createMonitorCatalog, type MonitorCatalog } from '../domain/monitors/monitor-catalog.js';
import { createMonitorSlots } from '../domain/monitors/monitor-slots.js';
import { createMonitor } from '../domain/monitors/monitors.js';
import { createWorkspace } from '../domain/tenancy/workspaces.js';
import type { Workspace } from '../domain/types.js';
import type { Store } from '../store/port.js';
import { createSqliteStore } from '../store/sqlite/sqlite-store.js';
import { RPC_READ_MAX_BYTES, type RpcServer, startRpcServer } from './rpc-server.js';

const box = createSecretBox(undefined);

const dir = mkdtempSync(join(tmpdir(), 'lookout-rpc-'));
const clock = new ManualClock('2026-06-01T00:00:00Z');
const config = loadConfig({}, { assignment_poll_ms: 50, data_dir: dir });
let store: Store;
let rpc: RpcServer;
let token: string;
let workspace: Workspace;
const slots = createMonitorSlots();
let catalog: MonitorCatalog;

beforeAll(async () => {
  store = createSqliteStore({ path: join(dir, 'lookout.db') });
  await store.init();
  // The catalog the service reads, with the numbering of monitor ids the test looks into.
  catalog = createMonitorCatalog(store, slots);
  catalog.start(config.assignment_poll_ms, () => {});
  rpc = await startRpcServer({
    store,
    box,
    clock,
    config,
    logger: silentLogger(),
    host: '127.0.0.1',
    port: 0,
    catalog,
  });
  token = (await createAgentToken(store, config.regions, { region: 'eu-west' }, clock.now())).value;
  workspace = (
    await createWorkspace(
      store,
      config.plans,
      { subdomain: 'rpc', admin_email: 'a@rpc.test', plan: 'business' },
      clock.now(),
    )
  ).workspace;
  for (let i = 0; i < 20; i++) {
    await createMonitor(
      {
        workspace,
        plan: config.plans.business!,
        planName: 'business',
        regions: config.regions,
        store,
        box,
        now: clock.now(),
      },
      {
        display_name: `m${i}`,
        monitor_type: 'tcp',
        url: 'db.example.com',
        port: 5432,
        check_locations: i < 15 ? ['eu-west'] : ['us-east'],
      },
    );
  }
});
afterAll(async () => {
  catalog.stop();
  await rpc.stop(100);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const transport = (bearer = token) =>
  createGrpcTransport({
    baseUrl: rpc.url,
    interceptors: [
      (next) => (req) => {
        req.header.set('authorization', `Bearer ${bearer}`);
        return next(req);
      },
    ],
  });
const client = (bearer = token) => createClient(AgentService, transport(bearer));

/** Reads stream messages until `done` says enough. */
const collect = async (
  stream: AsyncIterable<WatchAssignmentsResponse>,
  done: (all: WatchAssignmentsResponse[]) => boolean,
) => {
  const all: WatchAssignmentsResponse[] = [];
  for await (const m of stream) {
    all.push(m);
    if (done(all)) break;
  }
  return all;
};

describe('AgentService over real gRPC (Connect server, HTTP/2 on loopback)', () => {
  it('refuses a missing or wrong token', async () => {
    await expect(client('lat.nope').register({ instanceId: 'x' })).rejects.toMatchObject({ code: 16 });
  });

  it('registers, then streams the region’s monitors as the first Sync', async () => {
    const c = client();
    const reg = await c.register({ instanceId: 'eu-1', hostname: 'h1', agentVersion: 'test' });
    expect(reg.region).toBe('eu-west');
    expect(reg.epoch).toBe(1n);
    const ac = new AbortController();
    const msgs = await collect(
      c.watchAssignments({ instanceId: 'eu-1', sessionId: reg.sessionId }, { signal: ac.signal }),
      (a) => a.length >= 1,
    );
    ac.abort();
    expect(msgs[0]!.event.case).toBe('sync');
    const sync = msgs[0]!.event.value as {
      upserts: { monitorId: string; spec?: { port: number } }[];
      full: boolean;
    };
    expect(sync.full).toBe(true);
    expect(sync.upserts).toHaveLength(15);
    expect(sync.upserts[0]!.spec?.port).toBe(5432);
  });

  it('spreads monitors over two live agents by rendezvous hashing, and diffs against what an agent runs', async () => {
    const c = client();
    const a = await c.register({ instanceId: 'eu-1' });
    const b = await c.register({ instanceId: 'eu-2' });
    const ac = new AbortController();
    const first = (id: string, sessionId: string, running: { monitorId: string; version: bigint }[] = []) =>
      collect(
        c.watchAssignments({ instanceId: id, sessionId, running }, { signal: ac.signal }),
        (x) => x.length >= 1,
      ).then((x) => x[0]!.event.value as { upserts: { monitorId: string }[]; removes: string[] });
    const sa = await first('eu-1', a.sessionId);
    const sb = await first('eu-2', b.sessionId);
    const ids = [...sa.upserts, ...sb.upserts].map((u) => u.monitorId);
    expect(new Set(ids).size).toBe(15);
    expect(sa.upserts.length).toBeGreaterThan(0);
    expect(sb.upserts.length).toBeGreaterThan(0);
    // reconnect saying what it runs: only the difference comes back
    const running = sa.upserts.slice(1).map((u) => ({ monitorId: u.monitorId, version: 1n }));
    const again = await first('eu-1', (await c.register({ instanceId: 'eu-1' })).sessionId, [
      ...running,
      { monitorId: 'gone', version: 1n },
    ]);
    expect(again.upserts.map((u) => u.monitorId)).toEqual([sa.upserts[0]!.monitorId]);
    expect(again.removes).toEqual(['gone']);
    // What the agent runs that is no monitor is not given a number (the process keeps those for good).
    expect(slots.find('gone')).toBe(-1);
    expect(slots.find(sa.upserts[0]!.monitorId)).toBeGreaterThanOrEqual(0);
    ac.abort();
  });

  it('the newest session of an instance wins: the old stream ends as superseded', async () => {
    const c = client();
    const old = await c.register({ instanceId: 'eu-9' });
    const stream = c.watchAssignments({ instanceId: 'eu-9', sessionId: old.sessionId });
    const it = stream[Symbol.asyncIterator]();
    expect((await it.next()).value.event.case).toBe('sync');
    await c.register({ instanceId: 'eu-9' });
    await expect(
      (async () => {
        for (;;) if ((await it.next()).done) return;
      })(),
    ).rejects.toMatchObject({ code: 10, rawMessage: expect.stringContaining('superseded') });
    await expect(c.heartbeat({ instanceId: 'eu-9', sessionId: old.sessionId })).rejects.toMatchObject({
      code: 9,
    });
  });

  it('a heartbeat’s cadence is kept as a time on this clock: results are owed from then', async () => {
    const c = client();
    const reg = await c.register({ instanceId: 'eu-hb' });
    await c.heartbeat({
      instanceId: 'eu-hb',
      sessionId: reg.sessionId,
      assigned: 3,
      shortestIntervalSeconds: 60,
      shortestIntervalAgeSeconds: 30,
    });
    const session = await store.getAgentSession('eu-hb');
    expect(session?.health).toMatchObject({
      assigned: 3,
      shortest_interval_seconds: 60,
      results_due_since: new Date(clock.now().getTime() - 30_000).toISOString(),
    });
    // An agent without monitors owes nothing.
    await c.heartbeat({ instanceId: 'eu-hb', sessionId: reg.sessionId, assigned: 0 });
    expect((await store.getAgentSession('eu-hb'))?.health).toMatchObject({
      shortest_interval_seconds: 0,
      results_due_since: null,
    });
  });

  it('stores reported results once, however often they are replayed', async () => {
    const c = client();
    const reg = await c.register({ instanceId: 'eu-r' });
    const [m] = (await store.listRegionMonitors('eu-west')).slice(0, 1);
    const result = create(CheckResultSchema, {
      resultId: `${m!.id}:eu-west:1`,
      monitorId: m!.id,
      monitorVersion: 1n,
      scheduledAtMs: BigInt(clock.now().getTime()),
      startedAtMs: BigInt(clock.now().getTime()),
      ok: true,
      responseTimeMs: 12,
    });
    const r1 = await c.reportResults({ instanceId: 'eu-r', sessionId: reg.sessionId, results: [result] });
    const r2 = await c.reportResults({
      instanceId: 'eu-r',
      sessionId: reg.sessionId,
      results: [result, result],
    });
    expect([r1.accepted, r1.duplicates, r2.accepted, r2.duplicates]).toEqual([1, 0, 2, 2]);
    const page = await store.listResults(m!.workspace_id, m!.id, { limit: 10 });
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({
      location: 'eu-west',
      instance_id: 'eu-r',
      ok: true,
      response_time_ms: 12,
    });
  });

  it('stores a batch whose results come already encoded (EncodedReportResultsRequest, as an agent sends a backlog) like any other', async () => {
    const reg = await client().register({ instanceId: 'eu-enc' });
    const [m] = (await store.listRegionMonitors('eu-west')).slice(1, 2);
    const at = clock.now().getTime();
    const results = [0, 1].map((i) =>
      create(CheckResultSchema, {
        resultId: `${m!.id}:eu-west:${at - i * 60_000}`,
        monitorId: m!.id,
        monitorVersion: 1n,
        scheduledAtMs: BigInt(at - i * 60_000),
        startedAtMs: BigInt(at - i * 60_000 + 3),
        ok: i === 0,
        errorKind: i === 0 ? '' : 'timeout',
        errorMessage: i === 0 ? '' : 'timed out after 10000 ms',
        responseTimeMs: 30 + i,
        timings: { connectMs: 2, totalMs: 30 + i },
      }),
    );
    // ReportResults with the encoded input, as agent/src/report-rpc.ts calls it.
    const method = { ...AgentService.method.reportResults, input: EncodedReportResultsRequestSchema };
    const request = {
      instanceId: 'eu-enc',
      sessionId: reg.sessionId,
      results: results.map((r) => toBinary(CheckResultSchema, r)),
    };
    const reply = await transport().unary(method, undefined, undefined, undefined, request);
    expect([reply.message.accepted, reply.message.duplicates]).toEqual([2, 0]);
    // The same results as messages are replays of them: one id space, one wire format.
    const again = await client().reportResults({ instanceId: 'eu-enc', sessionId: reg.sessionId, results });
    expect([again.accepted, again.duplicates]).toEqual([2, 2]);
    const page = await store.listResults(m!.workspace_id, m!.id, { limit: 10 });
    expect(page.data.map((r) => [r.ok, r.response_time_ms, r.error_message, r.instance_id])).toEqual([
      [true, 30, null, 'eu-enc'],
      [false, 31, 'timed out after 10000 ms', 'eu-enc'],
    ]);
  });

  it('refuses a batch with a malformed result, naming it, and stores none of the batch', async () => {
    const reg = await client().register({ instanceId: 'eu-bad' });
    const [m] = (await store.listRegionMonitors('eu-west')).slice(2, 3);
    const at = clock.now().getTime();
    const good = create(CheckResultSchema, {
      resultId: `${m!.id}:eu-west:${at}`,
      monitorId: m!.id,
      monitorVersion: 1n,
      scheduledAtMs: BigInt(at),
      startedAtMs: BigInt(at + 3),
      ok: true,
      responseTimeMs: 12,
    });
    const bytes = toBinary(CheckResultSchema, good);
    const method = { ...AgentService.method.reportResults, input: EncodedReportResultsRequestSchema };
    // The second result stops inside its monitor id.
    const request = {
      instanceId: 'eu-bad',
      sessionId: reg.sessionId,
      results: [bytes, bytes.subarray(0, 30)],
    };
    const err = await transport()
      .unary(method, undefined, undefined, undefined, request)
      .then(
        () => null,
        (e: unknown) => ConnectError.from(e),
      );
    expect(err?.code).toBe(Code.InvalidArgument);
    expect(err?.rawMessage).toMatch(/^results\[1\]: /);
    expect((await store.listResults(m!.workspace_id, m!.id, { limit: 10 })).data).toEqual([]);
  });

  it('a different gRPC implementation (@grpc/grpc-js) registers and watches assignments', async () => {
    // The agents of the tests above go quiet, so this one is the region's only live agent and its
    // share is every eu-west monitor (with five live agents, a share of 15 can be empty).
    clock.advance(config.agent_live_seconds * 1000 + 1);
    const def = protoLoader.loadSync(
      join(import.meta.dirname, '..', '..', '..', 'proto', 'lookout', 'agent', 'v1', 'agent.proto'),
      {
        longs: String,
        defaults: true,
        oneofs: true,
      },
    );
    // biome-ignore lint/suspicious/noExplicitAny: grpc-js builds its client types at run time
    const pkg = grpc.loadPackageDefinition(def) as any;
    const Client = pkg.lookout.agent.v1.AgentService;
    const g = new Client(rpc.url.replace('http://', ''), grpc.credentials.createInsecure());
    const md = new grpc.Metadata();
    md.set('authorization', `Bearer ${token}`);
    const reg = await new Promise<{ sessionId: string; region: string }>((resolve, reject) =>
      g.register(
        { instanceId: 'grpcjs-1' },
        md,
        (err: Error | null, res: { sessionId: string; region: string }) => (err ? reject(err) : resolve(res)),
      ),
    );
    expect(reg.region).toBe('eu-west');
    const first = await new Promise<{ event: string; sync: { upserts: unknown[] } }>((resolve, reject) => {
      const call = g.watchAssignments({ instanceId: 'grpcjs-1', sessionId: reg.sessionId }, md);
      call.on('data', (d: { event: string; sync: { upserts: unknown[] } }) => {
        resolve(d);
        call.cancel();
      });
      call.on('error', (e: { code: number }) => (e.code === grpc.status.CANCELLED ? undefined : reject(e)));
    });
    expect(first.event).toBe('sync');
    expect(first.sync.upserts.length).toBe(15);
    g.close();
  });
  it('speaks the Connect and gRPC-Web protocols too (unary and the server stream)', async () => {
    // A us-east token: these sessions must not take a share of the eu-west monitors other tests count.
    const usToken = (await createAgentToken(store, config.regions, { region: 'us-east' }, clock.now())).value;
    for (const protocol of [createConnectTransport, createGrpcWebTransport]) {
      const c = createClient(
        AgentService,
        protocol({
          baseUrl: rpc.url,
          httpVersion: '2',
          interceptors: [
            (next) => (req) => {
              req.header.set('authorization', `Bearer ${usToken}`);
              return next(req);
            },
          ],
        }),
      );
      const reg = await c.register({ instanceId: 'proto-us' });
      expect(reg.region).toBe('us-east');
      const ac = new AbortController();
      const [first] = await collect(
        c.watchAssignments({ instanceId: 'proto-us', sessionId: reg.sessionId }, { signal: ac.signal }),
        (a) => a.length >= 1,
      );
      ac.abort();
      expect(first!.event.case).toBe('sync');
      expect((first!.event.value as { upserts: unknown[] }).upserts).toHaveLength(5);
      await expect(c.register({ instanceId: 'bad id with spaces' })).rejects.toMatchObject({ code: 3 });
    }
  });
  it('a request message over the read limit is refused (resource_exhausted) instead of being read whole, key or no key', async () => {
    const c = createClient(
      AgentService,
      createConnectTransport({
        baseUrl: rpc.url,
        httpVersion: '2',
        useBinaryFormat: false,
        interceptors: [
          (next) => (req) => {
            req.header.set('authorization', 'Bearer lat.not-a-token');
            return next(req);
          },
        ],
      }),
    );
    const big = 'x'.repeat(1 << 20);
    const count = 20; // 20 MiB
    await expect(
      c.reportResults({
        sessionId: 's',
        results: Array.from({ length: count }, (_, i) =>
          create(CheckResultSchema, { monitorId: `m${i}`, errorMessage: big }),
        ),
      }),
    ).rejects.toMatchObject({ code: 8 });
    expect(RPC_READ_MAX_BYTES).toBeLessThan(count * big.length);
  });
});
