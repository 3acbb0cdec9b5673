// npm run bench -- system: the whole service as users run it. The control plane process
// (control-plane/dist/main.js) with its local agents (LOOKOUT_LOCAL_AGENTS, one process per region, as
// `npm start` runs them) on a fresh SQLite data directory, checking a real HTTP target on 32 loopback
// ports (the agents' SSRF guard is off: loopback targets). Monitors are created through the API (the
// demo workspace and its key; the plan is configuration, LOOKOUT_PLANS), and their count doubles step
// by step until checks fall behind. For each step, per process and in total: CPU ms per check
// (/proc/<pid>/stat over the step's window), RSS (/proc/<pid>/status), results stored against checks
// due and p99 schedule lag (both read from the SQLite file, read-only), beside the bare Node probe
// loop's CPU per check measured in the same run.
//
//   npm run bench -- system                 the full ramp; writes docs/benchmarks.md
//   npm run bench -- system --quick         a small smoke run (100-400 monitors, 5 s interval); no write
//   npm run bench -- system --cpu-prof      every Lookout process is CPU-profiled (cpu-profile.js); no write
// More: --start N --max N --interval S --window S --bare-seconds S --lag-bound-ms MS --kept-up RATIO
//       --regions a,b --prof-dir DIR --log FILE (the service's output) --write (write the docs anyway)
//       --dry-run (never write) --cp-heap MB (the control plane's --max-old-space-size, as deploy/k8s sets it;
//       its agents keep the default). --target nginx|node (the HTTP target, target.js; default nginx
//       when Debian's is installed).
import { spawn, spawnSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { machine, writeSection } from './report.js';
import { allResultsSql, bareProbeLoop, linux, pacedProbeLoop, sleep } from './support.js';
import { startTarget, targetKind } from './target.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'control-plane', 'dist', 'main.js');
const PROFILER = pathToFileURL(join(import.meta.dirname, 'cpu-profile.js')).href;

const options = (argv) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      'prof-dir': { type: 'string' },
      log: { type: 'string' },
      start: { type: 'string' },
      max: { type: 'string' },
      interval: { type: 'string' },
      window: { type: 'string' },
      'bare-seconds': { type: 'string' },
      'lag-bound-ms': { type: 'string' },
      'kept-up': { type: 'string' },
      regions: { type: 'string' },
      write: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      'cp-heap': { type: 'string' },
      target: { type: 'string' },
    },
  });
  const q = values.quick;
  const num = (name, full, quick) => {
    const raw = values[name];
    const v = raw === undefined ? (q ? quick : full) : Number(raw);
    if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} must be a number, got ${raw}`);
    return v;
  };
  const interval = num('interval', 20, 5);
  if (interval < 1 || !Number.isInteger(interval)) throw new Error('--interval must be whole seconds ≥ 1');
  // A whole number of intervals: then every monitor has exactly window / interval slots in the window.
  const window = Math.max(1, Math.round(num('window', 60, 10) / interval)) * interval;
  const cpuProf = values['cpu-prof'] || values['prof-dir'] !== undefined;
  return {
    quick: q,
    // 1,250 doubling reaches 20,000 (the issue's figure and RSS target) on the way.
    start: num('start', 1250, 100),
    max: num('max', 128_000, 400),
    interval,
    window,
    timeout: Math.min(5, interval),
    bareSeconds: num('bare-seconds', 10, 3),
    lagBoundMs: num('lag-bound-ms', 1000, 1000),
    keptUp: num('kept-up', 0.99, 0.99),
    regions: (values.regions ?? 'eu-west,us-east').split(',').filter(Boolean),
    cpuProf,
    profDir: values['prof-dir'],
    log: values.log,
    // Figures from a smoke or a profiled run are not the service's: those runs leave the docs alone.
    write: !values['dry-run'] && (values.write || (!q && !cpuProf)),
    cpHeapMb: values['cp-heap'] === undefined ? null : num('cp-heap', 0, 0),
    target: targetKind(values.target),
  };
};

// --- /proc ----------------------------------------------------------------------------------------

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
const statFields = (pid) => {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return s.slice(s.lastIndexOf(')') + 2).split(' ');
};
/** CPU time (user + system) of one process so far, in ms. */
const cpuMs = (pid) => {
  const f = statFields(pid);
  // utime and stime are fields 14 and 15 of the whole line; the slice starts at field 3.
  return ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK;
};
/**
 * The main thread's time on a CPU and waiting for one (runnable, not running) so far, in ms
 * (/proc/<pid>/task/<pid>/schedstat): how long an event loop that had work waited for a core.
 */
const schedMs = (pid) => {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { run: run / 1e6, wait: wait / 1e6 };
  } catch {
    return { run: Number.NaN, wait: Number.NaN };
  }
};
const rssMb = (pid) => {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return m ? Number(m[1]) / 1024 : 0;
};
const alive = (pid) => existsSync(`/proc/${pid}/stat`);
/** CPU time of a process and its children (nginx's master and its worker), in ms. */
const treeCpuMs = (pid) => {
  let sum = 0;
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (Number(e) === pid || Number(statFields(e)[1]) === pid) sum += cpuMs(e);
    } catch {
      // gone meanwhile
    }
  }
  return sum;
};
/** The local agents: the control plane's children, by the region in their environment. */
const agentPids = (cpPid) => {
  const out = new Map();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (Number(statFields(e)[1]) !== cpPid) continue;
      const env = readFileSync(`/proc/${e}/environ`, 'utf8').split('\0');
      const region = env.find((v) => v.startsWith('LOOKOUT_AGENT_REGION='))?.split('=')[1];
      if (region) out.set(region, Number(e));
    } catch {
      // gone meanwhile
    }
  }
  return out;
};

// --- processes ------------------------------------------------------------------------------------

/** Calls `onLine` for each line of the stream; keeps only the unfinished tail in memory. */
const lines = (stream, onLine) => {
  let tail = '';
  stream.on('data', (d) => {
    const parts = (tail + d).split('\n');
    tail = parts.pop();
    for (const l of parts) onLine(l);
  });
};

/** Resolves once `pred` returns a value; polls every `every` ms; rejects after `ms`. */
const until = async (what, pred, ms, every = 200) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await pred();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(every);
  }
};

/** SIGTERM, then SIGKILL after `ms`; resolves when the child is gone (bounded). */
const stopChild = async (child, ms) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  if (await Promise.race([exited.then(() => true), sleep(ms).then(() => false)])) return;
  child.kill('SIGKILL');
  await Promise.race([exited, sleep(2000)]);
};

// --- HTTP -----------------------------------------------------------------------------------------

const keepAlive = new Agent({ keepAlive: true, maxSockets: 16 });
/** One JSON request to 127.0.0.1:`port`; resolves with status and parsed body. */
const call = (port, method, path, opts = {}) =>
  callOnce(port, method, path, opts).catch((err) => {
    // A kept-alive socket the server closed as the request went out (Node's documented race: the
    // request says `reusedSocket`). A process just resumed from SIGSTOP, or one that waits for a core
    // (agents at a lower priority), closes its idle sockets late. A GET is safe to send again.
    if (method === 'GET' && err.reusedSocket && err.code === 'ECONNRESET')
      return callOnce(port, method, path, opts);
    throw err;
  });
const callOnce = (port, method, path, { host, headers = {}, body } = {}) =>
  new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: keepAlive,
        headers: {
          ...(host ? { host } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        timeout: 30_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          let json = text;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON (metrics text)
          }
          resolve({ status: res.statusCode, body: json });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', (err) => reject(Object.assign(err, { reusedSocket: req.reusedSocket })));
    req.end(payload);
  });

/** A counter from an agent's Prometheus text. */
const metric = (text, name) => {
  const m = String(text).match(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm'));
  return m ? Number(m[1]) : 0;
};

/** The q-quantile of numbers already sorted (0 when there are none). */
const quantile = (sorted, q) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
const sortedOf = (xs) => Float64Array.from(xs).sort();
const p99 = (xs) => quantile(sortedOf(xs), 0.99);

// --- the run --------------------------------------------------------------------------------------

export const run = async (argv = []) => {
  if (!linux) throw new Error('npm run bench -- system reads /proc: it runs on Linux only');
  const o = options(argv);
  const dir = mkdtempSync(join(tmpdir(), 'lookout-system-bench-'));
  const profDir = o.cpuProf ? (o.profDir ?? mkdtempSync(join(tmpdir(), 'lookout-system-prof-'))) : null;
  if (profDir) mkdirSync(profDir, { recursive: true });
  /** Every process this run started (the local agents are the control plane's), for the cleanup. */
  const started = { target: null, cp: null, agents: new Map() };
  let stopTarget = () => {};
  let db = null;
  let cleaning = null;
  const cleanup = () => {
    cleaning ??= (async () => {
      db?.close();
      // The control plane stops its agents first (they flush their results), then itself.
      if (started.cp) await stopChild(started.cp, o.cpuProf ? 60_000 : 20_000);
      for (const pid of started.agents.values()) {
        if (!alive(pid)) continue;
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
      if (started.target) await stopChild(started.target, 5000);
      stopTarget();
      keepAlive.destroy();
      rmSync(dir, { recursive: true, force: true });
    })();
    return cleaning;
  };
  const onSignal = (signal) => {
    process.stderr.write(`\n${signal}: stopping every process of the run\n`);
    void cleanup().then(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    const say = (s) => process.stdout.write(`${s}\n`);
    say(
      `system bench: ${o.quick ? 'quick run, ' : ''}monitors from ${o.start} doubling to at most ${o.max}, ` +
        `${o.interval} s interval, ${o.regions.length} regions, ${o.window} s per step` +
        (profDir ? `, CPU profiles in ${profDir}` : ''),
    );

    // The target: 200 "ok" on 32 loopback ports (target.js: nginx when installed).
    const target = await startTarget(o.target);
    started.target = target.child;
    stopTarget = target.stop;
    const ports = target.ports;
    say(`target: ${target.kind} on ${ports.length} loopback ports`);

    // The control plane with its local agents, as `npm start` runs them.
    // A heap cap on the command line, not in NODE_OPTIONS: the agents it starts do not inherit it.
    const cpArgs = o.cpHeapMb ? [`--max-old-space-size=${o.cpHeapMb}`, MAIN] : [MAIN];
    const cp = spawn(process.execPath, cpArgs, {
      env: {
        // As `npm start` and the control plane's image set it (docs/decisions.md, "Memory knobs").
        MALLOC_ARENA_MAX: '2',
        ...process.env,
        LOOKOUT_DATA_DIR: dir,
        LOOKOUT_HTTP_HOST: '127.0.0.1',
        LOOKOUT_HTTP_PORT: '0',
        LOOKOUT_RPC_PORT: '0',
        LOOKOUT_LOG_LEVEL: 'warn',
        LOOKOUT_REGIONS: o.regions.join(','),
        LOOKOUT_LOCAL_AGENTS: o.regions.join(','),
        LOOKOUT_DEMO_WORKSPACE: 'true',
        LOOKOUT_PLANS: JSON.stringify({ business: { max_monitors: 10_000_000, min_interval_seconds: 1 } }),
        // Info: the agents say which port their metrics listener took.
        LOOKOUT_AGENT_LOG_LEVEL: 'info',
        LOOKOUT_AGENT_METRICS_HOST: '127.0.0.1',
        LOOKOUT_AGENT_METRICS_PORT: '0',
        LOOKOUT_AGENT_BLOCK_PRIVATE_TARGETS: 'false',
        LOOKOUT_AGENT_RDAP_BOOTSTRAP_URL: 'off',
        ...(profDir
          ? {
              // Inherited by the agents the control plane starts (see cpu-profile.js).
              NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${PROFILER}`.trim(),
              LOOKOUT_BENCH_PROF_DIR: profDir,
            }
          : {}),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    started.cp = cp;
    // --log FILE: everything the service prints (its agents' logs too), for a run that goes wrong.
    if (o.log) cp.stdout.pipe(createWriteStream(o.log));
    let cpExit = null;
    const seen = { key: null, api: null, metricsPorts: [] };
    lines(cp.stdout, (l) => {
      const key = l.match(/API key:\s+(\S+)/);
      if (key) seen.key = key[1];
      const api = l.match(/API:\s+(http:\/\/\S+)\/api\/v1/);
      if (api) seen.api = new URL(api[1]);
      if (l.includes('"metrics and health listening"')) {
        const port = l.match(/"port":(\d+)/);
        if (port) seen.metricsPorts.push(Number(port[1]));
      }
    });
    cp.once('exit', (code, signal) => {
      cpExit = signal ?? code;
    });
    const running = () => {
      if (cpExit !== null && !cleaning) throw new Error(`the control plane exited (${cpExit})`);
    };
    await until(
      'the control plane, the demo key and the agents’ metrics ports',
      () => {
        running();
        return seen.key && seen.api && seen.metricsPorts.length >= o.regions.length;
      },
      60_000,
    );
    const apiPort = Number(seen.api.port);
    const apiHost = seen.api.host;
    /** region → metrics port, from each agent's /healthz. */
    const metricsPort = new Map();
    for (const port of seen.metricsPorts) {
      const r = await call(port, 'GET', '/healthz');
      metricsPort.set(r.body.region, port);
    }
    const agents = await until(
      'the local agent processes',
      () => {
        const a = agentPids(cp.pid);
        return a.size >= o.regions.length ? a : null;
      },
      30_000,
    );
    for (const [region, pid] of agents) started.agents.set(region, pid);
    const procs = () => [
      { name: 'control plane', pid: cp.pid, region: null },
      ...o.regions.map((r) => ({ name: `agent ${r}`, pid: started.agents.get(r), region: r })),
    ];

    // The bare loop, in this process, while the service idles (no monitors yet).
    const bare = await bareProbeLoop(ports, o.bareSeconds);
    const barePerCheck = bare.cpuMs / Math.max(1, bare.checks);
    say(
      `bare Node probe loop: ${Math.round(bare.rate)} checks/s, ${barePerCheck.toFixed(3)} ms CPU per check`,
    );
    // The same loop paced at each step's rate per agent (monitors / interval): the floor for one process
    // doing that many checks per second, where most checks wake the process on their own.
    const paced = new Map();
    for (let n = o.start; n <= o.max; n *= 2) {
      const rate = n / o.interval;
      if (rate > 0.8 * bare.rate) break;
      const r = await pacedProbeLoop(ports, o.bareSeconds, rate);
      paced.set(n, { rate, perCheck: r.cpuMs / Math.max(1, r.checks) });
      say(`paced loop at ${rate} checks/s: ${(r.cpuMs / Math.max(1, r.checks)).toFixed(3)} ms CPU per check`);
    }

    db = new Database(join(dir, 'lookout.db'), { readonly: true, fileMustExist: true });
    const resultsFrom = allResultsSql(
      db,
      'monitor_id, location, ok, scheduled_at, started_at, run_now_request_id, response_time_ms',
    );
    const byLocation = db.prepare(
      `SELECT location, count(*) n, coalesce(sum(ok), 0) ok FROM ${resultsFrom} WHERE scheduled_at >= ? AND scheduled_at < ? AND run_now_request_id IS NULL GROUP BY location`,
    );
    /** Results stored for slots in [from, to): in all, successful, and per region. */
    const countQ = {
      get(from, to) {
        const rows = byLocation.all(from, to);
        return {
          n: rows.reduce((a, r) => a + r.n, 0),
          ok: rows.reduce((a, r) => a + r.ok, 0),
          byRegion: new Map(rows.map((r) => [r.location, r.n])),
        };
      },
    };
    const lagQ = db
      .prepare(
        `SELECT started_at - scheduled_at FROM ${resultsFrom} WHERE scheduled_at >= ? AND scheduled_at < ? AND run_now_request_id IS NULL`,
      )
      .pluck();
    // What the checks measured: the response times of the window's successful checks (a busy box shows
    // in them too, e.g. when the agents' priority is lowered: LOOKOUT_AGENT_NICE).
    const responseQ = db
      .prepare(
        `SELECT response_time_ms FROM ${resultsFrom} WHERE scheduled_at >= ? AND scheduled_at < ? AND run_now_request_id IS NULL AND ok = 1`,
      )
      .pluck();

    let created = 0;
    // Through the batch endpoint, 1,000 a request (all or nothing), as `lookout apply` does.
    const createMonitors = async (total) => {
      for (let from = created; from < total; from += 1000) {
        const r = await call(apiPort, 'POST', '/api/v1/monitors/batch', {
          host: apiHost,
          headers: { 'x-api-key': seen.key },
          body: {
            monitors: Array.from({ length: Math.min(1000, total - from) }, (_, j) => ({
              display_name: `bench ${from + j}`,
              monitor_type: 'http',
              url: `http://127.0.0.1:${ports[(from + j) % ports.length]}/`,
              http_method: 'GET',
              check_interval_seconds: o.interval,
              timeout_seconds: o.timeout,
              expected_status_code: 200,
              check_locations: o.regions,
            })),
          },
        });
        if (r.status !== 201 || JSON.stringify(r.body).includes('"warnings":[{'))
          throw new Error(`creating monitors: ${r.status} ${JSON.stringify(r.body).slice(0, 500)}`);
      }
      created = total;
    };
    const agentMetrics = async () => {
      let skipped = 0;
      let dropped = 0;
      for (const port of metricsPort.values()) {
        const text = (await call(port, 'GET', '/metrics')).body;
        skipped += metric(text, 'lookout_agent_skipped_runs');
        dropped += metric(text, 'lookout_agent_dropped_results');
      }
      return { skipped, dropped };
    };
    /**
     * Each process's event-loop delay since the last call (prom-client's default metrics reset it at
     * every scrape): p99 and max in ms, for the control plane, then each agent.
     */
    const loopDelay = async () => {
      const of = (name, text) => ({
        name,
        p99: metric(text, 'nodejs_eventloop_lag_p99_seconds') * 1000,
        max: metric(text, 'nodejs_eventloop_lag_max_seconds') * 1000,
      });
      const out = [of('control plane', (await call(apiPort, 'GET', '/metrics', { host: apiHost })).body)];
      for (const [region, port] of metricsPort) {
        out.push(of(`agent ${region}`, (await call(port, 'GET', '/metrics')).body));
      }
      return out;
    };

    const steps = [];
    for (let n = o.start; n <= o.max; n *= 2) {
      running();
      const c0 = performance.now();
      await createMonitors(n);
      say(`${n} monitors: created in ${((performance.now() - c0) / 1000).toFixed(1)} s`);
      await until(
        `every agent to be assigned ${n} monitors`,
        async () => {
          running();
          for (const port of metricsPort.values())
            if ((await call(port, 'GET', '/healthz')).body.assigned < n) return false;
          return true;
        },
        60_000 + n * 5,
        500,
      );
      // Every monitor reaches its first slot; the previous step's connections close.
      await sleep(o.interval * 1000 + 2000);

      const list = procs();
      // Profiled: each process cuts its profile at the window's start and end (cpu-profile.js), so
      // part 2k of a process's profile is step k's window alone.
      const cut = () => {
        if (!profDir) return;
        for (const p of list) if (alive(p.pid)) process.kill(p.pid, 'SIGUSR2');
      };
      const m0 = await agentMetrics();
      await loopDelay();
      cut();
      const t0 = Date.now();
      const cpu0 = list.map((p) => cpuMs(p.pid));
      const sched0 = list.map((p) => schedMs(p.pid));
      const targetCpu0 = treeCpuMs(target.child.pid);
      // Meanwhile, what a person and a script see: every 250 ms one request, in turn the dashboard's
      // list (100 monitors with status, uptime and recent checks, as the web app's Monitors page reads
      // it) and one monitor through the API; latency at the client, p99 over the window.
      const latency = { dashboard: [], api: [] };
      const probe = async () => {
        let someId = null;
        for (let k = 0; Date.now() < t0 + o.window * 1000; k++) {
          const dashboard = k % 2 === 0 || someId === null;
          const path = dashboard ? '/api/v1/monitors?limit=100' : `/api/v1/monitors/${someId}`;
          const s = performance.now();
          const r = await call(apiPort, 'GET', path, { host: apiHost, headers: { 'x-api-key': seen.key } });
          const ms = performance.now() - s;
          if (r.status !== 200) throw new Error(`GET ${path}: ${r.status}`);
          (dashboard ? latency.dashboard : latency.api).push(ms);
          someId ??= r.body.data?.[Math.floor(Math.random() * r.body.data.length)]?.id ?? null;
          await sleep(250);
        }
      };
      await Promise.all([sleep(o.window * 1000), probe()]);
      const t1 = Date.now();
      const cpu1 = list.map((p) => (alive(p.pid) ? cpuMs(p.pid) : Number.NaN));
      const sched1 = list.map((p) => schedMs(p.pid));
      const targetCpu1 = treeCpuMs(target.child.pid);
      cut();
      const rss = list.map((p) => (alive(p.pid) ? rssMb(p.pid) : Number.NaN));
      const loop = await loopDelay();
      const m1 = await agentMetrics();
      const restarted = [...agentPids(cp.pid)].some(([r, pid]) => started.agents.get(r) !== pid);
      if (restarted) {
        for (const [r, pid] of agentPids(cp.pid)) started.agents.set(r, pid);
      }

      // Results of the window's slots: wait until they are in, or stop growing after the check timeout.
      const due = n * o.regions.length * (o.window / o.interval);
      const drainUntil = Date.now() + (o.timeout + 5) * 1000;
      let counted = countQ.get(t0, t1);
      for (;;) {
        if (counted.n >= due || Date.now() > drainUntil) break;
        await sleep(1000);
        const again = countQ.get(t0, t1);
        if (again.n === counted.n && Date.now() > t1 + o.timeout * 1000 + 2000) break;
        counted = again;
      }
      // The floor again, after the window. It drifts on a shared VM (0.086 to 0.143 ms a check within
      // one hour here), so the step's ratio is taken against the mean of this loop and the one before the
      // ramp, and both are reported. The service is frozen meanwhile (SIGSTOP), so the loop runs on an
      // idle machine as the first one did; resumed, the agents run the slots they missed at once (the
      // next step's settling absorbs that burst).
      let pacedAfter = null;
      if (paced.has(n)) {
        const frozen = list.filter((p) => alive(p.pid));
        for (const p of frozen) process.kill(p.pid, 'SIGSTOP');
        try {
          await sleep(1000);
          const r = await pacedProbeLoop(ports, o.bareSeconds, n / o.interval);
          pacedAfter = r.cpuMs / Math.max(1, r.checks);
          say(`paced loop after the window: ${pacedAfter.toFixed(3)} ms CPU per check`);
        } finally {
          for (const p of frozen) if (alive(p.pid)) process.kill(p.pid, 'SIGCONT');
        }
      }
      const lag = p99(lagQ.all(t0, t1));
      const responses = sortedOf(responseQ.all(t0, t1));
      const responseMs = { p50: quantile(responses, 0.5), p99: quantile(responses, 0.99) };
      const secs = (t1 - t0) / 1000;
      const stored = counted.n;
      // The control plane handles every result; an agent, its own region's.
      const rows = list.map((p, i) => {
        const used = cpu1[i] - cpu0[i];
        const checks = p.region ? (counted.byRegion.get(p.region) ?? 0) : stored;
        const perCheck = used / Math.max(1, checks);
        return {
          name: p.name,
          checks,
          cores: used / 1000 / secs,
          perCheck,
          multiple: perCheck / barePerCheck,
          rss: rss[i],
          // Of each second the main thread had work, the ms it waited for a core.
          waitPerRun: (1000 * (sched1[i].wait - sched0[i].wait)) / (sched1[i].run - sched0[i].run),
        };
      });
      const totalUsed = cpu1.reduce((a, v, i) => a + v - cpu0[i], 0);
      const step = {
        monitors: n,
        dueRate: due / o.window,
        due,
        stored,
        storedShare: stored / due,
        okShare: counted.ok / Math.max(1, stored),
        lag,
        responseMs,
        dashboardP99: p99(latency.dashboard),
        apiP99: p99(latency.api),
        skipped: m1.skipped - m0.skipped,
        dropped: m1.dropped - m0.dropped,
        rows,
        total: {
          cores: totalUsed / 1000 / secs,
          perCheck: totalUsed / Math.max(1, stored),
        },
        restarted,
        target: { kind: target.kind, cores: (targetCpu1 - targetCpu0) / 1000 / secs },
        loop,
      };
      step.multiple = step.total.perCheck / barePerCheck;
      const before = paced.get(n);
      step.paced = before
        ? {
            rate: before.rate,
            before: before.perCheck,
            after: pacedAfter,
            perCheck: pacedAfter === null ? before.perCheck : (before.perCheck + pacedAfter) / 2,
          }
        : null;
      step.pacedMultiple = step.paced ? step.total.perCheck / step.paced.perCheck : Number.NaN;
      for (const r of rows) r.pacedMultiple = step.paced ? r.perCheck / step.paced.perCheck : Number.NaN;
      /** Why the step did not keep up (empty: it did). */
      step.behind = [
        ...(restarted || !Number.isFinite(totalUsed) ? ['an agent restarted'] : []),
        ...(step.storedShare < o.keptUp ? ['stored < due'] : []),
        ...(step.okShare < o.keptUp ? ['checks failed'] : []),
        ...(lag > o.lagBoundMs ? ['p99 lag'] : []),
      ];
      step.keptUp = step.behind.length === 0;
      steps.push(step);
      say(
        `${n} monitors: ${stored}/${due} stored (${(step.storedShare * 100).toFixed(1)} %), ` +
          `${(step.okShare * 100).toFixed(1)} % ok, p99 lag ${Math.round(lag)} ms, skipped ${step.skipped}, ` +
          `response time p50 / p99 ${responseMs.p50} / ${responseMs.p99} ms, ` +
          `dashboard p99 ${Math.round(step.dashboardP99)} ms, API p99 ${Math.round(step.apiP99)} ms, ` +
          `${step.total.cores.toFixed(2)} cores, ${step.total.perCheck.toFixed(3)} ms CPU/check ` +
          `(${step.multiple.toFixed(2)} × bare, ${step.pacedMultiple.toFixed(2)} × paced) — ` +
          rows.map((r) => `${r.name} ${r.perCheck.toFixed(3)} ms/check ${Math.round(r.rss)} MB`).join(', ') +
          `; target (${step.target.kind}) ${step.target.cores.toFixed(2)} cores; event-loop delay p99 / max ms: ` +
          step.loop.map((l) => `${l.name} ${Math.round(l.p99)} / ${Math.round(l.max)}`).join(', ') +
          '; main thread waiting for a core, ms per s it ran: ' +
          rows.map((r) => `${r.name} ${Math.round(r.waitPerRun)}`).join(', ') +
          (step.keptUp ? '' : ` — FELL BEHIND (${step.behind.join(', ')})`),
      );
      if (!step.keptUp) break;
    }

    const result = {
      date: new Date().toISOString().slice(0, 10),
      machine: machine(),
      o,
      bare: { rate: bare.rate, perCheck: barePerCheck },
      steps,
    };
    await cleanup();
    if (profDir)
      say(
        `CPU profiles in ${profDir} (<process>.<pid>.part<2k>: step k's window; no part: the whole run ` +
          `after the last cut): ${readdirSync(profDir).sort().join(', ')}`,
      );
    const body = render(result);
    if (o.write) writeSection('system', body);
    else say(`\n(not written to docs/benchmarks.md: a quick, profiled or --dry-run run)\n\n${body}`);
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
};

const n0 = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en') : '—');
const f2 = (v) => (Number.isFinite(v) ? v.toFixed(2) : '—');
const f3 = (v) => (Number.isFinite(v) ? v.toFixed(3) : '—');
const pct = (v) => (Number.isFinite(v) ? `${(v * 100).toFixed(1)} %` : '—');

/** The docs section; `result` null gives the placeholder (method, empty tables). */
export const render = (result) => {
  const o = result?.o ?? options([]);
  const regions = o.regions.length;
  const steps = result?.steps ?? [];
  const summary =
    steps.length === 0
      ? '| — | — | — | — | — | — | — | — | — | — | — | — | — | — |'
      : steps
          .map(
            (s) =>
              `| ${n0(s.monitors)} | ${n0(s.dueRate)} | ${pct(s.storedShare)} | ${pct(s.okShare)} | ${n0(s.lag)} | ${n0(s.skipped)} | ${n0(s.dashboardP99)} | ${n0(s.apiP99)} | ${f2(s.total.cores)} | ${f3(s.total.perCheck)} | ${f2(s.multiple)} | ${f3(s.paced?.perCheck)}${s.paced?.after != null ? ` (${f3(s.paced.before)} / ${f3(s.paced.after)})` : ''} | ${f2(s.pacedMultiple)} | ${n0(s.rows[0].rss)} | ${s.keptUp ? 'yes' : `no: ${s.behind.join(', ')}`} |`,
          )
          .join('\n');
  const perProcess =
    steps.length === 0
      ? '| — | — | — | — | — | — | — | — |'
      : steps
          .flatMap((s) => [
            ...s.rows.map(
              (r) =>
                `| ${n0(s.monitors)} | ${r.name} | ${n0(r.checks)} | ${f2(r.cores)} | ${f3(r.perCheck)} | ${f2(r.multiple)} | ${f2(r.pacedMultiple)} | ${n0(r.rss)} |`,
            ),
            `| ${n0(s.monitors)} | **all Lookout processes** | ${n0(s.stored)} | ${f2(s.total.cores)} | ${f3(s.total.perCheck)} | ${f2(s.multiple)} | ${f2(s.pacedMultiple)} | ${n0(s.rows.reduce((a, r) => a + r.rss, 0))} |`,
          ])
          .join('\n');
  const last = steps.filter((s) => s.keptUp).at(-1);
  return `### Whole system (\`npm run bench -- system\`)

${
  result
    ? `Run ${result.date} on ${result.machine}.`
    : 'Not yet measured: this section is filled in by `npm run bench -- system` on a quiet machine.'
}
Method: the service as users run it: the control plane process (\`control-plane/dist/main.js\`${o.cpHeapMb ? `, \`--max-old-space-size=${o.cpHeapMb}\`` : ''}) with
one local agent process per region (\`LOOKOUT_LOCAL_AGENTS\`, as \`npm start\` runs them; ${regions}
regions), on a fresh SQLite data directory (WAL, \`synchronous=FULL\`), nothing pinned. The targets are
${o.target === 'nginx' ? "Debian's nginx (one worker)" : 'a Node HTTP server (nginx was not installed)'} answering 200 on 32 loopback ports (the agents' SSRF guard off); every check is a plain-HTTP
GET on a fresh connection. Monitors are created through the API (\`POST /api/v1/monitors/batch\`, 1,000 a request, in the
demo workspace; the plan allows the count and interval through \`LOOKOUT_PLANS\`), each on a ${o.interval} s
interval in every region, so the checks due per second are monitors × ${regions} / ${o.interval}. The count starts
at ${n0(o.start)} and doubles (at most ${n0(o.max)}) until checks fall behind.
Each step waits until every agent holds all monitors and one interval more, then measures a ${o.window} s
window: CPU (user + system, \`/proc/<pid>/stat\`) of each Lookout process over the window, divided by the
results stored for the window's slots; RSS (\`/proc/<pid>/status\`) at its end. After the window the SQLite
file is read (read-only): results stored for slots in the window against checks due (every monitor has
exactly ${o.window / o.interval} slots per region in it), the share that succeeded, and p99 schedule lag
(start of the check minus its slot: timer and queue wait). Skipped runs are the agents' own counter
(\`lookout_agent_skipped_runs\`) over the window. A step keeps up when at least ${pct(o.keptUp)} of the checks
due are stored and successful and p99 lag is at most ${n0(o.lagBoundMs)} ms.
The bare Node probe loop (\`bareProbeLoop\` in \`test/bench/support.js\`, the \`agent\` bench's ceiling: 64
requests in flight, a fresh connection each, as fast as it goes) runs in the bench process against the same
target while the service idles, for ${o.bareSeconds} s; its CPU per check is the bench process's CPU over
the loop divided by its successful checks. "× bare loop" is the service's total CPU per check over the loop's.
The paced loop (\`test/bench/paced-floor.js\`, issue 27's floor) is a fresh process doing the same kind of request
at each step's rate per agent (monitors / interval), started on a 10 ms tick as an agent's scheduler does, for
2 s of warm-up and ${o.bareSeconds} s measured, before the ramp and again after each step's window (the service frozen
with SIGSTOP meanwhile): what one process doing that many checks per second spends. It drifts on a shared VM, so
"× paced loop" is the service's (or the process's) CPU per check over the mean of the two at that step's rate.

Bare Node probe loop in this run: ${
    result
      ? `${n0(result.bare.rate)} checks/s, ${f3(result.bare.perCheck)} ms CPU per check.`
      : 'not yet measured.'
  }${
    last
      ? `\nKept up to ${n0(last.monitors)} monitors (${n0(last.dueRate)} checks/s) at ${f3(last.total.perCheck)} ms CPU per check, ${f2(last.multiple)} × the bare loop.`
      : ''
  }

| Monitors | Checks due/s | Stored / due | Successful | p99 lag ms | Skipped runs | Dashboard p99 ms | API p99 ms | CPU (cores) | CPU ms/check | × bare loop | Paced loop ms/check (before / after) | × paced loop | Control-plane RSS MB | Kept up |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|
${summary}

Per process. Checks: the results of the window's slots that the process handled (an agent its own
region's, the control plane all of them); CPU per check is its CPU over the window divided by those.

| Monitors | Process | Checks | CPU (cores) | CPU ms/check | × bare loop | × paced loop | RSS MB |
|---:|---|---:|---:|---:|---:|---:|---:|
${perProcess}

Dashboard and API p99: during each window, one request every 250 ms at the client, in turn
\`GET /api/v1/monitors?limit=100\` (status, uptime and recent checks of 100 monitors, as the Monitors
page reads them) and \`GET /api/v1/monitors/{id}\`.

Targets (issue 27): whole-system CPU per check ≤ 1.5 × the paced loop; 100,000 monitors at 60 s in two
regions on this box with dashboard and API p99 under 100 ms; control-plane RSS ≤ 300 MB and each agent
≤ 250 MB at that size.`;
};
