// What the control plane's in-memory tables of monitors hold on the heap (docs/benchmarks.md, "History": issue 27's sixteenth round):
// the state book's states (state-table.ts) and the recent index (recent-index.ts) filled for MONITORS
// monitors (UUIDs, as monitor ids are) in two locations, one recent row per state, measured after a
// full collection. With trees given, each tree's build in turn (A B A B …), ROUNDS (2) times; a tree
// with a monitor-slots.js (domain/monitors/monitor-slots.ts, in store/sqlite/ when it was new) shares
// one numbering of monitors between the two, as the store does.
//
//   node --expose-gc test/bench/monitor-tables-memory.js [TREE …]     Env: MONITORS (100000), ROUNDS (2).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const MONITORS = Number(process.env.MONITORS ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const here = resolve(import.meta.dirname, '..', '..');

if (process.argv[2] === '--child') {
  const sqlite = join(process.argv[3], 'control-plane', 'dist', 'store', 'sqlite');
  const mod = (f) => import(pathToFileURL(join(sqlite, f)).href);
  const { createStateTable } = await mod('state-table.js');
  const { createRecentIndex } = await mod('recent-index.js');
  const slotsFile = [join(sqlite, '..', '..', 'domain', 'monitors'), sqlite]
    .map((dir) => join(dir, 'monitor-slots.js'))
    .find((file) => existsSync(file));
  const monitors = slotsFile ? (await import(pathToFileURL(slotsFile).href)).createMonitorSlots() : undefined;
  // Flat strings, as read from SQLite (randomUUID's are cons strings until something flattens them).
  const ids = Array.from({ length: MONITORS }, () => Buffer.from(randomUUID(), 'latin1').toString('latin1'));
  const at = new Date();
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const states = createStateTable(monitors);
  const recent = createRecentIndex(monitors);
  let rid = 1;
  for (const location of ['eu-west', 'us-east']) {
    for (const id of ids) {
      states.put({
        monitor_id: id,
        location,
        status: 'up',
        consecutive_failures: 0,
        consecutive_successes: 1,
        consecutive_slow: 0,
        last_result_at: at,
        last_scheduled_at: at,
        version: 1,
      });
      recent.add(id, rid++);
    }
  }
  globalThis.gc();
  const mb = (process.memoryUsage().heapUsed - before) / 1e6;
  console.log(`${mb.toFixed(1)} MB for ${states.size} states and ${recent.size} recent rows`);
} else {
  const trees = process.argv.length > 2 ? process.argv.slice(2) : [here];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const tree of trees) {
      const out = execFileSync(
        process.execPath,
        ['--expose-gc', import.meta.filename, '--child', resolve(tree)],
        { encoding: 'utf8', env: { ...process.env } },
      );
      console.log(`round ${round} ${tree}: ${out.trim()}`);
    }
  }
}
