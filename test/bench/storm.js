// npm run bench -- storm [--monitors N] [--interval S] [--runs off,on] [--write]
//
// An alert storm end to end: the control plane as `npm start` runs it (control-plane/dist/main.js) with
// two local agents (two regions, LOOKOUT_LOCAL_AGENTS), N monitors (default 5,000) on one HTTP target
// that starts failing at once, one escalation policy naming three channels on local receivers: a
// webhook and a Slack-style incoming webhook (one HTTP server in this process) and email through a
// local SMTP server (smtp-server, in this process). Each run is a fresh data directory; the baseline
// is the same storm with grouped notifications off (LOOKOUT_NOTIFY_GROUP_INTERVAL_SECONDS=0), in the
// same invocation. Figures: time from the failure until every alert is raised, messages each channel
// received, and the API's p99 during the storm (GET /api/v1/monitors?limit=50 and GET /api/v1/alerts,
// one after the other, all along). PagerDuty and Opsgenie are not played: they keep one event per
// alert by design (`grouping: 'per_alert'`), so they would get N events.
//
// Dependencies variant: LOOKOUT_BENCH_STORM_PARENT=1 makes one more monitor on the same target the
// parent, and every other monitor names it in `depends_on` when the API takes it; the figure to read
// is then the alerts raised (goal: exactly 1).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { SMTPServer } from 'smtp-server';
import { machine, writeSection } from './report.js';
import { sleep } from './support.js';

const MAIN = join(import.meta.dirname, '..', '..', 'control-plane', 'dist', 'main.js');
const REGIONS = ['eu-west', 'us-east'];

const options = (argv) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      monitors: { type: 'string' },
      interval: { type: 'string' },
      runs: { type: 'string' },
      write: { type: 'boolean' },
    },
  });
  return {
    monitors: Number(values.monitors ?? 5000),
    interval: Number(values.interval ?? 60),
    runs: (values.runs ?? 'off,on').split(','),
    write: values.write ?? (values.monitors === undefined && values.interval === undefined),
    parent: process.env.LOOKOUT_BENCH_STORM_PARENT === '1',
  };
};

const until = async (what, pred, ms, every = 250) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await pred();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(every);
  }
};

/** One JSON request to 127.0.0.1:`port`; resolves with status, parsed body and its time in ms. */
const call = (port, method, path, { host, key, body } = {}) =>
  new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const t0 = performance.now();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          ...(host ? { host } : {}),
          ...(key ? { 'x-api-key': key } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
        timeout: 60_000,
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
            // not JSON
          }
          resolve({ status: res.statusCode, body: json, ms: performance.now() - t0 });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });

const p = (xs, q) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};

/** The target (200 until `fail()`, then 500) and the receivers, all in this process. */
const startLocal = async () => {
  let failing = false;
  const target = createServer((_req, res) => {
    res.writeHead(failing ? 500 : 200, { 'content-type': 'text/plain' }).end(failing ? 'down' : 'ok');
  });
  target.keepAliveTimeout = 1000;
  const counts = { webhook: 0, slack: 0, email: 0 };
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/hook')) counts.webhook++;
      else if (req.url?.startsWith('/slack')) counts.slack++;
      res.writeHead(200).end('ok');
    });
  });
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _s, cb) {
      stream.resume();
      stream.on('end', () => {
        counts.email++;
        cb();
      });
    },
  });
  // smtp-server keeps its net.Server as `.server`.
  const listen = (s) => new Promise((r) => s.listen(0, '127.0.0.1', () => r((s.server ?? s).address().port)));
  const ports = { target: await listen(target), receiver: await listen(receiver), smtp: await listen(smtp) };
  return {
    ports,
    counts,
    fail: () => {
      failing = true;
    },
    close: async () => {
      for (const s of [target, receiver]) {
        s.closeAllConnections();
        await new Promise((r) => s.close(r));
      }
      await new Promise((r) => smtp.close(r));
    },
  };
};

/** One storm: a fresh control plane and its agents; `grouping` on or off. */
const storm = async (o, grouping, say) => {
  const dir = mkdtempSync(join(tmpdir(), 'lookout-storm-bench-'));
  const local = await startLocal();
  const cp = spawn(process.execPath, [MAIN], {
    env: {
      MALLOC_ARENA_MAX: '2',
      ...process.env,
      LOOKOUT_DATA_DIR: dir,
      LOOKOUT_HTTP_HOST: '127.0.0.1',
      LOOKOUT_HTTP_PORT: '0',
      LOOKOUT_RPC_PORT: '0',
      LOOKOUT_LOG_LEVEL: 'warn',
      LOOKOUT_REGIONS: REGIONS.join(','),
      LOOKOUT_LOCAL_AGENTS: REGIONS.join(','),
      LOOKOUT_DEMO_WORKSPACE: 'true',
      LOOKOUT_PLANS: JSON.stringify({ business: { max_monitors: 10_000_000, min_interval_seconds: 1 } }),
      LOOKOUT_AGENT_BLOCK_PRIVATE_TARGETS: 'false',
      LOOKOUT_AGENT_RDAP_BOOTSTRAP_URL: 'off',
      LOOKOUT_NOTIFY_ALLOW_PRIVATE: 'true',
      LOOKOUT_SMTP_HOST: '127.0.0.1',
      LOOKOUT_SMTP_PORT: String(local.ports.smtp),
      LOOKOUT_ESCALATION_POLL_MS: '1000',
      LOOKOUT_NOTIFY_GROUP_INTERVAL_SECONDS: grouping ? '60' : '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  cp.stdout.on('data', (d) => {
    if (out.length < 100_000) out += d;
  });
  let db = null;
  try {
    const seen = await until(
      'the control plane and its demo key',
      () => {
        const key = /API key:\s+(\S+)/.exec(out)?.[1];
        const api = /API:\s+(http:\/\/\S+)\/api\/v1/.exec(out)?.[1];
        return key && api ? { key, api: new URL(api) } : null;
      },
      60_000,
    );
    const port = Number(seen.api.port);
    const api = (method, path, body) =>
      call(port, method, `/api/v1${path}`, { host: seen.api.host, key: seen.key, body });
    const channel = async (name, type, config) => {
      const r = await api('POST', '/channels', { name, type, config });
      if (r.status !== 201) throw new Error(`channel ${name}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.id;
    };
    const base = `http://127.0.0.1:${local.ports.receiver}`;
    const channels = [
      await channel('ops webhook', 'webhook', { url: `${base}/hook` }),
      await channel('ops chat', 'slack', { url: `${base}/slack/services/T0/B0/XXXX` }),
      await channel('ops mail', 'email', { addresses: ['ops@storm.test'] }),
    ];
    const policy = (await api('GET', '/escalation-policies')).body.data.find((x) => x.is_default);
    const patched = await api('PATCH', `/escalation-policies/${policy.id}`, {
      steps: [{ wait_minutes: 0, notify_user_ids: [], notify_channel_ids: channels }],
    });
    if (patched.status !== 200) throw new Error(`policy: ${patched.status} ${JSON.stringify(patched.body)}`);
    const url = `http://127.0.0.1:${local.ports.target}/`;
    let parentId = null;
    const spec = (name) => ({
      display_name: name,
      monitor_type: 'http',
      url,
      http_method: 'GET',
      check_interval_seconds: o.interval,
      timeout_seconds: 5,
      expected_status_code: 200,
      check_locations: REGIONS,
      ...(parentId ? { depends_on: [parentId] } : {}),
    });
    if (o.parent) {
      const r = await api('POST', '/monitors/batch', { monitors: [spec('storm parent')] });
      parentId = r.body.data?.[0]?.id ?? null;
    }
    for (let from = 0; from < o.monitors; from += 1000) {
      const r = await api('POST', '/monitors/batch', {
        monitors: Array.from({ length: Math.min(1000, o.monitors - from) }, (_, j) =>
          spec(`storm ${from + j}`),
        ),
      });
      if (r.status !== 201) throw new Error(`monitors: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    }
    const total = o.monitors + (o.parent ? 1 : 0);
    db = new Database(join(dir, 'lookout.db'), { readonly: true, fileMustExist: true });
    const upQ = db
      .prepare("SELECT count(*) FROM monitor_states WHERE location = '*' AND status = 'up'")
      .pluck();
    const alertsQ = db.prepare("SELECT count(*) FROM alerts WHERE cause = 'down'").pluck();
    await until(`${total} monitors up`, () => upQ.get() >= total, 10 * o.interval * 1000, 1000);
    say(`  ${total} monitors up; the target fails now`);

    // The storm: the target fails; the API is polled all along; alerts are counted as they open.
    local.fail();
    const t0 = Date.now();
    const latencies = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        latencies.push((await api('GET', '/monitors?limit=50')).ms);
        latencies.push((await api('GET', '/alerts?limit=50')).ms);
      }
    })();
    const goal = o.parent ? 1 : o.monitors;
    let raisedMs = null;
    await until(
      'every alert raised',
      () => {
        const n = alertsQ.get();
        if (n >= goal && raisedMs === null) raisedMs = Date.now() - t0;
        return raisedMs !== null;
      },
      10 * o.interval * 1000,
    );
    // Notifications: grouped ones settle within a few group intervals; without grouping every alert is
    // one message per channel. Watch for three minutes after the last alert, or until all N arrived.
    const watchEnd = Date.now() + 180_000;
    await until(
      'the notifications',
      () =>
        Date.now() > watchEnd ||
        (!grouping && Math.min(local.counts.webhook, local.counts.slack, local.counts.email) >= goal),
      200_000,
      1000,
    );
    const watchedS = Math.round((Date.now() - t0) / 1000);
    polling = false;
    await poller;
    const raised = alertsQ.get();
    return {
      grouping,
      raised,
      raisedS: raisedMs / 1000,
      messages: { ...local.counts },
      watchedS,
      p99: p(latencies, 0.99),
      p50: p(latencies, 0.5),
      requests: latencies.length,
    };
  } finally {
    db?.close();
    if (cp.exitCode === null) {
      const exited = new Promise((r) => cp.once('exit', r));
      cp.kill('SIGTERM');
      await Promise.race([exited, sleep(20_000)]);
      if (cp.exitCode === null) cp.kill('SIGKILL');
    }
    await local.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

export const run = async (argv = []) => {
  const o = options(argv);
  const say = (s) => process.stdout.write(`${s}\n`);
  say(
    `storm bench: ${o.monitors} monitors on one target, ${REGIONS.length} regions, ${o.interval} s interval` +
      `${o.parent ? ', all depending on one parent' : ''}; runs: ${o.runs.join(', ')}`,
  );
  const results = [];
  for (const r of o.runs) {
    say(`grouping ${r}:`);
    const x = await storm(o, r === 'on', say);
    say(
      `  ${x.raised} alerts, all raised ${x.raisedS.toFixed(1)} s after the failure; messages in ${x.watchedS} s: ` +
        `webhook ${x.messages.webhook}, Slack ${x.messages.slack}, email ${x.messages.email}; ` +
        `API p50 ${x.p50.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms (${x.requests} requests)`,
    );
    results.push(x);
  }
  if (!o.write) return;
  const row = (x) =>
    `| ${x.grouping ? 'grouped (5 s wait, 60 s interval)' : 'baseline: grouping off'} | ${x.raised} | ${x.raisedS.toFixed(1)} s (${(x.raisedS / o.interval).toFixed(2)} intervals) | ${x.messages.webhook} / ${x.messages.slack} / ${x.messages.email} in ${x.watchedS} s | ${x.p50.toFixed(1)} / ${x.p99.toFixed(1)} ms |`;
  // Two lines of method: docs/benchmarks.md stays under 400 lines (test/docs/benchmarks.test.ts).
  writeSection(
    'storm',
    `### Alert storm (\`npm run bench -- storm\`)
Run ${new Date().toISOString().slice(0, 16)} UTC, ${machine()}: \`npm start\`'s control plane, two local agents (${REGIONS.join(', ')}), ${o.monitors} HTTP monitors on one target every ${o.interval} s in both, one policy naming a webhook, a Slack webhook and an email channel (local receivers, smtp-server); once all are up the target answers 500 (\`test/bench/storm.js\`). Raised: the last \`down\` alert in the data file (read every 250 ms).
API: \`GET /monitors?limit=50\` and \`GET /alerts?limit=50\` in turn from the failure to the end of the watch (3 min after the last alert). Baseline: the same storm with grouping off, same invocation. PagerDuty/Opsgenie would get one event per alert (\`per_alert\`). \`LOOKOUT_BENCH_STORM_PARENT=1\`: every monitor \`depends_on\` one parent (goal: 1 alert).

| run | alerts | all raised after | webhook / Slack / email messages | API p50 / p99 |
|---|---|---|---|---|
${results.map(row).join('\n')}`,
  );
};
