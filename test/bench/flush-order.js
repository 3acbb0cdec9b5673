// npm run bench -- flush-order [--vs TREE] [--rounds N] [--cycles N]: the SQLite store's recent index
// (control-plane/src/store/sqlite/recent-index.ts) driven as the control plane drives it at 100,000
// monitors every 60 s in two regions, without SQLite: 3,333 results a second in 10 ms turns, the
// monitors appearing over their first 30 s (random UUIDs, as created through the API), a flush every
// 15 s walking the monitors 250 a turn (`nextMonitors`, `ofAll`) with results arriving between chunks,
// then `forget` and `sweep` 5,000 a turn. Prints the time each kind of call took in all, per flush
// cycle, and the longest one; with --vs, the other tree's build is run in turn (A B A B …). Prints only:
// the figures and their reading are in docs/benchmarks.md, "Recent index flush order".
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const MONITORS = 100_000;
const PER_TURN = 33;
const CREATE_TURNS = 3000;
const FLUSH_TURNS = 1500;

const once = async (tree, cycles, ids) => {
  const url = pathToFileURL(join(tree, 'control-plane', 'dist', 'store', 'sqlite', 'recent-index.js')).href;
  const { createRecentIndex } = await import(`${url}?${tree}`);
  const ix = createRecentIndex();
  const kinds = {};
  const timed = (kind, fn) => {
    const t = performance.now();
    const out = fn();
    const ms = performance.now() - t;
    kinds[kind] ??= { calls: 0, ms: 0, max: 0 };
    const k = kinds[kind];
    k.calls++;
    k.ms += ms;
    k.max = Math.max(k.max, ms);
    return out;
  };
  let rid = 0;
  let turns = 0;
  let cursor = 0;
  const ingest = () =>
    timed('add', () => {
      turns++;
      const created = Math.min(MONITORS, Math.floor((turns * MONITORS) / CREATE_TURNS) + 1);
      for (let k = 0; k < PER_TURN; k++) ix.add(ids[cursor++ % created], ++rid);
    });
  let upto = 0;
  for (let c = 0; c < cycles; c++) {
    for (let t = 0; t < FLUSH_TURNS; t++) ingest();
    const flushTo = rid;
    let after = '';
    for (;;) {
      const chunk = timed('nextMonitors', () => ix.nextMonitors(upto, flushTo, after, 250));
      ingest();
      if (chunk.length === 0) break;
      timed('ofAll', () => ix.ofAll(chunk, upto, flushTo));
      after = chunk[chunk.length - 1];
    }
    upto = flushTo;
    ix.forget(flushTo);
    while (!timed('sweep', () => ix.sweep(5000))) ingest();
  }
  const total = Object.values(kinds).reduce((a, k) => a + k.ms, 0);
  const longest = Math.max(...Object.values(kinds).map((k) => k.max));
  const each = Object.entries(kinds)
    .map(([kind, k]) => `${kind} ${k.ms.toFixed(0)} ms (${k.calls} calls, longest ${k.max.toFixed(1)})`)
    .join(', ');
  process.stdout.write(
    `${tree}: ${(total / cycles).toFixed(0)} ms per flush cycle, longest call ${longest.toFixed(1)} ms; ${each}\n`,
  );
};

export const run = async (argv) => {
  const { values } = parseArgs({
    args: argv,
    options: { vs: { type: 'string' }, rounds: { type: 'string' }, cycles: { type: 'string' } },
  });
  const here = resolve(import.meta.dirname, '..', '..');
  const trees = values.vs ? [resolve(values.vs), here] : [here];
  const rounds = Number(values.rounds ?? 2);
  const cycles = Number(values.cycles ?? 8);
  const ids = Array.from({ length: MONITORS }, () => randomUUID());
  for (let r = 0; r < rounds; r++) for (const tree of trees) await once(tree, cycles, ids);
};
