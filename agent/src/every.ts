import type { Timers } from './scheduler.js';

/** Calls `fn` every `ms` on the given timers until the returned function is called. */
export const every = (timers: Timers, ms: number, fn: () => void): (() => void) => {
  let cancelled = false;
  const tick = () => {
    if (cancelled) return;
    fn();
    if (!cancelled) timer = timers.set(tick, ms);
  };
  let timer = timers.set(tick, ms);
  return () => {
    cancelled = true;
    timers.clear(timer);
  };
};
