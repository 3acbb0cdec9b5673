/**
 * A histogram kept as plain numbers: how many observations fell in each bucket (not cumulative),
 * their sum and their count. Observing finds the bucket and adds one; the cumulative form Prometheus
 * exposes is built only when scraped (`cumulative`). An agent observes two of these per check, 1,667
 * times a second, where prom-client's own `observe` hashes and validates a label object each time.
 */
export interface BucketCounts {
  /** Upper bounds, ascending; an observation equal to a bound falls in that bucket (`le`). */
  readonly bounds: readonly number[];
  /** One count per bound; what is above the last bound is only in `count`. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

export const createBucketCounts = (bounds: readonly number[]): BucketCounts => {
  for (let i = 1; i < bounds.length; i++) {
    if (!(bounds[i]! > bounds[i - 1]!)) throw new Error('bucket bounds must ascend');
  }
  return { bounds, counts: new Float64Array(bounds.length), sum: 0, count: 0 };
};

export const observe = (h: BucketCounts, value: number): void => {
  const { bounds } = h;
  let i = 0;
  while (i < bounds.length && value > bounds[i]!) i++;
  if (i < bounds.length) h.counts[i]!++;
  h.sum += value;
  h.count++;
};

/** The observations at or below each bound, in the bounds' order (Prometheus's `_bucket{le}` values). */
export const cumulative = (h: BucketCounts): number[] => {
  const out = new Array<number>(h.counts.length);
  let acc = 0;
  for (let i = 0; i < h.counts.length; i++) {
    acc += h.counts[i]!;
    out[i] = acc;
  }
  return out;
};
