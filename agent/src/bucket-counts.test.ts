import { describe, expect, it } from 'vitest';
import { createBucketCounts, cumulative, observe } from './bucket-counts.js';

describe('bucket counts', () => {
  it('counts a value in the first bucket whose bound it does not exceed, and every value in the sum and count', () => {
    const h = createBucketCounts([0.1, 0.5, 1]);
    for (const v of [0, 0.1, 0.100001, 0.5, 0.7, 1, 3]) observe(h, v);
    expect(Array.from(h.counts)).toEqual([2, 2, 2]);
    expect(cumulative(h)).toEqual([2, 4, 6]);
    expect(h.count).toBe(7);
    expect(h.sum).toBeCloseTo(5.400001, 9);
  });

  it('refuses bounds that do not ascend', () => {
    expect(() => createBucketCounts([1, 1])).toThrow(/ascend/);
    expect(() => createBucketCounts([2, 1])).toThrow(/ascend/);
  });
});
