/**
 * How often the agent owes the control plane a result: the shortest check interval among its
 * monitors, and since when it has had a monitor that often (its first monitor, or one more frequent
 * than any before). Each monitor runs within one interval of being assigned, so from that moment a
 * working agent reports at least once per shortest interval; the control plane's region health
 * judges "results flow" by it instead of by a fixed time.
 */
export const createCadence = (now: () => number) => {
  /** Monitors per interval (ms): a handful of distinct intervals, however many monitors. */
  const counts = new Map<number, number>();
  let shortest = 0;
  let since = 0;
  const settle = () => {
    let min = 0;
    for (const ms of counts.keys()) if (min === 0 || ms < min) min = ms;
    if (min !== 0 && (shortest === 0 || min < shortest)) since = now();
    shortest = min;
  };
  return {
    /** A monitor's interval changed: `from` undefined when it is new, `to` undefined when it is gone. */
    change(from: number | undefined, to: number | undefined) {
      if (from === to) return;
      if (from !== undefined) {
        const n = (counts.get(from) ?? 1) - 1;
        if (n <= 0) counts.delete(from);
        else counts.set(from, n);
      }
      if (to !== undefined) counts.set(to, (counts.get(to) ?? 0) + 1);
      settle();
    },
    /** The shortest interval in ms (0: no monitors) and how long ago the agent first had it. */
    read: () => ({ shortestMs: shortest, ageMs: shortest === 0 ? 0 : Math.max(0, now() - since) }),
  };
};
