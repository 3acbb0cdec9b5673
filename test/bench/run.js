// npm run bench -- <name>: runs a benchmark and writes its figures into docs/benchmarks.md.
import { readFileSync } from 'node:fs';

const name = process.argv[2];
const benches = {
  ping: () => import('./ping.js'),
  agent: () => import('./agent.js'),
  assertions: () => import('./assertions.js'),
  ingest: () => import('./ingest.js'),
  system: () => import('./system.js'),
  dashboard: () => import('./dashboard.js'),
  batch: () => import('./batch.js'),
  bulk: () => import('./bulk.js'),
  status: () => import('./status.js'),
  store: () => import('./store.js'),
  'flush-order': () => import('./flush-order.js'),
  dependencies: () => import('./dependencies.js'),
  storm: () => import('./storm.js'),
  'icmp-smtp': () => import('./icmp-smtp.js'),
  streams: () => import('./streams.js'),
  databases: () => import('./databases.js'),
  oncall: () => import('./oncall.js'),
  browser: () => import('./browser.js'),
  multistep: () => import('./multistep.js'),
  'sla-report': () => import('./sla-report.js'),
  export: () => import('./export.js'),
};
if (!benches[name]) {
  process.stderr.write(`usage: npm run bench -- <${Object.keys(benches).join('|')}>\n`);
  process.exit(2);
}
// A machine whose node is older than the one the project declares (package.json engines, the runtime
// deploy/docker ships) measures that older node, and it differs (docs/benchmarks.md, "How the
// figures are taken"; measured in "History": issue 27's twenty-second round).
const { engines } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const [wantMajor, wantMinor = 0] = engines.node
  .replace(/^>=\s*/, '')
  .split('.')
  .map(Number);
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < wantMajor || (major === wantMajor && minor < wantMinor)) {
  process.stderr.write(
    `note: measuring on Node ${process.version}, older than the project's ${engines.node}; ` +
      'test/bench/node22-tree.sh builds a tree that benches on Node 22\n',
  );
}
const { run } = await benches[name]();
await run(process.argv.slice(3));
