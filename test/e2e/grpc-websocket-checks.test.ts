import type { ChildProcess } from 'node:child_process';
import { systemClock } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentToken } from '../../control-plane/src/domain/agents/agent-tokens.js';
import { startGrpcHealthServer } from '../support/grpc-health-server.js';
import { type Harness, startHarness } from '../support/harness.js';
import { exited, startAgentProcess } from '../support/processes.js';
import { waitFor } from '../support/wait.js';
import { startWebSocketServer } from '../support/websocket-server.js';

/**
 * grpc and websocket monitors end to end: created through the API, checked by a real agent process
 * against real servers on loopback (@grpc/grpc-js with the health service, `ws`), down with an alert
 * naming the cause, and recovered.
 */
let h: Harness;
let grpc: Awaited<ReturnType<typeof startGrpcHealthServer>>;
let ws: Awaited<ReturnType<typeof startWebSocketServer>>;
let agent: ChildProcess | undefined;

beforeAll(async () => {
  h = await startHarness(
    { plans: { e2e: { max_monitors: 10, min_interval_seconds: 1 } }, assignment_poll_ms: 100 },
    { clock: systemClock },
  );
  grpc = await startGrpcHealthServer({ statuses: new Map([['shop.Cart', 'SERVING']]) });
  ws = await startWebSocketServer();
  const token = (await createAgentToken(h.store, h.config.regions, { region: 'eu-west' }, new Date())).value;
  agent = (await startAgentProcess({ rpcUrl: h.cp.rpcUrl, token, region: 'eu-west', instance: 'eu-1' }))
    .child;
});
afterAll(async () => {
  agent?.kill('SIGTERM');
  if (agent) await exited(agent);
  await grpc?.close();
  await ws?.close();
  await h?.close();
});

type Workspace = Awaited<ReturnType<Harness['workspace']>>;
interface AlertJson {
  status: string;
  description: string | null;
}

/** A monitor of `body`'s type, every second from eu-west: ok first, then down with one alert whose text has `cause`. */
const downAndUp = async (
  w: Workspace,
  body: Record<string, unknown>,
  breakIt: () => void,
  cause: string,
  mendIt: () => void,
) => {
  const created = await w.api('POST', '/monitors/create', {
    json: {
      check_interval_seconds: 1,
      timeout_seconds: 1,
      failure_threshold: 1,
      check_locations: ['eu-west'],
      ...body,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  const results = () =>
    w
      .api('GET', `/monitors/${id}/results?limit=100`)
      .then((r) => r.body.data as { ok: boolean; error_message: string | null }[]);
  await waitFor(results, (rs) => rs.some((r) => r.ok), { what: `an ok ${body.monitor_type} result` });

  breakIt();
  const alerts = () => w.api('GET', `/alerts?source_id=${id}`).then((r) => r.body.data as AlertJson[]);
  const raised = await waitFor(alerts, (as) => as.some((a) => a.status === 'open'), { what: 'an alert' });
  expect(raised).toHaveLength(1);
  expect(raised[0]!.description).toContain(cause);
  expect((await results()).find((r) => !r.ok)?.error_message).toContain(cause);

  mendIt();
  await waitFor(alerts, (as) => as.every((a) => a.status === 'resolved'), { what: 'the alert resolved' });
};

describe('grpc and websocket monitors checked by a real agent', () => {
  it('a grpc service that stops SERVING raises an alert naming its status, and recovers', async () => {
    const w = await h.workspace('grpc-e2e', 'e2e');
    await downAndUp(
      w,
      {
        display_name: 'cart service',
        monitor_type: 'grpc',
        url: `127.0.0.1:${grpc.port}`,
        grpc_service: 'shop.Cart',
      },
      () => grpc.statuses.set('shop.Cart', 'NOT_SERVING'),
      'service "shop.Cart" is NOT_SERVING, expected SERVING',
      () => grpc.statuses.set('shop.Cart', 'SERVING'),
    );
  });

  it('a websocket whose server closes at once raises an alert naming the close code, and recovers', async () => {
    const w = await h.workspace('ws-e2e', 'e2e');
    await downAndUp(
      w,
      { display_name: 'live feed', monitor_type: 'websocket', url: ws.url('/echo'), ws_message: 'ping' },
      () => {
        ws.state.closeWith = 1011;
      },
      'with 1011 (internal error): bye',
      () => {
        ws.state.closeWith = null;
      },
    );
  });
});
