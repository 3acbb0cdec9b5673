import { createServer, type Http2Server, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { create } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { AgentService, AssignmentSchema, type CheckResult, CheckSpecSchema } from '@lookout/proto';
import { createLogger, silentLogger } from '@lookout/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from './agent.js';
import type { AgentConfig } from './config.js';
import { manualTimers } from './manual-timers.js';
import { createAgentMetrics } from './metrics.js';
import { createProbers } from './probers/index.js';

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
  buffer_max_bytes: 64 * 2 ** 20,
  buffer_max_age_seconds: 3600,
  log_level: 'silent',
  nice: 0,
  shutdown_grace_ms: 100,
  metrics_port: 0,
  metrics_host: '127.0.0.1',
  block_private_targets: false,
  data_dir: undefined,
  check_types: undefined,
  rdap_bootstrap_url: 'off',
  rdap_refresh_hours: 0,
  fping: 'off',
  auth_retry_seconds: 300,
  chromium_path: undefined,
  browser_concurrency: 2,
  browser_memory_mb: 128,
  browser_cpu_seconds: 30,
});

/** Polls a condition that a real network call makes true (the agent's time is manual, the network is not). */
const until = async (what: string, ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
};

/**
 * A real AgentService on loopback: assigned monitors (tcp by default); every ReportResults reply asks
 * for a pause. `refuse` makes every call fail with that error (a revoked token, an outage) while set.
 */
const startControlPlane = async (
  slowDownMs: number,
  now: () => number,
  types = ['tcp'],
  refuse: { error: ConnectError | null } = { error: null },
) => {
  const reports: number[] = [];
  const results: CheckResult[] = [];
  const at: number[] = [];
  const registers: number[] = [];
  /** The check types each Register declared. */
  const declared: string[][] = [];
  const check = () => {
    if (refuse.error) throw refuse.error;
  };
  server = createServer(
    connectNodeAdapter({
      routes: (router) =>
        router.service(AgentService, {
          register: async (req) => {
            registers.push(now());
            declared.push(req.checkTypes);
            check();
            return { sessionId: 's1', epoch: 1n, region: 'eu-west' };
          },
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
            check();
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
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reports,
    at,
    results,
    registers,
    declared,
  };
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

  it('declares the check types its probers run at Register', async () => {
    const t = manualTimers(T0);
    const cp = await startControlPlane(0, () => t.timers.now());
    const probers = createProbers();
    const agent = createAgent({
      config: testConfig(cp.url, 'a-types'),
      logger: silentLogger(),
      prober: probers,
      timers: t.timers,
    });
    void agent.start();
    await until('registered', () => cp.declared.length === 1);
    await agent.stop(100);
    expect(cp.declared[0]).toEqual([...probers.types]);
    expect(cp.declared[0]).toEqual(expect.arrayContaining(['http', 'api', 'dns', 'tcp', 'domain']));
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

/** A logger whose JSON lines the test reads. */
const capturedLogger = () => {
  const lines: { level: number; msg: string; [k: string]: unknown }[] = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (l: string) => lines.push(JSON.parse(l)) },
  });
  return { logger, errors: () => lines.filter((l) => l.level >= 50), lines };
};

const counter = async (metrics: ReturnType<typeof createAgentMetrics>, kind: string) =>
  (await metrics.registry.getSingleMetric('lookout_agent_rpc_errors_total')?.get())?.values.find(
    (v) => v.labels.kind === kind,
  )?.value ?? 0;

/** Moves the agent's clock in steps of `stepMs`, letting real network calls finish between steps. */
const advance = async (t: ReturnType<typeof manualTimers>, byMs: number, stepMs = 1000) => {
  const to = t.timers.now() + byMs;
  while (t.timers.now() < to) {
    await t.advanceTo(Math.min(to, t.timers.now() + stepMs));
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('agent credentials', () => {
  it('a wrong or revoked token: no fast retries — a long wait, one clear error line, counted', {
    timeout: 20_000,
  }, async () => {
    const t = manualTimers(T0);
    const refuse = { error: new ConnectError('The agent token is not valid.', Code.Unauthenticated) };
    const cp = await startControlPlane(0, () => t.timers.now(), ['tcp'], refuse);
    const log = capturedLogger();
    const metrics = createAgentMetrics({ agent: 'a3' });
    const agent = createAgent({
      config: { ...testConfig(cp.url, 'a3'), auth_retry_seconds: 300 },
      logger: log.logger,
      prober: { run: async () => ({ ok: true, error: null, response_time_ms: 1 }) },
      timers: t.timers,
      random: () => 0.5,
      onRpcError: metrics.onRpcError,
    });
    void agent.start();
    await until('the first register', () => cp.registers.length === 1);

    // Well inside the long wait: no second attempt (the short backoff would have retried many times).
    await advance(t, 200_000, 10_000);
    expect(cp.registers).toHaveLength(1);
    await advance(t, 100_000, 10_000);
    await until('the second attempt', () => cp.registers.length === 2);
    await advance(t, 300_000, 10_000);
    await until('the third attempt', () => cp.registers.length === 3);
    expect(cp.registers[1]! - cp.registers[0]!).toBeGreaterThanOrEqual(240_000);
    expect(cp.registers[2]! - cp.registers[1]!).toBeGreaterThanOrEqual(240_000);

    // One clear error for the whole episode, not one per attempt; every rejection is counted.
    expect(log.errors()).toHaveLength(1);
    expect(log.errors()[0]!.msg).toMatch(/rejected this agent's token/);
    expect(log.errors()[0]).toMatchObject({ code: 'unauthenticated', retry_in_seconds: expect.any(Number) });
    expect(await counter(metrics, 'credentials')).toBe(3);
    expect(agent.connected).toBe(false);

    // A new token (or the revocation undone): the next attempt registers and says so.
    refuse.error = null as unknown as ConnectError;
    await advance(t, 300_000, 10_000);
    await until('registered again', () => agent.connected);
    expect(log.lines.some((l) => /token accepted again/.test(l.msg))).toBe(true);
    expect(log.errors()).toHaveLength(1);
    await agent.stop(100);
  });

  it('a token revoked while connected: reporting stops at once, the stream is dropped, the long wait begins', {
    timeout: 20_000,
  }, async () => {
    const t = manualTimers(T0);
    const refuse: { error: ConnectError | null } = { error: null };
    const cp = await startControlPlane(0, () => t.timers.now(), ['tcp'], refuse);
    const log = capturedLogger();
    const metrics = createAgentMetrics({ agent: 'a4' });
    const agent = createAgent({
      config: testConfig(cp.url, 'a4'),
      logger: log.logger,
      prober: { run: async () => ({ ok: true, error: null, response_time_ms: 1 }) },
      timers: t.timers,
      random: () => 0.5,
      onRpcError: metrics.onRpcError,
    });
    void agent.start();
    await until('assignments', () => agent.assigned().length === 1);
    refuse.error = new ConnectError('The agent token is not valid.', Code.PermissionDenied);
    await advance(t, 10_000);
    await until('the session dropped', () => !agent.connected);
    expect(cp.registers).toHaveLength(1);
    await advance(t, 60_000);
    // No reconnect yet, and no report retried every second meanwhile: one error line in all.
    expect(cp.registers).toHaveLength(1);
    expect(log.errors()).toHaveLength(1);
    expect(log.lines.filter((l) => /reporting failed/.test(l.msg))).toHaveLength(0);
    expect(await counter(metrics, 'credentials')).toBe(1);
    // Checks keep running meanwhile and their results wait in the buffer.
    expect(agent.health().bufferedResults).toBeGreaterThan(0);
    await agent.stop(100);
  });

  it('a token of another region stops the agent: one fatal line, no retry', async () => {
    const t = manualTimers(T0);
    const cp = await startControlPlane(0, () => t.timers.now());
    const log = capturedLogger();
    const metrics = createAgentMetrics({ agent: 'a6' });
    const agent = createAgent({
      config: { ...testConfig(cp.url, 'a6'), region: 'us-east' },
      logger: log.logger,
      prober: { run: async () => ({ ok: true, error: null, response_time_ms: 1 }) },
      timers: t.timers,
      onRpcError: metrics.onRpcError,
    });
    await expect(agent.start()).rejects.toThrow(
      'the token is for region eu-west, not us-east (LOOKOUT_AGENT_REGION)',
    );
    expect(cp.registers).toHaveLength(1);
    expect(log.lines.filter((l) => l.level === 60)).toMatchObject([{ msg: 'wrong region' }]);
    expect(await counter(metrics, 'fatal')).toBe(1);
    expect(agent.connected).toBe(false);
    await agent.stop(100);
  });

  it('an unreachable control plane is retried soon (short full-jitter backoff), one warning per attempt', {
    timeout: 20_000,
  }, async () => {
    const t = manualTimers(T0);
    const refuse = { error: new ConnectError('down for maintenance', Code.Unavailable) };
    const cp = await startControlPlane(0, () => t.timers.now(), ['tcp'], refuse);
    const log = capturedLogger();
    const metrics = createAgentMetrics({ agent: 'a5' });
    const agent = createAgent({
      config: testConfig(cp.url, 'a5'),
      logger: log.logger,
      prober: { run: async () => ({ ok: true, error: null, response_time_ms: 1 }) },
      timers: t.timers,
      random: () => 0.5,
      onRpcError: metrics.onRpcError,
    });
    void agent.start();
    await until('the first register', () => cp.registers.length === 1);
    for (let i = 0; i < 20 && cp.registers.length < 4; i++) await advance(t, 1000, 250);
    expect(cp.registers.length).toBeGreaterThanOrEqual(4);
    expect(cp.registers.at(-1)! - cp.registers[0]!).toBeLessThan(30_000);
    const warnings = () => log.lines.filter((l) => /control plane unreachable/.test(l.msg));
    await until('every attempt handled', () => warnings().length === cp.registers.length);
    expect(warnings()[0]).toMatchObject({ err: 'unavailable: down for maintenance' });
    expect(log.errors()).toHaveLength(0);
    expect(await counter(metrics, 'transient')).toBe(cp.registers.length);
    await agent.stop(100);
  });
});
