import { expect, it } from 'vitest';
import { createMonitorSlots } from '../monitors/monitor-slots.js';
import { createHeldVersions } from './held-versions.js';

it('holds a version per monitor id by the shared numbers, and nothing for ids other tables numbered', () => {
  const slots = createMonitorSlots();
  // Numbered by another table first: not held by this agent.
  slots.slot('elsewhere');
  const held = createHeldVersions(slots);
  expect(held.has('elsewhere')).toBe(false);
  expect(held.get('never-seen')).toBeUndefined();
  expect(held.size).toBe(0);

  held.set('a', 3);
  held.set('b', 0);
  held.set('a', 4);
  expect(held.get('a')).toBe(4);
  // Version 0 is a version, not "nothing".
  expect(held.has('b')).toBe(true);
  expect(held.get('b')).toBe(0);
  expect(held.size).toBe(2);
  expect([...held.keys()]).toEqual(['a', 'b']);

  held.delete('a');
  held.delete('a');
  held.delete('never-seen');
  expect(held.has('a')).toBe(false);
  expect(held.size).toBe(1);
  expect([...held.keys()]).toEqual(['b']);
  // The number stays with its id: held again, it is the same entry.
  held.set('a', 5);
  expect(slots.find('a')).toBe(1);
  expect([...held.keys()]).toEqual(['a', 'b']);
});

it('grows past its first block with every new entry empty, and two streams keep apart', () => {
  const slots = createMonitorSlots();
  const one = createHeldVersions(slots);
  const two = createHeldVersions(slots);
  for (let i = 0; i < 3000; i++) if (i % 3 === 0) one.set(`m${i}`, i);
  two.set('m1', 7);
  expect(one.size).toBe(1000);
  expect([...one.keys()].length).toBe(1000);
  expect(one.has('m1')).toBe(false);
  expect(one.get('m2997')).toBe(2997);
  expect(one.has('m2998')).toBe(false);
  expect([...two.keys()]).toEqual(['m1']);
  expect(two.has('m2997')).toBe(false);
});
