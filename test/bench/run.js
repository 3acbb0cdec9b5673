// npm run bench -- <name>: runs a benchmark and writes its figures into docs/benchmarks.md.
const name = process.argv[2];
const benches = {
  ping: () => import('./ping.js'),
  agent: () => import('./agent.js'),
  ingest: () => import('./ingest.js'),
  system: () => import('./system.js'),
  dashboard: () => import('./dashboard.js'),
  batch: () => import('./batch.js'),
  status: () => import('./status.js'),
  store: () => import('./store.js'),
  'flush-order': () => import('./flush-order.js'),
};
if (!benches[name]) {
  process.stderr.write(`usage: npm run bench -- <${Object.keys(benches).join('|')}>\n`);
  process.exit(2);
}
const { run } = await benches[name]();
await run(process.argv.slice(3));
