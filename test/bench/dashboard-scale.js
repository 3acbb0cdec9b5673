// The 100,000-monitor part of `npm run bench -- dashboard`: a page of GET /monitors sorted by status
// (the default) and GET /monitors/counts, against the same page in creation order (newest first, the
// list's order before it sorted by status: the store's internal `sort: 'created'`), in the same run,
// on the same file, each served by its own control plane of the same kind, requests alternating. No
// 30-day history here (the 1,000-monitor part measures the checks summary over one): every monitor has
// its verdict, a realistic mix, and the list still reads its (empty) checks summary.
import { spawnSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { newId } from '@lookout/shared';
import { createNamedKey } from '../../control-plane/dist/domain/access/api-keys.js';
import { machine, onePerLine, writeSection } from './report.js';
import { benchMonitor, benchStore, linux, spawnPinned, waitLine } from './support.js';

const MONITORS = Number(process.env.BENCH_SCALE_MONITORS ?? 100_000);
const PAGE = 100;
const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 300);
const WARM = 20;
const HOUR = 3_600_000;

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const stats = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
  };
};

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
          else resolve({ ms, body: JSON.parse(raw.toString()) });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });

/** The status of monitor i in the mix: 2% down, 3% pending (1% never checked), 1% paused, else up. */
const mixOf = (i) => {
  const r = (i * 7919) % 100;
  return r < 2 ? 'down' : r < 5 ? 'pending' : r < 6 ? 'paused' : 'up';
};

export const runScale = async () => {
  if (linux) spawnSync('taskset', ['-p', '-c', '0', String(process.pid)]);
  const { dir, env, store, workspace, admin, policy } = await benchStore('dashboard-scale');
  const setup0 = performance.now();
  const now = new Date();
  const ids = [];
  const BATCH = 1000;
  for (let from = 0; from < MONITORS; from += BATCH) {
    const batch = [];
    for (let i = from; i < Math.min(MONITORS, from + BATCH); i++) {
      const id = newId();
      ids.push(id);
      // Names in no particular order against creation: a service and a number.
      const name = `${['api', 'web', 'db', 'cache', 'queue', 'mail'][i % 6]}-${(i * 7919) % MONITORS}`;
      batch.push({
        ...benchMonitor(id, workspace.id, policy.id, i, 60, 9, ['eu-west', 'us-east'], now),
        display_name: name,
        paused: mixOf(i) === 'paused',
      });
    }
    if ((await store.insertMonitors(batch, { maxMonitors: 1_000_000 })) !== 'inserted')
      throw new Error('insertMonitors refused the batch');
    // Each verdict as ingestion writes it: the monitor-level row by compare-and-set, a batch at once.
    const writes = batch
      .map((m, k) => ({ m, s: mixOf(from + k) }))
      .filter(({ s }, k) => !(s === 'pending' && (from + k) % 3 === 0))
      .map(({ m, s }, k) => ({
        next: {
          monitor_id: m.id,
          location: '*',
          status: s === 'down' ? 'down' : s === 'pending' ? 'unknown' : 'up',
          consecutive_failures: 0,
          consecutive_successes: 0,
          consecutive_slow: 0,
          last_result_at: new Date(now.getTime() - ((from + k) % 1000) * 60_000),
          last_scheduled_at: null,
          version: 1,
        },
        expectedVersion: 0,
      }));
    await store.putMonitorStates(writes);
  }
  // One maintenance window, over one monitor that is down.
  const inMaintenance = ids.find((_, i) => mixOf(i) === 'down');
  await store.insertMaintenanceWindow({
    id: newId(),
    workspace_id: workspace.id,
    name: 'db upgrade',
    scope_type: 'monitor',
    scope_id: inMaintenance,
    starts_at: new Date(now.getTime() - HOUR),
    ends_at: new Date(now.getTime() + 24 * HOUR),
    schedule: null,
    timezone: null,
    duration_seconds: null,
    created_at: now,
  });
  const key = (await createNamedKey(store, workspace, admin, { name: 'bench', expiry: 'none' }, new Date()))
    .value;
  await store.close();
  const setupS = (performance.now() - setup0) / 1000;
  const fileMiB = statSync(join(dir, 'lookout.db')).size / 2 ** 20;
  process.stdout.write(
    `scale setup ${setupS.toFixed(0)} s: ${MONITORS} monitors, ${fileMiB.toFixed(0)} MiB\n`,
  );

  const servers = {};
  for (const variant of ['full', 'created']) {
    const child = spawnPinned(
      1,
      [process.execPath, join(import.meta.dirname, 'dashboard-server.js'), variant],
      env,
    );
    servers[variant] = { child, port: Number((await waitLine(child, /READY (\d+)/))[1]) };
  }
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const page = (variant, cursor, extra = '') =>
    get(
      agent,
      servers[variant].port,
      `/api/v1/monitors?limit=${PAGE}${extra}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      key,
    );

  // Every page's cursor in both orders, by one walk each (and a check of the order and the count).
  const cursors = { full: [null], created: [null] };
  const order = [];
  for (const variant of ['full', 'created']) {
    let seen = 0;
    for (let c = null; ; ) {
      const r = await page(variant, c);
      seen += r.body.data.length;
      if (variant === 'full') order.push(...r.body.data.map((m) => m.status));
      if (!r.body.next_cursor) break;
      c = r.body.next_cursor;
      cursors[variant].push(c);
    }
    if (seen !== MONITORS) throw new Error(`${variant}: listed ${seen} of ${MONITORS}`);
  }
  const rank = ['down', 'pending', 'maintenance', 'paused', 'up'];
  for (let i = 1; i < order.length; i++)
    if (rank.indexOf(order[i]) < rank.indexOf(order[i - 1])) throw new Error(`status order broken at ${i}`);
  const counts = (await get(agent, servers.full.port, '/api/v1/monitors/counts', key)).body;
  if (counts.total !== MONITORS || counts.maintenance !== 1)
    throw new Error(`counts: ${JSON.stringify(counts)}`);

  // Alternating: a page at a random depth in status order, the same depth in creation order, the counts,
  // and the first page of one of the other orders, round by round.
  const times = { status: [], created: [], counts: [], name: [], last_change: [], response_time: [] };
  const others = ['name', 'last_change', 'response_time'];
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let r = 0; r < WARM + ROUNDS; r++) {
    const at = Math.floor(random() * cursors.full.length);
    const steps = [
      async () => ['status', (await page('full', cursors.full[at])).ms],
      async () => ['created', (await page('created', cursors.created[at])).ms],
      async () => ['counts', (await get(agent, servers.full.port, '/api/v1/monitors/counts', key)).ms],
      async () => {
        const sort = others[r % 3];
        return [sort, (await page('full', null, `&sort=${sort}`)).ms];
      },
    ];
    if (r % 2) steps.reverse();
    for (const step of steps) {
      const [what, ms] = await step();
      if (r >= WARM) times[what].push(ms);
    }
  }
  agent.destroy();
  for (const { child } of Object.values(servers))
    await new Promise((resolve) => {
      child.on('exit', resolve);
      child.kill('SIGTERM');
    });
  rmSync(dir, { recursive: true, force: true });

  const s = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, stats(v)]));
  const row = (label, x) =>
    `| ${label} | ${x.n} | ${x.p50.toFixed(1)} | ${x.p90.toFixed(1)} | ${x.p99.toFixed(1)} |`;
  const rows = [
    row('`GET /monitors?limit=100`, by status (default), a page at a random depth', s.status),
    row('the same page in creation order (baseline)', s.created),
    row('`GET /monitors/counts`', s.counts),
    row('first page, `sort=name`', s.name),
    row('first page, `sort=last_change`', s.last_change),
    row('first page, `sort=response_time`', s.response_time),
  ].join('\n');
  process.stdout.write(`${rows}\n`);
  const ratio = (a, b) => (a / b).toFixed(2);
  writeSection(
    'dashboard-scale',
    onePerLine(`### Monitor list at 100,000 monitors (\`npm run bench -- dashboard\`)

Run ${new Date().toISOString().slice(0, 10)} on ${machine()}.
Method: ${MONITORS.toLocaleString('en')} monitors in one workspace on one SQLite file (built in ${setupS.toFixed(0)} s, ${fileMiB.toFixed(0)} MiB),
each with its verdict written as ingestion writes it (\`putMonitorStates\`): 2% down, 3% pending (a third of them
never checked), 1% paused, the rest up, one maintenance window over one monitor. No check history (the
1,000-monitor section measures the checks summary over 30 days; here the list still reads it, empty).
Two control planes of the same kind on that file, both pinned to core 1: one as the API serves the list,
one serving it in creation order, newest first (the order before the list sorted by status, the store's
internal \`sort: 'created'\`). A client pinned to core 0 first walks every page of both (checking the status
order and the counts), then for ${ROUNDS} rounds (after ${WARM} of warm-up), on one kept-alive connection, one
request at a time, in alternating order: a page at a random depth by status, the same depth in creation
order, the counts, and the first page of one of the other orders in turn. Times per request, at the client.
Load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}.

| request | n | p50 ms | p90 ms | p99 ms |
|---|---:|---:|---:|---:|
${rows}

Ratio to the creation-order baseline: p50 ${ratio(s.status.p50, s.created.p50)} ×, p99 ${ratio(s.status.p99, s.created.p99)} ×.
Design target: a page by status at p99 ≤ 100 ms, the counts too. \`response_time\` probes each monitor's
newest hourly bucket and sorts: its cost grows with the workspace (docs/decisions.md, "The monitor list's
orders").`),
  );
};
