import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { connect as connectHttp2 } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Balancer, startBalancer } from '../support/balancer.js';
import {
  agentTokenFromCli,
  exited,
  startAgentProcess,
  startControlPlaneProcess,
} from '../support/processes.js';
import { waitFor } from '../support/wait.js';

/**
 * Scale-out, proven on one machine: two control-plane processes on one SQLite file behind a TCP
 * balancer (test/support/balancer.ts), agents in two regions connected through it, heartbeat pings
 * and API calls through it. One replica is drained (SIGTERM) or killed (SIGKILL) mid-run during an
 * outage: a draining replica's /readyz fails while it drains, the agents move to the other replica,
 * and no result, ping or alert is lost or doubled.
 */
const dir = mkdtempSync(join(tmpdir(), 'lookout-failover-'));
const children: ChildProcess[] = [];
const balancers: Balancer[] = [];
const targets: Server[] = [];
let healthy = true;

afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await exited(c);
  }
  for (const b of balancers.splice(0)) await b.close();
  for (const t of targets.splice(0)) t.close();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One HTTP request on a fresh connection (so each one goes through the balancer's choice). */
const call = (port: number, method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: {
          ...headers,
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
          } catch (e) {
            reject(e);
          }
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(5000, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(payload);
  });

/** The API as a client behind a balancer uses it: a dropped connection is retried. */
const api = async (port: number, method: string, path: string, key: string, body?: unknown) => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(port, method, `/api/v1${path}`, { host: 'demo.localhost', 'x-api-key': key }, body);
    } catch (e) {
      if (attempt >= 20) throw e;
      await sleep(100);
    }
  }
};

const baseEnv = (data: string) => ({
  LOOKOUT_DATA_DIR: data,
  LOOKOUT_LOG_LEVEL: 'warn',
  LOOKOUT_PLANS: '{"business": {"max_monitors": 100, "min_interval_seconds": 1}}',
  LOOKOUT_ASSIGNMENT_POLL_MS: '100',
  LOOKOUT_AGENT_LIVE_SECONDS: '5',
  // A drain held open by the test must not be cut short by the grace timer.
  LOOKOUT_SHUTDOWN_GRACE_MS: '30000',
  // The test pings one heartbeat thousands of times a second on purpose.
  LOOKOUT_PINGS_PER_HEARTBEAT_PER_SECOND: '0',
});

const startControlPlane = async (data: string) => {
  const p = await startControlPlaneProcess(baseEnv(data));
  children.push(p.child);
  return p;
};

const agentToken = (data: string, region: string) => agentTokenFromCli(baseEnv(data), region);

const startAgent = async (rpcPort: number, token: string, region: string, instance: string) => {
  const p = await startAgentProcess({ rpcUrl: `http://127.0.0.1:${rpcPort}`, token, region, instance });
  children.push(p.child);
  return { child: p.child, registrations: () => p.output().match(/"msg":"registered"/g)?.length ?? 0 };
};

/** What the monitors check: 200 while `healthy`, else 500. */
const startTarget = async () => {
  const target = createServer((_q, res) => res.writeHead(healthy ? 200 : 500).end());
  targets.push(target);
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
  return (target.address() as AddressInfo).port;
};

/**
 * Pings the heartbeat through the balancer, one after another, each with its own run id, until stopped;
 * remembers which run ids were answered 200 (acknowledged: the ping is durable).
 */
const startPinger = (port: number, uuid: string) => {
  const acked: string[] = [];
  let failed = 0;
  let stop = false;
  const done = (async () => {
    for (let n = 0; !stop; n++) {
      const rid = `p${n}`;
      try {
        const r = await call(port, 'GET', `/hb/ping/${uuid}?rid=${rid}`, {});
        if (r.status === 200) acked.push(rid);
        else failed++;
      } catch {
        failed++; // a dropped connection: unknown whether it was stored; the next ping is a new one
      }
      await sleep(2); // a few hundred a second: plenty in flight at the failover, without hogging the CPU
    }
  })();
  return {
    acked: () => acked.length,
    stop: async () => {
      stop = true;
      await done;
      return { acked, failed };
    },
  };
};

type Result = { id: string; location: string; scheduled_at: string; run_now_request_id: string | null };
const allResults = async (port: number, key: string, monitor: string) => {
  const out: Result[] = [];
  let cursor = '';
  for (;;) {
    const r = await api(
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
type Alert = { id: string; status: string };
const alertsOf = async (port: number, key: string, monitor: string) =>
  (await api(port, 'GET', `/alerts?source_id=${monitor}`, key)).body.data as Alert[];

const REGIONS = ['eu-west', 'us-east'];

/** Polls a replica's own /readyz (not through the balancer): its status, or 0 when refused. */
const readyz = (port: number) =>
  call(port, 'GET', '/readyz', {}).then(
    (r) => r.status,
    () => 0,
  );

/**
 * Two replicas A and B behind the balancers, agents in two regions, three monitors checked every
 * second from both, a heartbeat pinged all the while. An outage starts; then `stopA` takes A away
 * mid-run; the outage ends on B. Checks that nothing was lost or doubled.
 */
const failover = async (
  name: string,
  stopA: (a: { child: ChildProcess; httpPort: number; rpcPort: number }, lbs: Balancer[]) => Promise<void>,
) => {
  const data = join(dir, name);
  healthy = true;
  const targetPort = await startTarget();
  const a = await startControlPlane(data);
  const key = a.key!;
  const b = await startControlPlane(data);
  const httpLb = await startBalancer([a, b].map((cp) => ({ port: cp.httpPort, readyzPort: cp.httpPort })));
  const rpcLb = await startBalancer([a, b].map((cp) => ({ port: cp.rpcPort, readyzPort: cp.httpPort })));
  balancers.push(httpLb, rpcLb);
  expect(httpLb.ready()).toEqual([true, true]);

  const monitors: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await api(httpLb.port, 'POST', '/monitors/create', key, {
      display_name: `failover ${i}`,
      monitor_type: 'http',
      url: `http://127.0.0.1:${targetPort}/`,
      http_method: 'GET',
      expected_status_code: 200,
      check_interval_seconds: 1,
      timeout_seconds: 1,
      failure_threshold: 2,
      check_locations: REGIONS,
    });
    expect(r.status).toBe(201);
    monitors.push(r.body.id);
  }
  const hb = await api(httpLb.port, 'POST', '/heartbeats', key, { display_name: 'failover pings' });
  expect(hb.status).toBe(201);

  const [euToken, usToken] = await Promise.all(REGIONS.map((r) => agentToken(data, r)));
  const agents = await Promise.all([
    startAgent(rpcLb.port, euToken!, 'eu-west', 'eu-1'),
    startAgent(rpcLb.port, usToken!, 'us-east', 'us-1'),
  ]);
  const pinger = startPinger(httpLb.port, hb.body.id);

  // Both regions report every monitor, all through replica A (the balancer's first choice).
  const everyPair = (pred: (rs: Result[]) => boolean) => async () => {
    for (const m of monitors) {
      const rs = await allResults(httpLb.port, key, m);
      for (const region of REGIONS) if (!pred(rs.filter((r) => r.location === region))) return false;
    }
    return true;
  };
  await waitFor(
    everyPair((rs) => rs.length >= 3),
    (ok) => ok,
    { what: 'three results per monitor and region' },
  );
  expect(rpcLb.forwarded()[0]).toBeGreaterThanOrEqual(2);
  expect(rpcLb.forwarded()[1]).toBe(0);

  // An outage begins: one alert per monitor, raised while everything runs through A.
  healthy = false;
  await waitFor(
    async () => Promise.all(monitors.map((m) => alertsOf(httpLb.port, key, m))),
    (all) => all.every((as) => as.length > 0),
    { what: 'an alert per monitor' },
  );

  const pingsBefore = pinger.acked();
  expect(pingsBefore).toBeGreaterThan(0);
  await stopA(a, [httpLb, rpcLb]);
  const gone = Date.now();

  // The agents reconnect through the balancer, now to B, and carry on (replaying what A did not take).
  await waitFor(
    everyPair((rs) => rs.some((r) => Date.parse(r.scheduled_at) > gone + 3000)),
    (ok) => ok,
    { what: 'results through B after A went', timeoutMs: 20_000 },
  );
  expect(rpcLb.forwarded()[1]).toBeGreaterThanOrEqual(2);
  for (const agent of agents) expect(agent.registrations()).toBeGreaterThanOrEqual(2);
  expect(pinger.acked()).toBeGreaterThan(pingsBefore);

  // The outage went on across the failover: still one alert per monitor, which B resolves.
  healthy = true;
  const alerts = await waitFor(
    async () => Promise.all(monitors.map((m) => alertsOf(httpLb.port, key, m))),
    (all) => all.every((as) => as.every((x) => x.status === 'resolved')),
    { what: 'alerts resolved' },
  );
  for (const as of alerts) expect(as).toHaveLength(1);

  // Stop the agents first (they flush what they hold), then read everything B stored.
  const { acked, failed } = await pinger.stop();
  for (const agent of agents) agent.child.kill('SIGTERM');
  for (const agent of agents) expect(await exited(agent.child)).toBe(0);
  for (const m of monitors) {
    const rs = await allResults(httpLb.port, key, m);
    expect(new Set(rs.map((r) => r.id)).size).toBe(rs.length);
    for (const region of REGIONS) {
      // Scheduled runs (confirmation runs have their own ids): each slot once, none missing.
      const slots = rs
        .filter((r) => r.location === region && !r.run_now_request_id)
        .map((r) => Date.parse(r.scheduled_at))
        .sort((x, y) => x - y);
      expect(new Set(slots).size).toBe(slots.length);
      expect(slots[0]).toBeLessThan(gone - 3000);
      expect(slots.at(-1)).toBeGreaterThan(gone + 3000);
      for (let i = 1; i < slots.length; i++) expect(slots[i]! - slots[i - 1]!).toBe(1000);
    }
    expect(await alertsOf(httpLb.port, key, m)).toHaveLength(1);
  }
  b.child.kill('SIGTERM');
  expect(await exited(b.child)).toBe(0);

  // Every acknowledged ping is stored, and no ping twice (a ping whose answer was lost may be stored).
  const db = new Database(join(data, 'lookout.db'), { readonly: true });
  const stored = db
    .prepare('SELECT rid, COUNT(*) AS n FROM pings WHERE heartbeat_id = ? GROUP BY rid')
    .all(hb.body.id) as { rid: string; n: number }[];
  db.close();
  expect(stored.filter((p) => p.n !== 1)).toEqual([]);
  const storedRids = new Set(stored.map((p) => p.rid));
  expect(acked.filter((rid) => !storedRids.has(rid))).toEqual([]);
  expect(stored.length).toBeLessThanOrEqual(acked.length + failed);
};

describe('failover', () => {
  it('a replica drained mid-run behind a balancer: its /readyz fails while it drains, agents move to the other; nothing lost or doubled', async () => {
    await failover('drain', async (a, lbs) => {
      // A slow request (a ReportResults whose body never ends, straight to A) keeps the drain going
      // long enough to watch A's own /readyz fail and the balancers take A out of rotation.
      const held = connectHttp2(`http://127.0.0.1:${a.rpcPort}`);
      held.on('error', () => {});
      const slow = held.request({
        ':method': 'POST',
        ':path': '/lookout.agent.v1.AgentService/ReportResults',
        'content-type': 'application/grpc',
        te: 'trailers',
      });
      slow.on('error', () => {});
      // A PING's answer means A has read the request's HEADERS before it (HTTP/2 frames are in order).
      await new Promise((r) => slow.once('ready', r));
      await new Promise((r) => held.ping(r));
      a.child.kill('SIGTERM');
      await waitFor(
        () => readyz(a.httpPort),
        (s) => s === 503,
        { what: "A's /readyz failing while it drains", everyMs: 20 },
      );
      await waitFor(
        async () => lbs.map((lb) => lb.ready()[0]),
        (inRotation) => inRotation.every((r) => !r),
        { what: 'A out of rotation' },
      );
      expect(a.child.exitCode).toBeNull(); // still draining
      slow.close();
      held.close();
      expect(await exited(a.child)).toBe(0);
    });
  });

  it('a replica killed mid-run: agents move to the other; nothing lost or doubled', async () => {
    await failover('kill', async (a, lbs) => {
      a.child.kill('SIGKILL');
      await exited(a.child);
      expect(await readyz(a.httpPort)).toBe(0);
      await waitFor(
        async () => lbs.map((lb) => lb.ready()[0]),
        (inRotation) => inRotation.every((r) => !r),
        { what: 'A out of rotation' },
      );
    });
  });
});
