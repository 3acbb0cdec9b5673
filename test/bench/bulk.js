// npm run bench -- bulk: bulk actions (POST /monitors/bulk) on N monitors of one workspace through the
// API of a real control plane (SQLite, no agents), against the same change made one request each
// (POST /monitors/{id}/pause, one after the other, as a script would), in one run on one store. While
// each bulk request runs, a second connection asks GET /healthz every 2 ms: its slowest answer is how
// long the control plane's event loop was held. N = BENCH_MONITORS (10,000).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin, call, timed } from './batch.js';
import { machine, writeSection } from './report.js';
import { sleep, waitLine } from './support.js';

const N = Number(process.env.BENCH_MONITORS ?? 10_000);
const BATCH = 1000;
const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'control-plane', 'dist', 'main.js');

const monitor = (i) => ({
  display_name: `service ${i}`,
  monitor_type: 'http',
  url: `https://service-${i}.example.com/health`,
  http_method: 'GET',
  expected_status_code: 200,
  check_interval_seconds: 60,
});

/** Runs `fn` while another connection probes /healthz every 2 ms; the probes' slowest and median ms. */
const probed = async (port, fn) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  let done = false;
  const loop = (async () => {
    while (!done) {
      const t0 = performance.now();
      await new Promise((resolve, reject) => {
        const r = request({ agent, host: '127.0.0.1', port, path: '/healthz' }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        r.on('error', reject);
        r.end();
      });
      times.push(performance.now() - t0);
      await sleep(2);
    }
  })();
  await sleep(50);
  const seconds = await timed(fn);
  done = true;
  await loop;
  agent.destroy();
  times.sort((a, b) => a - b);
  return { seconds, maxMs: times.at(-1) ?? 0, p50Ms: times[Math.floor(times.length / 2)] ?? 0 };
};

export const run = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lookout-bulk-bench-'));
  const env = {
    LOOKOUT_DATA_DIR: dir,
    LOOKOUT_LOG_LEVEL: 'warn',
    LOOKOUT_PLANS: JSON.stringify({ bench: { max_monitors: 10_000_000, min_interval_seconds: 1 } }),
  };
  const cp = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      ...env,
      LOOKOUT_HTTP_HOST: '127.0.0.1',
      LOOKOUT_HTTP_PORT: '0',
      LOOKOUT_RPC_PORT: '0',
      LOOKOUT_LOCAL_AGENTS: '',
      LOOKOUT_DEMO_WORKSPACE: 'false',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = Number((await waitLine(cp, /HTTP API on port (\d+)/))[1]);
  const keys = {};
  for (const sub of ['single', 'bulk']) {
    await admin(env, [
      'workspace',
      'create',
      '--subdomain',
      sub,
      '--admin-email',
      `admin@${sub}.test`,
      '--plan',
      'bench',
    ]);
    keys[sub] = (
      await admin(env, [
        'api-key',
        'create',
        '--workspace',
        sub,
        '--email',
        `admin@${sub}.test`,
        '--name',
        'bench',
        '--expiry',
        'none',
      ])
    ).key;
  }
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const api = (sub, method, path, body) => call(agent, port, sub, keys[sub], method, path, body);
  const ids = {};
  try {
    for (const sub of ['single', 'bulk']) {
      ids[sub] = [];
      for (let i = 0; i < N; i += BATCH) {
        const r = await api(sub, 'POST', '/monitors/batch', {
          monitors: Array.from({ length: Math.min(BATCH, N - i) }, (_, j) => monitor(i + j)),
        });
        ids[sub].push(...r.data.map((m) => m.id));
      }
    }
    process.stdout.write(`${N} monitors in each of two workspaces\n`);
    const idle = await probed(port, () => sleep(2000));
    const adminId = (await api('bulk', 'GET', '/users')).data[0].id;
    const policy = await api('bulk', 'POST', '/escalation-policies', {
      name: 'Bench',
      steps: [{ wait_minutes: 0, notify_user_ids: [adminId] }],
    });
    const single = await probed(port, async () => {
      for (const id of ids.single) await api('single', 'POST', `/monitors/${id}/pause`);
    });
    process.stdout.write(`one by one: paused ${N} in ${single.seconds.toFixed(1)} s\n`);
    const rows = [];
    const step = async (label, body, expect) => {
      const r = await probed(port, async () => {
        const answers = [];
        for (const b of Array.isArray(body) ? body : [body])
          answers.push(await api('bulk', 'POST', '/monitors/bulk', b));
        const affected = answers.reduce((n, a) => n + a.affected, 0);
        if (affected !== expect) throw new Error(`${label}: affected ${affected}, expected ${expect}`);
      });
      process.stdout.write(
        `${label}: ${r.seconds.toFixed(2)} s, longest /healthz ${r.maxMs.toFixed(0)} ms\n`,
      );
      rows.push({ label, ...r });
    };
    const chunks = [];
    for (let i = 0; i < N; i += BATCH) chunks.push(ids.bulk.slice(i, i + BATCH));
    await step(
      `pause by \`ids\` (${chunks.length} requests of ${BATCH.toLocaleString('en')})`,
      chunks.map((c) => ({ action: 'pause', ids: c })),
      N,
    );
    await step('resume by `"filter": {}` (one request)', { action: 'resume', filter: {} }, N);
    await step(
      'set_policy by `"filter": {"paused": "false"}`',
      { action: 'set_policy', filter: { paused: 'false' }, escalation_policy_id: policy.id },
      N,
    );
    await step('add_tags by `"filter": {}`', { action: 'add_tags', filter: {}, tags: ['env:prod'] }, N);
    await step('delete by `"filter": {}`', { action: 'delete', filter: {} }, N);
    const fig = (r) =>
      `${r.label} ${r.seconds.toFixed(2)} s (${(single.seconds / r.seconds).toFixed(0)}×, ${r.maxMs.toFixed(0)} ms)`;
    // One paragraph: docs/benchmarks.md has a line budget (test/docs/benchmarks.test.ts).
    const body = `### Bulk actions on monitors (\`npm run bench -- bulk\`)
${new Date().toISOString().slice(0, 16)} UTC, ${machine()}, load ${loadavg()[0].toFixed(1)} (shared). One control plane (SQLite, no agents), one client on one kept-alive connection, two workspaces of ${N.toLocaleString('en')} http monitors; in brackets the speed-up over the baseline and the slowest answer to \`GET /healthz\` asked every 2 ms on a second connection meanwhile (the longest the event loop was held; idle in the same run: ${idle.maxMs.toFixed(0)} ms). Baseline, one workspace paused one request each (\`POST /monitors/{id}/pause\`): ${single.seconds.toFixed(1)} s (${single.maxMs.toFixed(0)} ms). The other through \`POST /monitors/bulk\`: ${rows.map(fig).join('; ')}.
`;
    process.stdout.write(body);
    writeSection('bulk', body);
  } finally {
    agent.destroy();
    cp.kill('SIGTERM');
    await new Promise((r) => cp.on('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
};
