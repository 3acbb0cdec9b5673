import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import { type Harness, startHarness } from '../support/harness.js';
import { exited, startAgentProcess } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

/**
 * "Check now" is a promise (202): the run happens, however soon after creating the monitor it is
 * asked for. Real agent processes, the real HTTP API, asked once and never again.
 */
let h: Harness;
let target: Server;
let targetPort: number;
const agents: ChildProcess[] = [];

beforeAll(async () => {
  // The replica reads the monitor feed once a second: a create and the check-now right after it
  // land in the same read, before any agent stream has been handed the new monitor.
  h = await startHarness(
    { plans: { e2e: { max_monitors: 100, min_interval_seconds: 1 } }, assignment_poll_ms: 1000 },
    { clock: systemClock },
  );
  target = createServer((_req, res) => res.writeHead(200).end('ok'));
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
  targetPort = (target.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const a of agents) a.kill('SIGTERM');
  await Promise.all(agents.map(exited));
  target.close();
  await h.close();
});

const startAgent = async (region: string) => {
  const token = (await createAgentToken(h.store, h.config.regions, { region }, new Date())).value;
  const p = await startAgentProcess({
    rpcUrl: h.cp.rpcUrl,
    token,
    region,
    instance: `${region}-1`,
    ready: /assignments synced/,
  });
  agents.push(p.child);
};

type Api = Awaited<ReturnType<Harness['workspace']>>['api'];

/** Creates a monitor (hourly: no scheduled check interferes) and asks for a check at once. */
const createAndCheck = async (api: Api, name: string) => {
  const created = await api('POST', '/monitors/create', {
    json: {
      display_name: name,
      monitor_type: 'http',
      url: `http://127.0.0.1:${targetPort}/`,
      http_method: 'GET',
      expected_status_code: 200,
      check_interval_seconds: 3600,
      timeout_seconds: 2,
      check_locations: ['eu-west', 'us-east'],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const asked = await api('POST', `/monitors/${created.body.id}/check`);
  expect(asked.status).toBe(202);
  expect(asked.body).toEqual({ requested: ['eu-west', 'us-east'] });
  return created.body.id as string;
};

/**
 * The results of runs asked for, by location: a new monitor's first check (asked by its creation) and
 * the check-now, so two per location once both ran.
 */
const runsOf = async (api: Api, id: string) => {
  const r = await api('GET', `/monitors/${id}/results?limit=100`);
  return (r.body.data as { location: string; ok: boolean; run_now_request_id: string | null }[]).filter(
    (x) => x.run_now_request_id !== null,
  );
};

describe('check now right after creating a monitor', () => {
  it('asked before any agent of the region is connected: runs once the agent has the monitor', async () => {
    const w = await h.workspace('check-now-early', 'e2e');
    const id = await createAndCheck(w.api, 'before the agents');
    await startAgent('eu-west');
    await startAgent('us-east');
    const runs = await waitFor(
      () => runsOf(w.api, id),
      (rs) => rs.length === 4,
      { what: 'first-check and check-now results from both regions', timeoutMs: 30_000 },
    );
    expect(runs.map((r) => r.location).sort()).toEqual(['eu-west', 'eu-west', 'us-east', 'us-east']);
    expect(runs.every((r) => r.ok)).toBe(true);
  });

  it('asked in the same feed read as the create, for many monitors: every one runs, each once per location', async () => {
    const w = await h.workspace('check-now-race', 'e2e');
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await createAndCheck(w.api, `m${i}`));
    for (const id of ids) {
      const runs = await waitFor(
        () => runsOf(w.api, id),
        (rs) => rs.length === 4,
        { what: `first-check and check-now results of ${id} from both regions`, timeoutMs: 30_000 },
      );
      expect(runs.map((r) => r.location).sort()).toEqual(['eu-west', 'eu-west', 'us-east', 'us-east']);
    }
  });
});
