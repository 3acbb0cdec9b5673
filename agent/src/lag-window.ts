/** The last N schedule lags (ms), for a p99 that reflects now rather than all time. */
export const createLagWindow = (size = 2048) => {
  const values = new Float64Array(size);
  let count = 0;
  let next = 0;
  return {
    add(ms: number) {
      values[next] = ms;
      next = (next + 1) % size;
      count = Math.min(count + 1, size);
    },
    p99(): number {
      if (count === 0) return 0;
      const sorted = Array.from(values.subarray(0, count)).sort((a, b) => a - b);
      return sorted[Math.min(count - 1, Math.floor(count * 0.99))]!;
    },
  };
};
