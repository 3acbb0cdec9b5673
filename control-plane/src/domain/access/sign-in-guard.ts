import { AppError, digestsEqual, hashSecret, newId, randomToken } from '@lookout/shared';
import type { User, Workspace } from '../types.js';
import { createRateLimiter, type RateLimiter } from './rate-limiter.js';
import type { SignInDevice } from './sign-in-store.js';

/**
 * How failed web sign-ins are slowed down without locking the real user out: OWASP's "device cookie"
 * scheme (Slow Down Online Guessing Attacks with Device Cookies).
 *
 * - A browser that has signed in to an account holds a device token for it (`ld.` + 256 random bits in
 *   an HttpOnly cookie, stored hashed, valid DEVICE_DAYS). Presented with a sign-in to that account, it
 *   is judged by its own failures only: `perDevicePerHour`. Nobody else's guesses, from any address,
 *   count against it; past its own allowance it is locked out like any guesser.
 * - Every other client (no device token for this account) is untrusted and shares three limits:
 *   failures from its address (`perAddressPerMinute`, any account), an exponential backoff per
 *   (account, address) pair (the first `backoffAfter` failures in a row are free, then the wait doubles
 *   from 1 s up to BACKOFF_CAP_S; a success or an hour without failures forgets it), and failures for
 *   the account from anywhere (`perAccountPerHour`), which holds back distributed guessing but never a
 *   known browser.
 *
 * The account is the workspace and the email as typed, so unknown emails are throttled exactly like
 * known ones (no enumeration). Counters live in this replica's memory, like every rate limit in Lookout
 * (domain/access/rate-limiter.ts); device tokens live in the store, so a browser is known to every replica.
 * Every limit set to 0 is off.
 */
export interface SignInLimits {
  perAddressPerMinute: number;
  perAccountPerHour: number;
  perDevicePerHour: number;
  backoffAfter: number;
}

/** One attempt: the account, the client address, and the id of the browser's device for this account. */
export interface SignInAttempt {
  account: string;
  address: string;
  device: string | null;
}

/** How long a device token makes its browser known. */
export const DEVICE_DAYS = 365;
/** Devices kept per user (the newest); an older browser is untrusted again. */
export const DEVICES_KEPT = 20;
/** The longest wait of the per-(account, address) backoff. */
export const BACKOFF_CAP_S = 900;
/** A (account, address) pair without failures for this long starts again with free attempts. */
const BACKOFF_FORGET_MS = 3_600_000;

export const SIGN_IN_LIMIT_MESSAGES = {
  device: (s: number) => `Too many failed sign-ins from this browser; try again in ${s} s.`,
  address: (s: number) => `Too many failed sign-ins from your address; try again in ${s} s.`,
  pair: (s: number) => `Too many failed sign-ins to this account from your address; try again in ${s} s.`,
  account: (s: number) =>
    `Too many failed sign-ins for this account; try again in ${s} s, or sign in from a browser you have signed in with before (it is not held back).`,
} as const;

/**
 * Exponential backoff by key, in memory: after the n-th failure in a row (n ≥ `free`) the next attempt
 * waits min(capSeconds, 2^(n − free)) seconds from that failure. Bounded like the token buckets: past
 * `maxKeys` the least recently failed key is forgotten.
 */
export const createBackoff = (opts: {
  free: number;
  capSeconds: number;
  forgetMs: number;
  maxKeys?: number;
}) => {
  const maxKeys = opts.maxKeys ?? 100_000;
  const keys = new Map<string, { failures: number; at: number }>();
  const live = (key: string, nowMs: number) => {
    const k = keys.get(key);
    if (k && nowMs - k.at >= opts.forgetMs) {
      keys.delete(key);
      return undefined;
    }
    return k;
  };
  return {
    /** Seconds until `key` may try again (0: now). */
    retryAfter(key: string, nowMs: number): number {
      const k = live(key, nowMs);
      if (!k || k.failures < opts.free) return 0;
      const waitMs = Math.min(opts.capSeconds, 2 ** (k.failures - opts.free)) * 1000;
      return Math.max(0, Math.ceil((k.at + waitMs - nowMs) / 1000));
    },
    failed(key: string, nowMs: number) {
      const failures = (live(key, nowMs)?.failures ?? 0) + 1;
      keys.delete(key);
      keys.set(key, { failures, at: nowMs });
      if (keys.size > maxKeys) keys.delete(keys.keys().next().value!);
    },
    succeeded(key: string) {
      keys.delete(key);
    },
  };
};

const bucket = (perWindow: number, windowSeconds: number): RateLimiter | null =>
  perWindow > 0 ? createRateLimiter({ capacity: perWindow, perSecond: perWindow / windowSeconds }) : null;

/** The sign-in throttle of one replica; see the top of this file. */
export const createSignInGuard = (limits: SignInLimits) => {
  const perAddress = bucket(limits.perAddressPerMinute, 60);
  const perAccount = bucket(limits.perAccountPerHour, 3600);
  const perDevice = bucket(limits.perDevicePerHour, 3600);
  const perPair =
    limits.backoffAfter > 0
      ? createBackoff({ free: limits.backoffAfter, capSeconds: BACKOFF_CAP_S, forgetMs: BACKOFF_FORGET_MS })
      : null;
  const pairOf = (a: SignInAttempt) => `${a.account}\n${a.address}`;
  const refuse = (message: string, seconds: number) =>
    new AppError('rate_limited', message, [], { retryAfterSeconds: seconds });

  const refusal = (a: SignInAttempt, nowMs: number): AppError | null => {
    if (a.device) {
      const s = perDevice?.retryAfter(a.device, nowMs) ?? 0;
      return s > 0 ? refuse(SIGN_IN_LIMIT_MESSAGES.device(s), s) : null;
    }
    const checks = [
      [perAddress?.retryAfter(a.address, nowMs) ?? 0, SIGN_IN_LIMIT_MESSAGES.address],
      [perPair?.retryAfter(pairOf(a), nowMs) ?? 0, SIGN_IN_LIMIT_MESSAGES.pair],
      [perAccount?.retryAfter(a.account, nowMs) ?? 0, SIGN_IN_LIMIT_MESSAGES.account],
    ] as const;
    for (const [s, message] of checks) if (s > 0) return refuse(message(s), s);
    return null;
  };

  return {
    /**
     * Throws 429 (rate_limited, with Retry-After) when this attempt must wait; checked before the
     * password. An admitted attempt is counted as a failure at once (a token taken from each limit it
     * is held to, a failure in its pair's backoff) and given back by `succeeded`, so attempts sent
     * together cannot all pass before the first of them is known to have failed (a wrong password needs
     * nothing more).
     */
    admit(a: SignInAttempt, nowMs: number) {
      const refused = refusal(a, nowMs);
      if (refused) throw refused;
      if (a.device) {
        perDevice?.take(a.device, nowMs);
        return;
      }
      perAddress?.take(a.address, nowMs);
      perAccount?.take(a.account, nowMs);
      perPair?.failed(pairOf(a), nowMs);
    },
    /** The 429 this attempt would get now, or null; changes nothing. */
    refusal,
    /** A successful sign-in: what `admit` took is given back, and its (account, address) pair starts afresh. */
    succeeded(a: SignInAttempt, nowMs: number) {
      if (a.device) {
        perDevice?.give(a.device, nowMs);
        return;
      }
      perAddress?.give(a.address, nowMs);
      perAccount?.give(a.account, nowMs);
      perPair?.succeeded(pairOf(a));
    },
  };
};

export type SignInGuard = ReturnType<typeof createSignInGuard>;

/** A new device for `userId` and its token (`ld.` + 256 random bits); only the token's hash is stored. */
export const mintDevice = (workspaceId: string, userId: string, now: Date) => {
  const token = randomToken('ld.');
  const device: SignInDevice = {
    id: newId(),
    workspace_id: workspaceId,
    user_id: userId,
    token_hash: hashSecret(token),
    created_at: now,
    expires_at: new Date(now.getTime() + DEVICE_DAYS * 86_400_000),
  };
  return { device, token };
};

/**
 * The browser's device for this sign-in, when its token is one the store knows, unexpired, of this
 * workspace and of the account being signed in to; null otherwise (the browser is then untrusted).
 * The store is asked whenever a token is sent, whether the email is known or not.
 */
export const knownDevice = async (
  store: { findSignInDevice(tokenHash: string): Promise<SignInDevice | null> },
  token: string | undefined,
  workspace: Workspace,
  user: User | null,
  now: Date,
): Promise<SignInDevice | null> => {
  if (!token || token.length > 200) return null;
  const hash = hashSecret(token);
  const device = await store.findSignInDevice(hash);
  if (!device || !digestsEqual(device.token_hash, hash)) return null;
  if (device.expires_at.getTime() <= now.getTime()) return null;
  return device.workspace_id === workspace.id && device.user_id === user?.id ? device : null;
};
