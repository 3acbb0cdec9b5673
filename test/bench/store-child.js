// One run of the result store's ingestion shape (test/bench/store.js starts it, once per tree and
// shape): MONITORS monitors in two locations, one check each per INTERVAL seconds of simulated time
// with phases spread as the agents spread them, stored through recordResults in batches of one tenth of
// a second's results (ten commits per second, as group commit makes of two agents' reports), with the
// uptime flush and the states' snapshot run (pruneResults runs both, deleting nothing here) every
// FLUSH_S simulated seconds. After WARM simulated minutes of history, RUN minutes are measured: CPU of
// this process and bytes it wrote (/proc/self/io wchar: the WAL) per result.
// Env: TREE (checkout whose control-plane/dist to load), MONITORS, INTERVAL, WARM, RUN, FLUSH_S, DIR.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { flushResults, upStep } from './store-step.js';

const env = (name, def) => Number(process.env[name] ?? def);
const TREE = process.env.TREE;
const MONITORS = env('MONITORS', 20_000);
const INTERVAL_MS = env('INTERVAL', 20) * 1000;
const WARM = env('WARM', 5);
const RUN = env('RUN', 5);
const FLUSH_S = env('FLUSH_S', 60);
const LOCATIONS = ['eu-west', 'us-east'];
const PER_S = 10;

const { createSqliteStore } = await import(
  pathToFileURL(join(TREE, 'control-plane', 'dist', 'store', 'sqlite', 'sqlite-store.js')).href
);
const dir = join(process.env.DIR, `store-${process.pid}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
// Timers never fire on their own: the run triggers the flush on simulated time.
const never = () => () => {};
const store = createSqliteStore({
  path: join(dir, 'bench.db'),
  rollups: { schedule: never },
});
await store.init();

const id = (i) =>
  `${String(i).padStart(8, '0')}-4b1d-4c0e-9a7f-${String((i * 7919) % 1e12).padStart(12, '0')}`;
const slots = [];
for (let i = 0; i < MONITORS; i++) {
  for (const [k, location] of LOCATIONS.entries()) {
    // phase = hash(monitor, location) mod interval, as the agents' timers (agent/src/phase.ts).
    slots.push({ monitor: id(i), location, phase: ((i * 2654435761 + k * 97531) >>> 0) % INTERVAL_MS });
  }
}
slots.sort((a, b) => a.phase - b.phase);
const perBatch = Math.max(1, Math.round((slots.length * 1000) / INTERVAL_MS / PER_S));
const T0 = Date.UTC(2026, 10, 1);
let cursor = 0;
let cycle = 0;
const nextBatch = () => {
  const out = [];
  for (let k = 0; k < perBatch; k++) {
    const s = slots[cursor];
    const at = new Date(T0 + cycle * INTERVAL_MS + s.phase);
    out.push({
      id: `${s.monitor}:${s.location}:${at.getTime()}`,
      workspace_id: 'ws-bench',
      monitor_id: s.monitor,
      monitor_version: 1,
      location: s.location,
      instance_id: `agent-${s.location}`,
      scheduled_at: at,
      started_at: at,
      received_at: at,
      ok: true,
      error_kind: null,
      error_message: null,
      response_time_ms: 12,
      status_code: 200,
      timings: { dns_ms: 0, connect_ms: 1, tls_ms: 0, first_byte_ms: 5, total_ms: 12 },
      tls_valid_to: null,
      domain_expires_at: null,
      dns_records: [],
      run_now_request_id: null,
    });
    if (++cursor === slots.length) {
      cursor = 0;
      cycle++;
    }
  }
  return out;
};
const step = upStep;
const written = () => Number(/wchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))[1]);
const flushEvery = FLUSH_S * PER_S;
let commits = 0;
/** CPU µs spent in recordResults and in the flush (pruneResults), apart. */
const spent = { ingest: 0, flush: 0 };
const timed = async (key, fn) => {
  const t = process.cpuUsage();
  await fn();
  const d = process.cpuUsage(t);
  spent[key] += d.user + d.system;
};
const commit = async () => {
  const batch = nextBatch();
  await timed('ingest', () => store.recordResults(batch, step));
  if (++commits % flushEvery === 0) await timed('flush', () => flushResults(store));
};

for (let c = 0; c < WARM * 60 * PER_S; c++) await commit();
const cpu0 = process.cpuUsage();
spent.ingest = 0;
spent.flush = 0;
const w0 = written();
const runCommits = RUN * 60 * PER_S;
for (let c = 0; c < runCommits; c++) await commit();
const cpu = process.cpuUsage(cpu0);
const results = runCommits * perBatch;
process.stdout.write(
  `${JSON.stringify({
    results,
    cpu_ms_per_1000: ((cpu.user + cpu.system) / 1000 / results) * 1000,
    bytes_per_result: (written() - w0) / results,
    ingest_ms_per_1000: (spent.ingest / 1000 / results) * 1000,
    flush_ms_per_1000: (spent.flush / 1000 / results) * 1000,
  })}\n`,
);
// Nothing after the window is measured: leave without closing (the directory goes).
rmSync(dir, { recursive: true, force: true });
process.exit(0);
