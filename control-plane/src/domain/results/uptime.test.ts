import { describe, expect, it } from 'vitest';
import { HOUR_MS, hourOf, monitorUptime } from './uptime.js';

/** Checks at these times (ms), every one ok except those in `failed`; a store answering like the adapters. */
const fakeStore = (times: number[], failed: Set<number>, prunedBefore: number) => {
  const reads: string[] = [];
  const count = (keep: (t: number) => boolean) => {
    const ts = times.filter(keep);
    return { total: ts.length, ok: ts.filter((t) => !failed.has(t)).length };
  };
  return {
    reads,
    store: {
      countResults: async (_w: string, _m: string, since: Date, until: Date) => {
        reads.push(`results ${since.getTime() / 60_000}-${until.getTime() / 60_000}`);
        return count((t) => t >= prunedBefore && t >= since.getTime() && t < until.getTime());
      },
      sumRollups: async (_w: string, _m: string, from: Date, to: Date) => {
        reads.push(`rollups ${from.getTime() / 60_000}-${to.getTime() / 60_000}`);
        return count((t) => hourOf(t) >= from.getTime() && hourOf(t) < to.getTime());
      },
    },
  };
};

const MIN = 60_000;
// One check a minute for 5 hours from 0; every 7th fails.
const times = Array.from({ length: 300 }, (_, i) => i * MIN);
const failed = new Set(times.filter((_, i) => i % 7 === 0));
const exact = (since: number, until: number) => {
  const ts = times.filter((t) => t >= since && t < until);
  return { total: ts.length, ok: ts.filter((t) => !failed.has(t)).length };
};

describe('monitorUptime', () => {
  it.each([
    ['whole hours only', 1 * HOUR_MS, 4 * HOUR_MS, ['rollups 60-240']],
    [
      'partial edges from results',
      30 * MIN,
      4 * HOUR_MS + 15 * MIN,
      ['rollups 60-240', 'results 30-60', 'results 240-255'],
    ],
    ['within one hour', 70 * MIN, 100 * MIN, ['results 70-100']],
    ['across one boundary, no whole hour', 100 * MIN, 150 * MIN, ['results 100-120', 'results 120-150']],
  ])('%s: exact, in at most three reads', async (_name, since, until, expectedReads) => {
    const { store, reads } = fakeStore(times, failed, 0);
    expect(await monitorUptime(store, 'w', 'm', new Date(since), new Date(until), new Date(0))).toEqual(
      exact(since, until),
    );
    expect(reads.sort()).toEqual([...expectedReads].sort());
  });

  it('an edge hour older than the kept results counts whole from its bucket', async () => {
    const { store, reads } = fakeStore(times, failed, 2 * HOUR_MS);
    const since = 30 * MIN;
    const until = 3 * HOUR_MS + 10 * MIN;
    expect(
      await monitorUptime(store, 'w', 'm', new Date(since), new Date(until), new Date(2 * HOUR_MS)),
    ).toEqual(exact(0, until));
    expect(reads.sort()).toEqual(['results 180-190', 'rollups 0-60', 'rollups 60-180']);
  });
});
