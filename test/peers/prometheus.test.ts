import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import { type Harness, startHarness } from '../support/harness.js';
import { exited, freePort, startAgentProcess } from '../support/processes.js';
import { waitFor } from '../support/wait.js';
import { type Prometheus, startPrometheus } from './support/prometheus.js';

/**
 * Debian's Prometheus scrapes a real control plane and two real agent processes (eu-west, us-east)
 * that run a monitor against a loopback target: every /metrics endpoint is up and the series an
 * operator dashboards on are there with plausible values. A missing binary fails, saying how to install it.
 */
let h: Harness;
let prom: Prometheus;
let target: Server;
const agents: ChildProcess[] = [];
const agentPorts: Record<string, number> = {};

beforeAll(async () => {
  h = await startHarness(
    { plans: { e2e: { max_monitors: 10, min_interval_seconds: 1 } }, assignment_poll_ms: 100 },
    { clock: systemClock },
  );
  target = createServer((_req, res) => res.writeHead(200).end('ok'));
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
  const targetPort = (target.address() as AddressInfo).port;
  for (const region of ['eu-west', 'us-east']) {
    agentPorts[region] = await freePort();
    const token = (await createAgentToken(h.store, h.config.regions, { region }, new Date())).value;
    const p = await startAgentProcess({
      rpcUrl: h.cp.rpcUrl,
      token,
      region,
      instance: `${region}-prom`,
      env: { LOOKOUT_AGENT_METRICS_PORT: String(agentPorts[region]) },
      ready: /assignments synced/,
    });
    agents.push(p.child);
  }
  const w = await h.workspace('peers-prom', 'e2e');
  const created = await w.api('POST', '/monitors/create', {
    json: {
      display_name: 'target',
      monitor_type: 'http',
      url: `http://127.0.0.1:${targetPort}/`,
      http_method: 'GET',
      expected_status_code: 200,
      check_interval_seconds: 1,
      timeout_seconds: 1,
      check_locations: ['eu-west', 'us-east'],
    },
  });
  expect(created.status).toBe(201);
  const hb = await w.api('POST', '/heartbeats', { json: { display_name: 'job' } });
  expect((await h.request('POST', `/hb/ping/${hb.body.id}`)).status).toBe(200);
  prom = await startPrometheus({
    dir: h.dir,
    jobs: [
      { name: 'lookout-control-plane', targets: [`127.0.0.1:${h.cp.port}`] },
      { name: 'lookout-agent', targets: Object.values(agentPorts).map((p) => `127.0.0.1:${p}`) },
    ],
  });
});
afterAll(async () => {
  await prom?.stop();
  for (const a of agents) a.kill('SIGTERM');
  await Promise.all(agents.map(exited));
  target?.close();
  await h?.close();
});

const value = (r: { value: [number, string] }) => Number(r.value[1]);

describe('Prometheus scrapes every /metrics endpoint', () => {
  it('all three targets are up and the expected series are present', async () => {
    const wait = { timeoutMs: 30_000, everyMs: 250 };
    const up = await waitFor(
      () => prom.query('up'),
      (r) => r.length === 3 && r.every((s) => value(s) === 1),
      { ...wait, what: 'every target up' },
    );
    expect(up.map((s) => s.metric.job).sort()).toEqual([
      'lookout-agent',
      'lookout-agent',
      'lookout-control-plane',
    ]);

    // Control plane: requests by route, pings, ingestion, agents per region, event loop.
    // An agent exposes both outcomes of a check type from its first check on (a failure series at 0
    // until one fails: rate() and alerts on it work from the start); here every check passes.
    const checks = await waitFor(
      () => prom.query('sum by (agent, region, type, outcome) (lookout_agent_checks_total)'),
      (r) => r.filter((s) => s.metric.outcome === 'ok' && value(s) > 0).length === 2,
      { ...wait, what: 'checks counted by both agents' },
    );
    const passed = checks.filter((s) => s.metric.outcome === 'ok');
    expect(passed.map((s) => [s.metric.region, s.metric.type]).sort()).toEqual([
      ['eu-west', 'http'],
      ['us-east', 'http'],
    ]);
    const failed = checks.filter((s) => s.metric.outcome !== 'ok');
    expect(failed.map((s) => [s.metric.outcome, value(s)])).toEqual(failed.map(() => ['fail', 0]));
    const connected = await waitFor(
      () => prom.query('lookout_agents_connected'),
      (r) => r.filter((s) => value(s) === 1).length === 2,
      { ...wait, what: 'agents connected per region' },
    );
    expect(connected.map((s) => s.metric.region).sort()).toEqual(['eu-west', 'us-east']);
    await waitFor(
      () => prom.query('sum by (region) (lookout_results_ingested_total{outcome="stored"})'),
      (r) => r.length === 2 && r.every((s) => value(s) > 0),
      { ...wait, what: 'results ingested from both regions' },
    );
    expect((await prom.query('lookout_pings_accepted_total')).map(value)).toEqual([1]);
    expect(
      (await prom.query('lookout_http_requests_total{route="/api/v1/monitors/create",status="201"}')).map(
        value,
      ),
    ).toEqual([1]);

    // Agents: schedule lag, queue, buffer; every process: event-loop delay and memory.
    expect((await prom.query('lookout_agent_schedule_lag_seconds_count > 0')).length).toBe(2);
    expect((await prom.query('lookout_agent_queue_depth')).length).toBe(2);
    expect((await prom.query('lookout_agent_buffered_results')).length).toBe(2);
    expect((await prom.query('lookout_agent_buffered_bytes')).length).toBe(2);
    expect((await prom.query('lookout_agent_dropped_results')).length).toBe(2);
    expect((await prom.query('nodejs_eventloop_lag_p99_seconds')).length).toBe(3);
    expect((await prom.query('process_resident_memory_bytes > 0')).length).toBe(3);
  });
});
