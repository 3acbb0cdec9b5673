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
// The project declares and deploys Node 22 (package.json engines, deploy/docker); a machine with an
// older node measures that one, and it differs (docs/benchmarks.md, issue 27's twenty-second round).
if (Number(process.versions.node.split('.')[0]) < 22) {
  process.stderr.write(
    `note: measuring on Node ${process.version}, not the Node 22 the project runs on; ` +
      'test/bench/node22-tree.sh builds a tree that benches on Node 22\n',
  );
}
const { run } = await benches[name]();
await run(process.argv.slice(3));
