// What a result waiting for its acknowledgement holds in the agent's memory (issue 27): 200,000 http
// results pushed into the agent's store of waiting results (waiting-results.ts: their wire bytes),
// the heap plus array buffers measured after full collections before and after, against what the
// store counts for them (its byte bound's figure).
//
//   node --expose-gc test/bench/result-memory.js
import { createWaitingResults } from '../../agent/dist/waiting-results.js';
import { resultOf } from '../../agent/dist/wire.js';

if (typeof gc !== 'function') throw new Error('run with node --expose-gc');
const N = 200_000;
const T = 1_800_000_000_000;
const outcome = {
  ok: true,
  error: null,
  response_time_ms: 3.2,
  status_code: 200,
  timings: { dns_ms: 0, connect_ms: 1.1, tls_ms: 0, first_byte_ms: 2.2, total_ms: 3.2 },
};
// Monitor ids as the agent holds them: one string per monitor, shared by its results.
const monitors = Array.from(
  { length: 1000 },
  (_, i) => `0193a1b2-c3d4-7e5f-8a9b-${String(i).padStart(12, '0')}`,
);
const result = (i) => {
  const monitorId = monitors[i % monitors.length];
  return resultOf({
    monitorId,
    version: 3n,
    scheduledAt: T + i,
    startedAt: T + i + 1,
    outcome,
  });
};
const used = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const waiting = createWaitingResults({ maxItems: N, maxAgeMs: 3_600_000, field: 2 });
const before = used();
for (let i = 0; i < N; i++) waiting.push(T, result(i), T);
const after = used();
if (waiting.size !== N) throw new Error('the store dropped results');
console.log(
  `${((after - before) / N).toFixed(0)} bytes per waiting result in memory; ${(waiting.bytes / N).toFixed(0)} counted; ${(waiting.reserved / N).toFixed(0)} reserved`,
);
