import { AppError, isAppError } from '@lookout/shared';

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
    /** Puts back a token taken for an attempt that turned out not to count (never above capacity). */
    give(key: string, nowMs: number) {
      if (!buckets.has(key)) return;
      const b = current(key, nowMs);
      store(key, { tokens: Math.min(opts.capacity, b.tokens + 1), at: nowMs });
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

/**
 * The one limit on failed credentials per client address, for every kind of key (API keys, integration
 * service keys in any header or PagerDuty's routing_key): `perMinute` failures, then 429.
 *
 * The credential is always checked first. A valid one always works, whatever its address did before,
 * so nobody behind the same NAT can lock real users out; only a failed attempt (an `unauthorized`
 * error) takes a token from its address, and a failed attempt finding none left is answered 429 with
 * Retry-After instead of 401. 0 turns the limit off.
 */
export const createCredentialGuard = (perMinute: number) => {
  const failures =
    perMinute > 0 ? createRateLimiter({ capacity: perMinute, perSecond: perMinute / 60 }) : null;
  return {
    /** Runs `attempt` (a credential check) for a client at `address`; see above for what a failure costs. */
    async check<T>(address: string, nowMs: number, attempt: () => Promise<T>): Promise<T> {
      try {
        return await attempt();
      } catch (e) {
        if (!failures || !isAppError(e) || e.code !== 'unauthorized') throw e;
        const taken = failures.take(address, nowMs);
        if (taken.ok) throw e;
        throw new AppError(
          'rate_limited',
          `Too many failed key attempts from your address; try again in ${taken.retryAfterSeconds} s.`,
          [],
          { retryAfterSeconds: taken.retryAfterSeconds },
        );
      }
    },
  };
};

export type CredentialGuard = ReturnType<typeof createCredentialGuard>;
