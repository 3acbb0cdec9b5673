// npm run bench -- batch: creating monitors in bulk through the API of a real control plane (SQLite,
// no agents), in one run, each on an empty workspace of its own: N monitors one request each
// (POST /monitors/create, one at a time, as a script would), N through POST /monitors/batch (1,000 a
// request), and N through `lookout apply` of a file naming them. N = BENCH_MONITORS (20,000).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { machine, writeSection } from './report.js';
import { waitLine } from './support.js';

const N = Number(process.env.BENCH_MONITORS ?? 20_000);
const BATCH = 1000;
const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'control-plane', 'dist', 'main.js');
const CLI = join(ROOT, 'control-plane', 'bin', 'lookout.js');

const monitor = (prefix, i) => ({
  display_name: `${prefix} ${i}`,
  monitor_type: 'http',
  url: `https://service-${i}.example.com/health`,
  http_method: 'GET',
  expected_status_code: 200,
  check_interval_seconds: 60,
});

export const call = (agent, port, sub, key, method, path, body) =>
  new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path: `/api/v1${path}`,
        headers: {
          host: `${sub}.localhost`,
          'x-api-key': key,
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode >= 300)
            reject(new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`));
          else resolve(text ? JSON.parse(text) : null);
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });

export const timed = async (fn) => {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
};

/** Runs the admin CLI on the bench's store (as an operator would): a workspace and an admin key. */
export const admin = (env, args) =>
  new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CLI, ...args, '--json'], { env: { ...process.env, ...env } });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.pipe(process.stderr);
    p.on('close', (c) =>
      c === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${args.join(' ')} exited ${c}`)),
    );
  });

export const run = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lookout-batch-bench-'));
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
  // One empty workspace per way of creating, on the same store (the CLI beside the running server).
  const keys = {};
  for (const sub of ['single', 'batch', 'apply']) {
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
  const count = async (sub) => {
    let n = 0;
    let cursor = null;
    do {
      const page = await api(
        sub,
        'GET',
        `/monitors?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      n += page.data.length;
      cursor = page.next_cursor;
    } while (cursor);
    return n;
  };
  try {
    const single = await timed(async () => {
      for (let i = 0; i < N; i++) await api('single', 'POST', '/monitors/create', monitor('single', i));
    });
    process.stdout.write(`one by one: ${N} in ${single.toFixed(1)} s\n`);
    const batch = await timed(async () => {
      for (let i = 0; i < N; i += BATCH)
        await api('batch', 'POST', '/monitors/batch', {
          monitors: Array.from({ length: Math.min(BATCH, N - i) }, (_, j) => monitor('batch', i + j)),
        });
    });
    process.stdout.write(`batch: ${N} in ${batch.toFixed(1)} s\n`);
    // `lookout apply` of a file of N monitors on an empty workspace, as a user runs it.
    const file = join(dir, 'lookout.yaml');
    writeFileSync(
      file,
      `version: 1\nmonitors:\n${Array.from({ length: N }, (_, i) => monitor('apply', i))
        .map(
          (m) =>
            `  - display_name: ${m.display_name}\n    monitor_type: http\n    url: ${m.url}\n    http_method: GET\n    expected_status_code: 200\n    check_interval_seconds: 60\n`,
        )
        .join('')}`,
    );
    const apply = await timed(
      () =>
        new Promise((resolve, reject) => {
          const p = spawn(process.execPath, [CLI, 'apply', '-f', file], {
            env: {
              ...process.env,
              LOOKOUT_API_URL: `http://apply.localhost:${port}`,
              LOOKOUT_API_KEY: keys.apply,
            },
          });
          p.stdout.resume();
          p.stderr.pipe(process.stderr);
          p.on('close', (c) => (c === 0 ? resolve() : reject(new Error(`apply exited ${c}`))));
        }),
    );
    process.stdout.write(`apply: ${N} in ${apply.toFixed(1)} s\n`);
    for (const sub of ['single', 'batch', 'apply']) {
      const n = await count(sub);
      if (n !== N) throw new Error(`${sub}: expected ${N} monitors, found ${n}`);
    }
    const row = (label, s) =>
      `| ${label} | ${N.toLocaleString('en')} | ${s.toFixed(1)} | ${((s * 1000) / N).toFixed(2)} | ${(single / s).toFixed(1)}× |`;
    const body = `### Creating monitors in bulk (\`npm run bench -- batch\`)

Measured ${new Date().toISOString().slice(0, 16)} UTC on ${machine()}, load average ${loadavg()[0].toFixed(2)} at the end
(the machine is shared: other work ran meanwhile). One control plane (\`control-plane/dist/main.js\`, SQLite,
no agents, \`validate_responses\` off) and one client on one kept-alive connection, in one run, each way on
an empty workspace of its own (same store): ${N.toLocaleString('en')} http monitors created one request each
(\`POST /monitors/create\`, one after the other, as a script would), then ${N.toLocaleString('en')} through
\`POST /monitors/batch\` (${BATCH.toLocaleString('en')} a request), then \`lookout apply -f\` of a file of
${N.toLocaleString('en')} monitors (the CLI process as a user runs it: start, read and check the file, read the
workspace, check every new monitor with \`POST /monitors/batch/check\`, create them through
\`POST /monitors/batch\`).

| how | monitors | seconds | ms per monitor | vs one by one |
|---|---|---|---|---|
${row('one by one (`POST /monitors/create`)', single)}
${row('`POST /monitors/batch`', batch)}
${row('`lookout apply` (through the batch endpoint)', apply)}
`;
    process.stdout.write(body);
    writeSection('batch', body);
  } finally {
    agent.destroy();
    cp.kill('SIGTERM');
    await new Promise((r) => cp.on('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
};
