import type Database from 'better-sqlite3';
import {
  addLatency,
  decodeCounts,
  encodeCounts,
  type LatencyCounts,
  mergeCounts,
} from '../../domain/results/latency-histogram.js';

const toBlob = (c: LatencyCounts | null): Buffer | null => {
  if (!c || c.size === 0) return null;
  const bytes = encodeCounts(c);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};

/**
 * The SQL functions of the response-time histograms (domain/results/latency-histogram.ts), registered
 * once per connection where it is opened (sqlite-store.ts), so the flush and the readers build and
 * merge them inside their one statement:
 *
 * - `latency_counts(histogram, ms)`, an aggregate: the histogram of its rows, each adding either an
 *   encoded histogram (a bucket) or, when that is NULL, one response time (a result); NULL when empty.
 * - `latency_merge(a, b)`: the two encoded histograms added (NULL counts as empty; NULL when both are).
 *
 * Both deterministic. A row costs one call into JavaScript: a Map update, or a decode of a few dozen
 * bytes.
 */
export const registerLatencyFunctions = (db: Database.Database) => {
  // better-sqlite3 takes the number of arguments from `step.length` (two after the accumulator).
  const step = (acc: LatencyCounts | null, histogram: unknown, ms: unknown) => {
    if (histogram instanceof Uint8Array) return decodeCounts(histogram, acc ?? new Map());
    if (typeof ms === 'number' || typeof ms === 'bigint') return addLatency(acc ?? new Map(), Number(ms));
    return acc;
  };
  db.aggregate('latency_counts', {
    start: () => null as LatencyCounts | null,
    step: step as unknown as (acc: LatencyCounts | null, next: unknown) => LatencyCounts | null,
    result: toBlob,
    deterministic: true,
  });
  db.function('latency_merge', { deterministic: true }, (a: unknown, b: unknown) => {
    if (!(b instanceof Uint8Array) || b.length === 0) return a instanceof Uint8Array ? a : null;
    if (!(a instanceof Uint8Array) || a.length === 0) return b;
    return toBlob(mergeCounts(decodeCounts(a), decodeCounts(b)));
  });
};
