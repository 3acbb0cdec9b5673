import { expect, it } from 'vitest';
import { createMonitorSlots } from '../../domain/monitors/monitor-slots.js';
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

it.each([0, 2 ** 33])(
  'answers as a plain list per monitor would, through growth and forgetting (row ids from %d)',
  (start) => {
    // A seeded walk of adds (row ids rising, some repeated), forgets, sweeps and reads, against the
    // simplest model: every monitor's ids in an array, filtered by the floor at each read.
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const ix = createRecentIndex();
    const model = new Map<string, number[]>();
    let floor = start;
    let rid = start;
    let lastMonitor = '';
    const live = (m: string) => (model.get(m) ?? []).filter((id) => id > floor);
    for (let step = 0; step < 20_000; step++) {
      const op = rand(100);
      if (op < 80) {
        // A row id is one monitor's; a catch-up may read the newest row again.
        const again = op < 3 && rid > start;
        const m = again ? lastMonitor : `m${String(rand(3000)).padStart(4, '0')}`;
        const id = again ? rid : ++rid;
        lastMonitor = m;
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
        const after = start + rand(rid - start + 1);
        const upto = after + rand(rid - start + 1);
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
  },
);

it('the ring spans only the live rows: it stays small over a long run, and takes a late older row', () => {
  const ix = createRecentIndex();
  let rid = 1_000_000_000; // a table that has seen many rows before this process started
  for (let round = 0; round < 50; round++) {
    for (let i = 0; i < 20_000; i++) ix.add(`m${i % 2000}`, ++rid);
    ix.forget(rid - 20_000); // the flush folds all but the newest round
    while (!ix.sweep(500));
  }
  expect(ix.size).toBe(20_000);
  expect(ix.ringLength).toBeLessThanOrEqual(65_536);
  // A backlog (no flush for 25 rounds) grows the ring; once flushes catch up, it shrinks back.
  for (let i = 0; i < 500_000; i++) ix.add(`m${i % 2000}`, ++rid);
  expect(ix.ringLength).toBeGreaterThanOrEqual(500_000);
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 20_000; i++) ix.add(`m${i % 2000}`, ++rid);
    ix.forget(rid - 20_000);
    while (!ix.sweep(500));
  }
  expect(ix.ringLength).toBeLessThanOrEqual(262_144); // a sweep sees a 20,000-row span: 8 × that, rounded up
  expect(ix.of('m7')).toEqual(Array.from({ length: 10 }, (_, k) => rid - 20_000 + 8 + k * 2000));
  expect(ix.size).toBe(20_000);
  // A row the flush deleted already, read just before: nothing to point to.
  ix.add('late', rid - 20_005);
  expect(ix.of('late')).toEqual([]);
  expect(ix.of('m1').length).toBe(10);

  // Another process's rows, older than any held, read late by the catch-up (before any flush).
  const fresh = createRecentIndex();
  fresh.add('a', 5_000_000);
  fresh.add('b', 4_000_000);
  fresh.add('b', 4_999_999);
  fresh.add('a', 5_000_001);
  expect([fresh.of('a'), fresh.of('b')]).toEqual([
    [5_000_000, 5_000_001],
    [4_000_000, 4_999_999],
  ]);
  expect(fresh.ringLength).toBeGreaterThan(1_000_000);
});

it('rows added by monitor number land with the monitor the number was given for', () => {
  const slots = createMonitorSlots();
  const ix = createRecentIndex(slots);
  ix.add('b', 1);
  ix.addAt(slots.slot('a'), 2); // a monitor the index has not met: it joins, in id order
  ix.addAt(slots.find('b'), 3);
  ix.addAt(slots.find('b'), 3); // an id it has
  expect(ix.of('a')).toEqual([2]);
  expect(ix.of('b')).toEqual([1, 3]);
  expect(ix.nextMonitors(0, 3, '', 10)).toEqual(['a', 'b']);
  expect(ix.size).toBe(3);
});
