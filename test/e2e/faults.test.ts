import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ownerOf } from '../../control-plane/src/domain/agents/rendezvous.js';
import {
  agentTokenFromCli,
  exited,
  startAgentProcess,
  startControlPlaneProcess,
} from '../support/processes.js';
import { waitFor } from '../support/wait.js';

/** Faults with real processes: control planes and agents are separate OS processes on one SQLite file. */
const dir = mkdtempSync(join(tmpdir(), 'lookout-faults-'));
const children: ChildProcess[] = [];
let target: Server;
let healthy = true;

afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await exited(c);
  }
});
afterAll(() => {
  target?.close();
  rmSync(dir, { recursive: true, force: true });
});

const http = (port: number, method: string, path: string, key: string, body?: unknown) =>
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `/api/v1${path}`,
        headers: {
          host: 'demo.localhost',
          'x-api-key': key,
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });

const baseEnv = (data: string) => ({
  LOOKOUT_DATA_DIR: data,
  LOOKOUT_LOG_LEVEL: 'warn',
  LOOKOUT_PLANS: '{"business": {"max_monitors": 100, "min_interval_seconds": 1}}',
  LOOKOUT_ASSIGNMENT_POLL_MS: '100',
  LOOKOUT_AGENT_LIVE_SECONDS: '5',
});

const startControlPlane = async (data: string, ports?: { http: number; rpc: number }) => {
  const p = await startControlPlaneProcess(baseEnv(data), ports);
  children.push(p.child);
  return p;
};

const agentToken = (data: string, region: string) => agentTokenFromCli(baseEnv(data), region);

const startAgent = async (rpcPort: number, token: string, region: string, instance: string) => {
  const p = await startAgentProcess({ rpcUrl: `http://127.0.0.1:${rpcPort}`, token, region, instance });
  children.push(p.child);
  return p.child;
};

const monitorBody = (port: number, name: string, locations = ['eu-west']) => ({
  display_name: name,
  monitor_type: 'http',
  url: `http://127.0.0.1:${port}/`,
  http_method: 'GET',
  expected_status_code: 200,
  check_interval_seconds: 1,
  timeout_seconds: 1,
  failure_threshold: 2,
  check_locations: locations,
});

const startTarget = async () => {
  target = createServer((_q, res) => res.writeHead(healthy ? 200 : 500).end());
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
  return (target.address() as AddressInfo).port;
};

type Result = {
  id: string;
  location: string;
  instance_id: string;
  scheduled_at: string;
  received_at: string;
  ok: boolean;
  run_now_request_id: string | null;
};
const allResults = async (port: number, key: string, monitor: string) => {
  const out: Result[] = [];
  let cursor = '';
  for (;;) {
    const r = await http(
      port,
      'GET',
      `/monitors/${monitor}/results?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      key,
    );
    out.push(...r.body.data);
    if (!r.body.next_cursor) return out;
    cursor = r.body.next_cursor;
  }
};

describe('faults', () => {
  it('control plane restarted mid-stream: the agent keeps checking, buffers, replays; nothing lost or stored twice', async () => {
    const data = join(dir, 'restart');
    const targetPort = await startTarget();
    let cp = await startControlPlane(data);
    const { httpPort, rpcPort } = cp;
    const key = cp.key!;
    const m = (await http(httpPort, 'POST', '/monitors/create', key, monitorBody(targetPort, 'restart')))
      .body;
    await startAgent(rpcPort, await agentToken(data, 'eu-west'), 'eu-west', 'eu-1');
    await waitFor(
      () => allResults(httpPort, key, m.id),
      (rs) => rs.length >= 3,
      { what: 'first results' },
    );

    cp.child.kill('SIGKILL');
    await exited(cp.child);
    const down = Date.now();
    await new Promise((r) => setTimeout(r, 4000)); // the agent keeps running its checks meanwhile
    cp = await startControlPlane(data, { http: httpPort, rpc: rpcPort });
    const up = Date.now();

    const results = await waitFor(
      () => allResults(httpPort, key, m.id),
      (rs) => rs.some((r) => Date.parse(r.scheduled_at) > up + 2000),
      { what: 'results after the restart', timeoutMs: 30_000 },
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(results.length);
    // The scheduled runs (not the first check the create asked for at once):
    const slots = results
      .filter((r) => r.run_now_request_id === null)
      .map((r) => Date.parse(r.scheduled_at))
      .sort((a, b) => a - b);
    // results scheduled while the control plane was down arrived later, replayed from the buffer
    expect(slots.filter((t) => t > down && t < up).length).toBeGreaterThanOrEqual(3);
    // and no slot is missing: consecutive runs are exactly one interval apart
    for (let i = 1; i < slots.length; i++) expect(slots[i]! - slots[i - 1]!).toBe(1000);
  });

  it('an agent killed: its monitors move to the other agent of its region', async () => {
    const data = join(dir, 'move');
    const targetPort = await startTarget();
    const cp = await startControlPlane(data);
    const { httpPort, rpcPort } = cp;
    const key = cp.key!;
    const ids: string[] = [];
    // Monitors until each agent owns some (rendezvous hashing of random ids: six could all land on one
    // agent, one run in 32, and then no split ever shows).
    const agents = ['eu-a', 'eu-b'];
    while (ids.length < 6 || new Set(ids.map((id) => ownerOf(id, agents))).size < 2)
      ids.push(
        (await http(httpPort, 'POST', '/monitors/create', key, monitorBody(targetPort, `m${ids.length}`)))
          .body.id,
      );
    const token = await agentToken(data, 'eu-west');
    const a = await startAgent(rpcPort, token, 'eu-west', 'eu-a');
    await startAgent(rpcPort, token, 'eu-west', 'eu-b');
    /** Who ran each monitor's newest result (an object, not a Map: a timeout prints it). */
    const byAgent = async () => {
      const latest: Record<string, string> = {};
      for (const id of ids) {
        // Newest first: one result tells who runs the monitor now.
        const [newest] = (await http(httpPort, 'GET', `/monitors/${id}/results?limit=1`, key)).body
          .data as Result[];
        if (newest) latest[id] = newest.instance_id;
      }
      return latest;
    };
    const split = await waitFor(
      byAgent,
      (l) => Object.keys(l).length === ids.length && new Set(Object.values(l)).size === 2,
      {
        what: 'both agents running a share',
        // Six monitors or more at 1 s from two fresh agent processes: on a loaded 2-core machine their first
        // results took longer than the default wait.
        timeoutMs: 45_000,
      },
    );
    expect(new Set(Object.values(split))).toEqual(new Set(['eu-a', 'eu-b']));
    a.kill('SIGKILL');
    await waitFor(byAgent, (l) => Object.values(l).every((v) => v === 'eu-b'), {
      what: 'eu-b running everything',
      timeoutMs: 30_000,
    });
  });

  it('two control-plane processes on one SQLite file raise one alert, not two', async () => {
    const data = join(dir, 'two');
    healthy = true;
    const targetPort = await startTarget();
    const cp1 = await startControlPlane(data);
    const key = cp1.key!;
    const cp2 = await startControlPlane(data);
    const [h1, r1, h2, r2] = [cp1.httpPort, cp1.rpcPort, cp2.httpPort, cp2.rpcPort];
    const m = (
      await http(h1, 'POST', '/monitors/create', key, monitorBody(targetPort, 'both', ['eu-west', 'us-east']))
    ).body;
    await startAgent(r1, await agentToken(data, 'eu-west'), 'eu-west', 'eu-x');
    await startAgent(r2, await agentToken(data, 'us-east'), 'us-east', 'us-x');
    await waitFor(
      () => allResults(h2, key, m.id),
      (rs) => new Set(rs.map((r) => r.location)).size === 2,
      { what: 'results from both regions' },
    );
    healthy = false;
    const alerts = () =>
      http(h2, 'GET', `/alerts?source_id=${m.id}`, key).then(
        (r) => r.body.data as { status: string; created_at: string }[],
      );
    const [alert] = await waitFor(alerts, (as) => as.length > 0, { what: 'an alert' });
    // More failures from both regions, through both processes: each agent reports to its own control
    // plane and sends its next batch only once the last is answered, and a batch is answered after its
    // alerts are decided. So three more report calls (received times) from each region mean that at
    // least two of them were decided, by each process, after the alert existed.
    const callsSince = (rs: Result[], location: string) =>
      new Set(
        rs
          .filter((r) => r.location === location && !r.ok && r.received_at > alert!.created_at)
          .map((r) => r.received_at),
      ).size;
    await waitFor(
      () => allResults(h2, key, m.id),
      (rs) => callsSince(rs, 'eu-west') >= 3 && callsSince(rs, 'us-east') >= 3,
      { what: 'three more failing report calls from each region' },
    );
    expect((await alerts()).length).toBe(1);
    healthy = true;
  });

  it('a first failure asks the other region to check now, through the other control plane', async () => {
    const data = join(dir, 'confirm');
    healthy = true;
    const targetPort = await startTarget();
    const cp1 = await startControlPlane(data);
    const key = cp1.key!;
    const cp2 = await startControlPlane(data);
    const [h1, r1, r2] = [cp1.httpPort, cp1.rpcPort, cp2.rpcPort];
    await startAgent(r1, await agentToken(data, 'eu-west'), 'eu-west', 'eu-c');
    await startAgent(r2, await agentToken(data, 'us-east'), 'us-east', 'us-c');
    // A 10 s interval: each region's first scheduled run comes at its own phase, so whichever fails
    // first asks the other (whose agent is connected to the other process) for a run now.
    const m = (
      await http(h1, 'POST', '/monitors/create', key, {
        ...monitorBody(targetPort, 'confirm', ['eu-west', 'us-east']),
        check_interval_seconds: 10,
      })
    ).body;
    // The create's first checks (asked for at once, in both regions) pass; then the target fails.
    await waitFor(
      () => allResults(h1, key, m.id),
      (list) => new Set(list.filter((r) => r.run_now_request_id && r.ok).map((r) => r.location)).size === 2,
      { what: 'the first checks', timeoutMs: 25_000 },
    );
    healthy = false;
    const rs = await waitFor(
      () => allResults(h1, key, m.id),
      (list) => list.some((r) => r.run_now_request_id && !r.ok),
      { what: 'a confirmation run', timeoutMs: 25_000 },
    );
    const first = rs.filter((r) => !r.ok).sort((a, b) => a.received_at.localeCompare(b.received_at))[0]!;
    expect(first.run_now_request_id).toBeNull();
    // Both regions' first runs can fail close together, each asking the other: so every
    // confirmation must follow a scheduled failure in the *other* region, never its own.
    const confirmations = rs.filter((r) => r.run_now_request_id && !r.ok);
    for (const c of confirmations) {
      expect(c.ok).toBe(false);
      const cause = rs.find(
        (r) => !r.run_now_request_id && !r.ok && r.location !== c.location && r.received_at <= c.received_at,
      );
      expect(cause, `a scheduled failure elsewhere before ${c.location}'s confirmation`).toBeDefined();
    }
    healthy = true;
  });
});
