// npm run bench -- dashboard: GET /monitors?limit=100 for the dashboard (status, uptime over 24 h and
// 30 d, last response time, the 30 newest checks) on SQLite, 1,000 monitors in two regions with 30
// days of results stored through the ingestion step (recordResults), so the hourly rollups are the
// real ones. Measured against the same list without the checks summary, in the same run.
// BENCH_CPU_PROF_DIR=DIR: the full list's server is CPU-profiled (node --cpu-prof) into DIR.
// First, the 100,000-monitor part (dashboard-scale.js): a page sorted by status and the counts against
// the same page in creation order.
import { spawnSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createNamedKey } from '../../control-plane/dist/domain/access/api-keys.js';
import { runScale } from './dashboard-scale.js';
import { machine, onePerLine, writeSection } from './report.js';
import { countingStep } from './store-step.js';
import { benchStore, insertMonitors, linux, spawnPinned, waitLine } from './support.js';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const DAYS = 30;
/** Minutes between the stored checks of a monitor in each region (see the section written below). */
const EVERY_MIN = Number(process.env.BENCH_HISTORY_MINUTES ?? 30);
const REGIONS = ['eu-west', 'us-east'];
const PAGE = 100;
const WARM_SWEEPS = 3;
const SWEEPS = Number(process.env.BENCH_SWEEPS ?? 40);
const HOUR = 3_600_000;

/** A monitor's results over the history: ~2% failures, every 100th monitor down for its last 3 hours. */
const historyOf = (ws, id, i, from, to) => {
  const step = EVERY_MIN * 60_000;
  const phase = ((i * 7919) % (EVERY_MIN * 60)) * 1000;
  const out = [];
  let slot = 0;
  for (let t = from - (from % step) + phase; t < to; t += step, slot++) {
    for (const location of REGIONS) {
      const ok = (slot + i) % 50 !== 0 && !(i % 100 === 0 && t > to - 3 * HOUR);
      const ms = 20 + ((slot * 13 + i) % 180);
      out.push({
        id: `${id}:${location}:${t}`,
        workspace_id: ws,
        monitor_id: id,
        monitor_version: 1,
        location,
        instance_id: `bench-${location}`,
        scheduled_at: new Date(t),
        started_at: new Date(t),
        received_at: new Date(t + 1000),
        ok,
        error_kind: ok ? null : 'http_status',
        error_message: ok ? null : 'expected status 200, got 503',
        response_time_ms: ms,
        status_code: ok ? 200 : 503,
        timings: { dns_ms: 1, connect_ms: 2, tls_ms: 5, first_byte_ms: ms - 4, total_ms: ms },
        tls_valid_to: null,
        domain_expires_at: null,
        dns_records: [],
        run_now_request_id: null,
      });
    }
  }
  return out;
};

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** GETs `path` on a kept-alive connection; resolves with the elapsed ms and the parsed body. */
const get = (agent, port, path, key) =>
  new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(
      { agent, host: '127.0.0.1', port, path, headers: { host: 'bench.localhost', 'x-api-key': key } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const ms = performance.now() - t0;
          const raw = Buffer.concat(chunks);
          if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode} ${raw}`));
          else resolve({ ms, body: JSON.parse(raw.toString()), bytes: raw.length });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });

/** One pass over every page of the list; returns each request's time, the monitors seen and bytes. */
const sweep = async (agent, port, key) => {
  const times = [];
  let cursor = null;
  let seen = 0;
  let bytes = 0;
  let sample = null;
  do {
    const r = await get(
      agent,
      port,
      `/api/v1/monitors?limit=${PAGE}&sort=name${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      key,
    );
    times.push(r.ms);
    seen += r.body.data.length;
    bytes += r.bytes;
    sample ??= r.body.data[1];
    cursor = r.body.next_cursor;
  } while (cursor);
  return { times, seen, bytes, sample };
};

export const run = async () => {
  // BENCH_DASHBOARD=scale|history: one part only (default both, the 100,000-monitor part first).
  const parts = (process.env.BENCH_DASHBOARD ?? 'scale,history').split(',');
  if (parts.includes('scale')) await runScale();
  if (parts.includes('history')) await runHistory();
};

const runHistory = async () => {
  if (linux) spawnSync('taskset', ['-p', '-c', '0', String(process.pid)]);
  const { dir, env, store, workspace, admin, policy } = await benchStore('dashboard');
  const setup0 = performance.now();
  const ids = await insertMonitors(store, workspace.id, policy.id, MONITORS, 60, 9, 0, REGIONS);
  const now = Date.now();
  // 30 days back, less an hour: nothing is old enough for the retention job to prune meanwhile.
  const from = now - DAYS * 24 * HOUR + HOUR;
  let stored = 0;
  for (const [i, id] of ids.entries()) {
    const history = historyOf(workspace.id, id, i, from, now);
    // Each location's state moves with its results (the state book's log), as ingestion moves it.
    stored += (await store.recordResults(history, countingStep)).stored.length;
    const last = history.at(-1);
    // The monitor-level row, the one putMonitorStates writes.
    await store.putMonitorStates([
      {
        next: {
          monitor_id: id,
          location: '*',
          status: last.ok ? 'up' : 'down',
          consecutive_failures: last.ok ? 0 : 3,
          consecutive_successes: last.ok ? 3 : 0,
          consecutive_slow: 0,
          last_result_at: null,
          last_scheduled_at: null,
          version: 1,
        },
        expectedVersion: 0,
      },
    ]);
    if (i % 100 === 99) process.stdout.write(`history: ${i + 1} monitors, ${stored} results\n`);
  }
  const key = (await createNamedKey(store, workspace, admin, { name: 'bench', expiry: 'none' }, new Date()))
    .value;
  await store.close();
  const setupS = (performance.now() - setup0) / 1000;
  const db = new Database(join(dir, 'lookout.db'), { readonly: true });
  const rollups = db.prepare('SELECT count(*) n FROM uptime_rollups').get().n;
  const daily = db.prepare('SELECT count(*) n FROM uptime_daily').get().n;
  db.close();
  const fileMiB = statSync(join(dir, 'lookout.db')).size / 2 ** 20;
  process.stdout.write(
    `setup ${setupS.toFixed(0)} s: ${stored} results, ${rollups} hourly and ${daily} daily buckets, ${fileMiB.toFixed(0)} MiB\n`,
  );

  // Two control planes on the same file, both pinned to core 1; requests alternate between them.
  const servers = {};
  for (const variant of ['full', 'bare']) {
    // BENCH_CPU_PROF_DIR: the full list's server writes a CPU profile there when it stops.
    const prof = process.env.BENCH_CPU_PROF_DIR;
    const flags = prof && variant === 'full' ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [];
    const child = spawnPinned(
      1,
      [process.execPath, ...flags, join(import.meta.dirname, 'dashboard-server.js'), variant],
      env,
    );
    servers[variant] = { child, port: Number((await waitLine(child, /READY (\d+)/))[1]) };
  }
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times = { full: [], bare: [] };
  const pageBytes = {};
  let sample = null;
  for (let s = 0; s < WARM_SWEEPS + SWEEPS; s++) {
    for (const variant of s % 2 ? ['full', 'bare'] : ['bare', 'full']) {
      const r = await sweep(agent, servers[variant].port, key);
      if (r.seen !== MONITORS) throw new Error(`${variant}: listed ${r.seen} of ${MONITORS} monitors`);
      if (s >= WARM_SWEEPS) times[variant].push(...r.times);
      pageBytes[variant] = r.bytes / r.times.length;
      if (variant === 'full') sample = r.sample;
    }
  }
  agent.destroy();
  for (const { child } of Object.values(servers))
    await new Promise((resolve) => {
      child.on('exit', resolve);
      child.kill('SIGTERM');
    });
  rmSync(dir, { recursive: true, force: true });
  if (sample.uptime_30d === null || sample.recent_checks.length !== 30)
    throw new Error(`the full list lacks its checks summary: ${JSON.stringify(sample)}`);

  const stats = (xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return {
      n: sorted.length,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted.at(-1),
    };
  };
  const full = stats(times.full);
  const bare = stats(times.bare);
  const row = (label, r, bytes) =>
    `| ${label} | ${r.n} | ${r.p50.toFixed(1)} | ${r.p90.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ${(bytes / 1024).toFixed(0)} |`;
  process.stdout.write(
    `${row('with checks', full, pageBytes.full)}\n${row('without', bare, pageBytes.bare)}\n`,
  );
  const perRegionDay = (24 * 60) / EVERY_MIN;
  writeSection(
    'dashboard',
    onePerLine(`### Monitor list for the dashboard (\`npm run bench -- dashboard\`)

Run ${new Date().toISOString().slice(0, 10)} on ${machine()}.
Method: ${MONITORS.toLocaleString('en')} monitors in two regions on one SQLite file, with ${DAYS} days of results
stored through the ingestion step (\`recordResults\`, one transaction per monitor's history), so the hourly
uptime rollups are the ones ingestion keeps: ${stored.toLocaleString('en')} results (one check every ${EVERY_MIN} min
per region, ${perRegionDay} a day; ~2% failures, every 100th monitor down for its last 3 hours),
${rollups.toLocaleString('en')} hourly and ${daily.toLocaleString('en')} daily buckets, a ${fileMiB.toFixed(0)} MiB file, built in ${setupS.toFixed(0)} s.
Then two control planes on that file, both pinned to core 1: one serving the list as the API does, one
with the checks summary switched off inside the store (\`checks: false\`, internal; statuses still
derived). A client pinned to core 0 pages through all ${MONITORS.toLocaleString('en')} monitors with
\`GET /api/v1/monitors?limit=${PAGE}\` (one kept-alive connection, one request at a time), alternating between
the two servers sweep by sweep; ${WARM_SWEEPS} warm-up sweeps each, then ${SWEEPS}. Times are per request, at the client.
Load average at the end of the run: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} (1, 5 and 15 minutes).

| list | requests | p50 ms | p90 ms | p99 ms | max ms | kB per page |
|---|---:|---:|---:|---:|---:|---:|
${row('status + uptime 24 h / 30 d + last response time + 30 recent checks', full, pageBytes.full)}
${row('status only (same list, checks summary off)', bare, pageBytes.bare)}

Design target: p99 ≤ 100 ms with status and uptime.

Why checks every ${EVERY_MIN} min and not every minute: what a page reads does not grow with the number
of results. Uptime reads, per monitor and region, the daily buckets of the whole days in the 30 days
and the hourly buckets around them (~30 + ≤ 47), whatever the interval. The recent checks walk the
(monitor_id, scheduled_at) index and stop after 30 rows per monitor; a denser history only deepens that
B-tree by a level. A 1-minute interval for 30 days (86 M results here) would take hours to build and
tens of GB, and change neither read. What the summary adds per page is the uptime buckets (~8 ms) and
the 3,000 recent checks (~4 ms read as arrays, twice that as row objects; their SQL alone ~1 ms), and
four times the JSON (the pinned shape: ISO time, ok, location, response time).`),
  );
};
