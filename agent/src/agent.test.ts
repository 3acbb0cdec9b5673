import { createServer, type Http2Server, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { create } from '@bufbuild/protobuf';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { AgentService, AssignmentSchema, type CheckResult, CheckSpecSchema } from '@lookout/proto';
import { silentLogger } from '@lookout/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from './agent.js';
import type { AgentConfig } from './config.js';
import { manualTimers } from './manual-timers.js';

const T0 = 1_800_000_000_000;
let server: Http2Server | null = null;
const sessions = new Set<ServerHttp2Session>();
afterEach(async () => {
  for (const s of sessions) s.destroy();
  sessions.clear();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
});

const testConfig = (url: string, instance: string): AgentConfig => ({
  control_plane_url: url,
  token: 'lat.test-test-test-test-test',
  region: 'eu-west',
  instance_id: instance,
  concurrency: 4,
  queue_max: 100,
  buffer_max_results: 1000,
  buffer_max_age_seconds: 3600,
  log_level: 'silent',
  shutdown_grace_ms: 100,
  metrics_port: 0,
  metrics_host: '127.0.0.1',
  block_private_targets: false,
  rdap_bootstrap_url: 'off',
  rdap_refresh_hours: 0,
});

/** Polls a condition that a real network call makes true (the agent's time is manual, the network is not). */
const until = async (what: string, ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
};

/** A real AgentService on loopback: assigned monitors (tcp by default); every ReportResults reply asks for a pause. */
const startControlPlane = async (slowDownMs: number, now: () => number, types = ['tcp']) => {
  const reports: number[] = [];
  const results: CheckResult[] = [];
  const at: number[] = [];
  server = createServer(
    connectNodeAdapter({
      routes: (router) =>
        router.service(AgentService, {
          register: async () => ({ sessionId: 's1', epoch: 1n, region: 'eu-west' }),
          async *watchAssignments(_req, ctx) {
            yield {
              event: {
                case: 'sync',
                value: {
                  full: true,
                  removes: [],
                  upserts: types.map((monitorType, i) =>
                    create(AssignmentSchema, {
                      monitorId: `m${i + 1}`,
                      version: 1n,
                      spec: create(CheckSpecSchema, { monitorType, url: 'x', intervalSeconds: 1 }),
                    }),
                  ),
                },
              },
            };
            await new Promise((r) => ctx.signal.addEventListener('abort', r));
          },
          reportResults: async (req) => {
            reports.push(req.results.length);
            results.push(...req.results);
            at.push(now());
            return { accepted: req.results.length, duplicates: 0, slowDownMs };
          },
          heartbeat: async () => ({}),
        }),
    }),
  );
  server.on('session', (s) => sessions.add(s));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, reports, at, results };
};

describe('agent reporting', () => {
  it('honours a slow-down request: the next batch waits, results stay buffered meanwhile', {
    timeout: 20_000,
  }, async () => {
    const t = manualTimers(T0);
    const cp = await startControlPlane(5000, () => t.timers.now());
    const agent = createAgent({
      config: testConfig(cp.url, 'a1'),
      logger: silentLogger(),
      prober: { run: async () => ({ ok: true, error: null, response_time_ms: 1 }) },
      timers: t.timers,
    });
    void agent.start();
    await until('assignments', () => agent.assigned().length === 1);

    /** Moves the agent's clock a second at a time up to `to`, letting checks and calls run between. */
    const advanceTo = async (to: number) => {
      while (t.timers.now() < to) {
        await t.advanceTo(Math.min(to, t.timers.now() + 1000));
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    for (let i = 0; i < 5 && cp.reports.length === 0; i++) {
      await advanceTo(t.timers.now() + 1000);
      await new Promise((r) => setTimeout(r, 50));
    }
    await until('a first report', () => cp.reports.length === 1 && agent.slowDowns === 1);
    const pausedAt = cp.at[0]!;

    // 4 s into the 5 s pause: checks go on and buffer, nothing is sent.
    await advanceTo(pausedAt + 4000);
    await new Promise((r) => setTimeout(r, 100));
    expect(cp.reports).toHaveLength(1);
    expect(agent.health().bufferedResults).toBeGreaterThanOrEqual(3);

    await advanceTo(pausedAt + 6000);
    await until('the batch after the pause', () => cp.reports.length === 2);
    expect(cp.reports[1]).toBeGreaterThanOrEqual(4);
    // Shutdown does not sit out a pause: the rest is flushed at once.
    await advanceTo(t.timers.now() + 2000);
    await agent.stop(100);
    expect(cp.reports).toHaveLength(3);
    expect(agent.health().bufferedResults).toBe(0);
  });

  it('a monitor of a type it does not know is reported as failing, and the others run on', async () => {
    const t = manualTimers(T0);
    const cp = await startControlPlane(0, () => t.timers.now(), ['tcp', 'gopher']);
    const agent = createAgent({
      config: testConfig(cp.url, 'a2'),
      logger: silentLogger(),
      prober: { run: async () => ({ ok: true, error: null, response_time_ms: 1 }) },
      timers: t.timers,
    });
    void agent.start();
    await until('assignments', () => agent.assigned().length === 2);
    for (let i = 0; i < 3; i++) {
      await t.advanceTo(t.timers.now() + 1000);
      await new Promise((r) => setTimeout(r, 20));
    }
    await agent.stop(100);
    const byMonitor = (id: string) => cp.results.filter((r) => r.monitorId === id);
    expect(byMonitor('m1').length).toBeGreaterThan(0);
    expect(byMonitor('m1').every((r) => r.ok)).toBe(true);
    expect(byMonitor('m2').length).toBeGreaterThan(0);
    expect(byMonitor('m2')[0]).toMatchObject({ ok: false, errorKind: 'agent_error' });
    expect(byMonitor('m2')[0]!.errorMessage).toContain('unsupported monitor type "gopher"');
  });
});
