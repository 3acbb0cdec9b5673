import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import { type Harness, startHarness } from '../support/harness.js';
import { exited, runCli, startAgentProcess } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

/**
 * The whole loop with real processes: a control plane, one agent process in each of two regions,
 * and an HTTP target on loopback that goes down and comes back.
 */
let h: Harness;
let target: Server;
let targetPort: number;
let healthy = true;
const agents: ChildProcess[] = [];

const startAgent = async (region: string, instance: string) => {
  const token = (await createAgentToken(h.store, h.config.regions, { region }, new Date())).value;
  const p = await startAgentProcess({
    rpcUrl: h.cp.rpcUrl,
    token,
    region,
    instance,
    ready: /assignments synced/,
  });
  agents.push(p.child);
  return p;
};

/** One agent in each region, started by whichever test needs them first. */
const ensureAgents = async () => {
  if (agents.length > 0) return;
  await startAgent('eu-west', 'eu-1');
  await startAgent('us-east', 'us-1');
};

beforeAll(async () => {
  h = await startHarness(
    { plans: { e2e: { max_monitors: 10, min_interval_seconds: 1 } }, assignment_poll_ms: 100 },
    { clock: systemClock },
  );
  target = createServer((_req, res) => res.writeHead(healthy ? 200 : 503).end(healthy ? 'ok' : 'down'));
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
  targetPort = (target.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const a of agents) a.kill('SIGTERM');
  await Promise.all(agents.map(exited));
  target.close();
  await h.close();
});

describe('monitors run by agents in two regions', () => {
  it('down → one alert after the threshold in both regions → recovery resolves it → a new failure opens a new alert', async () => {
    const w = await h.workspace('agents-e2e', 'e2e');
    const m = (
      await w.api('POST', '/monitors/create', {
        json: {
          display_name: 'target',
          monitor_type: 'http',
          url: `http://127.0.0.1:${targetPort}/`,
          http_method: 'GET',
          expected_status_code: 200,
          check_interval_seconds: 1,
          timeout_seconds: 1,
          failure_threshold: 2,
          check_locations: ['eu-west', 'us-east'],
        },
      })
    ).body;
    await ensureAgents();

    const results = () =>
      w
        .api('GET', `/monitors/${m.id}/results?limit=100`)
        .then((r) => r.body.data as { location: string; ok: boolean }[]);
    await waitFor(
      results,
      (rs) => ['eu-west', 'us-east'].every((l) => rs.some((r) => r.location === l && r.ok)),
      { what: 'ok results from both regions' },
    );

    const openAlerts = () =>
      w
        .api('GET', `/alerts?source_id=${m.id}`)
        .then((r) => r.body.data as { id: string; status: string; resolved_by: unknown }[]);
    healthy = false;
    const raised = await waitFor(openAlerts, (as) => as.some((a) => a.status === 'open'), {
      what: 'an alert',
    });
    expect(raised).toHaveLength(1);
    const failing = (await results()).filter((r) => !r.ok);
    expect(new Set(failing.map((r) => r.location))).toEqual(new Set(['eu-west', 'us-east']));

    // still down: more failures, still exactly one alert
    await waitFor(results, (rs) => rs.filter((r) => !r.ok).length >= failing.length + 4, {
      what: 'more failures',
    });
    expect((await openAlerts()).length).toBe(1);

    healthy = true;
    const resolved = await waitFor(openAlerts, (as) => as.every((a) => a.status === 'resolved'), {
      what: 'resolution',
    });
    expect(resolved[0]!.resolved_by).toEqual({ type: 'system' });

    healthy = false;
    const again = await waitFor(openAlerts, (as) => as.length === 2 && as.some((a) => a.status === 'open'), {
      what: 'a second alert',
    });
    const old = again.find((a) => a.id === raised[0]!.id)!;
    expect(old.status).toBe('resolved');
    expect(again.find((a) => a.id !== old.id)!.status).toBe('open');
    healthy = true;

    const uptime = await w.api('GET', `/monitors/${m.id}/uptime`);
    expect(uptime.body.total_checks).toBeGreaterThan(0);
    expect(uptime.body.uptime_percentage).toBeGreaterThan(0);
    expect(uptime.body.uptime_percentage).toBeLessThan(100);
  });

  it('check now: every location runs the monitor at once, and its results carry the run request ids', async () => {
    const w = await h.workspace('check-now-e2e', 'e2e');
    const m = (
      await w.api('POST', '/monitors/create', {
        json: {
          display_name: 'hourly',
          monitor_type: 'http',
          url: `http://127.0.0.1:${targetPort}/`,
          http_method: 'GET',
          expected_status_code: 200,
          check_interval_seconds: 3600,
          timeout_seconds: 2,
          check_locations: ['eu-west', 'us-east'],
        },
      })
    ).body;
    await ensureAgents();
    const asked = await w.api('POST', `/monitors/${m.id}/check`);
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ requested: ['eu-west', 'us-east'] });
    // Asked once: a request for a monitor no stream holds yet waits until one does.
    const runs = await waitFor(
      () =>
        w
          .api('GET', `/monitors/${m.id}/results?limit=100`)
          .then((r) =>
            (r.body.data as { location: string; ok: boolean; run_now_request_id: string | null }[]).filter(
              (x) => x.run_now_request_id !== null,
            ),
          ),
      (rs) => new Set(rs.map((r) => r.location)).size === 2,
      { what: 'check-now results from both regions' },
    );
    expect(runs.every((r) => r.ok)).toBe(true);
    expect(new Set(runs.map((r) => r.run_now_request_id)).size).toBe(runs.length);
    // They count like any check: the record shows them.
    const shown = (await w.api('GET', `/monitors/${m.id}`)).body;
    expect(shown.recent_checks.length).toBeGreaterThanOrEqual(2);
    expect(shown.uptime_24h).toBe(100);
  });

  it('agents are the operator’s: `npx lookout agent list` shows them; a workspace sees only the health of its regions', async () => {
    // (runs after the loop above: agents eu-1 and us-1 are connected and reporting)
    const env = { LOOKOUT_DATA_DIR: h.dir, LOOKOUT_LOG_LEVEL: 'silent' };
    const cli = await runCli(['agent', 'list', '--json'], env);
    expect(cli.code, cli.stderr).toBe(0);
    const agents = JSON.parse(cli.stdout).data as { instance_id: string; region: string; healthy: boolean }[];
    expect(agents.map((a) => [a.instance_id, a.region, a.healthy]).sort()).toEqual([
      ['eu-1', 'eu-west', true],
      ['us-1', 'us-east', true],
    ]);
    expect(agents[0]).toHaveProperty('hostname');
    // Each says what it runs: what its probers can on this host (at least the first protocol's types).
    for (const a of agents as unknown as { check_types: string[] }[])
      expect(a.check_types).toEqual(expect.arrayContaining(['http', 'api', 'dns', 'tcp', 'domain']));
    // Each heartbeat (every 15 s) carries the agent's cadence: results are owed once a second here
    // (the monitor above checks every second), counted from when it was handed that monitor.
    type Listed = {
      instance_id: string;
      health: { shortest_interval_seconds?: number; results_due_since?: string };
    };
    const listed = await waitFor(
      async () => JSON.parse((await runCli(['agent', 'list', '--json'], env)).stdout).data as Listed[],
      (list) => list.every((a) => a.health?.shortest_interval_seconds === 1),
      { what: 'a heartbeat with the cadence', timeoutMs: 30_000, everyMs: 1000 },
    );
    for (const a of listed) expect(Date.parse(a.health.results_due_since!)).toBeLessThan(Date.now());
    const text = await runCli(['agent', 'list'], env);
    expect(text.stdout).toMatch(/eu-1\s+eu-west\s+healthy/);
    expect(text.stdout).toMatch(/eu-1 .* runs http,api,dns,tcp,domain/);

    const w = await h.workspace('agents-regions', 'e2e');
    const viewer = await w.userWithKey('viewer');
    // no per-agent listing in the workspace API, whatever the role
    expect((await w.api('GET', '/agents')).status).toBe(404);
    // Every region monitors may run from is listed, used or not (the monitor form offers them).
    const fresh = (await w.as(viewer.key)('GET', '/regions')).body as {
      data: { region: string; monitors: number }[];
    };
    expect(fresh.data.map((r) => [r.region, r.monitors])).toEqual([
      ['eu-west', 0],
      ['us-east', 0],
    ]);
    await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'eu only',
        monitor_type: 'http',
        url: `http://127.0.0.1:${targetPort}/`,
        http_method: 'GET',
        expected_status_code: 200,
        check_interval_seconds: 60,
        check_locations: ['eu-west'],
      },
    });
    const regions = await w.as(viewer.key)('GET', '/regions');
    expect(regions.status).toBe(200);
    expect(regions.body).toEqual({
      data: [
        {
          region: 'eu-west',
          healthy: true,
          status: 'healthy',
          monitors: 1,
          // The region's agents, unnamed, each with what it runs.
          agents: [{ healthy: true, check_types: expect.arrayContaining(['http', 'tcp']) }],
          no_capable_agent: [],
        },
        expect.objectContaining({ region: 'us-east', monitors: 0 }),
      ],
      next_cursor: null,
    });
    for (const hidden of ['eu-1', 'us-1', 'instance', 'hostname', agents[0]!.instance_id])
      expect(regions.text).not.toContain(hidden);
  });

  it('spec 3.2: a monitor that stays down after a manual resolve raises a new alert on its next failing check', async () => {
    const broken = createServer((_req, res) => res.writeHead(500).end('broken'));
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', () => r()));
    try {
      const w = await h.workspace('agents-resolve', 'e2e');
      const m = (
        await w.api('POST', '/monitors/create', {
          json: {
            display_name: 'always 500',
            monitor_type: 'http',
            url: `http://127.0.0.1:${(broken.address() as AddressInfo).port}/`,
            http_method: 'GET',
            expected_status_code: 200,
            check_interval_seconds: 1,
            timeout_seconds: 1,
            failure_threshold: 2,
            check_locations: ['eu-west', 'us-east'],
          },
        })
      ).body;
      await ensureAgents();
      type AlertJson = {
        id: string;
        status: string;
        cause: string;
        created_at: string;
        resolved_by: unknown;
      };
      const alerts = () => w.api('GET', `/alerts?source_id=${m.id}`).then((r) => r.body.data as AlertJson[]);
      const failures = () =>
        w
          .api('GET', `/monitors/${m.id}/results?limit=100`)
          .then((r) => (r.body.data as { ok: boolean }[]).filter((x) => !x.ok).length);
      const resolve = async (id: string) => {
        const r = await w.api('POST', '/alerts/resolve', { json: { UUIDs: [id] } });
        expect(r.status).toBe(200);
        expect(r.body.resolved.map((a: AlertJson) => a.id)).toEqual([id]);
      };

      const [first] = await waitFor(alerts, (as) => as.some((a) => a.status === 'open'), {
        what: 'an alert',
      });
      await resolve(first!.id);
      // The target never recovers: the next failing check raises a new alert (new UUID); the old stays resolved.
      const second = await waitFor(alerts, (as) => as.length === 2 && as.some((a) => a.status === 'open'), {
        what: 'a new alert after the manual resolve',
      });
      const fresh = second.find((a) => a.id !== first!.id)!;
      expect(fresh).toMatchObject({ status: 'open', cause: 'down' });
      expect(second.find((a) => a.id === first!.id)).toMatchObject({
        status: 'resolved',
        resolved_by: { type: 'user', user_id: w.admin.id },
      });
      // While it is open, more failing checks raise nothing more.
      const seen = await failures();
      await waitFor(failures, (n) => n >= seen + 4, { what: 'more failing checks' });
      expect((await alerts()).map((a) => a.status).sort()).toEqual(['open', 'resolved']);
      // And again: every manual resolve of a still-failing monitor is followed by a new alert.
      await resolve(fresh.id);
      const third = await waitFor(alerts, (as) => as.length === 3 && as.some((a) => a.status === 'open'), {
        what: 'a third alert',
      });
      expect(third.filter((a) => a.status === 'open').map((a) => a.id)).not.toContain(fresh.id);
    } finally {
      broken.close();
    }
  });
});
