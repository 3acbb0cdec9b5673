// Heartbeat ping ingestion on the SQLite store: a real control-plane process pinned to one core,
// autocannon on the other core, POST /hb/ping/{uuid} over loopback. After each run the database is
// counted: every 200 must be a stored ping. Baselines in the same run: a bare Node HTTP server that
// stores nothing (the ceiling), and the same control plane committing each ping on its own (batch 1).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@lookout/shared';
import { loadConfig } from '../../control-plane/dist/config.js';
import { createHeartbeat } from '../../control-plane/dist/domain/heartbeats/heartbeats.js';
import { createWorkspace } from '../../control-plane/dist/domain/tenancy/workspaces.js';
import { openStore } from '../../control-plane/dist/store/open-store.js';
import { machine, writeSection } from './report.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 128);
const WARMUP = 3;
const HEARTBEATS = 100;
const pin = (core) => (process.platform === 'linux' ? ['taskset', ['-c', String(core)]] : null);

const startServer = (env) =>
  new Promise((resolve, reject) => {
    const p = pin(0);
    const args = [process.execPath, join(import.meta.dirname, 'ping-server.js')];
    const child = p ? spawn(p[0], [...p[1], ...args], { env }) : spawn(args[0], args.slice(1), { env });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/READY (\d+)/);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });

/** Runs the load generator as its own process, pinned to core 1. */
const load = (port, ids, duration = DURATION) =>
  new Promise((resolve, reject) => {
    const args = [
      process.execPath,
      join(import.meta.dirname, 'load.js'),
      port,
      duration,
      CONNECTIONS,
      ids.join(','),
    ];
    const p = pin(1);
    const child = p ? spawn(p[0], [...p[1], ...args]) : spawn(args[0], args.slice(1));
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load generator exited ${code}`)),
    );
  });

const runOne = async (label, mode, dataDir, ids, extraEnv = {}) => {
  const env = { ...process.env, BENCH_MODE: mode, LOOKOUT_DATA_DIR: dataDir, ...extraEnv };
  const { child, port } = await startServer(env);
  // the generator runs in this process, pinned to the other core
  if (process.platform === 'linux')
    spawn('taskset', ['-p', '-c', '1', String(process.pid)]).on('error', () => {});
  const warm = await load(port, ids, WARMUP);
  const r = await load(port, ids);
  child.kill('SIGTERM');
  await new Promise((res) => child.once('exit', res));
  return {
    label,
    rps: r.requests.average,
    ok: r['2xx'],
    acknowledged: warm['2xx'] + r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
  };
};

export const run = async () => {
  const results = [];
  for (const [label, mode, env] of [
    ['bare Node HTTP, no storage (ceiling)', 'bare', {}],
    ['Lookout, one commit per ping (batch 1)', 'grouped', { LOOKOUT_PING_BATCH_MAX: '1' }],
    ['Lookout, group commit (default)', 'grouped', {}],
  ]) {
    const dir = mkdtempSync(join(tmpdir(), 'lookout-bench-'));
    const config = loadConfig({ LOOKOUT_DATA_DIR: dir, LOOKOUT_LOG_LEVEL: 'silent' });
    const store = await openStore(config);
    const { workspace } = await createWorkspace(
      store,
      config.plans,
      { subdomain: 'bench', admin_email: 'b@bench.test', plan: 'business' },
      systemClock.now(),
    );
    const ids = [];
    for (let i = 0; i < HEARTBEATS; i++)
      ids.push((await createHeartbeat(store, workspace, { display_name: `hb${i}` }, systemClock.now())).id);
    await store.close();

    const r = await runOne(label, mode, dir, ids, env);
    if (mode !== 'bare') {
      const check = await openStore(config);
      let stored = 0;
      for (const id of ids)
        stored += (await check.listPings(workspace.id, id, { limit: 10_000_000 })).data.length;
      await check.close();
      r.stored = stored;
    }
    rmSync(dir, { recursive: true, force: true });
    results.push(r);
    process.stdout.write(
      `${label}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, 2xx ${r.ok}, other ${r.non2xx}, errors ${r.errors}${r.stored !== undefined ? `, acknowledged incl. warm-up ${r.acknowledged}, stored ${r.stored}` : ''}\n`,
    );
  }
  // Requests still in flight when a run stops are stored but never counted as acknowledged, so stored may
  // exceed acknowledged by up to the connection count per run; it may never fall short.
  const lost = results.filter((r) => r.stored !== undefined && r.stored < r.acknowledged);
  if (lost.length) throw new Error(`acknowledged pings missing from the store: ${JSON.stringify(lost)}`);
  const base = results[0].rps;
  const rows = results
    .map(
      (r) =>
        `| ${r.label} | ${Math.round(r.rps).toLocaleString('en')} | ${(r.rps / base).toFixed(2)} | ${r.p50} | ${r.p99} | ${r.acknowledged.toLocaleString('en')} | ${r.stored === undefined ? '—' : r.stored.toLocaleString('en')} | ${r.non2xx + r.errors} |`,
    )
    .join('\n');
  writeSection(
    'ping',
    `### Heartbeat ping ingestion (\`npm run bench -- ping\`)

Run ${new Date().toISOString().slice(0, 10)} on ${machine()}.
Method: the control plane runs as its own process pinned to core 0 (\`taskset\`), on a fresh SQLite file
(WAL, \`synchronous=FULL\`: every acknowledged ping is on disk). autocannon, pinned to core 1, keeps
${CONNECTIONS} keep-alive connections busy for ${DURATION} s with \`POST /hb/ping/{uuid}\` spread over ${HEARTBEATS}
heartbeats, after a ${WARMUP} s warm-up. Afterwards the database is opened again and the pings counted:
"stored" must be at least "200s" (warm-up included; requests in flight when a run stops are stored but
not counted as 200s). Ratio is against the bare Node HTTP server in the same run.

| server | pings/s | ratio | p50 ms | p99 ms | 200s | stored | errors |
|---|---:|---:|---:|---:|---:|---:|---:|
${rows}

Design target: ≥ 10,000 pings/s from one process with every ping durable before its 200, p99 < 50 ms.
For scale: Healthchecks' self-hosted handler is reported at about 250 pings/s (not measured here).`,
  );
};
