import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttp, type Server } from 'node:http';
import { createServer, type Http2Server, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import {
  AgentService,
  type Assignment,
  AssignmentSchema,
  type CheckResult,
  CheckSpecSchema,
  KeepAliveSchema,
  type WatchAssignmentsResponse,
} from '@lookout/proto';
import { silentLogger } from '@lookout/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assembleAgent } from './assemble.js';
import type { AgentConfig } from './config.js';
import { manualTimers } from './manual-timers.js';
import { RDAP_CACHE_FILE } from './probers/rdap-refresh.js';

/**
 * The agent as its process puts it together (assemble.ts), on a manual clock, against a real
 * AgentService on loopback and a local HTTP server standing in for IANA's bootstrap file and for an
 * RDAP service. The bootstrap data is fetched only when a domain check needs it, kept on disk, and read
 * from there after a restart.
 */
const T0 = Date.parse('2026-06-01T00:00:00Z');
const HOUR = 3_600_000;

let web: Server;
let webPort = 0;
let bootstrapFetches = 0;
beforeAll(async () => {
  web = createHttp((req, res) => {
    if (req.url === '/rdap/dns.json') {
      bootstrapFetches++;
      // A TLD that the shipped subset lacks: a check of it can only pass with the fetched data.
      const base = `http://127.0.0.1:${webPort}/rdap/`;
      return res.end(JSON.stringify({ version: '1.0', services: [[['test'], [base]]] }));
    }
    if (req.url === '/rdap/domain/example.test') {
      res.setHeader('content-type', 'application/rdap+json');
      return res.end(
        JSON.stringify({ events: [{ eventAction: 'expiration', eventDate: '2027-06-01T00:00:00Z' }] }),
      );
    }
    res.writeHead(404).end('{}');
  });
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', () => r()));
  webPort = (web.address() as AddressInfo).port;
});
afterAll(() => web.close());

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * An AgentService that assigns `initial` at once and whatever `assign` is given later; a reconnecting
 * agent gets all of them in its sync. `keepAlive` sends the keep-alive a real control plane sends
 * every 15 s, so a stream stays up while the test moves the agent's clock.
 */
const startControlPlane = async (initial: Assignment[]) => {
  const assigned = [...initial];
  const queued: WatchAssignmentsResponse['event'][] = [];
  let wake = () => {};
  const results: CheckResult[] = [];
  const sessions = new Set<ServerHttp2Session>();
  const server: Http2Server = createServer(
    connectNodeAdapter({
      routes: (router) =>
        router.service(AgentService, {
          register: async () => ({ sessionId: 's1', epoch: 1n, region: 'eu-west' }),
          async *watchAssignments(_req, ctx) {
            queued.length = 0;
            ctx.signal.addEventListener('abort', () => wake(), { once: true });
            yield { event: { case: 'sync', value: { full: true, removes: [], upserts: [...assigned] } } };
            while (!ctx.signal.aborted) {
              const next = queued.shift();
              if (next) yield { event: next };
              else
                await new Promise<void>((r) => {
                  wake = r;
                });
            }
          },
          reportResults: async (req) => {
            results.push(...req.results);
            return { accepted: req.results.length, duplicates: 0, slowDownMs: 0 };
          },
          heartbeat: async () => ({}),
        }),
    }),
  );
  server.on('session', (s) => sessions.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  cleanups.push(async () => {
    for (const s of sessions) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });
  const send = (event: WatchAssignmentsResponse['event']) => {
    queued.push(event);
    wake();
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    results,
    assign(a: Assignment) {
      assigned.push(a);
      send({ case: 'upsert', value: a });
    },
    keepAlive: () => send({ case: 'keepAlive', value: create(KeepAliveSchema) }),
  };
};

/** Checks every 30 s with a 10 s timeout. */
const assignment = (monitorId: string, monitorType: string, url: string, port = 0) =>
  create(AssignmentSchema, {
    monitorId,
    version: 1n,
    spec: create(CheckSpecSchema, { monitorType, url, port, intervalSeconds: 30, timeoutMs: 10_000 }),
  });

/** Bootstrap data older than 3 minutes is fetched again (LOOKOUT_AGENT_RDAP_REFRESH_HOURS=0.05). */
const REFRESH_MS = 3 * 60_000;
const config = (url: string, dataDir: string): AgentConfig => ({
  control_plane_url: url,
  token: 'lat.test-test-test-test-test',
  region: 'eu-west',
  instance_id: 'a1',
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
  data_dir: dataDir,
  check_types: undefined,
  rdap_bootstrap_url: `http://127.0.0.1:${webPort}/rdap/dns.json`,
  rdap_refresh_hours: REFRESH_MS / HOUR,
  fping: 'off',
  auth_retry_seconds: 300,
  chromium_path: undefined,
  browser_concurrency: 2,
  browser_memory_mb: 128,
  browser_cpu_seconds: 30,
});

/** Polls a condition that real network calls make true (the agent's time is manual, the network is not). */
const until = async (what: string, ok: () => boolean) => {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
};

const startAgent = async (
  cp: Awaited<ReturnType<typeof startControlPlane>>,
  dataDir: string,
  start: number,
) => {
  const t = manualTimers(start);
  const { agent } = assembleAgent(config(cp.url, dataDir), { logger: silentLogger(), timers: t.timers });
  void agent.start();
  cleanups.push(() => agent.stop(100));
  /**
   * Moves the clock five seconds at a time (less than a check's timeout), letting every check that
   * starts finish and the stream's keep-alive arrive before going on.
   */
  const advanceTo = async (to: number) => {
    while (t.timers.now() < to) {
      cp.keepAlive();
      await new Promise((r) => setTimeout(r, 2));
      await t.advanceTo(Math.min(to, t.timers.now() + 5000));
      await until('running checks to finish', () => {
        const h = agent.health();
        return h.inFlight === 0 && h.queueDepth === 0;
      });
    }
  };
  return { agent, now: () => t.timers.now(), advanceTo };
};

const cached = (dir: string) =>
  JSON.parse(readFileSync(join(dir, RDAP_CACHE_FILE), 'utf8')) as {
    source: string;
    fetched_at: string;
    bootstrap: { services: unknown[] };
  };

describe('RDAP bootstrap data: fetched when a domain check needs it, cached on disk', () => {
  it('is never fetched without a domain monitor, once with one, again when older than the refresh age, and read from disk after a restart', {
    timeout: 60_000,
  }, async () => {
    bootstrapFetches = 0;
    const dir = mkdtempSync(join(tmpdir(), 'lookout-agent-data-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const cp = await startControlPlane([assignment('tcp-1', 'tcp', '127.0.0.1', webPort)]);
    const a = await startAgent(cp, dir, T0);
    await until('assignments', () => a.agent.assigned().length === 1);
    const domainResults = (c: typeof cp) => c.results.filter((r) => r.monitorId === 'domain-1');

    // 12 minutes with only a tcp monitor (past the refresh age, and past the 10 minutes after which
    // agents used to fetch the file): its checks run every 30 s, the bootstrap file is never asked for.
    await a.advanceTo(T0 + 12 * 60_000);
    expect(a.agent.checksRun).toBeGreaterThanOrEqual(20);
    expect(bootstrapFetches).toBe(0);
    expect(existsSync(join(dir, RDAP_CACHE_FILE))).toBe(false);

    // A domain monitor: its first check fetches the data (once) and writes the cache.
    cp.assign(assignment('domain-1', 'domain', 'example.test'));
    await until('the domain monitor', () => a.agent.assigned().length === 2);
    const assignedAt = a.now();
    await a.advanceTo(assignedAt + 35_000);
    expect(bootstrapFetches).toBe(1);
    const file = cached(dir);
    expect(file.source).toBe(`http://127.0.0.1:${webPort}/rdap/dns.json`);
    const fetchedAt = Date.parse(file.fetched_at);
    expect(fetchedAt).toBeGreaterThanOrEqual(assignedAt);
    expect(fetchedAt).toBeLessThanOrEqual(assignedAt + 35_000);
    expect(file.bootstrap.services).toHaveLength(1);
    await a.advanceTo(a.now() + 5000);
    await until('the domain result', () => domainResults(cp).length > 0);
    expect(domainResults(cp)[0]).toMatchObject({
      ok: true,
      domain: { expiresAtMs: BigInt(Date.parse('2027-06-01T00:00:00Z')) },
    });

    // Younger than the refresh age: the next checks use it as it is.
    await a.advanceTo(fetchedAt + REFRESH_MS - 1000);
    expect(domainResults(cp).length).toBeGreaterThanOrEqual(4);
    expect(bootstrapFetches).toBe(1);
    // Older: the next domain check fetches it again, and the cache follows.
    await a.advanceTo(fetchedAt + REFRESH_MS + 35_000);
    expect(bootstrapFetches).toBe(2);
    const refreshed = Date.parse(cached(dir).fetched_at);
    expect(refreshed).toBeGreaterThanOrEqual(fetchedAt + REFRESH_MS);
    await a.agent.stop(100);

    // A new agent process on the same directory: the first domain check reads the file, fetches nothing.
    const cp2 = await startControlPlane([assignment('domain-1', 'domain', 'example.test')]);
    const b = await startAgent(cp2, dir, refreshed + 60_000);
    await until('assignments', () => b.agent.assigned().length === 1);
    await b.advanceTo(b.now() + 65_000);
    await until('domain results', () => domainResults(cp2).length >= 2);
    expect(domainResults(cp2).every((r) => r.ok)).toBe(true);
    expect(bootstrapFetches).toBe(2);
  });
});
