import type { Timers } from './scheduler.js';

/** For tests: timers driven by the test. Time moves only when told; due callbacks fire in order. */
export const manualTimers = (start: number) => {
  let now = start;
  const pending = new Map<number, { at: number; fn: () => void }>();
  let seq = 0;
  const timers: Timers = {
    now: () => now,
    set: (fn, ms) => {
      pending.set(++seq, { at: now + ms, fn });
      return seq;
    },
    clear: (h) => pending.delete(h as number),
  };
  const advanceTo = async (t: number) => {
    for (;;) {
      const due = [...pending.entries()].filter(([, p]) => p.at <= t).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      pending.delete(due[0]);
      now = due[1].at;
      due[1].fn();
      await Promise.resolve();
    }
    now = t;
  };
  return { timers, advanceTo, pendingCount: () => pending.size };
};
