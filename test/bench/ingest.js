// npm run bench -- ingest: control-plane result ingestion over the real agent protocol. A client in
// this process (pinned to core 0) sends ReportResults batches of 1,000 results, 4 calls in flight, to
// a server pinned to core 1: first a minimal AgentService that acknowledges without storing (the
// ceiling of the RPC stack), then the real control plane on a fresh SQLite file, which stores every
// result and evaluates it (location counters, monitor verdict, alerts). Afterwards the database is
// opened again and the stored results are counted: stored must equal accepted.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { AgentService, CheckResultSchema } from '@lookout/proto';
import Database from 'better-sqlite3';
import { machine, writeSection } from './report.js';
import { allResultsSql, benchStore, insertMonitors, linux, spawnPinned, waitLine } from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BATCH = 1000;
const IN_FLIGHT = 4;
/** Every 50th monitor fails every check: its location goes down and one alert opens per monitor. */
const FAIL_EVERY = 50;

/** Sends batches for `seconds` (after a 2 s warm-up) and returns accepted results per second. */
const drive = async (rpcUrl, token, ids, seconds) => {
  const client = createClient(
    AgentService,
    createGrpcTransport({
      baseUrl: rpcUrl,
      interceptors: [
        (next) => (req) => {
          req.header.set('authorization', `Bearer ${token}`);
          return next(req);
        },
      ],
    }),
  );
  const reg = await client.register({ instanceId: 'ingest' });
  let seq = 0;
  let counted = 0;
  let total = 0;
  const warmUntil = Date.now() + 2000;
  const until = warmUntil + seconds * 1000;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (Date.now() < until) {
        const base = 1_700_000_000_000 + 10_000_000 * seq++;
        const results = ids.map((id, i) =>
          create(CheckResultSchema, {
            resultId: `${id}:eu-west:${base + i}`,
            monitorId: id,
            monitorVersion: 1n,
            scheduledAtMs: BigInt(base + i),
            startedAtMs: BigInt(base + i),
            ok: i % FAIL_EVERY !== 0,
            responseTimeMs: 5,
            statusCode: i % FAIL_EVERY !== 0 ? 200 : 503,
            errorMessage: i % FAIL_EVERY !== 0 ? '' : 'expected status 200, got 503',
          }),
        );
        const r = await client.reportResults({ instanceId: 'ingest', sessionId: reg.sessionId, results });
        total += r.accepted;
        if (Date.now() >= warmUntil) counted += r.accepted;
      }
    }),
  );
  return { rate: counted / seconds, total };
};

export const run = async () => {
  if (linux) spawnSync('taskset', ['-p', '-c', '0', String(process.pid)]);
  const { dir, env, store, workspace, policy, token } = await benchStore('ingest');
  const ids = await insertMonitors(store, workspace.id, policy.id, BATCH, 60, 9);
  await store.close();

  // 1. The ceiling: the same calls answered by an AgentService that stores nothing.
  const sink = spawnPinned(1, [process.execPath, join(import.meta.dirname, 'sink-server.js'), 'http://x/']);
  const sinkPort = Number((await waitLine(sink, /READY (\d+)/))[1]);
  const ceiling = await drive(`http://127.0.0.1:${sinkPort}`, token, ids, SECONDS);
  sink.kill('SIGTERM');
  process.stdout.write(`RPC only (acknowledge, store nothing): ${Math.round(ceiling.rate)} results/s\n`);

  // 2. The control plane: every result stored (durably) and evaluated.
  const cp = spawnPinned(
    1,
    [
      process.execPath,
      ...(process.env.BENCH_CP_NODE_ARGS ?? '').split(' ').filter(Boolean),
      join(import.meta.dirname, '..', '..', 'control-plane', 'dist', 'main.js'),
    ],
    env,
  );
  const rpcPort = Number((await waitLine(cp, /agents connect: http:\/\/[\d.]+:(\d+)/))[1]);
  const lookout = await drive(`http://127.0.0.1:${rpcPort}`, token, ids, SECONDS);
  process.stdout.write(`Lookout control plane: ${Math.round(lookout.rate)} results/s\n`);
  await new Promise((resolve) => {
    cp.on('exit', resolve);
    cp.kill('SIGTERM');
  });

  const db = new Database(join(dir, 'lookout.db'), { readonly: true });
  const stored = db.prepare(`SELECT count(*) n FROM ${allResultsSql(db, 'id, monitor_id')}`).get().n;
  const alerts = db.prepare("SELECT count(*) n FROM alerts WHERE source_type = 'monitor'").get().n;
  db.close();
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`accepted ${lookout.total}, stored ${stored}, monitor alerts ${alerts}\n`);
  if (stored !== lookout.total)
    throw new Error(`stored ${stored} results but ${lookout.total} were accepted`);

  const row = (label, r) =>
    `| ${label} | ${Math.round(r.rate).toLocaleString('en')} | ${(r.rate / ceiling.rate).toFixed(2)} |`;
  writeSection(
    'ingest',
    `### Result ingestion (\`npm run bench -- ingest\`)

Run ${new Date().toISOString().slice(0, 10)} on ${machine()}.
Method: a client pinned to core 0 sends \`ReportResults\` over gRPC (HTTP/2, one connection), ${BATCH.toLocaleString('en')}
results per call (one per monitor), ${IN_FLIGHT} calls in flight, for ${SECONDS} s after a 2 s warm-up; the server
is pinned to core 1. Every ${FAIL_EVERY}th monitor fails every check, so locations go down and alerts open
while the rest stay up. The control plane runs on a fresh SQLite file (WAL, \`synchronous=FULL\`); after
the run the file is opened again: ${stored.toLocaleString('en')} results stored for ${lookout.total.toLocaleString('en')} accepted
(must be equal), ${alerts} monitor alerts open (expected ${BATCH / FAIL_EVERY}). Ratio is against the
RPC-only server in the same run.

| server | results/s | ratio |
|---|---:|---:|
${row('AgentService that acknowledges and stores nothing (RPC ceiling)', ceiling)}
${row('Lookout control plane: stored durably and evaluated', lookout)}

Design target: ≥ 20,000 results/s ingested by one control-plane process.`,
  );
};
