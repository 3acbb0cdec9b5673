// Heartbeat ping ingestion on the SQLite store: a real control-plane process pinned to one core,
// autocannon on the other core, POST /hb/ping/{uuid} over loopback. After each run the database is
// counted: every 200 must be a stored ping. Baselines in the same run: a bare Node HTTP server that
// stores nothing (the ceiling), and the same control plane committing each ping on its own (batch 1).
// Slug pings (POST /hb/ping/{ping_key}/{slug}) run on the same heartbeats and are compared to uuid pings.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@lookout/shared';
import { loadConfig } from '../../control-plane/dist/config.js';
import { createHeartbeat } from '../../control-plane/dist/domain/heartbeats/heartbeats.js';
import { showPingKey } from '../../control-plane/dist/domain/heartbeats/ping-keys.js';
import { createWorkspace } from '../../control-plane/dist/domain/tenancy/workspaces.js';
import { createSecretBox } from '../../control-plane/dist/secret-box.js';
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
const load = (port, ids, duration = DURATION, connections = CONNECTIONS) =>
  new Promise((resolve, reject) => {
    const args = [
      process.execPath,
      join(import.meta.dirname, 'load.js'),
      port,
      duration,
      connections,
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

const summary = (label, warm, r) => ({
  label,
  rps: r.requests.average,
  ok: r['2xx'],
  acknowledged: warm['2xx'] + r['2xx'],
  non2xx: r.non2xx,
  errors: r.errors + r.timeouts,
  p50: r.latency.p50,
  p99: r.latency.p99,
  max: r.latency.max,
});

/**
 * uuid and slug pings against one server at the same time, half the connections each: whatever else
 * the machine does meets both alike, so their ratio holds even when the absolute figures do not.
 */
const runPair = async (dataDir, ids, slugPaths) => {
  const env = { ...process.env, BENCH_MODE: 'grouped', LOOKOUT_DATA_DIR: dataDir };
  const { child, port } = await startServer(env);
  const half = Math.max(1, Math.round(CONNECTIONS / 2));
  const both = (duration) =>
    Promise.all([load(port, ids, duration, half), load(port, slugPaths, duration, half)]);
  const warm = await both(WARMUP);
  const r = await both(DURATION);
  child.kill('SIGTERM');
  await new Promise((res) => child.once('exit', res));
  return [
    summary(`uuid pings, at the same time as slug pings (${half} connections)`, warm[0], r[0]),
    summary(`slug pings /hb/ping/{ping_key}/{slug} (${half} connections)`, warm[1], r[1]),
  ];
};

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
  const loadBefore = loadavg()[0];
  for (const [label, mode, env] of [
    ['bare Node HTTP, no storage (ceiling)', 'bare', {}],
    ['Lookout, one commit per ping (batch 1)', 'grouped', { LOOKOUT_PING_BATCH_MAX: '1' }],
    ['Lookout, group commit (default)', 'grouped', {}],
    ['Lookout, uuid and slug pings at once (default)', 'pair', {}],
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
      ids.push(
        (
          await createHeartbeat(
            store,
            workspace,
            { display_name: `hb${i}`, slug: `job-${i}` },
            systemClock.now(),
          )
        ).id,
      );
    const { ping_key } = await showPingKey(
      store,
      createSecretBox(undefined),
      workspace.id,
      systemClock.now(),
    );
    await store.close();

    const slugPaths = ids.map((_, i) => `${ping_key}/job-${i}`);
    const rs =
      mode === 'pair' ? await runPair(dir, ids, slugPaths) : [await runOne(label, mode, dir, ids, env)];
    if (mode !== 'bare') {
      const check = await openStore(config);
      let stored = 0;
      for (const id of ids)
        stored += (await check.listPings(workspace.id, id, { limit: 10_000_000 })).data.length;
      await check.close();
      // A pair's two generators write to the same heartbeats: the store holds their sum.
      const acknowledged = rs.reduce((a, r) => a + r.acknowledged, 0);
      if (stored < acknowledged)
        throw new Error(`acknowledged pings missing from the store: ${label}: ${stored} < ${acknowledged}`);
      for (const r of rs) r.stored = rs.length === 1 ? stored : `${stored.toLocaleString('en')} (both)`;
    }
    rmSync(dir, { recursive: true, force: true });
    for (const r of rs) {
      results.push(r);
      process.stdout.write(
        `${r.label}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, 2xx ${r.ok}, other ${r.non2xx}, errors ${r.errors}${r.stored !== undefined ? `, acknowledged incl. warm-up ${r.acknowledged}, stored ${r.stored}` : ''}\n`,
      );
    }
  }
  // Requests still in flight when a run stops are stored but never counted as acknowledged, so stored may
  // exceed acknowledged by up to the connection count per run; it may never fall short (checked above).
  const base = results[0].rps;
  // The machine's load (1-minute average) before and after: above its core count, other work shared the
  // cores, and the absolute figures say little (the pair's ratio still holds).
  const busy = Math.max(loadBefore, loadavg()[0]);
  const busyNote =
    busy > cpus().length
      ? ` Load average up to ${busy.toFixed(1)} on ${cpus().length} cores during the run: other work shared the cores, so the absolute figures are low; the ratio of the uuid and slug pings sent at once still holds.`
      : '';
  const [uuidRps, slugRps] = results.slice(-2).map((r) => r.rps);
  process.stdout.write(`slug pings / uuid pings: ${(slugRps / uuidRps).toFixed(2)}\n`);
  const rows = results
    .map(
      (r) =>
        `| ${r.label} | ${Math.round(r.rps).toLocaleString('en')} | ${(r.rps / base).toFixed(2)} | ${r.p50} | ${r.p99} | ${r.acknowledged.toLocaleString('en')} | ${r.stored === undefined ? '—' : r.stored.toLocaleString('en')} | ${r.non2xx + r.errors} |`,
    )
    .join('\n');
  writeSection(
    'ping',
    `### Heartbeat ping ingestion (\`npm run bench -- ping\`)

Run ${new Date().toISOString().slice(0, 10)} on ${machine()}.${busyNote}
Method: the control plane runs as its own process pinned to core 0 (\`taskset\`), on a fresh SQLite file
(WAL, \`synchronous=FULL\`: every acknowledged ping is on disk). autocannon, pinned to core 1, keeps
${CONNECTIONS} keep-alive connections busy for ${DURATION} s with \`POST /hb/ping/{uuid}\` spread over ${HEARTBEATS}
heartbeats, after a ${WARMUP} s warm-up. Afterwards the database is opened again and the pings counted:
"stored" must be at least "200s" (warm-up included; requests in flight when a run stops are stored but
not counted as 200s). Ratio is against the bare Node HTTP server in the same run.

| server | pings/s | ratio | p50 ms | p99 ms | 200s | stored | errors |
|---|---:|---:|---:|---:|---:|---:|---:|
${rows}

Slug pings against uuid pings: the last run starts one server and two generators at once, each
with half the connections, one sending \`POST /hb/ping/{uuid}\`, the other \`POST /hb/ping/{ping_key}/{slug}\`
to the same heartbeats, so that whatever else the machine does meets both alike: slug ${Math.round(slugRps).toLocaleString('en')} / uuid ${Math.round(uuidRps).toLocaleString('en')} pings/s = **${(slugRps / uuidRps).toFixed(2)}×** (goal ≥ 0.9×; a slug ping adds two cached lookups, the ping key and the slug).

Design target: ≥ 10,000 pings/s from one process with every ping durable before its 200, p99 < 50 ms.
For scale: Healthchecks' self-hosted handler is reported at about 250 pings/s (not measured here).`,
  );
};
