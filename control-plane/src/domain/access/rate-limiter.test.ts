import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter.js';

describe('rate limiter (token buckets)', () => {
  it('lets a burst of `capacity` through, then refills at the rate, and says when to come back', () => {
    const l = createRateLimiter({ capacity: 3, perSecond: 0.5 });
    const t = 1_000_000;
    expect([1, 2, 3].map(() => l.take('a', t).ok)).toEqual([true, true, true]);
    expect(l.take('a', t)).toEqual({ ok: false, retryAfterSeconds: 2 });
    expect(l.retryAfter('a', t)).toBe(2);
    expect(l.take('b', t).ok).toBe(true); // keys are independent
    expect(l.take('a', t + 1000)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(l.take('a', t + 2000).ok).toBe(true);
    expect(l.take('a', t + 2000).ok).toBe(false);
    expect(l.retryAfter('never-seen', t)).toBe(0);
    // Refill never goes past capacity.
    expect([1, 2, 3, 4].map(() => l.take('a', t + 3_600_000).ok)).toEqual([true, true, true, false]);
  });

  it('stays bounded: past maxKeys the least recently used key is forgotten', () => {
    const l = createRateLimiter({ capacity: 1, perSecond: 0.001, maxKeys: 2 });
    l.take('a', 0);
    l.take('b', 0);
    l.take('a', 0); // refused, but a is now the most recently used
    l.take('c', 0); // b goes
    expect(l.size).toBe(2);
    expect(l.take('a', 0).ok).toBe(false); // still limited
    expect(l.take('b', 0).ok).toBe(true); // forgotten: a full bucket again
  });
});
