// npm run bench -- store [--vs TREE] [--rounds N] [--dry-run] [--reads] [--monitors N --interval S]: the result store's write path alone, in
// the shape of many monitors (store-child.js runs one shape in a process of its own): CPU and bytes
// written per result, in-process, no RPC. With --vs, TREE (another checkout, built: e.g. a worktree
// of the commit before a change) runs the same shapes, alternating with this tree round by round, so
// both meet the same machine. Each tree's uptime flush runs at that tree's own default interval (read
// from its rollups.js), as its control plane would run it. --reads measures the reads instead (see
// `reads` below).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { machine, writeSection } from './report.js';

const HERE = resolve(import.meta.dirname, '..', '..');
const WARM = process.env.WARM ?? '5';
const RUN = process.env.RUN ?? '10';
const SHAPES = [
  { monitors: 20_000, interval: 20, note: '20,000 monitors at 20 s (2,000 results/s)' },
  { monitors: 30_000, interval: 60, note: '30,000 monitors at 60 s (1,000 results/s)' },
];

const flushSeconds = (tree) => {
  const js = readFileSync(join(tree, 'control-plane', 'dist', 'store', 'sqlite', 'rollups.js'), 'utf8');
  const m = /everyMs \?\? ([\d_]+)/.exec(js);
  if (!m) throw new Error(`${tree}: no default flush interval found in rollups.js`);
  return Number(m[1].replaceAll('_', '')) / 1000;
};

const once = (tree, shape, dir) => {
  const r = spawnSync(process.execPath, [join(import.meta.dirname, 'store-child.js')], {
    env: {
      ...process.env,
      TREE: tree,
      DIR: dir,
      MONITORS: String(shape.monitors),
      INTERVAL: String(shape.interval),
      FLUSH_S: String(flushSeconds(tree)),
      WARM,
      RUN,
    },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`store-child failed (${tree}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
};

export const run = async (argv) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      vs: { type: 'string' },
      rounds: { type: 'string', default: '2' },
      'dry-run': { type: 'boolean', default: false },
      reads: { type: 'boolean', default: false },
      monitors: { type: 'string' },
      interval: { type: 'string' },
    },
  });
  if (values.reads) return reads(values);
  const trees = values.vs
    ? [
        ['A', resolve(values.vs)],
        ['B', HERE],
      ]
    : [['B', HERE]];
  const dir = mkdtempSync(join(tmpdir(), 'lookout-bench-store-'));
  const rows = [];
  try {
    // --monitors N [--interval S]: that shape alone (e.g. issue 27's 100,000 at 60 s); never written.
    const shapes = values.monitors
      ? [
          {
            monitors: Number(values.monitors),
            interval: Number(values.interval ?? 60),
            note: `${Number(values.monitors).toLocaleString('en')} monitors at ${values.interval ?? 60} s`,
          },
        ]
      : SHAPES;
    if (values.monitors) values['dry-run'] = true;
    for (const shape of shapes) {
      for (let round = 1; round <= Number(values.rounds); round++) {
        for (const [label, tree] of round % 2 ? trees : [...trees].reverse()) {
          const load = loadavg()[0].toFixed(1);
          const r = once(tree, shape, dir);
          rows.push({ shape: shape.note, label, round, load, ...r });
          process.stdout.write(
            `${shape.note} ${label} round ${round} (load ${load}): ${r.cpu_ms_per_1000.toFixed(1)} ms CPU and ${Math.round(r.bytes_per_result)} bytes written per 1,000 / per result\n`,
          );
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const table = rows
    .map(
      (r) =>
        `| ${r.shape} | ${r.label} | ${r.round} | ${r.load} | ${r.cpu_ms_per_1000.toFixed(1)} | ${r.ingest_ms_per_1000?.toFixed(1) ?? '–'} | ${r.flush_ms_per_1000?.toFixed(1) ?? '–'} | ${Math.round(r.bytes_per_result).toLocaleString('en-US')} |`,
    )
    .join('\n');
  const body = `### Result store write path (\`npm run bench -- store\`)

Run ${new Date().toISOString().slice(0, 16)} UTC on ${machine()}.
Method: \`recordResults\` on a fresh SQLite file (WAL, \`synchronous=FULL\`) in a process of its own
(\`test/bench/store-child.js\`), no RPC: monitors in two locations, each checked once per interval of
simulated time at its own phase, stored in batches of a tenth of a second's results (ten commits a
second); the uptime flush and the states' snapshot run every flush interval of simulated time (each
tree's own default: ${trees.map(([l, t]) => `${l} ${flushSeconds(t)} s`).join(', ')}). After ${WARM} simulated minutes of history, ${RUN} are
measured: CPU of the process (in all, and apart in \`recordResults\` and in the flush: the rest is the
bench making its results), and bytes it wrote (the WAL), per result.${values.vs ? ` A is ${values.vs}, B this tree; they alternate round by round.` : ''}

| shape | tree | round | load | CPU ms per 1,000 results | of which ingestion | of which flush | bytes written per result |
|---|---|---:|---:|---:|---:|---:|---:|
${table}`;
  process.stdout.write(`${body}\n`);
  if (!values['dry-run']) writeSection('store', body);
};

const READ_SHAPE = { n: 50_000, history: 20, recent: 5 };

/**
 * `--reads`: the reads beside the write path. A store shaped like 50,000 monitors at 60 s in two
 * locations (20 minutes folded, 5 waiting), read as the dashboard, a monitor's page and its history
 * read it (store-reads-child.js), per tree, alternating; and the CPU of flushing the 5 minutes.
 */
const reads = async (values) => {
  const trees = values.vs
    ? [
        ['A', resolve(values.vs)],
        ['B', HERE],
      ]
    : [['B', HERE]];
  const dir = mkdtempSync(join(tmpdir(), 'lookout-bench-reads-'));
  const rows = [];
  try {
    for (let round = 1; round <= Number(values.rounds); round++) {
      for (const [label, tree] of round % 2 ? trees : [...trees].reverse()) {
        const load = loadavg()[0].toFixed(1);
        const r = spawnSync(process.execPath, [join(import.meta.dirname, 'store-reads-child.js')], {
          env: {
            ...process.env,
            TREE: tree,
            DIR: dir,
            N: String(READ_SHAPE.n),
            HISTORY: String(READ_SHAPE.history),
            RECENT: String(READ_SHAPE.recent),
          },
          encoding: 'utf8',
        });
        if (r.status !== 0) throw new Error(`store-reads-child failed (${tree}): ${r.stderr}`);
        const out = JSON.parse(r.stdout.trim().split('\n').pop());
        rows.push({ label, round, load, ...out });
        process.stdout.write(`reads ${label} round ${round} (load ${load}): ${JSON.stringify(out)}\n`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ms = (x) => x.toFixed(1);
  const table = rows
    .map(
      (r) =>
        `| ${r.label} | ${r.round} | ${r.load} | ${ms(r.list.p50)} / ${ms(r.list.p99)} | ${ms(r.status.p50)} / ${ms(r.status.p99)} | ${ms(r.history.p50)} / ${ms(r.history.p99)} | ${r.flush_us_per_result.toFixed(1)} |`,
    )
    .join('\n');
  const body = `### Result store reads (\`npm run bench -- store --reads\`)

Run ${new Date().toISOString().slice(0, 16)} UTC on ${machine()}.
Method: a SQLite file shaped like ${READ_SHAPE.n.toLocaleString('en-US')} monitors checked every 60 s in two locations, stored through
\`recordResults\` (\`test/bench/store-reads-child.js\`): ${READ_SHAPE.history} minutes of results flushed, then ${READ_SHAPE.recent} minutes stored since
(waiting for the next flush). Then, 200 times each, p50 / p99 in ms: the dashboard's page
(\`listMonitorsWithStatus\`, 100 monitors with uptime and recent checks), one monitor's status and checks
(\`getMonitorStatuses\`, what \`GET /monitors/{id}\` reads), and one monitor's newest 50 results
(\`listResults\`); last, the CPU of the flush of the ${READ_SHAPE.recent} waiting minutes, per result.${values.vs ? ` A is ${values.vs}, B this tree; they alternate round by round.` : ''}

| tree | round | load | dashboard page ms | one monitor ms | history (50) ms | flush µs CPU per result |
|---|---:|---:|---:|---:|---:|---:|
${table}`;
  process.stdout.write(`${body}\n`);
  if (!values['dry-run']) writeSection('store-reads', body);
};
