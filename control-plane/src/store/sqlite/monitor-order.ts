/** The first index of `list` (ascending) whose value is after `key`. */
const after = (list: readonly string[], key: string): number => {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/** Two ascending lists as one, each value once. */
const merge = (a: readonly string[], b: readonly string[]): string[] => {
  const out: string[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (n === 0 || out[n - 1] !== next) out[n++] = next;
  }
  out.length = n;
  return out;
};

/**
 * The order the uptime flush walks monitors in (recent-index.ts), kept as monitors appear without
 * sorting them all again: a large ascending list and a small one of the monitors seen since, walked
 * together. The small list is merged into the large one once it is an eighth of it, so a new monitor
 * costs a binary search and an insertion into the small list, and a merge now and then. Monitors gone
 * stay in the lists (the walk's caller skips them) until `prune` drops them. Sorting and merging
 * everything whenever a monitor had appeared cost 20–330 ms per flush chunk at 100,000 monitors
 * (docs/benchmarks.md, "History": issue 27's fifth round;
 * the index alone: "Recent index flush order").
 */
export const createMonitorOrder = () => {
  let large: string[] = [];
  let small: string[] = [];
  return {
    /** `id` takes its place in the order (nothing when it has one). */
    add(id: string) {
      const i = after(large, id);
      if (i > 0 && large[i - 1] === id) return;
      const j = after(small, id);
      if (j > 0 && small[j - 1] === id) return;
      small.splice(j, 0, id);
      if (small.length > 1024 && small.length * 8 > large.length) {
        large = merge(large, small);
        small = [];
      }
    },
    /** The ids after `afterId`, in order, for as long as `take` wants more (it returns false to stop). */
    walk(afterId: string, take: (id: string) => boolean) {
      let i = after(large, afterId);
      let j = after(small, afterId);
      while (i < large.length || j < small.length) {
        const a = large[i];
        const b = small[j];
        // The smaller of the two heads (`add` never puts an id in both lists).
        const next = b === undefined || (a !== undefined && a <= b) ? a! : b;
        if (next === a) i++;
        if (next === b) j++;
        if (!take(next)) return;
      }
    },
    /** Keeps only the ids `keep` says are still there. */
    prune(keep: (id: string) => boolean) {
      large = merge(large, small).filter(keep);
      small = [];
    },
    get length() {
      return large.length + small.length;
    },
  };
};
