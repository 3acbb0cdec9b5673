/**
 * Token buckets by key (a client address, a heartbeat), in this replica's memory: `capacity` tokens,
 * refilled at `perSecond`. Bounded: past `maxKeys` the least recently used key is forgotten (which
 * only ever gives that key a full bucket again). Time is passed in, so tests need no clock.
 */
export const createRateLimiter = (opts: { capacity: number; perSecond: number; maxKeys?: number }) => {
  const maxKeys = opts.maxKeys ?? 100_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  const current = (key: string, nowMs: number) => {
    const b = buckets.get(key);
    if (!b) return { tokens: opts.capacity, at: nowMs };
    const tokens = Math.min(opts.capacity, b.tokens + ((nowMs - b.at) / 1000) * opts.perSecond);
    return { tokens, at: nowMs };
  };
  const store = (key: string, b: { tokens: number; at: number }) => {
    buckets.delete(key); // re-insert: Map order is then least recently used first
    buckets.set(key, b);
    if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
  };
  /** Seconds until one token is there (0: there is one now). */
  const wait = (tokens: number) => (tokens >= 1 ? 0 : Math.ceil((1 - tokens) / opts.perSecond));
  return {
    /** Takes a token if there is one; otherwise says how many seconds until there is. */
    take(key: string, nowMs: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
      const b = current(key, nowMs);
      if (b.tokens < 1) {
        store(key, b); // a refused key stays among the recent: flooding others cannot reset it
        return { ok: false, retryAfterSeconds: wait(b.tokens) };
      }
      store(key, { tokens: b.tokens - 1, at: nowMs });
      return { ok: true };
    },
    /** Seconds until `key` has a token again, without taking one (0: it has one). */
    retryAfter(key: string, nowMs: number): number {
      return buckets.has(key) ? wait(current(key, nowMs).tokens) : 0;
    },
    get size() {
      return buckets.size;
    },
  };
};

export type RateLimiter = ReturnType<typeof createRateLimiter>;
