/** Arms `fn` after `ms`; returns its cancel. The default: an unref'd setTimeout (it never keeps a process up). */
export type Schedule = (fn: () => void, ms: number) => () => void;

export const unrefTimeout: Schedule = (fn, ms) => {
  const t = setTimeout(fn, ms);
  t.unref();
  return () => clearTimeout(t);
};

/**
 * A store's pass run behind the requests (the uptime flush, the states' snapshot): `everyMs` after
 * the previous pass ended, so passes never overlap; a failed pass (the file busy beyond
 * busy_timeout) leaves its mark where it was and the next one starts there.
 */
export const periodic = (pass: () => Promise<void>, everyMs: number, schedule: Schedule = unrefTimeout) => {
  let cancel: (() => void) | null = null;
  let stopped = false;
  const arm = () => {
    if (stopped) return;
    cancel = schedule(() => {
      cancel = null;
      pass().then(arm, arm);
    }, everyMs);
  };
  return {
    arm,
    /** No pass is armed from now on (one running goes on to its end). */
    stop() {
      stopped = true;
      cancel?.();
    },
  };
};
