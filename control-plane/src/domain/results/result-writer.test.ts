import { describe, expect, it } from 'vitest';
import type { CheckResultRecord, MonitorLocationState } from '../types.js';
import { createResultWriter, type RecordResults, slowDownMs } from './result-writer.js';

const rec = (id: string, monitor: string) =>
  ({ id, monitor_id: monitor, location: 'eu-west' }) as CheckResultRecord;
const state = (monitor: string, n: number) =>
  ({ monitor_id: monitor, location: 'eu-west', consecutive_failures: n }) as MonitorLocationState;

describe('result writer (group commit)', () => {
  it('merges calls that arrive together into one write and gives each caller its own part', async () => {
    const writes: string[][] = [];
    const store: RecordResults = async (results, step) => {
      writes.push(results.map((r) => r.id));
      const states = results.map((r) => step(null, r)!);
      return { stored: results.filter((r) => r.id !== 'dup').map((r) => r.id), states };
    };
    const { write } = createResultWriter(store);
    const [a, b] = await Promise.all([
      write([rec('a1', 'm1'), rec('dup', 'm1')], (_p, r) => state(r.monitor_id, 1)),
      write([rec('b1', 'm2')], (_p, r) => state(r.monitor_id, 2)),
    ]);
    expect(writes).toEqual([['a1', 'dup', 'b1']]);
    expect(a.stored).toEqual(['a1']);
    expect(a.states.map((s) => [s.monitor_id, s.consecutive_failures])).toEqual([
      ['m1', 1],
      ['m1', 1],
    ]);
    expect(b).toEqual({ stored: ['b1'], states: [state('m2', 2)] });
  });

  it('caps a write at maxResults and keeps the rest for the next', async () => {
    const writes: number[] = [];
    const { write } = createResultWriter(async (results) => {
      writes.push(results.length);
      return { stored: results.map((r) => r.id), states: [] };
    }, 3);
    await Promise.all([
      write([rec('a', 'm'), rec('b', 'm')], () => null),
      write([rec('c', 'm'), rec('d', 'm')], () => null),
      write([rec('e', 'm')], () => null),
    ]);
    expect(writes).toEqual([2, 3]);
  });

  it('when a merged write fails, each call is tried on its own: one bad batch fails alone', async () => {
    const { write } = createResultWriter(async (results) => {
      if (results.some((r) => r.id === 'bad')) throw new Error('constraint');
      return { stored: results.map((r) => r.id), states: [] };
    });
    const [good, bad] = await Promise.allSettled([
      write([rec('ok', 'm')], () => null),
      write([rec('bad', 'm')], () => null),
    ]);
    expect(good).toEqual({ status: 'fulfilled', value: { stored: ['ok'], states: [] } });
    expect(bad.status).toBe('rejected');
  });

  it('counts the backlog while writes are under way and asks for a pause only past the threshold', async () => {
    let release = () => {};
    const writer = createResultWriter(
      (results) =>
        new Promise((resolve) => {
          release = () => resolve({ stored: results.map((r) => r.id), states: [] });
        }),
    );
    const pending = writer.write([rec('a', 'm'), rec('b', 'm')], () => null);
    expect(writer.backlog()).toBe(2);
    await new Promise((r) => setImmediate(r));
    release();
    await pending;
    expect(writer.backlog()).toBe(0);
    expect(slowDownMs(20_000)).toBe(0);
    expect(slowDownMs(30_000)).toBe(1500);
    expect(slowDownMs(1_000_000)).toBe(5000);
  });
});
