// Preload (NODE_OPTIONS=--import=<abs path>/heap-sample.js) to see where a Lookout process allocates:
// V8's sampling heap profiler, through the inspector, keeping the objects that minor and major
// collections freed, so the profile is of what was allocated (not of what is alive). It starts
// LOOKOUT_BENCH_HEAP_AFTER_S seconds after the process starts (default 120) and runs for
// LOOKOUT_BENCH_HEAP_FOR_S (default 60), then writes
// `$LOOKOUT_BENCH_HEAP_DIR/<agent-region|control-plane>.<pid>.heapprofile` (open it in Chrome's DevTools
// or sum it with heap-sample-summary.js). LOOKOUT_BENCH_HEAP_ONLY=control-plane|agent limits it to one kind.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const dir = process.env.LOOKOUT_BENCH_HEAP_DIR;
const region = process.env.LOOKOUT_AGENT_REGION;
const kind = region ? 'agent' : 'control-plane';
const only = process.env.LOOKOUT_BENCH_HEAP_ONLY;
if (dir && isMainThread && (!only || only === kind)) {
  const after = Number(process.env.LOOKOUT_BENCH_HEAP_AFTER_S ?? 120) * 1000;
  const span = Number(process.env.LOOKOUT_BENCH_HEAP_FOR_S ?? 60) * 1000;
  const session = new Session();
  session.connect();
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
    );
  setTimeout(async () => {
    await post('HeapProfiler.enable');
    await post('HeapProfiler.startSampling', {
      samplingInterval: 16384,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    setTimeout(async () => {
      const { profile } = await post('HeapProfiler.stopSampling');
      const name = `${region ? `agent-${region}` : 'control-plane'}.${process.pid}.heapprofile`;
      writeFileSync(join(dir, name), JSON.stringify(profile));
    }, span).unref();
  }, after).unref();
}
