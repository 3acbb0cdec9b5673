// One run of the result store's reads (test/bench/store.js --reads starts it, once per tree): a store
// shaped like N monitors in two locations at 60 s, HISTORY minutes of results already flushed (folded)
// and RECENT minutes stored since (waiting), then the dashboard's page of 100 monitors, one monitor's
// status and one monitor's newest 50 results, 200 times each: p50 and p99 in ms; then the CPU of one
// flush of the RECENT minutes. Env: TREE (checkout whose control-plane/dist to load), N, HISTORY,
// RECENT, DIR. Prints one JSON line.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { flushResults, upStep } from './store-step.js';

const N = Number(process.env.N ?? 50_000);
const HISTORY = Number(process.env.HISTORY ?? 20);
const RECENT = Number(process.env.RECENT ?? 5);
const { createSqliteStore } = await import(
  pathToFileURL(join(process.env.TREE, 'control-plane', 'dist', 'store', 'sqlite', 'sqlite-store.js')).href
);
const dir = join(process.env.DIR, `reads-${process.pid}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const path = join(dir, 'bench.db');
const never = () => () => {};
const store = createSqliteStore({ path, rollups: { schedule: never } });
await store.init();

// The monitors, written straight into the file (their rows are all the reads need of them).
const ws = 'ws-bench';
const raw = new Database(path);
raw
  .prepare(
    "INSERT INTO workspaces (id, subdomain, name, plan, created_at) VALUES (?, 'bench', 'bench', 'team', 0)",
  )
  .run(ws);
const insert = raw.prepare(
  `INSERT INTO monitors (id, workspace_id, display_name, monitor_type, url, paused, created_at, updated_at,
     check_interval_seconds, version, check_locations) VALUES (?, ?, ?, 'http', 'http://x/', 0, ?, ?, 60, 1, '["eu","us"]')`,
);
const ids = [];
raw.transaction(() => {
  for (let i = 0; i < N; i++) {
    const id = `${String(i).padStart(8, '0')}-4b1d-4c0e-9a7f-000000000000`;
    ids.push(id);
    insert.run(id, ws, `m${i}`, i, i);
  }
})();
raw.close();

const T0 = Date.now() - (HISTORY + RECENT + 1) * 60_000;
const step = upStep;
/** One minute of results: each monitor once per location, at its own second. */
const minute = async (m) => {
  for (let from = 0; from < N; from += 1000) {
    const batch = [];
    for (let i = from; i < Math.min(N, from + 1000); i++) {
      for (const location of ['eu', 'us']) {
        const at = new Date(T0 + m * 60_000 + (i % 60) * 1000);
        batch.push({
          id: `${ids[i]}:${location}:${at.getTime()}`,
          workspace_id: ws,
          monitor_id: ids[i],
          monitor_version: 1,
          location,
          instance_id: 'agent',
          scheduled_at: at,
          started_at: at,
          received_at: at,
          ok: i % 7 !== 0,
          error_kind: null,
          error_message: null,
          response_time_ms: 12,
          status_code: 200,
          timings: null,
          tls_valid_to: null,
          domain_expires_at: null,
          dns_records: [],
          run_now_request_id: null,
        });
      }
    }
    await store.recordResults(batch, step);
  }
};
for (let m = 0; m < HISTORY; m++) await minute(m);
await flushResults(store); // the flush: history folded into the buckets
for (let m = HISTORY; m < HISTORY + RECENT; m++) await minute(m);

const timed = async (fn, n = 200) => {
  const ts = [];
  for (let k = 0; k < n; k++) {
    const t = performance.now();
    await fn(k);
    ts.push(performance.now() - t);
  }
  ts.sort((a, b) => a - b);
  return { p50: ts[n >> 1], p99: ts[Math.floor(n * 0.99)] };
};
const now = new Date();
const out = {
  list: await timed(() => store.listMonitorsWithStatus(ws, { limit: 100 }, now)),
  status: await timed((k) => store.getMonitorStatuses(ws, [ids[(k * 997) % N]], now)),
  history: await timed((k) => store.listResults(ws, ids[(k * 991) % N], { limit: 50 })),
};
const cpu = process.cpuUsage();
await flushResults(store);
const c = process.cpuUsage(cpu);
out.flush_us_per_result = (c.user + c.system) / (N * 2 * RECENT);
// The process's memory after it all: SQLite's page cache is part of it.
out.rss_mb = Math.round(process.memoryUsage().rss / 2 ** 20);
process.stdout.write(`${JSON.stringify(out)}\n`);
rmSync(dir, { recursive: true, force: true });
process.exit(0);
