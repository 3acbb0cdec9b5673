import { expect, it } from 'vitest';
import { createMonitorSlots, widened } from '../../domain/monitors/monitor-slots.js';
import type { MonitorLocationState } from '../../domain/types.js';
import { createRecentIndex } from './recent-index.js';
import { createStateTable } from './state-table.js';

const up = (monitor: string, location: string): MonitorLocationState => ({
  monitor_id: monitor,
  location,
  status: 'up',
  consecutive_failures: 0,
  consecutive_successes: 3,
  consecutive_slow: 0,
  last_result_at: new Date(Date.UTC(2026, 10, 1)),
  last_scheduled_at: new Date(Date.UTC(2026, 10, 1)),
  version: 2,
});

it('gives each monitor id one slot for good, and answers -1 for an id it never gave one', () => {
  const slots = createMonitorSlots();
  expect(slots.find('a')).toBe(-1);
  const a = slots.slot('a');
  const b = slots.slot('b');
  expect([a, b]).toEqual([0, 1]);
  expect(slots.slot('a')).toBe(a);
  expect(slots.find('b')).toBe(b);
  expect(slots.id(b)).toBe('b');
  expect(slots.size).toBe(2);
});

it('the state table and the recent index share the slots, and the index letting a monitor go leaves its states', () => {
  const slots = createMonitorSlots();
  const states = createStateTable(slots);
  const recent = createRecentIndex(slots);
  states.put(up('m1', 'eu-west'));
  states.put(up('m2', 'eu-west'));
  recent.add('m2', 1);
  recent.add('m3', 2);
  expect(slots.size).toBe(3); // m1, m2, m3: one slot each, whichever table met it first
  // Every row gone and two sweeps: the index lets m2 and m3 go...
  recent.forget(2);
  while (!recent.sweep(10));
  while (!recent.sweep(10));
  expect(recent.of('m2')).toEqual([]);
  expect(recent.nextMonitors(0, 10, '', 10)).toEqual([]);
  // ...and m2's state is as it was; met again, m2 takes rows in the index as before.
  expect(states.get('m2', 'eu-west')).toEqual(up('m2', 'eu-west'));
  recent.add('m2', 3);
  expect(recent.of('m2')).toEqual([3]);
  expect(recent.nextMonitors(0, 10, '', 10)).toEqual(['m2']);
  expect(states.locations('m3')).toEqual([]);
  expect(slots.size).toBe(3);
});

it('widens a column to hold a slot, filling the new entries', () => {
  const a = widened(new Int32Array([5, 6]), 3000, -1);
  expect(a.length).toBeGreaterThanOrEqual(3000);
  expect([a[0], a[1], a[2], a[a.length - 1]]).toEqual([5, 6, -1, -1]);
  const same = new Uint8Array(10);
  expect(widened(same, 10)).toBe(same);
});
