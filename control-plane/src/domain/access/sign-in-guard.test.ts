import { isAppError } from '@lookout/shared';
import { describe, expect, it } from 'vitest';
import { createBackoff, createSignInGuard, type SignInAttempt } from './sign-in-guard.js';

type Guard = ReturnType<typeof createSignInGuard>;

/** What an attempt would get now: 'ok', or the seconds and the message's reason (changes nothing). */
const verdict = (guard: Guard, a: SignInAttempt, now: number) => {
  const e = guard.refusal(a, now);
  if (!e) return 'ok';
  expect(isAppError(e) && e.code).toBe('rate_limited');
  return `${e.retryAfterSeconds} s: ${/from this browser|to this account from|from your address|for this account/.exec(e.message)![0]}`;
};

/** A wrong password: admitted (which counts it), or refused (which counts nothing). */
const fail = (guard: Guard, a: SignInAttempt, now: number) => {
  try {
    guard.admit(a, now);
  } catch (e) {
    if (!isAppError(e) || e.code !== 'rate_limited') throw e;
  }
};

describe('backoff per key', () => {
  it('free failures first, then the wait doubles up to the cap; a success or a quiet spell forgets', () => {
    const b = createBackoff({ free: 2, capSeconds: 8, forgetMs: 60_000 });
    const t = 1_000_000;
    b.failed('k', t);
    expect(b.retryAfter('k', t)).toBe(0);
    const waits: number[] = [];
    let now = t;
    for (let i = 0; i < 6; i++) {
      b.failed('k', now);
      const w = b.retryAfter('k', now);
      waits.push(w);
      expect(b.retryAfter('k', now + w * 1000 - 1)).toBe(1);
      now += w * 1000;
      expect(b.retryAfter('k', now)).toBe(0);
    }
    expect(waits).toEqual([1, 2, 4, 8, 8, 8]);
    expect(b.retryAfter('other', now)).toBe(0);
    b.failed('k', now);
    b.succeeded('k');
    b.failed('k', now);
    expect(b.retryAfter('k', now)).toBe(0);
    b.failed('k', now);
    expect(b.retryAfter('k', now)).toBe(1);
    expect(b.retryAfter('k', now + 60_000)).toBe(0);
    b.failed('k', now + 60_000);
    expect(b.retryAfter('k', now + 60_000)).toBe(0); // forgotten: this was the first of a new run
  });
});

describe('sign-in guard', () => {
  const limits = { perAddressPerMinute: 4, perAccountPerHour: 6, perDevicePerHour: 2, backoffAfter: 2 };
  const t = 5_000_000;

  it('untrusted clients: per address across accounts, per (account, address) backoff, per account from anywhere', () => {
    const g = createSignInGuard(limits);
    const a = (account: string, address: string): SignInAttempt => ({ account, address, device: null });
    for (const acc of ['w:a', 'w:b', 'w:c', 'w:d']) fail(g, a(acc, '10.0.0.1'), t);
    expect(verdict(g, a('w:e', '10.0.0.1'), t)).toBe('15 s: from your address');
    fail(g, a('w:x', '10.0.0.2'), t);
    fail(g, a('w:x', '10.0.0.2'), t);
    expect(verdict(g, a('w:x', '10.0.0.2'), t)).toBe('1 s: to this account from');
    expect(verdict(g, a('w:x', '10.0.0.3'), t)).toBe('ok');
    for (const ip of ['10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.6']) fail(g, a('w:x', ip), t);
    expect(verdict(g, a('w:x', '10.0.0.7'), t)).toBe('600 s: for this account');
    expect(verdict(g, a('w:y', '10.0.0.7'), t)).toBe('ok');
  });

  it('a known device is judged by its own failures only, and never by the account’s, the address’s or the pair’s', () => {
    const g = createSignInGuard(limits);
    const guesser = (address: string): SignInAttempt => ({ account: 'w:a', address, device: null });
    for (let i = 0; i < 10; i++) fail(g, guesser(`10.0.0.${i}`), t);
    expect(verdict(g, guesser('10.0.0.9'), t)).toBe('600 s: for this account');
    const mine: SignInAttempt = { account: 'w:a', address: '10.0.0.1', device: 'd1' };
    expect(verdict(g, mine, t)).toBe('ok');
    fail(g, mine, t);
    fail(g, mine, t);
    expect(verdict(g, mine, t)).toBe('1800 s: from this browser');
    expect(verdict(g, { ...mine, device: 'd2' }, t)).toBe('ok');
    // Its failures cost the untrusted limits nothing.
    const fresh = createSignInGuard(limits);
    for (let i = 0; i < 10; i++) fail(fresh, { ...mine, address: `10.1.0.${i}` }, t);
    expect(verdict(fresh, guesser('10.1.0.1'), t)).toBe('ok');
  });

  it('attempts sent together: no more are admitted than the limits allow, before any outcome is known', () => {
    const g = createSignInGuard(limits);
    const admitted = (attempts: SignInAttempt[]) =>
      attempts.filter((a) => {
        try {
          g.admit(a, t);
          return true;
        } catch {
          return false;
        }
      }).length;
    const one = (account: string, address: string): SignInAttempt => ({ account, address, device: null });
    // 30 at once from one address (any accounts): its 4 a minute.
    expect(admitted(Array.from({ length: 30 }, (_, i) => one(`w:u${i}`, '10.2.0.1')))).toBe(4);
    // 12 at once for one account from 12 addresses: the account's 6 an hour.
    expect(admitted(Array.from({ length: 12 }, (_, i) => one('w:v', `10.3.0.${i}`)))).toBe(6);
    // 30 at once from one known browser: its own 2.
    expect(admitted(Array.from({ length: 30 }, () => ({ ...one('w:z', '10.4.0.1'), device: 'd9' })))).toBe(2);
  });

  it('a success gives back what its attempt took and clears the pair’s backoff; 0 turns every limit off', () => {
    const g = createSignInGuard(limits);
    const a: SignInAttempt = { account: 'w:a', address: '10.0.0.1', device: null };
    fail(g, a, t);
    fail(g, a, t);
    expect(verdict(g, a, t)).toBe('1 s: to this account from');
    g.succeeded(a, t);
    expect(verdict(g, a, t)).toBe('ok');
    const off = createSignInGuard({
      perAddressPerMinute: 0,
      perAccountPerHour: 0,
      perDevicePerHour: 0,
      backoffAfter: 0,
    });
    for (let i = 0; i < 100; i++) {
      fail(off, a, t);
      fail(off, { ...a, device: 'd' }, t);
    }
    expect(verdict(off, a, t)).toBe('ok');
    expect(verdict(off, { ...a, device: 'd' }, t)).toBe('ok');
  });
});
