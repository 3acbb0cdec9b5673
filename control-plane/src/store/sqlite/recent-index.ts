import { createMonitorOrder } from './monitor-order.js';

const NONE = -1;

/**
 * Each monitor's rows in the recent results table (`check_results_recent`), by row id, in memory: the
 * per-monitor access path of the results not yet folded into the monitor-clustered table (results.ts,
 * rollups.ts). The recent table itself has no per-monitor index: that index is what made every stored
 * result write a page of its own. A monitor's row ids are kept ascending; rows are added in row-id order
 * (recordResults' own, and those another process stored, read by the state book's catch-up).
 *
 * Held as columns of typed arrays, not an array per monitor: each monitor's rows are a chain of
 * entries (`rowId`, `next`), from its `first` to its `last`, and freed entries are reused. 12 bytes a
 * row and nothing for the collector to trace, where an array per monitor cost ~200 bytes of heap and
 * an object each at 100,000 monitors (docs/benchmarks.md, issue 27's eighth round).
 *
 * `forget(through)` says the rows up to a row id are gone from the table: they are dropped from a
 * monitor's chain when it is next touched, and from all of them by `sweep`, a bounded slice at a time.
 * Readers join the ids they get against the table, so an id not yet forgotten costs nothing but a miss.
 */
export const createRecentIndex = () => {
  /** Monitor id → its slot. */
  const slotOf = new Map<string, number>();
  const idOf: (string | undefined)[] = [];
  let first = new Int32Array(0);
  let last = new Int32Array(0);
  /** 1: the monitor's chain was found empty by a sweep (it leaves at the next one if still empty). */
  let idle = new Uint8Array(0);
  const freeSlots: number[] = [];

  let rowId = new Float64Array(0);
  let next = new Int32Array(0);
  /** Free entries, chained through `next`. */
  let freeRows = NONE;
  let rowsEnd = 0;

  let floor = 0;
  let size = 0;
  /** The sweep's place: the next monitor slot it looks at (0: a round starts). */
  let sweepAt = 0;
  const order = createMonitorOrder();
  /** Monitors dropped since the order last let go of them. */
  let dropped = 0;

  const widen = <T extends Int32Array | Uint8Array | Float64Array>(a: T, n: number): T => {
    const b = new (a.constructor as new (n: number) => T)(n);
    b.set(a);
    return b;
  };
  const newSlot = (monitorId: string): number => {
    let s = freeSlots.pop();
    if (s === undefined) {
      s = idOf.length;
      if (s === first.length) {
        const n = Math.max(1024, s * 2);
        first = widen(first, n);
        last = widen(last, n);
        idle = widen(idle, n);
      }
      idOf.push(monitorId);
    } else idOf[s] = monitorId;
    first[s] = NONE;
    last[s] = NONE;
    idle[s] = 0;
    slotOf.set(monitorId, s);
    return s;
  };
  const newRow = (rid: number): number => {
    let r = freeRows;
    if (r !== NONE) freeRows = next[r]!;
    else {
      r = rowsEnd++;
      if (r === rowId.length) {
        const n = Math.max(4096, r * 2);
        rowId = widen(rowId, n);
        next = widen(next, n);
      }
    }
    rowId[r] = rid;
    next[r] = NONE;
    return r;
  };
  /** Drops the ids up to the floor from the front of a monitor's chain. */
  const trim = (s: number) => {
    let r = first[s]!;
    while (r !== NONE && rowId[r]! <= floor) {
      const after = next[r]!;
      next[r] = freeRows;
      freeRows = r;
      size--;
      r = after;
    }
    first[s] = r;
    if (r === NONE) last[s] = NONE;
  };
  /** The row ids of slot `s` in (from, upto], ascending, onto `out`. */
  const collect = (s: number, from: number, upto: number, out: number[]) => {
    for (let r = first[s]!; r !== NONE; r = next[r]!) {
      const id = rowId[r]!;
      if (id > upto) break;
      if (id > from) out.push(id);
    }
  };

  return {
    /** A row of `monitorId` at row id `rid`, newer than every one added before it. */
    add(monitorId: string, rid: number) {
      let s = slotOf.get(monitorId);
      if (s === undefined) {
        // A monitor met again after a sweep let it go still has its place in the order.
        order.add(monitorId);
        s = newSlot(monitorId);
      } else {
        const l = last[s]!;
        if (l !== NONE && rowId[l]! >= rid) return;
        trim(s);
      }
      idle[s] = 0;
      const r = newRow(rid);
      const l = last[s]!;
      if (l === NONE) first[s] = r;
      else next[l] = r;
      last[s] = r;
      size++;
    },
    /** The row ids of `monitorId` in (after, upto], ascending. */
    of(monitorId: string, after = floor, upto = Number.MAX_SAFE_INTEGER): number[] {
      const out: number[] = [];
      const s = slotOf.get(monitorId);
      if (s !== undefined) collect(s, Math.max(after, floor), upto, out);
      return out;
    },
    /** The row ids of all these monitors (any order), for a statement's `json_each`. */
    ofAll(monitorIds: Iterable<string>, after = floor, upto = Number.MAX_SAFE_INTEGER): number[] {
      const out: number[] = [];
      const from = Math.max(after, floor);
      for (const m of monitorIds) {
        const s = slotOf.get(m);
        if (s !== undefined) collect(s, from, upto, out);
      }
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
      rows = Number.POSITIVE_INFINITY,
    ): string[] {
      const from = Math.max(after, floor);
      const out: string[] = [];
      let taken = 0;
      order.walk(afterMonitor, (m) => {
        const s = slotOf.get(m);
        if (s === undefined) return true;
        let n = 0;
        for (let r = first[s]!; r !== NONE; r = next[r]!) {
          const id = rowId[r]!;
          if (id > upto) break;
          if (id > from) n++;
        }
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
     * Drops forgotten ids from at most `budget` monitors' chains, going on where the last call stopped;
     * true once it has been round all of them. A chain left empty is kept until the next round: a
     * monitor still empty then (gone, or checked less often than the flush runs) leaves the index.
     */
    sweep(budget: number): boolean {
      for (let i = 0; i < budget; i++) {
        if (sweepAt >= idOf.length) {
          sweepAt = 0;
          if (dropped * 8 > order.length) {
            order.prune((m) => slotOf.has(m));
            dropped = 0;
          }
          return true;
        }
        const s = sweepAt++;
        const monitorId = idOf[s];
        if (monitorId === undefined) continue; // a free slot
        if (idle[s] === 1) {
          // Empty since the last sweep: the monitor is gone, or checks less often than the flush runs.
          slotOf.delete(monitorId);
          idOf[s] = undefined;
          freeSlots.push(s);
          dropped++;
          continue;
        }
        trim(s);
        if (first[s] === NONE) idle[s] = 1;
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
