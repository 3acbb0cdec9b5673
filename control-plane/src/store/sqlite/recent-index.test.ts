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
