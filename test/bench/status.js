// npm run bench -- status: a public status page read by a crowd during an outage. 12 components over
// monitors with 90 days of hourly checks (stored through recordResults, so the daily buckets are the
// ones ingestion keeps), 3 of them down, an open incident. Readers at 100 concurrent kept-alive
// connections, as fast as they go, against the control plane and against bare node:http serving the
// same bytes, in the same run; then the API's p99 alone and with a paced crowd of readers.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createNamedKey } from '../../control-plane/dist/domain/access/api-keys.js';
import { createIncident } from '../../control-plane/dist/domain/status-pages/incidents.js';
import { createStatusPage } from '../../control-plane/dist/domain/status-pages/status-pages.js';
import { machine, writeSection } from './report.js';
import { benchStore, insertMonitors, linux, sleep, spawnPinned, waitLine } from './support.js';

const COMPONENTS = 12;
const DOWN = 3;
const CONNECTIONS = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 4;
const HOUR = 3_600_000;
const API_REQUESTS = Number(process.env.BENCH_API_REQUESTS ?? 400);
/** The paced crowd while the API is measured: reads a second, over the 100 connections. */
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 1000);

const get = (agent, port, path, headers = {}) =>
  new Promise((resolve) => {
    const t0 = performance.now();
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        path,
        headers: { host: 'bench.localhost', 'accept-encoding': 'gzip', ...headers },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (c) => {
          bytes += c.length;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode, bytes, ms: performance.now() - t0, headers: res.headers }),
        );
      },
    );
    req.on('error', (e) => resolve({ status: 0, bytes: 0, ms: performance.now() - t0, error: e.message }));
    req.end();
  });

/** 100 workers, one kept-alive connection each, reading `path` back to back for `seconds`. */
const crowd = async (port, path, seconds, expectBytes) => {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const until = performance.now() + seconds * 1000;
  let ok = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const r = await get(agent, port, path);
        // The page says when it was rendered, so a render 5 s later may differ by a few bytes.
        if (r.status === 200 && Math.abs(r.bytes - expectBytes) < 64) ok++;
        else if (errors++ === 0)
          process.stdout.write(
            `first error: ${r.status} ${r.bytes} bytes (${expectBytes} expected) ${r.error ?? ''}\n`,
          );
      }
    }),
  );
  agent.destroy();
  return { rps: ok / seconds, ok, errors };
};

/** The same crowd paced to `rate` reads a second in all; runs until `stop()` resolves. */
const pacedCrowd = (port, path, rate) => {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let running = true;
  let ok = 0;
  let errors = 0;
  const gap = (CONNECTIONS / rate) * 1000;
  const done = Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, i) => {
      await sleep((i * gap) / CONNECTIONS);
      while (running) {
        const t0 = performance.now();
        const r = await get(agent, port, path);
        if (r.status === 200) ok++;
        else errors++;
        await sleep(Math.max(0, gap - (performance.now() - t0)));
      }
    }),
  );
  return async () => {
    running = false;
    await done;
    agent.destroy();
    return { ok, errors };
  };
};

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** `n` GETs of /api/v1/monitors one after another on one connection: their times in ms. */
const apiTimes = async (port, key, n) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  for (let i = 0; i < n; i++) {
    const r = await get(agent, port, '/api/v1/monitors?limit=20', { 'x-api-key': key });
    if (r.status !== 200) throw new Error(`API: ${r.status}`);
    times.push(r.ms);
  }
  agent.destroy();
  return times;
};

const summary = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
};

export const run = async () => {
  if (linux) spawnSync('taskset', ['-p', '-c', '0', String(process.pid)]);
  const { dir, env, store, workspace, admin, policy } = await benchStore('status');
  const ids = await insertMonitors(store, workspace.id, policy.id, COMPONENTS, 60, 9);
  const now = Date.now();
  for (const [i, id] of ids.entries()) {
    const results = [];
    for (let t = now - 90 * 24 * HOUR + HOUR; t < now; t += HOUR) {
      const ok = !(i < DOWN && t > now - 3 * HOUR) && (t / HOUR + i) % 97 !== 0;
      results.push({
        id: `${id}:eu-west:${t}`,
        workspace_id: workspace.id,
        monitor_id: id,
        monitor_version: 1,
        location: 'eu-west',
        instance_id: 'bench',
        scheduled_at: new Date(t),
        started_at: new Date(t),
        received_at: new Date(t),
        ok,
        error_kind: ok ? null : 'http_status',
        error_message: ok ? null : 'expected status 200, got 503',
        response_time_ms: 40,
        status_code: ok ? 200 : 503,
        timings: null,
        tls_valid_to: null,
        domain_expires_at: null,
        dns_records: [],
        run_now_request_id: null,
      });
    }
    await store.recordResults(results, () => null);
    await store.putMonitorStates([
      {
        next: {
          monitor_id: id,
          location: '*',
          status: i < DOWN ? 'down' : 'up',
          consecutive_failures: i < DOWN ? 3 : 0,
          consecutive_successes: i < DOWN ? 0 : 3,
          consecutive_slow: 0,
          last_result_at: null,
          last_scheduled_at: null,
          version: 1,
        },
        expectedVersion: 0,
      },
    ]);
  }
  const page = await createStatusPage(
    store,
    workspace.id,
    {
      name: 'Bench status',
      slug: 'bench',
      components: ids.map((id, i) => ({
        name: `Service ${i + 1}`,
        group: `Group ${(i % 3) + 1}`,
        monitor_id: id,
      })),
    },
    new Date(),
    'localhost',
  );
  await createIncident(
    store,
    workspace.id,
    page.id,
    {
      title: 'Three services down',
      status: 'identified',
      message: 'A network partition in one region.',
      components: Object.fromEntries(page.components.slice(0, DOWN).map((c) => [c.id, 'major_outage'])),
    },
    new Date(),
    admin.id,
  );
  const key = (await createNamedKey(store, workspace, admin, { name: 'bench', expiry: 'none' }, new Date()))
    .value;
  await store.close();

  const cpChild = spawnPinned(
    1,
    [process.execPath, join(import.meta.dirname, 'dashboard-server.js'), 'full'],
    env,
  );
  const cpPort = Number((await waitLine(cpChild, /READY (\d+)/))[1]);
  const first = await new Promise((resolve, reject) => {
    request(
      {
        host: '127.0.0.1',
        port: cpPort,
        path: '/status/bench',
        headers: { host: 'bench.localhost', 'accept-encoding': 'gzip' },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, body: Buffer.concat(chunks), etag: res.headers.etag }),
        );
      },
    )
      .on('error', reject)
      .end();
  });
  const html = gunzipSync(first.body);
  if (first.status !== 200 || !html.includes('Partial System Outage'))
    throw new Error(`the page is not what the bench expects: ${first.status}`);
  const bytesFile = join(dir, 'page.html');
  writeFileSync(bytesFile, first.body);
  const bareChild = spawnPinned(
    1,
    [process.execPath, join(import.meta.dirname, 'status-bare-server.js'), bytesFile, first.etag],
    env,
  );
  const barePort = Number((await waitLine(bareChild, /READY (\d+)/))[1]);

  // Warm both, then alternate rounds.
  await crowd(cpPort, '/status/bench', 1, first.body.length);
  await crowd(barePort, '/', 1, first.body.length);
  const totals = { cp: { ok: 0, errors: 0 }, bare: { ok: 0, errors: 0 } };
  for (let r = 0; r < ROUNDS; r++)
    for (const [name, port, path] of r % 2
      ? [
          ['bare', barePort, '/'],
          ['cp', cpPort, '/status/bench'],
        ]
      : [
          ['cp', cpPort, '/status/bench'],
          ['bare', barePort, '/'],
        ]) {
      const c = await crowd(port, path, SECONDS, first.body.length);
      totals[name].ok += c.ok;
      totals[name].errors += c.errors;
      process.stdout.write(`${name}: ${c.rps.toFixed(0)} reads/s, ${c.errors} errors\n`);
    }
  const rps = (t) => t.ok / (ROUNDS * SECONDS);
  const ratio = rps(totals.cp) / rps(totals.bare);
  // Alone and with the crowd, alternating in slices, so that a burst of other work on the machine
  // lands on both about equally.
  const alone = [];
  const withCrowd = [];
  const paced = { ok: 0, errors: 0 };
  const SLICES = 4;
  for (let i = 0; i < SLICES; i++) {
    alone.push(...(await apiTimes(cpPort, key, API_REQUESTS / SLICES)));
    const stop = pacedCrowd(cpPort, '/status/bench', PACED_RATE);
    await sleep(300);
    withCrowd.push(...(await apiTimes(cpPort, key, API_REQUESTS / SLICES)));
    const p = await stop();
    paced.ok += p.ok;
    paced.errors += p.errors;
  }
  const apiAlone = summary(alone);
  const apiWithCrowd = summary(withCrowd);
  process.stdout.write(
    `ratio ${ratio.toFixed(2)}; API p99 alone ${apiAlone.p99.toFixed(1)} ms, with ${PACED_RATE} reads/s ${apiWithCrowd.p99.toFixed(1)} ms\n`,
  );

  for (const child of [cpChild, bareChild])
    await new Promise((resolve) => {
      child.on('exit', resolve);
      child.kill('SIGTERM');
    });
  rmSync(dir, { recursive: true, force: true });

  writeSection(
    'status',
    `### Public status page under a crowd (\`npm run bench -- status\`)

Run ${new Date().toISOString().slice(0, 10)} on ${machine()}.
Method: one SQLite store with a status page of ${COMPONENTS} components in 3 groups over ${COMPONENTS} monitors with 90 days of
hourly checks (stored through \`recordResults\`), ${DOWN} of them down and an open incident: the page during an
outage (${(html.length / 1024).toFixed(1)} kB of HTML, ${(first.body.length / 1024).toFixed(1)} kB gzipped as served: every client here asks for gzip, as browsers do). A control plane (\`npm start\`'s \`startControlPlane\`) and a bare
\`node:http\` server answering the same bytes with the same headers run side by side, both pinned to core 1; the
client, pinned to core 0, keeps ${CONNECTIONS} kept-alive connections busy (a new request as soon as the last
answer ends) for ${SECONDS} s per round, ${ROUNDS} rounds each, alternating which goes first, after a 1 s warm-up.
Then \`GET /api/v1/monitors?limit=20\` one at a time, ${API_REQUESTS} requests alone and ${API_REQUESTS} while ${CONNECTIONS}
connections read the page at ${PACED_RATE.toLocaleString('en')} reads/s in all, alternating in 4 slices.
Load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}.

| server | reads/s | errors |
|---|---:|---:|
| control plane, \`/status/{slug}\` | ${rps(totals.cp).toFixed(0)} | ${totals.cp.errors} |
| bare \`node:http\`, same bytes | ${rps(totals.bare).toFixed(0)} | ${totals.bare.errors} |

Ratio: **${ratio.toFixed(2)}×** bare \`node:http\` (goal ≥ 0.5×). The page is read from the store at most once per 5 s per
replica whatever the crowd (\`test/e2e/status-pages.test.ts\` counts the store calls); after the first reader a
public page is answered ahead of Koa from memory.

| API \`GET /monitors\` | p50 ms | p99 ms |
|---|---:|---:|
| alone | ${apiAlone.p50.toFixed(1)} | ${apiAlone.p99.toFixed(1)} |
| with ${PACED_RATE.toLocaleString('en')} page reads/s (${paced.ok.toLocaleString('en')} reads, ${paced.errors} errors) | ${apiWithCrowd.p50.toFixed(1)} | ${apiWithCrowd.p99.toFixed(1)} |

Goal: the API's p99 unchanged meanwhile. ${
      apiWithCrowd.p99 <= apiAlone.p99 * 1.1 ? 'Met in this run' : 'Not met in this run'
    }: p99 ${apiAlone.p99.toFixed(1)} → ${apiWithCrowd.p99.toFixed(1)} ms, p50 ${apiAlone.p50.toFixed(1)} → ${apiWithCrowd.p50.toFixed(1)} ms.
The readers share the control plane's one event loop (one core here) with the API: even answered from
memory, ${PACED_RATE.toLocaleString('en')} reads/s take a share of that core, and an API request waits behind them. A
deployment expecting crowds puts its proxy's or CDN's cache in front of \`/status/\` (every answer carries
an ETag and \`Cache-Control: public, max-age=5\`), or runs more replicas. On a machine shared with other work
(see the load average) the p99 of a few hundred requests also measures other processes' scheduling.`,
  );
};
