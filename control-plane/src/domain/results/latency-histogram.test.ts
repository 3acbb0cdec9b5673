import { describe, expect, it } from 'vitest';
import {
  addLatency,
  bucketValueMs,
  decodeCounts,
  encodeCounts,
  type LatencyCounts,
  latencyBucket,
  mergeCounts,
  quantileMs,
} from './latency-histogram.js';

const countsOf = (times: number[]) => times.reduce<LatencyCounts>((c, t) => addLatency(c, t), new Map());

describe('latency buckets', () => {
  it('keeps 0 ms apart and small times exact', () => {
    expect(latencyBucket(0)).toBe(0);
    expect(latencyBucket(-3)).toBe(0);
    expect(latencyBucket(0.7)).toBe(0);
    for (let ms = 1; ms < 32; ms++) {
      expect(latencyBucket(ms)).toBe(ms);
      expect(bucketValueMs(latencyBucket(ms))).toBe(ms);
    }
  });

  it('reports within 5 % above the time, never below, from 1 ms to 10 min', () => {
    let prev = -1;
    for (let ms = 1; ms <= 600_000; ms += ms < 5000 ? 1 : 97) {
      const b = latencyBucket(ms);
      expect(b).toBeGreaterThanOrEqual(prev);
      prev = b;
      const v = bucketValueMs(b);
      expect(v).toBeGreaterThanOrEqual(ms);
      expect((v - ms) / ms).toBeLessThanOrEqual(0.05);
    }
    expect(latencyBucket(600_000)).toBe(484);
  });

  it('puts each bucket value in its own bucket, at the edge of the next', () => {
    for (let b = 0; b < 900; b++) {
      expect(latencyBucket(bucketValueMs(b))).toBe(b);
      expect(latencyBucket(bucketValueMs(b) + 1)).toBe(b + 1);
    }
    // Exact powers of two (where log2 may round) start a bucket.
    for (let e = 5; e < 31; e++) expect(bucketValueMs(latencyBucket(2 ** e) - 1)).toBe(2 ** e - 1);
  });
});

describe('quantiles by nearest rank', () => {
  it('is null with nothing counted', () => {
    expect(quantileMs(new Map(), 0.5)).toBeNull();
  });

  it('takes the ceil(q·n)-th smallest', () => {
    const c = countsOf([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(quantileMs(c, 0.5)).toBe(5);
    expect(quantileMs(c, 0.95)).toBe(10);
    expect(quantileMs(c, 0.99)).toBe(10);
    expect(quantileMs(c, 0.1)).toBe(1);
    expect(quantileMs(c, 0)).toBe(1);
    expect(quantileMs(countsOf([0, 0, 0, 900]), 0.75)).toBe(0);
    expect(quantileMs(countsOf([0, 0, 0, 900]), 0.76)).toBe(bucketValueMs(latencyBucket(900)));
  });

  it('merges counts', () => {
    const a = countsOf([10, 10, 200]);
    const b = countsOf([10, 5000]);
    const m = mergeCounts(new Map(a), b);
    expect(m.get(latencyBucket(10))).toBe(3);
    expect([...m.values()].reduce((x, y) => x + y)).toBe(5);
    expect(quantileMs(m, 1)).toBe(bucketValueMs(latencyBucket(5000)));
    expect(a.get(latencyBucket(10))).toBe(2);
  });
});

describe('encoding', () => {
  it('round-trips, sparse and small', () => {
    const c = countsOf([0, 1, 1, 31, 32, 33, 250, 250, 250, 1200, 600_000, 2 ** 31]);
    c.set(700, 300_000);
    const bytes = encodeCounts(c);
    expect(decodeCounts(bytes)).toEqual(new Map([...c].sort((x, y) => x[0] - y[0])));
    expect(bytes.length).toBeLessThan(30);
    expect(encodeCounts(new Map()).length).toBe(0);
    expect(decodeCounts(null).size).toBe(0);
    expect(decodeCounts(new Uint8Array(0)).size).toBe(0);
  });

  it('decodes into existing counts (a merge)', () => {
    const into = countsOf([5]);
    decodeCounts(encodeCounts(countsOf([5, 9])), into);
    expect(into).toEqual(
      new Map([
        [5, 2],
        [9, 1],
      ]),
    );
  });

  it('refuses truncated bytes', () => {
    expect(() => decodeCounts(Uint8Array.from([0x85]))).toThrow();
  });
});
