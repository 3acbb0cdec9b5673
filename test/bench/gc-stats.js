// Preload (NODE_OPTIONS=--import=<abs path>/gc-stats.js, e.g. through agent-paced.js's AGENT_NODE_OPTIONS)
// to see how a Lookout process's young generation behaves: every 10 s it appends one line to
// `$LOOKOUT_BENCH_GC_DIR/<agent-region|control-plane>.<pid>.gc.txt` with the scavenges of those 10 s,
// their mean pause, what survived them in new space and what they promoted to old space (mean per
// scavenge, from V8's own before/after heap statistics), the full collections and their mean pause, RSS and heap used.
// Promotion is the figure to watch: a check's objects should die young; whatever is promoted waits
// for a full collection and is what RSS grows by in between. Where RSS goes: V8's heap (reserved and
// used), memory outside it (external: Buffers, SQLite's page cache is not among them), and on Linux
// the kernel's split of RSS into anonymous and file-backed pages.
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GCProfiler } from 'node:v8';

const dir = process.env.LOOKOUT_BENCH_GC_DIR;
if (dir) {
  const region = process.env.LOOKOUT_AGENT_REGION;
  const file = join(dir, `${region ? `agent-${region}` : 'control-plane'}.${process.pid}.gc.txt`);
  const used = (stats, space) =>
    stats.heapSpaceStatistics.find((s) => s.spaceName === space)?.spaceUsedSize ?? 0;
  const mb = (bytes) => (bytes / 1e6).toFixed(2);
  const kernel = () => {
    try {
      const status = readFileSync('/proc/self/status', 'utf8');
      const kb = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+)`, 'm'))?.[1] ?? 0);
      return ` rss_anon_mb=${mb(kb('RssAnon') * 1024)} rss_file_mb=${mb(kb('RssFile') * 1024)} threads=${kb('Threads')}`;
    } catch {
      return '';
    }
  };
  let profiler = new GCProfiler();
  profiler.start();
  setInterval(() => {
    const { statistics } = profiler.stop();
    profiler = new GCProfiler();
    profiler.start();
    let scavenges = 0;
    let pauseUs = 0;
    let survived = 0;
    let promoted = 0;
    let full = 0;
    let fullUs = 0;
    for (const gc of statistics) {
      if (gc.gcType === 'Scavenge') {
        scavenges++;
        pauseUs += gc.cost;
        survived += used(gc.afterGC, 'new_space');
        promoted += used(gc.afterGC, 'old_space') - used(gc.beforeGC, 'old_space');
      } else if (gc.gcType === 'MarkSweepCompact') {
        full++;
        fullUs += gc.cost;
      }
    }
    const per = (x) => (scavenges ? x / scavenges : 0);
    const mem = process.memoryUsage();
    appendFileSync(
      file,
      `${new Date().toISOString()} scavenges=${scavenges} mean_pause_ms=${(per(pauseUs) / 1000).toFixed(1)} ` +
        `survived_mb=${mb(per(survived))} promoted_mb=${mb(per(promoted))} full=${full} ` +
        `full_mean_pause_ms=${(full ? fullUs / full / 1000 : 0).toFixed(1)} ` +
        `rss_mb=${mb(mem.rss)} heap_used_mb=${mb(mem.heapUsed)} heap_total_mb=${mb(mem.heapTotal)} ` +
        `external_mb=${mb(mem.external)}${kernel()}\n`,
    );
  }, 10_000).unref();
}
