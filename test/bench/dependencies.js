// npm run bench -- dependencies: the alert storm behind one dependency. 5,001 monitors (one parent,
// 5,000 others) on a fresh SQLite file; a client sends their results over the real agent protocol
// (ReportResults, 1,000 a call) to the control plane: one round up, then three rounds failing (their
// failure_threshold is 3), each round in a new random order, so most dependents' verdicts arrive
// before or after their parent's by chance. Run twice in the same process: the baseline (no
// dependencies) and the 5,000 depending on the parent. The file is read while the control plane runs
// to see when every dependent's hold is decided, and afterwards to count alerts.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { AgentService, CheckResultSchema } from '@lookout/proto';
import Database from 'better-sqlite3';
import { machine, writeSection } from './report.js';
import { benchStore, insertMonitors, sleep, spawnPinned, waitLine } from './support.js';

const DEPENDENTS = 5000;
const BATCH = 1000;

const shuffled = (xs) => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};

const storm = async (withDependencies) => {
  const { dir, env, store, workspace, policy, token } = await benchStore('dependencies');
  const ids = await insertMonitors(store, workspace.id, policy.id, DEPENDENTS + 1, 60, 9);
  await store.close();
  const parent = ids[0];
  if (withDependencies) {
    const db = new Database(join(dir, 'lookout.db'));
    db.prepare('UPDATE monitors SET depends_on = ? WHERE id != ?').run(JSON.stringify([parent]), parent);
    db.close();
  }
  const cp = spawnPinned(
    1,
    [process.execPath, join(import.meta.dirname, '..', '..', 'control-plane', 'dist', 'main.js')],
    env,
  );
  const rpcPort = Number((await waitLine(cp, /agents connect: http:\/\/[\d.]+:(\d+)/))[1]);
  const client = createClient(
    AgentService,
    createGrpcTransport({
      baseUrl: `http://127.0.0.1:${rpcPort}`,
      interceptors: [
        (next) => (req) => {
          req.header.set('authorization', `Bearer ${token}`);
          return next(req);
        },
      ],
    }),
  );
  const reg = await client.register({ instanceId: 'storm' });
  const round = async (ok, at) => {
    const order = shuffled(ids);
    for (let i = 0; i < order.length; i += BATCH) {
      const results = order.slice(i, i + BATCH).map((id) =>
        create(CheckResultSchema, {
          resultId: '',
          monitorId: id,
          monitorVersion: 1n,
          scheduledAtMs: BigInt(at),
          startedAtMs: BigInt(at),
          ok,
          responseTimeMs: 5,
          statusCode: ok ? 200 : 503,
          errorMessage: ok ? '' : 'expected status 200, got 503',
        }),
      );
      await client.reportResults({ instanceId: 'storm', sessionId: reg.sessionId, results });
    }
    return order.indexOf(parent);
  };
  const t0 = Date.now();
  await round(true, t0 - 60_000);
  const failedAt = Date.now();
  const parentPlaces = [];
  for (let r = 0; r < 3; r++) parentPlaces.push(await round(false, failedAt + r * 15_000));
  const sent = Date.now();
  // Settled: every monitor down, and no hold waiting (held or released) any more.
  const db = new Database(join(dir, 'lookout.db'), { readonly: true });
  const count = (sql) => db.prepare(sql).get().n;
  let settledAt = null;
  for (let i = 0; i < 600 && settledAt === null; i++) {
    const down = count("SELECT count(*) n FROM monitor_states WHERE location = '*' AND status = 'down'");
    const waiting = count("SELECT count(*) n FROM alert_holds WHERE state != 'suppressed'");
    const decided =
      count("SELECT count(*) n FROM alert_holds WHERE state = 'suppressed'") +
      count("SELECT count(*) n FROM alerts WHERE source_type = 'monitor'");
    if (down === ids.length && waiting === 0 && decided === ids.length) settledAt = Date.now();
    else await sleep(100);
  }
  const alerts = count("SELECT count(*) n FROM alerts WHERE source_type = 'monitor'");
  const suppressed = count("SELECT count(*) n FROM alert_holds WHERE state = 'suppressed'");
  const heldBack = db.prepare('SELECT held_back n FROM alerts WHERE source_id = ?').get(parent)?.n ?? 0;
  db.close();
  await new Promise((resolve) => {
    cp.on('exit', resolve);
    cp.kill('SIGTERM');
  });
  rmSync(dir, { recursive: true, force: true });
  const r = {
    alerts,
    suppressed,
    heldBack,
    sendMs: sent - failedAt,
    settleMs: settledAt === null ? null : settledAt - failedAt,
    parentPlaces,
  };
  process.stdout.write(`${withDependencies ? 'with dependencies' : 'baseline'}: ${JSON.stringify(r)}\n`);
  return r;
};

export const run = async () => {
  const base = await storm(false);
  const deps = await storm(true);
  const s = (ms) => (ms === null ? 'did not settle in 60 s' : `${(ms / 1000).toFixed(1)} s`);
  // Four lines in all (docs/benchmarks.md stays under 400 lines).
  writeSection(
    'dependencies',
    `### Alert storm behind one dependency (\`npm run bench -- dependencies\`)
Run ${new Date().toISOString().slice(0, 10)} on ${machine()}. 5,001 http monitors (threshold 3), fresh SQLite, control plane on core 1, results over gRPC (1,000 a call): a round up, three failing, each in a new random order (the parent at places ${deps.parentPlaces.join(', ')}: thousands of dependents go down first). **5,000 depending on one parent: ${deps.alerts.toLocaleString('en')} alert${deps.alerts === 1 ? '' : 's'}** (goal: exactly 1), ${deps.suppressed.toLocaleString('en')} suppressed, \`held_back\` ${deps.heldBack.toLocaleString('en')} on the parent's alert, every hold decided ${s(deps.settleMs)} after the first failing call (sending took ${s(deps.sendMs)}). **Baseline, same storm without dependencies, same run: ${base.alerts.toLocaleString('en')} alerts**, ${s(base.settleMs)} (sending ${s(base.sendMs)}).`,
  );
};
