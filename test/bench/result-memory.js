// What a result waiting for its acknowledgement holds in the agent's memory (issue 27): 200,000 http
// results pushed into the agent's result buffer as messages, then as wire bytes (reporter.ts,
// ENCODE_FROM), the heap plus array buffers measured after full collections before and after.
//
//   node --expose-gc test/bench/result-memory.js
import { createResultBuffer } from '../../agent/dist/result-buffer.js';
import { encodeResult, resultOf } from '../../agent/dist/wire.js';

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
    id: `${monitorId}:eu-west:${T + i}`,
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
for (const [kind, make] of [
  ['message', result],
  ['wire bytes', (i) => encodeResult(result(i))],
]) {
  const buffer = createResultBuffer({ maxItems: N, maxAgeMs: 3_600_000 });
  const before = used();
  for (let i = 0; i < N; i++) buffer.push(i, T, make(i), T);
  const after = used();
  if (buffer.size !== N) throw new Error('the buffer dropped results');
  console.log(`${kind}: ${((after - before) / N).toFixed(0)} bytes per waiting result`);
}
