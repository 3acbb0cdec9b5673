// npm run bench -- sla-report: `GET /reports/sla` over 90 days on SQLite, for a workspace of 1,000
// monitors and for a group of 100 of them. The store holds 90 days of daily rollups per monitor (one
// location; written straight into `uptime_daily` in one transaction, each with a response-time
// histogram of ~12 buckets and some checks in maintenance) and 3 resolved `down` alerts per monitor
// (3,000) plus 10 open ones, all through the store. The control plane is the real one
// (dashboard-server.js) pinned to core 1; the requests alternate, ROUNDS rounds after a warm-up, median
// and worst of each. Baseline in the same run: the same rows read by a bare query (better-sqlite3,
// decoding each histogram) in the bench process, and through the port the report reads them with
// (ResultStore.dailyRollups), to tell the read from the figuring. Goal: the report in under a second.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { newId } from '@lookout/shared';
import Database from 'better-sqlite3';
import { loadConfig } from '../../control-plane/dist/config.js';
import { createNamedKey } from '../../control-plane/dist/domain/access/api-keys.js';
import { decodeCounts, encodeCounts } from '../../control-plane/dist/domain/results/latency-histogram.js';
import { openStore } from '../../control-plane/dist/store/open-store.js';
import { machine, onePerLine, writeSection } from './report.js';
import { benchMonitor, benchStore, linux, spawnPinned, waitLine } from './support.js';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const GROUP = 100;
const DAYS = 90;
const ROUNDS = Number(process.env.ROUNDS ?? 9);
const DAY = 86_400_000;

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
          const raw = Buffer.concat(chunks).toString();
          if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode} ${raw}`));
          else resolve({ ms, body: JSON.parse(raw) });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${ms.toFixed(1)} ms`;

export const run = async (args = []) => {
  if (linux) spawnSync('taskset', ['-p', '-c', '0', String(process.pid)]);
  const dry = args.includes('--dry-run');
  const { dir, env, store, workspace, admin, policy } = await benchStore('sla-report');
  const ws = workspace.id;
  const now = new Date();
  const today = now.getTime() - (now.getTime() % DAY);
  const from = today - (DAYS - 1) * DAY;
  const groupId = newId();
  await store.insertGroup(
    { id: groupId, workspace_id: ws, name: 'Payments', created_at: now, updated_at: now },
    { maxGroups: 1000 },
  );
  const ids = [];
  for (let i = 0; i < MONITORS; i++) {
    const id = newId();
    ids.push(id);
    await store.insertMonitor(
      {
        ...benchMonitor(id, ws, policy.id, i, 60, 9, ['eu-west'], now),
        settings: { max_redirects: 5, assertions: [] },
        group_id: i < GROUP ? groupId : null,
      },
      { maxMonitors: 1_000_000 },
    );
  }
  // Alerts: 3 resolved outages per monitor in the 90 days, and 10 still open.
  for (const [i, id] of ids.entries())
    for (let k = 0; k < 3 + (i % 100 === 0 ? 1 : 0); k++) {
      const created = new Date(from + ((i * 7 + k * 29) % (DAYS - 1)) * DAY + ((i * 13) % 24) * 3_600_000);
      const open = k === 3;
      await store.raiseAlert({
        id: newId(),
        workspace_id: ws,
        source_type: 'monitor',
        source_id: id,
        cause: 'down',
        dedup_key: '',
        title: `m${i} is down`,
        description: null,
        severity: 'critical',
        status: open ? 'open' : 'resolved',
        escalation_policy_id: null,
        created_at: created,
        updated_at: created,
        acknowledged_at: open ? null : new Date(created.getTime() + 120_000),
        acknowledged_by: null,
        resolved_at: open ? null : new Date(created.getTime() + (5 + (i % 40)) * 60_000),
        resolved_by: open ? null : { type: 'system' },
        escalation: null,
        escalation_due_at: null,
        held_back: 0,
      });
    }
  const key = (await createNamedKey(store, workspace, admin, { name: 'bench', expiry: 'none' }, now)).value;
  await store.close();

  // 90 days of daily rollups per monitor, straight into the table (one transaction).
  const db = new Database(join(dir, 'lookout.db'));
  const insert = db.prepare(
    `INSERT INTO uptime_daily (monitor_id, day, location, workspace_id, total, ok, response_ms_sum, maint_total, maint_ok, latency)
     VALUES (?, ?, 'eu-west', ?, 1440, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (const [i, id] of ids.entries())
      for (let d = 0; d < DAYS; d++) {
        const counts = new Map();
        for (let b = 0; b < 12; b++) counts.set(200 + b * 3 + (i % 5), 100 + ((i + d + b) % 30));
        const ok = 1440 - ((i + d) % 7);
        const maint = d % 30 === 0 ? 60 : 0;
        insert.run(id, from + d * DAY, ws, ok, ok * 80, maint, maint, Buffer.from(encodeCounts(counts)));
      }
  })();
  const rows = db.prepare('SELECT count(*) n FROM uptime_daily').get().n;
  db.close();

  const child = spawnPinned(
    1,
    [process.execPath, join(import.meta.dirname, 'dashboard-server.js'), 'full'],
    env,
  );
  const port = Number((await waitLine(child, /READY (\d+)/))[1]);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const day = (t) => new Date(t).toISOString().slice(0, 10);
  const period = `from=${day(from)}&to=${day(today)}`;
  const paths = {
    workspace: `/api/v1/reports/sla?${period}`,
    group: `/api/v1/reports/sla?group_id=${groupId}&${period}`,
  };
  const bare = new Database(join(dir, 'lookout.db'), { readonly: true });
  const bareRead = bare.prepare(
    'SELECT monitor_id, day, total, ok, maint_total, maint_ok, latency FROM uptime_daily WHERE workspace_id = ? AND day >= ? AND day < ?',
  );
  const bareQuery = () => {
    const t0 = performance.now();
    let n = 0;
    for (const r of bareRead.iterate(ws, from, today + DAY)) {
      decodeCounts(r.latency);
      n++;
    }
    if (n !== MONITORS * DAYS) throw new Error(`bare read ${n} rows`);
    return performance.now() - t0;
  };
  // The port the report reads its rows through, in this process: how much of the report is the read.
  const reader = await openStore(loadConfig(env));
  const portRead = async () => {
    const t0 = performance.now();
    const got = await reader.dailyRollups(ws, ids, from, today + DAY);
    if (got.length !== MONITORS * DAYS) throw new Error(`dailyRollups read ${got.length} rows`);
    return performance.now() - t0;
  };
  const times = { workspace: [], group: [], bare: [], port: [] };
  let sample;
  for (let round = -2; round < ROUNDS; round++) {
    const w = await get(agent, port, paths.workspace, key);
    const g = await get(agent, port, paths.group, key);
    const b = bareQuery();
    const p = await portRead();
    if (w.body.monitors.length !== MONITORS || g.body.monitors.length !== GROUP)
      throw new Error(`monitors: ${w.body.monitors.length}, ${g.body.monitors.length}`);
    sample = w.body;
    if (round < 0) continue;
    times.workspace.push(w.ms);
    times.group.push(g.ms);
    times.bare.push(b);
    times.port.push(p);
  }
  agent.destroy();
  bare.close();
  await reader.close();
  await new Promise((resolve) => {
    child.on('exit', resolve);
    child.kill('SIGTERM');
  });
  rmSync(dir, { recursive: true, force: true });
  const worst = (xs) => Math.max(...xs);
  const body = onePerLine(`### SLA report (\`npm run bench -- sla-report\`)
Run ${new Date().toISOString().slice(0, 16)} UTC, ${machine()}, load ${loadavg()[0].toFixed(1)} (shared box); \`test/bench/sla-report.js\` (its header): ${MONITORS} monitors × ${DAYS} days of daily rollups (${rows} rows with histograms), ${sample.incident_count} incidents, the real control plane pinned to core 1, ${ROUNDS} rounds after 2 of warm-up. **\`GET /reports/sla\` over ${DAYS} days: the workspace (${MONITORS} monitors) ${fmt(median(times.workspace))} median (worst ${fmt(worst(times.workspace))}), a group of ${GROUP} ${fmt(median(times.group))} (worst ${fmt(worst(times.group))})** (goal < 1 s). Baseline, same run: the same ${MONITORS * DAYS} rows read by a bare query with their histograms decoded, ${fmt(median(times.bare))} median: the whole report costs ${(median(times.workspace) / median(times.bare)).toFixed(1)} × reading its rows; the same rows through \`ResultStore.dailyRollups\` (the report's read: a row per location and day, summed in JavaScript) ${fmt(median(times.port))}.`);
  process.stdout.write(`${body}\n`);
  if (!dry) writeSection('sla-report', body);
};
