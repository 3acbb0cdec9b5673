import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, MAIN, startProcess } from '../support/processes.js';

/** `npm start`'s local agents as real processes: distinct metrics ports, and a failing one shows. */
const dir = mkdtempSync(join(tmpdir(), 'lookout-local-agents-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve(s));
  });
const close = (s: Server) => new Promise((resolve) => s.close(resolve));

/** A port p with p and p + 1 both free a moment ago. */
const twoFreePorts = async (): Promise<number> => {
  for (;;) {
    const a = await listen(0);
    const port = (a.address() as AddressInfo).port;
    const b = await listen(port + 1).catch(() => null);
    await close(a);
    if (b) {
      await close(b);
      return port;
    }
  }
};

const getJson = (port: number, path: string) =>
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    }).on('error', reject);
  });

/** Asks until `ok` holds (a real process needs its own time); fails with the last answer. */
const until = async <T>(ask: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> => {
  let last: T | Error | undefined;
  for (let i = 0; i < 300; i++) {
    last = await ask().catch((e: Error) => e);
    if (!(last instanceof Error) && ok(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
};

const start = (data: string, metricsPort: number) =>
  startProcess(
    MAIN,
    {
      LOOKOUT_DATA_DIR: data,
      LOOKOUT_HTTP_PORT: '0',
      LOOKOUT_RPC_PORT: '0',
      LOOKOUT_LOG_LEVEL: 'warn',
      LOOKOUT_LOCAL_AGENTS: 'eu-west,us-east',
      LOOKOUT_AGENT_METRICS_PORT: String(metricsPort),
    },
    /API:\s+(\S+)/,
  );

/** The agent processes a control plane started (Linux: its children in /proc). */
const agentPids = (cpPid: number) =>
  readFileSync(`/proc/${cpPid}/task/${cpPid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('agent/dist/main.js'));

/** The niceness of every thread of a process (field 19 of /proc/<pid>/task/<tid>/stat). */
const threadNice = (pid: string) =>
  readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // The fields after the command name, which may hold spaces, in parentheses.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });

const portOf = (url: string) => Number(/:(\d+)\//.exec(url)![1]);

describe('local agents (npm start)', () => {
  it('with LOOKOUT_AGENT_METRICS_PORT set, each local agent gets its own port (the base, then +1)', async () => {
    const base = await twoFreePorts();
    const cp = await start(mkdtempSync(join(dir, 'ports-')), base);
    try {
      const eu = await until(
        () => getJson(base, '/healthz'),
        (r) => r.status === 200,
        'eu-west agent',
      );
      const us = await until(
        () => getJson(base + 1, '/healthz'),
        (r) => r.status === 200,
        'us-east agent',
      );
      expect([eu.body.region, us.body.region]).toEqual(['eu-west', 'us-east']);
      // Every thread of both agents yields the CPU to the control plane (LOOKOUT_AGENT_NICE, 10 for them).
      // (Only ever lowered: under a test run that is itself nicer than 10, they stay at its value.)
      const started = getPriority(cp.child.pid!);
      const pids = agentPids(cp.child.pid!);
      expect(pids).toHaveLength(2);
      for (const pid of pids) {
        const nice = threadNice(pid);
        expect(nice.length).toBeGreaterThan(1);
        expect(new Set(nice)).toEqual(new Set([Math.max(10, started)]));
      }
      // The control plane itself keeps the priority it was started with.
      expect(started).toBe(getPriority(0));
      const health = await getJson(portOf(cp.match[1]!), '/healthz');
      expect(health.status).toBe(200);
      expect(health.body.local_agents).toEqual([
        expect.objectContaining({ region: 'eu-west', state: 'running', metrics_port: base }),
        expect.objectContaining({ region: 'us-east', state: 'running', metrics_port: base + 1 }),
      ]);
    } finally {
      cp.child.kill('SIGTERM');
      expect(await exited(cp.child)).toBe(0);
    }
  });

  it('a local agent that keeps failing is logged as an error with its region and reason, and shows in /healthz', async () => {
    const base = await twoFreePorts();
    const squatter = await listen(base); // eu-west's metrics port is taken: that agent cannot start
    const cp = await start(mkdtempSync(join(dir, 'failing-')), base);
    try {
      const health = await until(
        () => getJson(portOf(cp.match[1]!), '/healthz'),
        (r) => r.body.local_agents?.[0]?.state === 'failing',
        'eu-west failing',
      );
      // Liveness of the control plane itself is unaffected.
      expect(health.status).toBe(200);
      const [eu, us] = health.body.local_agents;
      expect(eu).toMatchObject({ region: 'eu-west', state: 'failing', last_exit: { code: 1 } });
      expect(eu.restarts).toBeGreaterThanOrEqual(2);
      expect(eu.last_exit.reason).toMatch(/EADDRINUSE/);
      expect(us).toMatchObject({ region: 'us-east', state: 'running', restarts: 0 });
      const errors = cp
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .filter((l) => l.level === 50 && l.component === 'local-agents');
      expect(errors[0]).toMatchObject({
        region: 'eu-west',
        code: 1,
        reason: expect.stringMatching(/EADDRINUSE/),
      });
      expect(errors[0].msg).toMatch(/keeps failing/);
    } finally {
      cp.child.kill('SIGTERM');
      expect(await exited(cp.child)).toBe(0);
      await close(squatter);
    }
  });
});
