/**
 * Each monitor's rows in the recent results table (`check_results_recent`), by row id, in memory: the
 * per-monitor access path of the results not yet folded into the monitor-clustered table (results.ts,
 * rollups.ts). The recent table itself has no per-monitor index: that index is what made every stored
 * result write a page of its own. A monitor's row ids are kept ascending; rows are added in row-id order
 * (recordResults' own, and those another process stored, read by the state book's catch-up).
 *
 * `forget(through)` says the rows up to a row id are gone from the table: they are dropped from a
 * monitor's list when it is next touched, and from all of them by `sweep`, a bounded slice at a time.
 * Readers join the ids they get against the table, so an id not yet forgotten costs nothing but a miss.
 */
export const createRecentIndex = () => {
  const byMonitor = new Map<string, number[]>();
  let floor = 0;
  let size = 0;
  let sweeper: IterableIterator<[string, number[]]> | null = null;
  /** The monitors in id order (some perhaps gone since: the end of a sweep drops them)… */
  let sorted: string[] = [];
  /** …and those added since it was last ordered. */
  let unsorted: string[] = [];
  const ordered = (): string[] => {
    if (unsorted.length === 0) return sorted;
    unsorted.sort();
    const merged: string[] = [];
    let i = 0;
    let j = 0;
    while (i < sorted.length || j < unsorted.length) {
      const next =
        j >= unsorted.length || (i < sorted.length && sorted[i]! <= unsorted[j]!)
          ? sorted[i++]!
          : unsorted[j++]!;
      if (merged[merged.length - 1] !== next) merged.push(next);
    }
    sorted = merged;
    unsorted = [];
    return sorted;
  };

  /** Drops the ids up to the floor from the front of `ids` (the list of `monitorId`), in place. */
  const trim = (monitorId: string, ids: number[]) => {
    let n = 0;
    while (n < ids.length && ids[n]! <= floor) n++;
    if (n === 0) return;
    size -= n;
    ids.splice(0, n);
    if (ids.length === 0) byMonitor.delete(monitorId);
  };

  return {
    /** A row of `monitorId` at row id `rid`, newer than every one added before it. */
    add(monitorId: string, rid: number) {
      let ids = byMonitor.get(monitorId);
      if (!ids) {
        ids = [];
        byMonitor.set(monitorId, ids);
        unsorted.push(monitorId);
      } else {
        if (ids[ids.length - 1]! >= rid) return;
        trim(monitorId, ids);
        if (ids.length === 0) byMonitor.set(monitorId, ids);
      }
      ids.push(rid);
      size++;
    },
    /** The row ids of `monitorId` in (after, upto], ascending. */
    of(monitorId: string, after = floor, upto = Number.MAX_SAFE_INTEGER): number[] {
      const ids = byMonitor.get(monitorId);
      if (!ids) return [];
      const from = Math.max(after, floor);
      return ids.filter((id) => id > from && id <= upto);
    },
    /** The row ids of all these monitors (any order), for a statement's `json_each`. */
    ofAll(monitorIds: Iterable<string>, after = floor, upto = Number.MAX_SAFE_INTEGER): number[] {
      const out: number[] = [];
      for (const m of monitorIds) for (const id of this.of(m, after, upto)) out.push(id);
      return out;
    },
    /**
     * The first `count` monitors after `afterMonitor`, in id order, with a row id in (after, upto]: a
     * flush walks them so, a chunk at a time. The order is kept, not sorted per call: monitors seen
     * since the last call are sorted and merged in.
     */
    nextMonitors(after: number, upto: number, afterMonitor: string, count: number): string[] {
      const order = ordered();
      let lo = 0;
      let hi = order.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (order[mid]! <= afterMonitor) lo = mid + 1;
        else hi = mid;
      }
      const from = Math.max(after, floor);
      const out: string[] = [];
      for (let i = lo; i < order.length && out.length < count; i++) {
        const ids = byMonitor.get(order[i]!);
        if (ids?.some((id) => id > from && id <= upto)) out.push(order[i]!);
      }
      return out;
    },
    /** The rows up to `rid` are gone from the table. */
    forget(rid: number): boolean {
      if (rid <= floor) return false;
      floor = rid;
      return true;
    },
    /**
     * Drops forgotten ids from at most `budget` monitors' lists, going on where the last call stopped;
     * true once it has been round all of them.
     */
    sweep(budget: number): boolean {
      sweeper ??= byMonitor.entries();
      for (let i = 0; i < budget; i++) {
        const next = sweeper.next();
        if (next.done) {
          sweeper = null;
          sorted = ordered().filter((m) => byMonitor.has(m));
          return true;
        }
        trim(next.value[0], next.value[1]);
      }
      return false;
    },
    /** Row ids held (tests, metrics). */
    get size() {
      return size;
    },
  };
};

export type RecentIndex = ReturnType<typeof createRecentIndex>;
