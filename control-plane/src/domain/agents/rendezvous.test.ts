import { describe, expect, it } from 'vitest';
import { ownerOf, shareOf } from './rendezvous.js';

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
