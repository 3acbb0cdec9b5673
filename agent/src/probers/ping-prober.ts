import { lookup } from 'node:dns';
import { isIP } from 'node:net';
import { assertPublicLiteral, publicOnlyLookup } from '@lookout/shared';
import type { Deadline, ProbeOutcome, ProbeSpec } from '../probe-port.js';
import { classifyError } from './classify-error.js';
import { type EchoReplies, type FpingRun, type RunningFping, runFping } from './fping.js';
import { numericAssertionFailure } from './numeric-assertions.js';

export interface PingProberOptions {
  /** The fping to run (findFping in fping.ts said it works here). */
  fping: string;
  blockPrivate?: boolean;
  /** How long a check waits for others to share its fping process (ms). */
  gatherMs?: number;
  /** At most this many addresses per fping process; a full group starts at once. */
  maxAddresses?: number;
}

/** Echoes per check at most (the control plane validates the setting; this bounds a bad spec). */
const MAX_COUNT = 100;
const MAX_PERIOD_MS = 1000;
const MIN_PERIOD_MS = 10;

/**
 * ping checks: `packet_count` ICMP echoes to the host, through fping. Checks due within `gatherMs`
 * of each other with the same count and period share one fping process (up to `maxAddresses`
 * addresses), so a thousand hosts due together cost a handful of processes, not a thousand.
 *
 * Echoes go one period apart, like ping(8) at most a second, less when the check's deadline needs it:
 * period = timeout / (count + 1), so every echo and its wait fit with a period to spare. The check is
 * up when any echo is answered (assertions on `packet_loss` and `response_time` can ask for more);
 * `response_time_ms` is the mean round trip of the echoes answered.
 */
export const createPingProber = (opts: PingProberOptions) => {
  const gatherMs = opts.gatherMs ?? 20;
  const maxAddresses = opts.maxAddresses ?? 128;

  interface Waiter {
    address: string;
    settle(r: FpingRun): void;
    given_up: boolean;
    group: Group;
  }
  interface Group {
    count: number;
    periodMs: number;
    waiters: Waiter[];
    /** The distinct addresses of its waiters (fping pings each once for all of them). */
    addresses: Set<string>;
    timer: NodeJS.Timeout | null;
    run: RunningFping | null;
  }
  /** Groups gathering now, by count and period: at most one per pair, each gone within gatherMs. */
  const gathering = new Map<string, Group>();

  const start = (key: string, g: Group) => {
    if (g.timer) clearTimeout(g.timer);
    gathering.delete(key);
    const live = g.waiters.filter((w) => !w.given_up);
    if (live.length === 0) return;
    g.waiters = live;
    const addresses = [...new Set(live.map((w) => w.address))];
    g.run = runFping(opts.fping, { count: g.count, periodMs: g.periodMs, addresses });
    void g.run.done.then((r) => {
      for (const w of live) w.settle(r);
    });
  };

  const join = (address: string, count: number, periodMs: number): Waiter & { result: Promise<FpingRun> } => {
    const key = `${count}/${periodMs}`;
    let g = gathering.get(key);
    if (!g) {
      g = { count, periodMs, waiters: [], addresses: new Set(), timer: null, run: null };
      const group = g;
      g.timer = setTimeout(() => start(key, group), gatherMs);
      gathering.set(key, g);
    }
    let settle!: (r: FpingRun) => void;
    const result = new Promise<FpingRun>((r) => {
      settle = r;
    });
    const w = { address, settle, given_up: false, group: g, result };
    g.waiters.push(w);
    g.addresses.add(address);
    if (g.addresses.size >= maxAddresses) start(key, g);
    return w;
  };

  const resolveAddress = (host: string): Promise<string> => {
    const bare = host.replace(/^\[|\]$/g, '');
    if (isIP(bare)) {
      if (opts.blockPrivate) assertPublicLiteral(bare);
      return Promise.resolve(bare);
    }
    return new Promise((resolve, reject) => {
      const done = (err: Error | null, address: string) => (err ? reject(err) : resolve(address));
      if (opts.blockPrivate) publicOnlyLookup(bare, {}, (err, address) => done(err, address as string));
      else lookup(bare, (err, address) => done(err, address));
    });
  };

  const outcomeOf = (
    spec: ProbeSpec<'ping'>,
    r: FpingRun,
    address: string,
    started: number,
  ): ProbeOutcome => {
    const elapsed = performance.now() - started;
    if (r.failure)
      return { ok: false, error: { kind: 'error', message: r.failure }, response_time_ms: elapsed };
    const count = countOf(spec);
    const e: EchoReplies = r.replies.get(address) ?? { rtts: [], icmpError: null };
    const received = Math.min(e.rtts.length, count);
    const packetLoss = Math.round(((count - received) / count) * 1000) / 10;
    if (received === 0) {
      const why = e.icmpError ?? `no reply to ${count} echo request${count === 1 ? '' : 's'}`;
      return {
        ok: false,
        error: { kind: 'unreachable', message: `${why} (100% packet loss)` },
        response_time_ms: elapsed,
        packet_loss: 100,
      };
    }
    const rtt = e.rtts.reduce((a, b) => a + b, 0) / e.rtts.length;
    const failed = numericAssertionFailure(spec.settings.assertions, {
      response_time: rtt,
      packet_loss: packetLoss,
    });
    return {
      ok: failed === null,
      error: failed === null ? null : { kind: 'assertion_failed', message: failed },
      response_time_ms: rtt,
      packet_loss: packetLoss,
    };
  };

  return {
    async run(spec: ProbeSpec<'ping'>, deadline: Deadline): Promise<ProbeOutcome> {
      const started = performance.now();
      let address: string;
      try {
        address = await resolveAddress(spec.url);
      } catch (e) {
        return { ok: false, error: classifyError(e), response_time_ms: performance.now() - started };
      }
      if (deadline.aborted) return timedOut(started);
      const count = countOf(spec);
      // From the spec alone, so that checks of one kind due together land in one group.
      const periodMs = Math.max(
        MIN_PERIOD_MS,
        Math.min(MAX_PERIOD_MS, Math.floor((spec.timeout_ms - gatherMs) / (count + 1))),
      );
      const w = join(address, count, periodMs);
      return new Promise<ProbeOutcome>((resolve) => {
        deadline.onAbort(() => {
          w.given_up = true;
          // The last check waiting on a running fping stops it.
          const g = w.group;
          if (g.run && g.waiters.every((x) => x.given_up)) g.run.kill();
          resolve(timedOut(started));
        });
        void w.result.then((r) => {
          deadline.onAbort(null);
          if (!w.given_up) resolve(outcomeOf(spec, r, address, started));
        });
      });
    },
  };
};

const countOf = (spec: ProbeSpec<'ping'>) =>
  Math.max(1, Math.min(MAX_COUNT, Math.floor(spec.settings.packet_count) || 1));

const timedOut = (started: number): ProbeOutcome => ({
  ok: false,
  error: { kind: 'timeout', message: 'timed out' },
  response_time_ms: performance.now() - started,
});
