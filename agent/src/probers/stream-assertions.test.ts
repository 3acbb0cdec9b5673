import type { Assertion, AssertionComparison, AssertionSource } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGrpcHealthServer } from '../../../test/support/grpc-health-server.js';
import { startWebSocketServer } from '../../../test/support/websocket-server.js';
import { CheckDeadline } from '../deadline.js';
import type { ProbeSpec } from '../probe-port.js';
import { createProbers } from './index.js';

/**
 * The agent's probers, as its prober table runs them, hold each type's assertions to what it read: a
 * websocket's first message and handshake status, a gRPC health answer's serving status, against
 * real servers on loopback.
 */
const a = (
  source: AssertionSource,
  comparison: AssertionComparison,
  target = '',
  property = '',
): Assertion => ({
  source,
  property,
  comparison,
  target,
});

let ws: Awaited<ReturnType<typeof startWebSocketServer>>;
let grpc: Awaited<ReturnType<typeof startGrpcHealthServer>>;
beforeAll(async () => {
  ws = await startWebSocketServer();
  grpc = await startGrpcHealthServer({ statuses: new Map([['', 'SERVING']]) });
});
afterAll(async () => {
  await ws.close();
  await grpc.close();
});

const probers = createProbers();
const websocket = (url: string, assertions: Assertion[]): ProbeSpec<'websocket'> => ({
  monitor_id: 'm',
  monitor_type: 'websocket',
  url,
  timeout_ms: 2000,
  settings: { ws_message: null, assertions },
});
const health = (assertions: Assertion[]): ProbeSpec<'grpc'> => ({
  monitor_id: 'm',
  monitor_type: 'grpc',
  url: `127.0.0.1:${grpc.port}`,
  timeout_ms: 2000,
  settings: { grpc_service: '', grpc_tls: false, assertions },
});

describe('assertions on what a websocket check read', () => {
  it('fails naming the assertion on the first message, and passes when it holds', async () => {
    ws.state.greeting = '{"status":"degraded","version":3}';
    const failed = await probers.run(
      websocket(ws.url('/hello'), [a('json_body', 'equals', 'ok', '$.status')]),
      new CheckDeadline(),
    );
    expect(failed).toMatchObject({
      ok: false,
      error: { kind: 'assertion_failed', message: '$.status was "degraded", expected equals "ok"' },
    });
    ws.state.greeting = '{"status":"ok","version":3}';
    const passed = await probers.run(
      websocket(ws.url('/hello'), [
        a('json_body', 'equals', 'ok', '$.status'),
        a('json_body', 'greater_than', '2', '$.version'),
        a('status_code', 'equals', '101'),
      ]),
      new CheckDeadline(),
    );
    expect(passed).toMatchObject({ ok: true, error: null });
  });
});

describe('assertions on what a grpc check read', () => {
  it('reads the serving status as the response text', async () => {
    expect(
      await probers.run(health([a('text_body', 'equals', 'SERVING')]), new CheckDeadline()),
    ).toMatchObject({
      ok: true,
      error: null,
    });
    expect(
      await probers.run(health([a('response_time', 'less_than', '0')]), new CheckDeadline()),
    ).toMatchObject({
      ok: false,
      error: {
        kind: 'assertion_failed',
        message: expect.stringMatching(/^response_time was [\d.]+, expected less_than 0$/),
      },
    });
  });
});
