// One side of `npm run bench -- streams`, in a fresh process: `node stream-loop.js KIND SIDE PORTS SECONDS`
// with KIND grpc or ws, SIDE lookout (the agent's prober, agent/dist) or bare (the least code that does
// the same exchange), PORTS comma-separated. IN_FLIGHT checks at a time, round-robin over the ports,
// a fresh connection each; 2 s of warm-up, then SECONDS counted. Prints one JSON line:
// {checks, failed, seconds, cpu_ms}.
import { connect as h2Connect } from 'node:http2';
import WebSocket from 'ws';
import { CheckDeadline } from '../../agent/dist/deadline.js';
import { healthCheckRequest } from '../../agent/dist/probers/grpc-health.js';
import { createGrpcProber } from '../../agent/dist/probers/grpc-prober.js';
import { createWebSocketProber } from '../../agent/dist/probers/websocket-prober.js';

const [kind, side, portList, secondsText] = process.argv.slice(2);
const ports = portList.split(',').map(Number);
const SECONDS = Number(secondsText ?? 10);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 32);
const WARM_MS = 2000;

/** A bare gRPC health call: one HTTP/2 connection, one request, SERVING read from the last byte. */
const bareGrpc = (port) =>
  new Promise((resolve) => {
    const session = h2Connect(`http://127.0.0.1:${port}`);
    const done = (ok) => {
      session.destroy();
      resolve(ok);
    };
    session.on('error', () => done(false));
    const req = session.request({
      ':method': 'POST',
      ':path': '/grpc.health.v1.Health/Check',
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    let body = Buffer.alloc(0);
    let status = null;
    req.on('data', (c) => (body = Buffer.concat([body, c])));
    req.on('trailers', (t) => (status = t['grpc-status']));
    req.on('end', () => done(status === '0' && body[body.length - 1] === 1));
    req.on('error', () => done(false));
    req.end(healthCheckRequest(''));
  });

/** A bare WebSocket check: open, send, first message, close. */
const bareWs = (port) =>
  new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { perMessageDeflate: false });
    ws.on('open', () => ws.send('ping'));
    ws.on('message', (m) => {
      ws.close(1000);
      resolve(m.toString() === 'ping');
    });
    ws.on('error', () => resolve(false));
  });

const grpcProber = createGrpcProber();
const wsProber = createWebSocketProber();
const lookoutGrpc = async (port) =>
  (
    await grpcProber.run(
      {
        monitor_id: 'm',
        monitor_type: 'grpc',
        url: `127.0.0.1:${port}`,
        timeout_ms: 10_000,
        settings: { grpc_service: '', grpc_tls: false, assertions: [] },
      },
      new CheckDeadline(),
    )
  ).ok;
const lookoutWs = async (port) =>
  (
    await wsProber.run(
      {
        monitor_id: 'm',
        monitor_type: 'websocket',
        url: `ws://127.0.0.1:${port}/`,
        timeout_ms: 10_000,
        settings: { ws_message: 'ping', assertions: [] },
      },
      new CheckDeadline(),
    )
  ).ok;

const check = { grpc: { bare: bareGrpc, lookout: lookoutGrpc }, ws: { bare: bareWs, lookout: lookoutWs } }[
  kind
]?.[side];
if (!check) {
  process.stderr.write('usage: node stream-loop.js grpc|ws bare|lookout PORTS SECONDS\n');
  process.exit(2);
}

let turn = 0;
let counting = false;
let checks = 0;
let failed = 0;
let stop = false;
const worker = async () => {
  while (!stop) {
    const ok = await check(ports[turn++ % ports.length]);
    if (counting) ok ? checks++ : failed++;
  }
};
const workers = Array.from({ length: IN_FLIGHT }, worker);
await new Promise((r) => setTimeout(r, WARM_MS));
counting = true;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await new Promise((r) => setTimeout(r, SECONDS * 1000));
counting = false;
const cpu = process.cpuUsage(cpu0);
const seconds = (performance.now() - t0) / 1000;
stop = true;
await Promise.all(workers);
process.stdout.write(
  `${JSON.stringify({ checks, failed, seconds, cpu_ms: (cpu.user + cpu.system) / 1000 })}\n`,
);
process.exit(0);
