// Helpers shared by the benchmarks: pinned child processes, waiting for a line, bulk monitors.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId, systemClock } from '@lookout/shared';
import { loadConfig } from '../../control-plane/dist/config.js';
import { createAgentToken } from '../../control-plane/dist/domain/agents/agent-tokens.js';
import { createWorkspace } from '../../control-plane/dist/domain/tenancy/workspaces.js';
import { openStore } from '../../control-plane/dist/store/open-store.js';

export const linux = process.platform === 'linux';
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs `args` pinned to one core (`taskset`) where that exists. */
export const spawnPinned = (core, args, env = {}) => {
  const child = linux
    ? spawn('taskset', ['-c', String(core), ...args], { env: { ...process.env, ...env } })
    : spawn(args[0], args.slice(1), { env: { ...process.env, ...env } });
  child.stderr.on('data', (d) => process.stderr.write(d));
  return child;
};

/** Resolves with the match once the child's stdout matches `re`; rejects if it exits first. */
export const waitLine = (child, re) =>
  new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(re);
      if (m) resolve(m);
    });
    child.on('exit', (c) => reject(new Error(`exited ${c}: ${out}`)));
  });

/** One plain-HTTP GET on a fresh connection to 127.0.0.1:`port`: resolves true on a 200, read to its end. */
const probe = (port) =>
  new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/', agent: false, headers: { connection: 'close' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
      },
    );
    req.on('error', () => resolve(false));
    req.end();
  });

/**
 * The ceiling for checks: a bare loop of http.get with a fresh connection each, `concurrency` at a time,
 * round-robin over `ports`, as fast as it goes for `seconds`. Returns successful checks per second, their
 * count, and this process's CPU time over the loop in ms (nothing else of the bench runs meanwhile, so
 * `cpuMs / checks` is the loop's CPU per check).
 */
export const bareProbeLoop = async (ports, seconds, concurrency = 64) => {
  let next = 0;
  let done = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) if (await probe(ports[next++ % ports.length])) done++;
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  const elapsed = (performance.now() - t0) / 1000;
  return { rate: done / seconds, checks: done, seconds: elapsed, cpuMs: (cpu.user + cpu.system) / 1000 };
};

/**
 * The floor for a process doing `rate` checks per second (issue 27's definition, the workplace's
 * reference loop): paced-floor.js in a fresh process, starts on a 10 ms tick like an agent's scheduler,
 * 2 s of warm-up, then `seconds` measured. Until issue 27's eleventh round this loop ran in the bench's
 * own process with one timer per check, which cost ~1.45 × the reference (more wake-ups) and flattered
 * every "× paced" figure before it (docs/benchmarks.md, "History": issue 27's eleventh round). Returns the same figures as `bareProbeLoop`.
 */
export const pacedProbeLoop = async (ports, seconds, rate, node = process.execPath) => {
  const child = spawn(
    node,
    [join(import.meta.dirname, 'paced-floor.js'), ports.join(','), String(rate), String(seconds)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`paced-floor.js exited ${code}`);
  const r = JSON.parse(out);
  return { rate: r.checks / r.seconds, checks: r.checks, seconds: r.seconds, cpuMs: r.cpuMs };
};

/** The bench's monitor `m{i}`: an http check of 127.0.0.1:`targetPort` from `locations`. */
export const benchMonitor = (id, ws, policyId, i, intervalSeconds, targetPort, locations, now) => ({
  id,
  workspace_id: ws,
  display_name: `m${i}`,
  monitor_type: 'http',
  url: `http://127.0.0.1:${targetPort}/`,
  http_method: 'GET',
  check_interval_seconds: intervalSeconds,
  timeout_seconds: Math.min(5, intervalSeconds),
  expected_status_code: 200,
  required_keyword: null,
  auth: null,
  port: null,
  request_headers: {},
  request_body: null,
  follow_redirects: false,
  ssl_cert_monitoring: false,
  ssl_cert_expiry_alert_days: 14,
  domain_expiry_alert_days: 30,
  response_time_threshold_ms: null,
  failure_threshold: 3,
  retry_interval_seconds: 15,
  escalation_policy_id: policyId,
  check_locations: locations,
  dns_record_type: null,
  dns_expected_values: [],
  dns_resolver: null,
  depends_on: [],
  group_id: null,
  tags: [],
  severity: 'critical',
  settings: {},
  paused: false,
  created_at: now,
  updated_at: now,
  version: 1,
});

/** Inserts `n` plain-HTTP monitors in `locations` (default eu-west); returns their ids. */
export const insertMonitors = async (
  store,
  ws,
  policyId,
  n,
  intervalSeconds,
  targetPort,
  from = 0,
  locations = ['eu-west'],
) => {
  const now = new Date();
  const ids = [];
  for (let i = from; i < from + n; i++) {
    const id = newId();
    ids.push(id);
    await store.insertMonitor(
      benchMonitor(id, ws, policyId, i, intervalSeconds, targetPort, locations, now),
      { maxMonitors: 1_000_000 },
    );
  }
  return ids;
};

/**
 * A fresh data directory with a store, a `bench` workspace (business plan) with its admin, its default
 * policy and an eu-west agent token; `env` runs a control plane on the same store.
 */
/**
 * SQL for a FROM clause: every stored check result of a Lookout SQLite file, once (`cols` a column
 * list). Results are folded from check_results_recent into check_results (store/sqlite/results.ts); a
 * recent row already folded is in both until the flush deletes it. A file from before the fold has
 * check_results alone.
 */
export const allResultsSql = (db, cols) => {
  const folded = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'check_results_recent'")
    .get();
  if (!folded) return `(SELECT ${cols} FROM check_results)`;
  return `(SELECT ${cols} FROM check_results UNION ALL SELECT ${cols} FROM check_results_recent r
    WHERE r.rid > (SELECT CASE WHEN r.monitor_id <= coalesce(flush_done, '') THEN coalesce(flush_to, upto) ELSE upto END
      FROM uptime_rollup_mark))`;
};

export const benchStore = async (name, extraEnv = {}) => {
  const dir = mkdtempSync(join(tmpdir(), `lookout-${name}-bench-`));
  const env = {
    LOOKOUT_DATA_DIR: dir,
    LOOKOUT_LOG_LEVEL: 'silent',
    LOOKOUT_HTTP_PORT: '0',
    LOOKOUT_RPC_PORT: '0',
    ...extraEnv,
  };
  const config = loadConfig(env);
  const store = await openStore(config);
  const { workspace, admin } = await createWorkspace(
    store,
    config.plans,
    { subdomain: 'bench', admin_email: 'b@bench.test', plan: 'business' },
    systemClock.now(),
  );
  const policy = await store.getDefaultEscalationPolicy(workspace.id);
  const token = (await createAgentToken(store, config.regions, { region: 'eu-west' }, systemClock.now()))
    .value;
  return { dir, env, config, store, workspace, admin, policy, token };
};
