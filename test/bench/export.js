// npm run bench -- export [results] : the streamed export's memory (issue 58, "Export holds memory flat").
//
// 1. A store file with RESULTS check results (default 10,000,000; `npm run bench -- export 1000000`
//    for a quick run): a `bench` workspace with MONITORS http monitors (default 1,000), each with an
//    equal share of results at 60 s apart over the last days, bulk-inserted straight into check_results
//    (the table results are folded into, store/sqlite/results.ts) in transactions of 200,000 rows.
// 2. The control plane (`control-plane/dist/main.js`, as `npm start` runs it, no local agents) on that
//    file, pinned to core 1. Baseline: its RSS at rest, 10 s after it answered /readyz.
// 3. `GET /api/v1/export/results` over the whole window, NDJSON, read at full speed by this process
//    (core 0) and thrown away, counting lines; the server's VmRSS read from /proc/<pid>/status every
//    second, and at the line counts 1 M and the end; VmHWM (its peak) at the end.
// 4. Baseline in the same run: a bare better-sqlite3 iterate over the same rows in index order
//    (monitor, scheduled time), each row JSON.stringify'd into NDJSON written to /dev/null: its rate
//    over the first BARE_ROWS.
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createNamedKey } from '../../control-plane/dist/domain/access/api-keys.js';
import { machine, onePerLine, writeSection } from './report.js';
import { benchStore, insertMonitors, sleep, spawnPinned } from './support.js';

const MONITORS = Number(process.env.BENCH_EXPORT_MONITORS ?? 1000);
const TX_ROWS = 200_000;
/** Rows the bare loop reads (a rate: the first ones, in index order). */
const BARE_ROWS = 2_000_000;
const MIB = 2 ** 20;

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** VmRSS and VmHWM of a process, in MiB. */
const memoryOf = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
};

const get = (port, path, headers, onData) =>
  new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => reject(new Error(`${path}: ${res.statusCode} ${body}`)));
        return;
      }
      res.on('data', onData ?? (() => {}));
      res.on('end', () => resolve(res));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

/** Inserts `total` results of `monitors`, an equal share each, in monitor order, straight into check_results. */
const insertResults = (file, workspaceId, monitors, total, now) => {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const insert =
    db.prepare(`INSERT INTO check_results (id, workspace_id, monitor_id, monitor_version, location,
    instance_id, scheduled_at, started_at, received_at, ok, error_kind, error_message, response_time_ms,
    status_code, timings, tls_valid_to, domain_expires_at, dns_records, run_now_request_id)
    VALUES (?, ?, ?, 1, ?, 'agent-eu-west-1', ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, '[]', NULL)`);
  const per = Math.ceil(total / monitors.length);
  const start = now - per * 60_000;
  let done = 0;
  let pending = [];
  const flush = db.transaction((rows) => {
    for (const r of rows) insert.run(r);
  });
  const t0 = performance.now();
  for (const m of monitors) {
    for (let i = 0; i < per && done < total; i++, done++) {
      const at = start + i * 60_000;
      const ok = i % 50 !== 0;
      const ms = 80 + (i % 40);
      pending.push([
        randomUUID(),
        workspaceId,
        m,
        i % 2 ? 'us-east' : 'eu-west',
        at,
        at + 3,
        at + ms + 20,
        ok ? 1 : 0,
        ok ? null : 'http_status',
        ok ? null : 'expected status 200, got 503',
        ms,
        ok ? 200 : 503,
        JSON.stringify({ dns_ms: 1, connect_ms: 2, tls_ms: 9, first_byte_ms: ms - 10, total_ms: ms }),
      ]);
      if (pending.length === TX_ROWS) {
        flush(pending);
        pending = [];
        if (done % 1_000_000 === 0) process.stdout.write(`inserted ${done} results\n`);
      }
    }
  }
  flush(pending);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { seconds: (performance.now() - t0) / 1000, start, end: start + per * 60_000 };
};

/** The bare loop: the same rows in the same order, JSON text per row, to /dev/null. */
const bareIterate = (file, workspaceId, limit) => {
  const db = new Database(file, { readonly: true });
  const fd = openSync('/dev/null', 'w');
  let rows = 0;
  let bytes = 0;
  let buf = '';
  const t0 = performance.now();
  const st = db.prepare(
    'SELECT * FROM check_results WHERE workspace_id = ? ORDER BY monitor_id, scheduled_at DESC, id LIMIT ?',
  );
  for (const row of st.iterate(workspaceId, limit)) {
    buf += `${JSON.stringify(row)}\n`;
    rows++;
    if (buf.length > MIB) {
      bytes += writeSync(fd, buf);
      buf = '';
    }
  }
  bytes += writeSync(fd, buf);
  closeSync(fd);
  db.close();
  const seconds = (performance.now() - t0) / 1000;
  return { rows, seconds, rowsPerS: rows / seconds, mibPerS: bytes / MIB / seconds };
};

export const run = async (args) => {
  const total = Number(args[0] ?? 10_000_000);
  const setup0 = performance.now();
  const { dir, env, store, workspace, admin, policy } = await benchStore('export');
  const monitors = (await insertMonitors(store, workspace.id, policy.id, MONITORS, 60, 9)).sort();
  const key = (await createNamedKey(store, workspace, admin, { name: 'bench', expiry: 'none' }, new Date()))
    .value;
  await store.close();
  const file = join(dir, 'lookout.db');
  const now = Date.now();
  const built = insertResults(file, workspace.id, monitors, total, now);
  const fileMiB = statSync(file).size / MIB;
  process.stdout.write(
    `built ${total} results of ${MONITORS} monitors in ${built.seconds.toFixed(0)} s (setup ${((performance.now() - setup0) / 1000).toFixed(0)} s), ${fileMiB.toFixed(0)} MiB\n`,
  );

  const port = await freePort();
  const server = spawnPinned(1, [process.execPath, 'control-plane/dist/main.js'], {
    ...env,
    LOOKOUT_HTTP_PORT: String(port),
    LOOKOUT_RPC_PORT: String(await freePort()),
    LOOKOUT_DEMO_WORKSPACE: 'false',
    LOOKOUT_LOCAL_AGENTS: '',
  });
  server.stdout.resume();
  const headers = { host: 'bench.localhost', 'x-api-key': key };
  for (let i = 0; ; i++) {
    try {
      await get(port, '/readyz', {});
      break;
    } catch (e) {
      if (i > 600) throw e;
      await sleep(500);
    }
  }
  await sleep(10_000);
  const atRest = memoryOf(server.pid);
  process.stdout.write(`server at rest: ${atRest.rss.toFixed(1)} MiB\n`);

  const samples = [];
  let lines = 0;
  let bytes = 0;
  let at1M = null;
  const sampler = setInterval(() => samples.push({ lines, ...memoryOf(server.pid) }), 1000);
  const from = new Date(built.start - 60_000).toISOString();
  const to = new Date(built.end + 60_000).toISOString();
  const t0 = performance.now();
  await get(port, `/api/v1/export/results?from=${from}&to=${to}`, headers, (chunk) => {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
    if (at1M === null && lines >= 1_000_000) at1M = memoryOf(server.pid).rss;
  });
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const end = memoryOf(server.pid);
  if (lines !== total) throw new Error(`exported ${lines} lines of ${total} results`);
  const peak = Math.max(end.hwm, ...samples.map((s) => s.rss));
  const exportRate = { rowsPerS: lines / seconds, mibPerS: bytes / MIB / seconds };
  process.stdout.write(
    `export: ${lines} rows in ${seconds.toFixed(0)} s (${exportRate.rowsPerS.toFixed(0)} rows/s, ${exportRate.mibPerS.toFixed(1)} MiB/s); RSS at 1 M ${at1M?.toFixed(1)} MiB, at the end ${end.rss.toFixed(1)} MiB, peak ${peak.toFixed(1)} MiB\n`,
  );
  await new Promise((resolve) => {
    server.on('exit', resolve);
    server.kill('SIGTERM');
  });
  const bare = bareIterate(file, workspace.id, Math.min(total, BARE_ROWS));
  process.stdout.write(
    `bare better-sqlite3 iterate: ${bare.rows} rows in ${bare.seconds.toFixed(0)} s (${bare.rowsPerS.toFixed(0)} rows/s, ${bare.mibPerS.toFixed(1)} MiB/s)\n`,
  );
  rmSync(dir, { recursive: true, force: true });

  const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  const n = (x) => Math.round(x).toLocaleString('en');
  const body = `### Streamed export (\`npm run bench -- export\`)
Run ${new Date().toISOString().slice(0, 16)} UTC, ${machine()}, load ${load} at the end (shared box); \`test/bench/export.js\` (its header): ${n(total)} results of ${MONITORS} monitors (${fileMiB.toFixed(0)} MiB of SQLite, built in ${built.seconds.toFixed(0)} s), the whole window exported as NDJSON (${(bytes / 2 ** 30).toFixed(2)} GiB) by \`npm start\`'s control plane, read at full speed. **Server RSS: ${atRest.rss.toFixed(0)} MiB at rest before the export (baseline), ${at1M?.toFixed(0)} MiB after 1 M rows, ${end.rss.toFixed(0)} MiB after ${n(total / 1e6)} M, peak ${peak.toFixed(0)} MiB** (VmHWM; sampled every second). Export ${n(exportRate.rowsPerS)} rows/s, ${exportRate.mibPerS.toFixed(1)} MiB/s; baseline in the same run, a bare better-sqlite3 iterate writing the same rows as NDJSON (the first ${n(bare.rows)}): ${n(bare.rowsPerS)} rows/s, ${bare.mibPerS.toFixed(1)} MiB/s (the export ${(exportRate.rowsPerS / bare.rowsPerS).toFixed(2)} ×).
`;
  writeSection('export', onePerLine(body));
};
