// Where an agent's CPU per check goes beyond the floor (docs/benchmarks.md, "History": issue 27's sixteenth round):
// the floor's loop
// (paced-floor.js: a fresh connection per check, started on a 10 ms tick at RATE checks/s) with the
// agent's per-check layers added one at a time, each in a fresh process against the same target:
//   0 the floor's request        1 the agent's http prober instead   2 + its deadline (probeWithDeadline)
//   3 + p-queue                  4 + the result and its encoding, 500 a batch (not sent)
//   5 + the Prometheus metrics (onCheck, onLag)
// Prints CPU ms per check for each, ROUNDS (2) times in turn. What the full agent costs beyond layer 5
// (its scheduler, the report call, logging) is agent-paced.js's figure minus this one.
//
//   node test/bench/agent-layers.js        Env: RATE (1667), SECONDS (20), ROUNDS (2), LAYERS (0,1,2,3,4,5).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import { floorRequest, pacedTicks } from './paced-ticks.js';
import { spawnPinned, waitLine } from './support.js';

const RATE = Number(process.env.RATE ?? 1667);
const SECONDS = Number(process.env.SECONDS ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const LAYERS = (process.env.LAYERS ?? '0,1,2,3,4,5').split(',').map(Number);
const agentDist = join(import.meta.dirname, '..', '..', 'agent', 'dist');

const child = async (layer, ports) => {
  const { createHttpProber } = await import(join(agentDist, 'probers', 'http-prober.js'));
  const { probeWithDeadline, CheckDeadline } = await import(join(agentDist, 'deadline.js'));
  const { realTimers } = await import(join(agentDist, 'scheduler.js'));
  const { resultOf } = await import(join(agentDist, 'wire.js'));
  const { createWaitingResults } = await import(join(agentDist, 'waiting-results.js'));
  const { createAgentMetrics } = await import(join(agentDist, 'metrics.js'));
  const { default: PQueue } = await import('p-queue');
  const floorAgent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const prober = createHttpProber();
  const queue = new PQueue({ concurrency: 200 });
  const metrics = createAgentMetrics({ agent: 'layers' });
  const specs = ports.map((port, i) => ({
    monitor_id: `m${i}`,
    monitor_type: 'http',
    url: `http://127.0.0.1:${port}/`,
    timeout_ms: 30_000,
    settings: {
      http_method: 'GET',
      request_headers: {},
      request_body: null,
      auth: null,
      expected_status_code: 200,
      required_keyword: null,
      follow_redirects: false,
      ssl_cert_monitoring: false,
      assertions: [],
    },
  }));
  let turn = 0;
  const waiting = createWaitingResults({ maxItems: 100_000, maxAgeMs: 3_600_000, field: 2 });
  const probe = (spec) =>
    layer >= 2 ? probeWithDeadline(prober, spec, realTimers) : prober.run(spec, new CheckDeadline());
  const check = async (spec, scheduledAt, end) => {
    const startedAt = Date.now();
    const t0 = performance.now();
    const outcome = await probe(spec);
    end(outcome.ok);
    if (layer >= 4) {
      // As the reporter keeps them: encoded when the run ends, a batch copied out at 500 (and
      // acknowledged at once: no call).
      const r = resultOf({ monitorId: spec.monitor_id, version: 1n, scheduledAt, startedAt, outcome });
      waiting.push(startedAt, r, startedAt);
      if (waiting.size === 500) waiting.ack(waiting.peek(500, startedAt));
    }
    if (layer >= 5) {
      metrics.onCheck('http', outcome.ok, performance.now() - t0);
      metrics.onLag(startedAt - scheduledAt);
    }
  };
  const one = (now, end) => {
    const i = turn++ % ports.length;
    if (layer === 0) floorRequest(floorAgent, ports[i], end);
    else if (layer >= 3) void queue.add(() => check(specs[i], now, end));
    else void check(specs[i], now, end);
  };
  pacedTicks({
    rate: RATE,
    seconds: SECONDS,
    fire: one,
    onDone: ({ done, failed, cpuMs }) => {
      console.log(JSON.stringify({ layer, done, failed, msPerCheck: cpuMs / Math.max(done, 1) }));
      setTimeout(() => process.exit(0), 200);
    },
  });
};

if (process.argv[2] === '--child') {
  await child(Number(process.argv[3]), process.argv[4].split(',').map(Number));
} else {
  const target = spawnPinned(1, [process.execPath, join(import.meta.dirname, 'target-server.js')]);
  const ports = (await waitLine(target, /READY ([\d,]+)/))[1];
  const names = [
    'floor request',
    'http prober',
    '+ deadline',
    '+ p-queue',
    '+ result, encoding',
    '+ metrics',
  ];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const layer of LAYERS) {
        const p = spawn(process.execPath, [import.meta.filename, '--child', String(layer), ports], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        p.stdout.on('data', (d) => {
          out += d;
        });
        await new Promise((r) => p.on('exit', r));
        const r = JSON.parse(out.trim().split('\n').pop());
        console.log(
          `round ${round} layer ${layer} (${names[layer]}): ${r.msPerCheck.toFixed(4)} ms CPU/check, ${r.done} ok, ${r.failed} failed`,
        );
      }
    }
  } finally {
    target.kill();
  }
}
