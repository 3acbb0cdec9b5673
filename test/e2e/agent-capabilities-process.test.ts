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
 * Real agent processes declare the check types they offer: one limited to http by its operator
 * (`LOOKOUT_AGENT_CHECK_TYPES=http`) runs the http monitor and is never given the tcp one, which the
 * region reports once ("No agent in eu-west can run tcp checks") until an agent that runs tcp starts.
 */
let h: Harness;
let target: Server;
let port: number;
const agents: ChildProcess[] = [];

const startAgent = async (instance: string, env: Record<string, string> = {}) => {
  const token = (await createAgentToken(h.store, h.config.regions, { region: 'eu-west' }, new Date())).value;
  const p = await startAgentProcess({
    rpcUrl: h.cp.rpcUrl,
    token,
    region: 'eu-west',
    instance,
    env,
    ready: /assignments synced/,
  });
  agents.push(p.child);
  return p;
};

beforeAll(async () => {
  h = await startHarness(
    {
      plans: { e2e: { max_monitors: 10, min_interval_seconds: 1 } },
      assignment_poll_ms: 100,
      region_check_ms: 100,
    },
    { clock: systemClock },
  );
  target = createServer((_req, res) => res.writeHead(200).end('ok'));
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
  port = (target.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const a of agents) a.kill('SIGTERM');
  await Promise.all(agents.map(exited));
  target.close();
  await h.close();
});

describe('agent processes and the check types they offer', () => {
  it('an agent offering only http runs the http monitor; the tcp one waits, said once, until an agent that runs tcp starts', async () => {
    const w = await h.workspace('caps-process', 'e2e');
    const create = async (json: Record<string, unknown>) => {
      const r = await w.api('POST', '/monitors/create', {
        json: { check_interval_seconds: 1, timeout_seconds: 1, check_locations: ['eu-west'], ...json },
      });
      expect(r.status, r.text).toBe(201);
      return r.body.id as string;
    };
    const web = await create({
      display_name: 'web',
      monitor_type: 'http',
      url: `http://127.0.0.1:${port}/`,
      http_method: 'GET',
      expected_status_code: 200,
    });
    const tcp = await create({ display_name: 'port', monitor_type: 'tcp', url: '127.0.0.1', port });
    await startAgent('caps-http-only', { LOOKOUT_AGENT_CHECK_TYPES: 'http' });
    const env = { LOOKOUT_DATA_DIR: h.dir, LOOKOUT_LOG_LEVEL: 'silent' };
    const listed = JSON.parse((await runCli(['agent', 'list', '--json'], env)).stdout).data as {
      instance_id: string;
      check_types: string[];
    }[];
    expect(listed.map((a) => [a.instance_id, a.check_types])).toEqual([['caps-http-only', ['http']]]);

    const results = (id: string) =>
      w.api('GET', `/monitors/${id}/results?limit=10`).then((r) => r.body.data as { ok: boolean }[]);
    await waitFor(
      () => results(web),
      (rs) => rs.some((r) => r.ok),
      { what: 'the http monitor checked' },
    );
    type AlertJson = { title: string; status: string; cause: string };
    // (The region had monitors before its first agent: its no_healthy_agent alert is another story.)
    const alerts = () =>
      w
        .api('GET', '/alerts?limit=20')
        .then((r) => (r.body.data as AlertJson[]).filter((a) => a.cause === 'no_capable_agent'));
    await waitFor(alerts, (as) => as.some((a) => a.status === 'open'), { what: 'the alert' });
    expect((await alerts()).map((a) => [a.title, a.cause, a.status])).toEqual([
      ['No agent in eu-west can run tcp checks', 'no_capable_agent', 'open'],
    ]);
    expect(await results(tcp)).toEqual([]);

    // An agent that offers everything its host can run (tcp among them) takes the tcp monitor.
    await startAgent('caps-all');
    await waitFor(
      () => results(tcp),
      (rs) => rs.some((r) => r.ok),
      { what: 'the tcp monitor checked' },
    );
    await waitFor(alerts, (as) => as.every((a) => a.status === 'resolved'), { what: 'the alert resolved' });
    expect(await alerts()).toHaveLength(1);
  });

  it('an agent offered a type Lookout does not know refuses to start, naming the setting', async () => {
    const token = (await createAgentToken(h.store, h.config.regions, { region: 'eu-west' }, new Date()))
      .value;
    await expect(
      startAgentProcess({
        rpcUrl: h.cp.rpcUrl,
        token,
        region: 'eu-west',
        instance: 'caps-bad',
        env: { LOOKOUT_AGENT_CHECK_TYPES: 'http,gopher' },
      }),
    ).rejects.toThrow(/LOOKOUT_AGENT_CHECK_TYPES: each must be one of http, api/);
  });
});
