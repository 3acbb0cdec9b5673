// npm run bench -- streams: grpc and websocket checks per core, the agent's probers against a bare loop
// of the same protocol in the same run. The targets (stream-servers.js) run pinned to core 1; each side
// runs in a fresh process pinned to core 0 (stream-loop.js), IN_FLIGHT checks at a time on a fresh
// connection each, sides alternating over ROUNDS rounds (the order flips each round) so that what
// else the machine does meets both alike. Per core = successful checks / the side's CPU seconds.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { machine, writeSection } from './report.js';
import { linux, spawnPinned, waitLine } from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
/** Target ports per protocol: each side opens ~1,000 connections a second, closed ones wait in TIME_WAIT. */
const PORTS = Number(process.env.BENCH_PORTS ?? 64);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 32);
const dryRun = process.argv.includes('--dry-run');

const side = (kind, name, ports) =>
  new Promise((resolve, reject) => {
    const args = [join(import.meta.dirname, 'stream-loop.js'), kind, name, ports.join(','), String(SECONDS)];
    const child = linux
      ? spawn('taskset', ['-c', '0', process.execPath, ...args], {
          env: { ...process.env, BENCH_IN_FLIGHT: String(IN_FLIGHT) },
        })
      : spawn(process.execPath, args);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop())) : reject(new Error(out)),
    );
  });

const sum = (runs, key) => runs.reduce((n, r) => n + r[key], 0);
const perCore = (runs) => sum(runs, 'checks') / (sum(runs, 'cpu_ms') / 1000);
const perSecond = (runs) => sum(runs, 'checks') / sum(runs, 'seconds');
const fmt = (n) => Math.round(n).toLocaleString('en-US');

export const run = async () => {
  const servers = spawnPinned(1, [process.execPath, join(import.meta.dirname, 'stream-servers.js')], {
    BENCH_PORTS: String(PORTS),
  });
  const [, grpcPorts, wsPorts] = await waitLine(servers, /READY grpc=([\d,]+) ws=([\d,]+)/);
  const ports = { grpc: grpcPorts.split(',').map(Number), ws: wsPorts.split(',').map(Number) };
  const runs = { grpc: { bare: [], lookout: [] }, ws: { bare: [], lookout: [] } };
  const load = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of ['grpc', 'ws']) {
        const order = round % 2 === 0 ? ['bare', 'lookout'] : ['lookout', 'bare'];
        for (const name of order) {
          const r = await side(kind, name, ports[kind]);
          runs[kind][name].push(r);
          load.push(Number(spawnSync('cat', ['/proc/loadavg']).stdout?.toString().split(' ')[0] ?? 0));
          process.stdout.write(
            `round ${round + 1} ${kind} ${name}: ${fmt(r.checks / (r.cpu_ms / 1000))} checks per CPU-second, ${r.failed} failed\n`,
          );
        }
      }
    }
  } finally {
    servers.kill();
  }
  const parts = [];
  for (const [kind, label] of [
    ['grpc', 'gRPC health checks (`grpc.health.v1.Health/Check`, plaintext)'],
    ['ws', 'WebSocket checks (open, send, first message, close)'],
  ]) {
    const { bare, lookout } = runs[kind];
    // Each round's two sides ran back to back: their ratio is the least disturbed by the machine's other work.
    const ratios = lookout
      .map((r, i) => r.checks / r.cpu_ms / (bare[i].checks / bare[i].cpu_ms))
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    const median = ratios[Math.floor(ratios.length / 2)];
    const failed = sum(bare, 'failed') + sum(lookout, 'failed');
    parts.push(
      `**${label}: the prober ${fmt(perCore(lookout))} checks per CPU-second, the bare loop ${fmt(perCore(bare))}; ` +
        `median ratio of the rounds ${median.toFixed(2)}** (${ratios[0].toFixed(2)}–${ratios[ratios.length - 1].toFixed(2)}; ` +
        `${fmt(perSecond(lookout))} and ${fmt(perSecond(bare))} checks/s, bound by the target's core; ${failed} failed).`,
    );
  }
  const body = `### gRPC and WebSocket checks (\`npm run bench -- streams\`)
Run ${new Date().toISOString().slice(0, 10)} on ${machine()}, load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)} (\`test/bench/streams.js\`): the targets (@grpc/grpc-js with the health service, a \`ws\` echo server, ${PORTS} ports each) pinned to core 1; each side a fresh process pinned to core 0, ${IN_FLIGHT} checks in flight, a fresh connection each, 2 s of warm-up then ${SECONDS} s counted, prober and bare loop back to back in ${ROUNDS} rounds, the order flipped each round; per core = successful checks per CPU-second of the side's process. The bare loops do the same exchange with the least code (\`node:http2\`, one request; the \`ws\` client). ${parts.join(' ')}`;
  if (dryRun) process.stdout.write(`${body}\n`);
  else writeSection('streams', body);
};
