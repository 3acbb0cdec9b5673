// npm run bench -- agent: the full agent (scheduler, p-queue, probers, buffering, reporting over gRPC
// to a real control plane) in this process pinned to core 0, against a local HTTP target; the target
// and the control plane run pinned to core 1. Side by side in the same run: a bare Node probe loop
// (fresh connection per request, as fast as it goes: the ceiling) and, when installed, Prometheus
// blackbox exporter probing the same target. Also: agent memory with 50,000 monitors assigned.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '@lookout/shared';
import { createAgent } from '../../agent/dist/agent.js';
import { createProbers } from '../../agent/dist/probers/index.js';
import { machine, writeSection } from './report.js';
import { bareProbeLoop, benchStore, insertMonitors, linux, sleep, spawnPinned, waitLine } from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Comma-separated parts to leave out (blackbox, memory), e.g. while profiling. */
const SKIP = new Set((process.env.BENCH_SKIP ?? '').split(','));
export const run = async () => {
  if (linux) spawnSync('taskset', ['-p', '-c', '0', String(process.pid)]);
  const { dir, env, store, workspace, policy, token } = await benchStore('agent', {
    LOOKOUT_ASSIGNMENT_POLL_MS: '500',
  });

  const target = spawnPinned(1, [process.execPath, join(import.meta.dirname, 'target-server.js')]);
  const targetPorts = (await waitLine(target, /READY ([\d,]+)/))[1].split(',').map(Number);
  const targetPort = targetPorts[0];
  const cp = spawnPinned(
    1,
    [process.execPath, join(import.meta.dirname, '..', '..', 'control-plane', 'dist', 'main.js')],
    env,
  );
  const rpcPort = Number((await waitLine(cp, /agents connect: http:\/\/[\d.]+:(\d+)/))[1]);
  const out = [];

  // 1. Ceiling
  const ceiling = (await bareProbeLoop(targetPorts, SECONDS)).rate;
  out.push(['bare Node probe loop (ceiling), 64 in flight', ceiling, null]);
  process.stdout.write(`bare loop: ${Math.round(ceiling)} checks/s\n`);

  // 2. Blackbox exporter, if installed
  let blackbox = null;
  if (!SKIP.has('blackbox') && existsSync('/usr/bin/prometheus-blackbox-exporter')) {
    const cfg = join(dir, 'blackbox.yml');
    writeFileSync(
      cfg,
      'modules:\n  http_2xx:\n    prober: http\n    timeout: 5s\n    http:\n      preferred_ip_protocol: ip4\n',
    );
    const bb = spawnPinned(0, [
      '/usr/bin/prometheus-blackbox-exporter',
      `--config.file=${cfg}`,
      '--web.listen-address=127.0.0.1:19115',
      '--log.level=error',
    ]);
    await sleep(1500);
    const r = spawnSync(
      'taskset',
      [
        '-c',
        '1',
        process.execPath,
        join(import.meta.dirname, '..', '..', 'node_modules', 'autocannon', 'autocannon.js'),
        '-j',
        '-c',
        '64',
        '-d',
        String(SECONDS),
        `http://127.0.0.1:19115/probe?module=http_2xx&target=http://127.0.0.1:${targetPort}/`,
      ],
      { encoding: 'utf8' },
    );
    bb.kill('SIGTERM');
    try {
      blackbox = JSON.parse(r.stdout).requests.average;
      out.push(['Prometheus blackbox exporter 0.23 (Debian), 64 probes in flight', blackbox, null]);
      process.stdout.write(`blackbox exporter: ${Math.round(blackbox)} probes/s\n`);
    } catch {
      process.stdout.write(`blackbox exporter run failed: ${r.stderr}\n`);
    }
  }

  // 3. The full agent, reporting to a sink (the same protocol, results acknowledged, not stored) on core 1
  const sink = spawnPinned(1, [
    process.execPath,
    join(import.meta.dirname, 'sink-server.js'),
    targetPorts.join(','),
  ]);
  /** The sink's running counts of results received and of successful checks among them. */
  const sinkCounts = { received: 0, ok: 0 };
  sink.stdout.on('data', (d) => {
    const all = [...String(d).matchAll(/RECEIVED (\d+) OK (\d+)/g)];
    const m = all[all.length - 1];
    if (m) Object.assign(sinkCounts, { received: Number(m[1]), ok: Number(m[2]) });
  });
  const sinkPort = Number((await waitLine(sink, /READY (\d+)/))[1]);
  const agentConfig = {
    control_plane_url: `http://127.0.0.1:${sinkPort}`,
    token: 'lat.bench-bench-bench-bench-bench',
    region: 'eu-west',
    instance_id: 'bench',
    concurrency: Number(process.env.BENCH_CONCURRENCY ?? 64),
    queue_max: 100_000,
    buffer_max_results: 1_000_000,
    buffer_max_bytes: 2 ** 30,
    buffer_max_age_seconds: 3600,
    log_level: 'silent',
    shutdown_grace_ms: 2000,
    auth_retry_seconds: 300,
    chromium_path: undefined,
    browser_concurrency: 2,
    browser_memory_mb: 128,
    browser_cpu_seconds: 30,
  };
  /** Every run's schedule lag, so a stage's p99 is over all of its runs. */
  let lags = [];
  const agent = createAgent({
    config: agentConfig,
    logger: silentLogger(),
    prober: createProbers(),
    onLag: (ms) => lags.push(ms),
  });
  const p99 = (xs) => {
    const s = Float64Array.from(xs).sort();
    return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(s.length * 0.99))];
  };
  void agent.start();
  const stage = async (label, total) => {
    // Rest between stages: the previous stage's sockets finish closing before this one is measured.
    sink.stdin.write('monitors 0 1\n');
    while (agent.assigned().length > 0) await sleep(200);
    await sleep(3000);
    sink.stdin.write(`monitors ${total} 1\n`);
    while (agent.assigned().length < total) await sleep(200);
    await sleep(3000); // settle: every monitor has reached its first slot
    const c0 = agent.checksRun;
    const s0 = { ...sinkCounts };
    const t0 = performance.now();
    lags = [];
    await sleep(SECONDS * 1000);
    const rate = (agent.checksRun - c0) / ((performance.now() - t0) / 1000);
    const lag = Math.round(p99(lags) * 10) / 10;
    // Every check must have succeeded: a failing check is cheap, and would flatter the figure.
    const okShare = (sinkCounts.ok - s0.ok) / Math.max(1, sinkCounts.received - s0.received);
    out.push([`${label} (${total.toLocaleString('en')}/s offered)`, rate, lag, okShare]);
    process.stdout.write(
      `${label}: ${Math.round(rate)} checks/s, ${(okShare * 100).toFixed(1)} % successful, p99 lag ${lag} ms\n`,
    );
    return rate;
  };
  const saturated = await stage('Lookout agent, offered 1.3 × the bare loop', Math.round(ceiling * 1.3));
  await stage('Lookout agent, half of its saturated rate', Math.round(saturated / 2));
  await stage('Lookout agent, half the 4,000/s design target', 2000);
  await agent.stop(2000);
  sink.kill('SIGTERM');

  // 4. Memory with 50,000 monitors assigned (long interval: assignment state, not traffic)
  let memory = null;
  let mem = null;
  if (!SKIP.has('memory')) {
    mem = spawnPinned(0, [process.execPath, '--expose-gc', join(import.meta.dirname, 'agent-memory.js')], {
      BENCH_RPC: `http://127.0.0.1:${rpcPort}`,
      BENCH_TOKEN: token,
    });
    // pause the busy monitors, add 50,000 quiet ones
    for (const m of await store.listRegionMonitors('eu-west')) {
      await store.updateMonitor({ ...m, paused: true, version: m.version + 1 }, m.version);
    }
    await insertMonitors(store, workspace.id, policy.id, 50_000, 86400, targetPort, 1_000_000);
    const mm = await waitLine(mem, /RSS (\d+) HEAP (\d+) ASSIGNED (\d+)/);
    memory = { rssMb: Number(mm[1]) / 2 ** 20, heapMb: Number(mm[2]) / 2 ** 20, assigned: Number(mm[3]) };
    process.stdout.write(
      `agent with ${memory.assigned} monitors: RSS ${memory.rssMb.toFixed(0)} MB, heap ${memory.heapMb.toFixed(0)} MB\n`,
    );
  }

  mem?.kill('SIGTERM');
  cp.kill('SIGTERM');
  target.kill('SIGTERM');
  await store.close();
  rmSync(dir, { recursive: true, force: true });

  const rows = out
    .map(
      ([label, rate, lag, okShare]) =>
        `| ${label} | ${Math.round(rate).toLocaleString('en')} | ${(rate / ceiling).toFixed(2)} | ${okShare === undefined ? '—' : `${(okShare * 100).toFixed(1)} %`} | ${lag === null ? '—' : lag} |`,
    )
    .join('\n');
  writeSection(
    'agent',
    `### Agent checks (\`npm run bench -- agent\`)

Run ${new Date().toISOString().slice(0, 10)} on ${machine()}.
Method: the agent (scheduler, p-queue, probers, buffering, batched gRPC reporting) runs in the bench
process pinned to core 0 (\`taskset\`); the HTTP target and a minimal AgentService that hands out the
monitors and acknowledges results without storing them run pinned to core 1, so the figure is the
agent's own. Plain-HTTP checks, a fresh connection per check, every monitor on a 1 s interval, so the
offered rate is the monitor count.
Each stage starts after a 3 s rest with no monitors, settles 3 s, then counts completed checks for
${SECONDS} s; p99 schedule lag (slot to start of the check, queue wait included) is over every run of the
stage. Ratio is against the bare Node loop in the same run.

| runner | checks/s | ratio | successful | p99 schedule lag ms |
|---|---:|---:|---:|---:|
${rows}

${memory ? `Agent memory with ${memory.assigned.toLocaleString('en')} monitors assigned (a separate agent process, after GC): RSS ${memory.rssMb.toFixed(0)} MB, heap ${memory.heapMb.toFixed(0)} MB.` : 'Memory: not measured in this run.'}
Control-plane result ingestion is measured by \`npm run bench -- ingest\`.

Design targets: ≥ 4,000 plain-HTTP checks/s per core with a fresh connection per check; p99 schedule
lag ≤ 10 ms at half that load; agent memory ≤ 200 MB with 50,000 monitors.`,
  );
};
