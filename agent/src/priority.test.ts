import { describe, expect, it } from 'vitest';
import { lowerPriority, type PriorityPort } from './priority.js';

/** A process's threads as a table of nice values (the real ones are read in test/e2e/local-agents). */
const threadsOf = (nice: Record<number, number>, errors: Record<number, string> = {}) => {
  const set: [number, number][] = [];
  const port: PriorityPort = {
    threads: () => Object.keys(nice).map(Number),
    get: (id) => {
      if (errors[id])
        throw Object.assign(new Error(`uv_os_getpriority returned ${errors[id]}`), {
          info: { code: errors[id] },
        });
      return nice[id]!;
    },
    set: (id, n) => {
      set.push([id, n]);
      nice[id] = n;
    },
  };
  return { port, set, nice };
};

describe('lowering the agent’s priority', () => {
  it('sets every thread below the wanted nice to it, and leaves nicer ones alone', () => {
    const p = threadsOf({ 100: 0, 101: 0, 102: 15 });
    expect(lowerPriority(10, p.port)).toEqual({ changed: 2, failed: [] });
    expect(p.nice).toEqual({ 100: 10, 101: 10, 102: 15 });
  });

  it('does nothing at 0 (the default)', () => {
    const p = threadsOf({ 100: 0 });
    expect(lowerPriority(0, p.port)).toEqual({ changed: 0, failed: [] });
    expect(p.set).toEqual([]);
  });

  it('skips a thread that ended meanwhile and reports one it may not change', () => {
    const p = threadsOf({ 100: 0, 101: 0, 102: 0 }, { 101: 'ESRCH', 102: 'EACCES' });
    const out = lowerPriority(5, p.port);
    expect(out.changed).toBe(1);
    expect(out.failed).toEqual([{ thread: 102, reason: 'uv_os_getpriority returned EACCES' }]);
    expect(p.nice[100]).toBe(5);
  });

  it('where threads cannot be listed, sets the process (pid 0)', () => {
    const nice: Record<number, number> = { 0: 0 };
    const port: PriorityPort = {
      threads: () => null,
      get: (id) => nice[id]!,
      set: (id, n) => {
        nice[id] = n;
      },
    };
    expect(lowerPriority(7, port)).toEqual({ changed: 1, failed: [] });
    expect(nice[0]).toBe(7);
  });
});
