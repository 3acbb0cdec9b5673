/**
 * Response times as a sparse log-linear histogram: what the daily rollups keep per (monitor, location,
 * day) so a report's percentiles come from the buckets, never from raw results.
 *
 * Buckets: 0 ms is bucket 0; 1..31 ms one bucket per whole ms (exact); from 32 ms on, each power of
 * two [2^e, 2^(e+1)) is cut into 32 equal parts, so a bucket is at most 1/32 (3.1 %) wider than its
 * lower bound: the relative error of a percentile is under 5 % everywhere (10 min is bucket 484;
 * larger times keep going). A percentile reports its bucket's upper bound
 * (`bucketValueMs`), so it never understates.
 *
 * Stored as `encodeCounts` bytes: the buckets in index order, each as two unsigned LEB128 varints
 * (the index's gap from the previous one, then the count): a day of one monitor at 60 s with a few
 * dozen distinct buckets takes ~100 bytes.
 */

/** Bucket index -> number of results in it (no zero counts). */
export type LatencyCounts = Map<number, number>;

/** Sub-buckets per power of two (and the end of the exact range). */
const SUB = 32;
const SUB_BITS = 5;

/** The bucket of a response time in ms (fractions floored, negatives are 0). */
export const latencyBucket = (ms: number): number => {
  const v = ms >= 1 ? Math.floor(ms) : 0;
  if (v < SUB) return v;
  const e = Math.floor(Math.log2(v));
  // Math.log2 may land one off near an exact power of two: correct it.
  const exp = 2 ** e > v ? e - 1 : 2 ** (e + 1) <= v ? e + 1 : e;
  const width = 2 ** (exp - SUB_BITS);
  return SUB + (exp - SUB_BITS) * SUB + Math.floor((v - 2 ** exp) / width);
};

/** The value a percentile in bucket `index` reports: the largest whole ms in it. */
export const bucketValueMs = (index: number): number => {
  if (index < SUB) return Math.max(0, index);
  const exp = Math.floor((index - SUB) / SUB) + SUB_BITS;
  const sub = (index - SUB) % SUB;
  const width = 2 ** (exp - SUB_BITS);
  return 2 ** exp + (sub + 1) * width - 1;
};

/** Adds one response time to `counts` (in place); returns `counts`. */
export const addLatency = (counts: LatencyCounts, ms: number): LatencyCounts => {
  const b = latencyBucket(ms);
  counts.set(b, (counts.get(b) ?? 0) + 1);
  return counts;
};

/** Adds `from` into `into` (in place); returns `into`. */
export const mergeCounts = (into: LatencyCounts, from: LatencyCounts): LatencyCounts => {
  for (const [b, n] of from) if (n > 0) into.set(b, (into.get(b) ?? 0) + n);
  return into;
};

/**
 * The q-quantile (0 < q ≤ 1; 0 is taken as the smallest) by nearest rank: the bucket holding the
 * ceil(q × n)-th smallest result; null when there is none.
 */
export const quantileMs = (counts: LatencyCounts, q: number): number | null => {
  let n = 0;
  for (const c of counts.values()) n += c;
  if (n === 0) return null;
  const rank = Math.min(n, Math.max(1, Math.ceil(q * n)));
  const keys = [...counts.keys()].sort((a, b) => a - b);
  let seen = 0;
  for (const k of keys) {
    seen += counts.get(k)!;
    if (seen >= rank) return bucketValueMs(k);
  }
  return bucketValueMs(keys[keys.length - 1]!);
};

const pushVarint = (out: number[], v: number) => {
  let x = v;
  while (x >= 0x80) {
    out.push((x % 0x80) | 0x80);
    x = Math.floor(x / 0x80);
  }
  out.push(x);
};

/** The compact form the stores keep (see the file's comment); empty counts are zero bytes. */
export const encodeCounts = (counts: LatencyCounts): Uint8Array => {
  const keys = [...counts.keys()].filter((k) => counts.get(k)! > 0).sort((a, b) => a - b);
  const out: number[] = [];
  let prev = 0;
  for (const k of keys) {
    pushVarint(out, k - prev);
    pushVarint(out, counts.get(k)!);
    prev = k;
  }
  return Uint8Array.from(out);
};

/** Reads `encodeCounts` bytes back (null or empty: no counts); adds into `into` when given. */
export const decodeCounts = (
  bytes: Uint8Array | null | undefined,
  into: LatencyCounts = new Map(),
): LatencyCounts => {
  if (!bytes) return into;
  let i = 0;
  let key = 0;
  const next = () => {
    let v = 0;
    let mul = 1;
    for (;;) {
      const b = bytes[i++];
      if (b === undefined) throw new Error('Truncated latency histogram.');
      v += (b & 0x7f) * mul;
      if (b < 0x80) return v;
      mul *= 0x80;
    }
  };
  while (i < bytes.length) {
    key += next();
    const n = next();
    into.set(key, (into.get(key) ?? 0) + n);
  }
  return into;
};
