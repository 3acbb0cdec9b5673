import { expect, it } from 'vitest';
import { createRecentIndex } from './recent-index.js';

it('keeps each monitor’s row ids ascending, answers ranges, and ignores an id it already has', () => {
  const ix = createRecentIndex();
  ix.add('b', 1);
  ix.add('a', 2);
  ix.add('b', 3);
  ix.add('b', 3); // read twice (a catch-up after the commit that stored it)
  ix.add('c', 4);
  expect(ix.of('b')).toEqual([1, 3]);
  expect(ix.of('b', 1)).toEqual([3]);
  expect(ix.of('b', 0, 2)).toEqual([1]);
  expect(ix.ofAll(['a', 'b', 'x']).sort()).toEqual([1, 2, 3]);
  expect(ix.nextMonitors(0, 4, '', 10)).toEqual(['a', 'b', 'c']);
  expect(ix.nextMonitors(0, 4, '', 2)).toEqual(['a', 'b']);
  expect(ix.nextMonitors(0, 4, 'a', 10)).toEqual(['b', 'c']);
  expect(ix.nextMonitors(1, 2, '', 10)).toEqual(['a']);
  expect(ix.nextMonitors(3, 4, '', 10)).toEqual(['c']);
  // A row budget: monitors are taken until their rows in the range reach it (b has two).
  expect(ix.nextMonitors(0, 4, '', 10, 1)).toEqual(['a']);
  expect(ix.nextMonitors(0, 4, '', 10, 2)).toEqual(['a', 'b']);
  expect(ix.nextMonitors(0, 4, 'a', 10, 2)).toEqual(['b']);
  expect(ix.nextMonitors(1, 4, 'a', 10, 2)).toEqual(['b', 'c']);
  ix.add('aa', 5); // a monitor seen later takes its place in the order
  expect(ix.nextMonitors(0, 5, 'a', 2)).toEqual(['aa', 'b']);
  expect(ix.size).toBe(5);
});

it('forgets deleted rows: hidden at once, dropped when touched or swept, a slice at a time', () => {
  const ix = createRecentIndex();
  for (let i = 1; i <= 10; i++) ix.add(`m${i % 5}`, i);
  ix.forget(6);
  expect(ix.of('m1')).toEqual([]);
  expect(ix.of('m2')).toEqual([7]);
  expect(ix.nextMonitors(0, 10, '', 10)).toEqual(['m0', 'm2', 'm3', 'm4']);
  expect(ix.size).toBe(10);
  ix.add('m2', 12); // touching m2 drops its forgotten id 2
  expect(ix.size).toBe(10);
  expect(ix.sweep(2)).toBe(false);
  while (!ix.sweep(2));
  expect(ix.size).toBe(5);
  expect(ix.ofAll(['m0', 'm1', 'm2', 'm3', 'm4']).sort((a, b) => a - b)).toEqual([7, 8, 9, 10, 12]);
  expect(ix.nextMonitors(0, 20, '', 10)).toEqual(['m0', 'm2', 'm3', 'm4']);
  ix.add('m1', 13); // back after its rows were dropped: once in the order
  expect(ix.nextMonitors(0, 20, '', 10)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
  // Forgetting never goes back.
  ix.forget(3);
  expect(ix.of('m2')).toEqual([7, 12]);
});

it('keeps a monitor whose rows are all gone for one more sweep, in its place, then lets it go', () => {
  const ix = createRecentIndex();
  ix.add('a', 1);
  ix.add('b', 2);
  ix.add('c', 3);
  ix.forget(3);
  while (!ix.sweep(10));
  expect(ix.size).toBe(0);
  expect(ix.nextMonitors(0, 10, '', 10)).toEqual([]);
  ix.add('b', 4); // checked again before the next sweep: it keeps its place
  expect(ix.nextMonitors(3, 10, '', 10)).toEqual(['b']);
  while (!ix.sweep(10)); // a and c were empty for a whole round: gone
  ix.add('a', 5); // back later: it takes its place again
  expect(ix.nextMonitors(3, 10, '', 10)).toEqual(['a', 'b']);
  expect(ix.of('b')).toEqual([4]);
  expect(ix.of('c')).toEqual([]);
  expect(ix.size).toBe(2);
});

it('answers as a plain list per monitor would, through growth, forgetting and reuse of freed entries', () => {
  // A seeded walk of adds (row ids rising, some repeated), forgets, sweeps and reads, against the
  // simplest model: every monitor's ids in an array, filtered by the floor at each read.
  let seed = 42;
  const rand = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const ix = createRecentIndex();
  const model = new Map<string, number[]>();
  let floor = 0;
  let rid = 0;
  const live = (m: string) => (model.get(m) ?? []).filter((id) => id > floor);
  for (let step = 0; step < 20_000; step++) {
    const op = rand(100);
    if (op < 80) {
      const m = `m${String(rand(3000)).padStart(4, '0')}`;
      const again = op < 3 && rid > 0; // a catch-up reading a row it has
      const id = again ? rid : ++rid;
      ix.add(m, id);
      const list = model.get(m) ?? [];
      if (list.length === 0 || list[list.length - 1]! < id) list.push(id);
      model.set(m, list);
    } else if (op < 85) {
      const to = floor + rand(Math.max(1, rid - floor) + 1);
      ix.forget(to);
      floor = Math.max(floor, to);
    } else if (op < 90) ix.sweep(1 + rand(500));
    else {
      const ms = Array.from({ length: 5 }, () => `m${String(rand(3000)).padStart(4, '0')}`);
      const after = rand(rid + 1);
      const upto = after + rand(rid + 1);
      for (const m of ms)
        expect(ix.of(m, after, upto)).toEqual(live(m).filter((id) => id > after && id <= upto));
      const expected = [...new Set(ms)].flatMap((m) => live(m)).sort((a, b) => a - b);
      expect(ix.ofAll(new Set(ms)).sort((a, b) => a - b)).toEqual(expected);
      const from = ms[0]!;
      const want = [...model.keys()]
        .filter((m) => m > from && live(m).some((id) => id > after && id <= upto))
        .sort()
        .slice(0, 7);
      expect(ix.nextMonitors(after, upto, from, 7)).toEqual(want);
    }
  }
  // Two whole rounds drop every forgotten id and every monitor left empty.
  while (!ix.sweep(1000));
  while (!ix.sweep(1000));
  let held = 0;
  for (const m of model.keys()) held += live(m).length;
  expect(ix.size).toBe(held);
});
