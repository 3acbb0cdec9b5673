import { expect, it } from 'vitest';
import { createMonitorSlots } from '../../domain/monitors/monitor-slots.js';
import type { MonitorLocationState } from '../../domain/types.js';
import { createStateTable } from './state-table.js';

const state = (
  monitor: string,
  location: string,
  over: Partial<MonitorLocationState> = {},
): MonitorLocationState => ({
  monitor_id: monitor,
  location,
  status: 'up',
  consecutive_failures: 0,
  consecutive_successes: 1,
  consecutive_slow: 0,
  last_result_at: new Date(Date.UTC(2026, 10, 1, 0, 0, 1)),
  last_scheduled_at: new Date(Date.UTC(2026, 10, 1)),
  version: 1,
  ...over,
});

it('gives back every field as it was put, per monitor and location, and replaces a state in place', () => {
  const t = createStateTable();
  const eu = state('m1', 'eu-west', {
    status: 'down',
    consecutive_failures: 4,
    consecutive_slow: 2,
    version: 9,
  });
  const us = state('m1', 'us-east', { status: 'unknown', last_result_at: null, last_scheduled_at: null });
  t.put(eu);
  t.put(us);
  t.put(state('m2', 'eu-west'));
  expect(t.get('m1', 'eu-west')).toEqual(eu);
  expect(t.get('m1', 'us-east')).toEqual(us);
  expect(t.get('m1', 'ap-south')).toBeNull();
  expect(t.get('m3', 'eu-west')).toBeNull();
  expect(t.locations('m1').sort((a, b) => a.location.localeCompare(b.location))).toEqual([eu, us]);
  expect(t.locations('m3')).toEqual([]);
  const later = {
    ...eu,
    status: 'up' as const,
    consecutive_failures: 0,
    consecutive_successes: 2 ** 31,
    version: 10,
  };
  t.put(later);
  expect(t.get('m1', 'eu-west')).toEqual(later);
  expect(t.version('m1', 'eu-west')).toBe(10);
  expect(t.version('m1', 'ap-south')).toBe(0);
  expect(t.size).toBe(3);
  // A record read is the caller's: changing it changes nothing held.
  t.get('m1', 'eu-west')!.consecutive_failures = 99;
  expect(t.get('m1', 'eu-west')!.consecutive_failures).toBe(0);
});

it('answers the newest result time of a monitor over its locations, null when none has one', () => {
  const t = createStateTable();
  t.put(state('m1', 'eu-west', { last_result_at: new Date(5000) }));
  t.put(state('m1', 'us-east', { last_result_at: new Date(9000) }));
  t.put(state('m1', 'ap-south', { last_result_at: null }));
  t.put(state('m2', 'eu-west', { last_result_at: null }));
  expect(t.lastResultAt('m1')).toEqual(new Date(9000));
  expect(t.lastResultAt('m2')).toBeNull();
  expect(t.lastResultAt('m3')).toBeNull();
});

it('grows past its first columns without losing a state', () => {
  const t = createStateTable();
  for (let i = 0; i < 5000; i++) {
    t.put(state(`m${i}`, 'eu-west', { version: i }));
    t.put(state(`m${i}`, 'us-east', { consecutive_failures: i }));
  }
  expect(t.size).toBe(10_000);
  for (const i of [0, 1023, 1024, 2047, 4999]) {
    expect(t.get(`m${i}`, 'eu-west')?.version).toBe(i);
    expect(t.get(`m${i}`, 'us-east')?.consecutive_failures).toBe(i);
  }
});

it('by monitor number: the same states as by id, in a numbering shared with another table', () => {
  const slots = createMonitorSlots();
  slots.slot('other'); // numbered by another table first: m1 is not number 0
  const t = createStateTable(slots);
  const eu = state('m1', 'eu-west', { status: 'down', consecutive_failures: 2 });
  const m1 = slots.slot('m1');
  t.putAt(m1, eu);
  expect(t.get('m1', 'eu-west')).toEqual(eu);
  expect(t.getAt(m1, 'eu-west')).toEqual(eu);
  expect(t.getAt(m1, 'us-east')).toBeNull();
  expect(t.getAt(slots.find('other'), 'eu-west')).toBeNull();
  expect(t.getAt(99, 'eu-west')).toBeNull(); // a number past every table's end
  const us = state('m1', 'us-east');
  expect(t.put(us)).toBe(m1);
  expect(t.locationsAt(m1).sort((a, b) => a.location.localeCompare(b.location))).toEqual([eu, us]);
  expect(t.locationsAt(slots.find('other'))).toEqual([]);
});
