import { createHash } from 'node:crypto';

/**
 * Where in its interval a monitor runs: phase = hash(monitor, region) mod interval, aligned to the
 * wall clock. Every agent (and every restart of one) computes the same times, so a restart or a
 * hand-over to another agent causes neither a burst nor a double run, and monitors spread evenly.
 */
export const phaseOf = (monitorId: string, region: string, intervalMs: number): number =>
  Number(
    createHash('sha256').update(monitorId).update('\0').update(region).digest().readBigUInt64BE(0) %
      BigInt(intervalMs),
  );

/** The first time strictly after `afterMs` that is `phase` into an interval. */
export const nextSlot = (phase: number, intervalMs: number, afterMs: number): number =>
  afterMs - ((((afterMs - phase) % intervalMs) + intervalMs) % intervalMs) + intervalMs;

/** The first run time strictly after `afterMs`. */
export const nextRunAt = (monitorId: string, region: string, intervalMs: number, afterMs: number): number =>
  nextSlot(phaseOf(monitorId, region, intervalMs), intervalMs, afterMs);
