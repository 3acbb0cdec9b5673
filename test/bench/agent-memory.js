// A separate agent process for the memory figure: connects, waits until its assignments stop
// growing, then prints RSS and heap after a GC.
import { silentLogger } from '@lookout/shared';
import { createAgent } from '../../agent/dist/agent.js';
import { createProbers } from '../../agent/dist/probers/index.js';

const agent = createAgent({
  config: {
    control_plane_url: process.env.BENCH_RPC,
    token: process.env.BENCH_TOKEN,
    region: 'eu-west',
    instance_id: 'memory',
    concurrency: 64,
    queue_max: 100_000,
    buffer_max_results: 100_000,
    buffer_max_bytes: 32 * 2 ** 20,
    buffer_max_age_seconds: 3600,
    log_level: 'silent',
    shutdown_grace_ms: 1000,
    auth_retry_seconds: 300,
    chromium_path: undefined,
    browser_concurrency: 2,
    browser_memory_mb: 128,
    browser_cpu_seconds: 30,
  },
  logger: silentLogger(),
  prober: createProbers(),
});
void agent.start();
let last = -1;
for (;;) {
  await new Promise((r) => setTimeout(r, 2000));
  const n = agent.assigned().length;
  if (n >= 50_000 && n === last) break;
  last = n;
}
globalThis.gc?.();
const m = process.memoryUsage();
process.stdout.write(`RSS ${m.rss} HEAP ${m.heapUsed} ASSIGNED ${agent.assigned().length}\n`);
setInterval(() => {}, 1 << 30);
