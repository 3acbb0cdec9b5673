import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ownerOf, SHARE_SLICE, sha256Weight, shareChanges, shareOf } from './rendezvous.js';

const keys = Array.from({ length: 2000 }, (_, i) => `monitor-${i}`);

describe('rendezvous hashing', () => {
  it('is deterministic and spreads keys evenly', () => {
    const nodes = ['a', 'b', 'c', 'd'];
    expect(keys.map((k) => ownerOf(k, nodes))).toEqual(keys.map((k) => ownerOf(k, [...nodes].reverse())));
    for (const n of nodes) {
      const share = shareOf(keys, n, nodes).length;
      expect(share).toBeGreaterThan(400);
      expect(share).toBeLessThan(600);
    }
    expect(ownerOf('x', [])).toBeNull();
  });

  it('a node leaving moves only its own keys; a node joining takes only keys it wins', () => {
    const before = new Map(keys.map((k) => [k, ownerOf(k, ['a', 'b', 'c'])]));
    const afterLeave = new Map(keys.map((k) => [k, ownerOf(k, ['a', 'b'])]));
    for (const k of keys) if (before.get(k) !== 'c') expect(afterLeave.get(k)).toBe(before.get(k));
    const afterJoin = new Map(keys.map((k) => [k, ownerOf(k, ['a', 'b', 'c', 'd'])]));
    for (const k of keys) if (afterJoin.get(k) !== 'd') expect(afterJoin.get(k)).toBe(before.get(k));
  });
});

describe('rendezvous hashing without a choice', () => {
  it('one node owns every key without hashing; no node owns nothing', () => {
    const weight = () => {
      throw new Error('hashed');
    };
    expect(ownerOf('monitor-1', ['a'], weight)).toBe('a');
    expect(shareOf(keys, 'a', ['a'], weight)).toEqual(keys);
    expect(ownerOf('monitor-1', [], weight)).toBeNull();
  });
});

describe('the weight and the pass', () => {
  it('weighs by the first 8 bytes of SHA-256(key, NUL, node): replicas of any version agree on owners', () => {
    for (const [key, node] of [
      ['monitor-1', 'a'],
      ['5f0c1d7e-0000-4000-8000-000000000001', 'eu-west-agent-7'],
      ['', ''],
    ] as const) {
      const digest = createHash('sha256').update(key).update('\0').update(node).digest();
      expect(sha256Weight(key, node)).toBe(digest.readBigUInt64BE(0));
    }
  });

  it('pauses every SHARE_SLICE keys and finds what it finds without pausing', async () => {
    const values = new Map(
      Array.from({ length: 2 * SHARE_SLICE + 10 }, (_, i) => [`m-${i}`, { version: 1 }] as const),
    );
    const held = new Map([
      ['m-1', 1],
      ['m-2', 0],
      ['gone', 1],
    ]);
    const owns = (k: string) => ownerOf(k, ['a', 'b']) === 'a';
    let pauses = 0;
    const paused = await shareChanges(values, 'all', held, owns, async () => {
      pauses++;
    });
    expect(pauses).toBe(2);
    const straight = await shareChanges(values, 'all', held, owns);
    expect(paused).toEqual(straight);
    expect(straight.removes).toContain('gone');
    expect(straight.upserts.length).toBeGreaterThan(SHARE_SLICE / 2);
    expect(straight.upserts.length).toBeLessThan(values.size);
  });
});
