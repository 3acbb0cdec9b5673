// What a check's request leaves for the garbage collector (docs/benchmarks.md, "History": issue 27's thirteenth round):
// node:http
// requests to the loopback target on a 10 ms tick at RATE a second, each on a fresh connection closed
// after the response, opened one of two ways, in alternate child processes; each process first builds
// a ballast of BALLAST small long-lived objects (an agent's 100,000 monitors hold ~600,000), so a full
// collection costs what it costs an agent. Prints per way: CPU per request, scavenges and what they
// promoted to the old generation per second, and full collections.
//
//   node test/bench/request-survival.js [RATE=1667] [SECONDS=20] [ROUNDS=2]   (env BALLAST=600000)
//   ways: `connection` (the request's own createConnection, no agent: the prober until this round),
//         `agent` (one shared http.Agent without keep-alive: the prober now)
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { GCProfiler } from 'node:v8';
import { spawnPinned, waitLine } from './support.js';

const WARM_MS = 3000;

const child = async (way, ports, rate, seconds) => {
  const ballast = Array.from({ length: Number(process.env.BALLAST ?? 600_000) }, (_, i) => ({
    i,
    s: `b${i}`,
  }));
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const headers = { 'user-agent': 'bench', connection: 'close' };
  const open = (o) => net.connect(o);
  let turn = 0;
  let done = 0;
  const one = () => {
    const port = ports[turn++ % ports.length];
    const options = { hostname: '127.0.0.1', port, path: '/', headers };
    if (way === 'agent') options.agent = agent;
    else options.createConnection = open;
    const req = http.request(options, (res) => {
      res.resume();
      res.on('end', () => done++);
    });
    req.on('error', () => {});
    req.end();
  };
  let due = 0;
  const tick = setInterval(() => {
    for (due += rate / 100; due >= 1; due--) one();
  }, 10);
  await new Promise((r) => setTimeout(r, WARM_MS));
  const profiler = new GCProfiler();
  profiler.start();
  const cpu0 = process.cpuUsage();
  const done0 = done;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const cpu = process.cpuUsage(cpu0);
  const secs = (performance.now() - t0) / 1000;
  const { statistics } = profiler.stop();
  clearInterval(tick);
  const old = (s) => s.heapSpaceStatistics.find((x) => x.spaceName === 'old_space')?.spaceUsedSize ?? 0;
  let scavenges = 0;
  let promoted = 0;
  let full = 0;
  for (const gc of statistics) {
    if (gc.gcType === 'MarkSweepCompact') full++;
    if (gc.gcType !== 'Scavenge') continue;
    scavenges++;
    promoted += old(gc.afterGC) - old(gc.beforeGC);
  }
  const out = {
    way,
    requests: done - done0,
    cpuMsPerRequest: (cpu.user + cpu.system) / 1000 / (done - done0),
    scavengesPerSecond: scavenges / secs,
    promotedMbPerSecond: promoted / 1e6 / secs,
    fullPerSecond: full / secs,
    ballast: ballast.length,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
};

if (process.argv[2] === '--child') {
  await child(
    process.argv[3],
    process.argv[4].split(',').map(Number),
    Number(process.argv[5]),
    Number(process.argv[6]),
  );
} else {
  const [rate = 1667, seconds = 20, rounds = 2] = process.argv.slice(2).map(Number);
  const target = spawnPinned(1, [process.execPath, new URL('./target-server.js', import.meta.url).pathname]);
  const ports = (await waitLine(target, /READY ([\d,]+)/))[1];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const way of round % 2 === 0 ? ['connection', 'agent'] : ['agent', 'connection']) {
        const c = spawn(
          process.execPath,
          [import.meta.filename, '--child', way, ports, String(rate), String(seconds)],
          {
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        const r = JSON.parse((await waitLine(c, /^(\{.*\})$/m))[1]);
        await new Promise((res) => c.once('exit', res));
        process.stdout.write(
          `${way.padEnd(10)} ${r.requests} requests, ${r.cpuMsPerRequest.toFixed(4)} ms CPU each, ` +
            `${r.scavengesPerSecond.toFixed(1)} scavenges/s promoting ${r.promotedMbPerSecond.toFixed(2)} MB/s, ` +
            `${r.fullPerSecond.toFixed(2)} full collections/s\n`,
        );
      }
    }
  } finally {
    target.kill('SIGTERM');
  }
}
