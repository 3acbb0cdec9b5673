// The agent's memory while its control plane has fallen behind (issue 27): the production agent
// process (`agent/dist/main.js`) against the minimal AgentService of `sink-server.js` whose
// ReportResults never answers (every call ends at the agent's deadline), N http monitors on a loopback
// target, so results pile up in the agent's buffer. Samples the agent's RSS and buffered results every
// 5 s for DURATION seconds and prints the largest RSS.
//
//   node test/bench/agent-backlog.js [treeA treeB ...]
// Env: MONITORS (10000), INTERVAL (10 s), DURATION (180 s), AGENT_ENV (extra `K=V,K=V` for the agent,
// e.g. LOOKOUT_AGENT_BUFFER_MAX_BYTES=67108864), STALL=0 (the sink acknowledges: normal operation),
// AGENT_LOG (a file for the agent's output).
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sleep, spawnPinned, waitLine } from './support.js';

const MONITORS = Number(process.env.MONITORS ?? 10_000);
const INTERVAL = Number(process.env.INTERVAL ?? 10);
const DURATION = Number(process.env.DURATION ?? 180);
const here = resolve(import.meta.dirname, '..', '..');
const trees = process.argv.length > 2 ? process.argv.slice(2) : [here];
const extra = Object.fromEntries(
  (process.env.AGENT_ENV ?? '')
    .split(',')
    .filter(Boolean)
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);
const rssMb = (pid) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];

const target = spawnPinned(1, [process.execPath, join(import.meta.dirname, 'target-server.js')]);
const ports = (await waitLine(target, /READY ([\d,]+)/))[1].split(',');

for (const tree of trees) {
  const sink = spawnPinned(
    1,
    [process.execPath, join(import.meta.dirname, 'sink-server.js'), ports.join(',')],
    {
      SINK_REPORT: process.env.STALL === '0' ? '' : 'stall',
    },
  );
  const sinkPort = Number((await waitLine(sink, /READY (\d+)/))[1]);
  sink.stdin.write(`monitors ${MONITORS} ${INTERVAL}\n`);
  const child = spawn(process.execPath, [join(tree, 'agent', 'dist', 'main.js')], {
    env: {
      ...process.env,
      LOOKOUT_AGENT_CONTROL_PLANE_URL: `http://127.0.0.1:${sinkPort}`,
      LOOKOUT_AGENT_TOKEN: 'lat.bench-bench-bench-bench-bench',
      LOOKOUT_AGENT_REGION: 'eu-west',
      LOOKOUT_AGENT_INSTANCE_ID: 'backlog',
      LOOKOUT_AGENT_LOG_LEVEL: 'info',
      LOOKOUT_AGENT_METRICS_PORT: '0',
      LOOKOUT_AGENT_METRICS_HOST: '127.0.0.1',
      LOOKOUT_AGENT_RDAP_BOOTSTRAP_URL: 'off',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (process.env.AGENT_LOG) child.stdout.pipe(createWriteStream(process.env.AGENT_LOG));
  const port = Number((await waitLine(child, /"port":(\d+),"msg":"metrics and health listening"/))[1]);
  const health = async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).json();
  const metric = async (name) => {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    return Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text)?.[1] ?? Number.NaN);
  };
  const l = load();
  let maxRss = 0;
  for (let s = 0; s < DURATION; s += 5) {
    await sleep(5000);
    const h = await health();
    const rss = rssMb(child.pid);
    maxRss = Math.max(maxRss, rss);
    const heap = (await metric('nodejs_heap_size_used_bytes')) / 2 ** 20;
    const dropped = await metric('lookout_agent_dropped_results');
    process.stdout.write(
      `${tree} ${s + 5}s: RSS ${rss.toFixed(0)} MB, heap ${heap.toFixed(0)} MB, buffered ${h.buffered_results}, dropped ${dropped}, assigned ${h.assigned}\n`,
    );
  }
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const buckets = [
    ...text.matchAll(/^lookout_agent_check_duration_seconds_bucket\{[^}]*le="([^"]+)"[^}]*\} (\d+)/gm),
  ];
  process.stdout.write(`${tree}: check durations ${buckets.map((m) => `≤${m[1]}s ${m[2]}`).join(', ')}\n`);
  process.stdout.write(`${tree}: load ${l}, largest RSS ${maxRss.toFixed(0)} MB\n`);
  child.kill('SIGKILL');
  sink.kill('SIGTERM');
  await sleep(2000);
}
target.kill('SIGTERM');
process.exit(0);
