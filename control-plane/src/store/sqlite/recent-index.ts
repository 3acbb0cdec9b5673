import { createMonitorOrder } from './monitor-order.js';

/** A monitor's list found empty by a sweep: kept (and in the order) until the next sweep finds it still so. */
const IDLE: number[] = Object.freeze([]) as unknown as number[];

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
  const order = createMonitorOrder();
  /** Monitors dropped from `byMonitor` since the order last let go of them. */
  let dropped = 0;

  /** Drops the ids up to the floor from the front of `ids`, in place (the list stays, perhaps empty). */
  const trim = (ids: number[]) => {
    let n = 0;
    while (n < ids.length && ids[n]! <= floor) n++;
    if (n === 0) return;
    size -= n;
    ids.splice(0, n);
  };

  return {
    /** A row of `monitorId` at row id `rid`, newer than every one added before it. */
    add(monitorId: string, rid: number) {
      let ids = byMonitor.get(monitorId);
      if (!ids || ids === IDLE) {
        if (!ids) order.add(monitorId);
        ids = [];
        byMonitor.set(monitorId, ids);
      } else {
        if (ids[ids.length - 1]! >= rid) return;
        trim(ids);
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
     * The monitors after `afterMonitor`, in id order, with a row id in (after, upto]: a flush walks
     * them so, a chunk at a time (monitor-order.ts keeps the order as monitors appear). At most `count`
     * of them, and no more once their rows in that range reach `rows`.
     */
    nextMonitors(
      after: number,
      upto: number,
      afterMonitor: string,
      count: number,
      rows = Infinity,
    ): string[] {
      const from = Math.max(after, floor);
      const out: string[] = [];
      let taken = 0;
      order.walk(afterMonitor, (m) => {
        const ids = byMonitor.get(m);
        if (!ids) return true;
        let n = 0;
        for (const id of ids) if (id > from && id <= upto) n++;
        if (n > 0) {
          out.push(m);
          taken += n;
        }
        return out.length < count && taken < rows;
      });
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
     * true once it has been round all of them. A list left empty is kept until the next round: a
     * monitor still empty then (gone, or checked less often than the flush runs) leaves the index.
     */
    sweep(budget: number): boolean {
      sweeper ??= byMonitor.entries();
      for (let i = 0; i < budget; i++) {
        const next = sweeper.next();
        if (next.done) {
          sweeper = null;
          if (dropped * 8 > order.length) {
            order.prune((m) => byMonitor.has(m));
            dropped = 0;
          }
          return true;
        }
        const [monitorId, ids] = next.value;
        if (ids === IDLE) {
          // Empty since the last sweep: the monitor is gone, or checks less often than the flush runs.
          byMonitor.delete(monitorId);
          dropped++;
          continue;
        }
        trim(ids);
        if (ids.length === 0) byMonitor.set(monitorId, IDLE);
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
