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
 * A check the agents' guard refuses (LOOKOUT_AGENT_BLOCK_PRIVATE_TARGETS) fails saying only that its
 * target is not allowed: a real agent process checks a name that resolves to loopback, and any user
 * reading the result through the real API learns nothing of what the name resolved to.
 */
let h: Harness;
let target: Server;
let targetPort: number;
let hits = 0;
const agents: ChildProcess[] = [];

beforeAll(async () => {
  h = await startHarness(
    { plans: { e2e: { max_monitors: 100, min_interval_seconds: 1 } }, assignment_poll_ms: 1000 },
    { clock: systemClock },
  );
  target = createServer((_req, res) => {
    hits++;
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
  targetPort = (target.address() as AddressInfo).port;
  const token = (await createAgentToken(h.store, h.config.regions, { region: 'eu-west' }, new Date())).value;
  const p = await startAgentProcess({
    rpcUrl: h.cp.rpcUrl,
    token,
    region: 'eu-west',
    instance: 'eu-west-1',
    env: { LOOKOUT_AGENT_BLOCK_PRIVATE_TARGETS: 'true' },
    ready: /assignments synced/,
  });
  agents.push(p.child);
});
afterAll(async () => {
  for (const a of agents) a.kill('SIGTERM');
  await Promise.all(agents.map(exited));
  target.close();
  await h.close();
});

describe('a check refused by the guard', () => {
  it('says only that the target is not allowed, not what its name resolved to', async () => {
    const w = await h.workspace('guard-check', 'e2e');
    const created = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'Internal',
        monitor_type: 'http',
        url: `http://localhost:${targetPort}/`,
        http_method: 'GET',
        expected_status_code: 200,
        check_interval_seconds: 3600,
        timeout_seconds: 2,
        check_locations: ['eu-west'],
      },
    });
    expect(created.status, created.text).toBe(201);
    expect((await w.api('POST', `/monitors/${created.body.id}/check`)).status).toBe(202);
    const viewer = await w.userWithKey('viewer');
    const results = await waitFor(
      async () => (await w.as(viewer.key)('GET', `/monitors/${created.body.id}/results?limit=10`)).body.data,
      (d: unknown[]) => d.length > 0,
      { what: 'the refused check' },
    );
    expect(results[0]).toMatchObject({
      ok: false,
      error_kind: 'blocked_target',
      error_message: 'EBLOCKED: localhost is not an allowed destination',
    });
    expect(JSON.stringify(results)).not.toMatch(/127\.0\.0\.1|::1|loopback|resolves/);
    expect(hits).toBe(0);
  });
});
