import { createMonitorSlots, type MonitorSlots, widened } from '../../domain/monitors/monitor-slots.js';
import { createMonitorOrder } from './monitor-order.js';

const MIN_RING = 1 << 16;

/**
 * Each monitor's rows in the recent results table (`check_results_recent`), by row id, in memory: the
 * per-monitor access path of the results not yet folded into the monitor-clustered table (results.ts,
 * rollups.ts). The recent table itself has no per-monitor index: that index is what made every stored
 * result write a page of its own. A monitor's row ids are kept ascending; rows are added in row-id order
 * (recordResults' own, and those another process stored, read by the state book's catch-up).
 *
 * Held in typed arrays, not an array per monitor. The table's row ids are dense (they only rise, one
 * per row), so a ring indexed by row id holds, for each row, the distance to the same monitor's next
 * row: 4 bytes a row, and nothing for the collector to trace. Each monitor keeps its first and last
 * row id, in columns indexed by the monitor's number in `monitors` (monitor-slots.ts, shared with the
 * state book). The ring spans every row id a monitor may still point to (`low`, see `sweep`, to the newest)
 * and doubles when that span outgrows it (halving again, after a backlog, once a sweep finds the span
 * down to an eighth of it). An array per monitor cost ~25 MB and 100,000 objects at
 * 100,000 monitors (docs/benchmarks.md, "History": issue 27's eighth round).
 *
 * `forget(through)` says the rows up to a row id are gone from the table: they are dropped from a
 * monitor's chain when it is next touched, and from all of them by `sweep`, a bounded slice at a time.
 * Readers join the ids they get against the table, so an id not yet forgotten costs nothing but a miss.
 */
export const createRecentIndex = (monitors: MonitorSlots = createMonitorSlots()) => {
  /** By monitor slot: whether the monitor is in the index (its place in `order` taken). */
  let member = new Uint8Array(0);
  /** A slot's first and last row id (0: none; row ids start at 1). */
  let first = new Float64Array(0);
  let last = new Float64Array(0);
  /** 1: the monitor's chain was found empty by a sweep (it leaves at the next one if still empty). */
  let idle = new Uint8Array(0);

  /** gap[rid & mask]: the monitor's next row id minus `rid`, 0 for its last. */
  let gap = new Int32Array(MIN_RING);
  let mask = gap.length - 1;
  /** Every row id a chain can still reach is above `low`; `high` is the newest added. */
  let low = -1;
  let high = 0;

  let floor = 0;
  let size = 0;
  /** The sweep's place: the next slot it looks at, and the floor when its round began. */
  let sweepAt = 0;
  let roundFloor = 0;
  const order = createMonitorOrder();
  /** Monitors dropped since the order last let go of them. */
  let dropped = 0;

  /** The monitor's slot, if it is in the index; -1 otherwise. */
  const slotIn = (monitorId: string) => {
    const s = monitors.find(monitorId);
    return s >= 0 && member[s] === 1 ? s : -1;
  };
  /** Puts the monitor numbered `s` in the index, with no rows. */
  const join = (s: number): number => {
    if (s >= member.length) {
      member = widened(member, s + 1);
      first = widened(first, s + 1);
      last = widened(last, s + 1);
      idle = widened(idle, s + 1);
    }
    member[s] = 1;
    first[s] = 0;
    last[s] = 0;
    idle[s] = 0;
    return s;
  };
  /** The ring at `n` entries, each entry a chain can reach, (low, high], moved to its new place. */
  const resize = (n: number) => {
    const next = new Int32Array(n);
    for (let r = Math.max(low + 1, high - gap.length + 1); r <= high; r++) next[r & (n - 1)] = gap[r & mask]!;
    gap = next;
    mask = n - 1;
  };
  /** Makes room for row ids (low, top] in the ring. */
  const reach = (top: number) => {
    if (top - low <= gap.length) return;
    let n = gap.length;
    while (top - low > n) n *= 2;
    resize(n);
  };
  /**
   * After a backlog: a ring eight times the live span is halved (never below its start). Eight, not
   * two: the span swings between one and two flush periods, and a halved ring must still hold twice
   * the span a sweep sees, or it would grow again before the next flush.
   */
  const shrink = () => {
    let n = gap.length;
    while (n > MIN_RING && (high - low) * 8 <= n) n /= 2;
    if (n < gap.length) resize(n);
  };
  /** Drops the ids up to the floor from the front of a monitor's chain. */
  const trim = (s: number) => {
    let r = first[s]!;
    while (r !== 0 && r <= floor) {
      const g = gap[r & mask]!;
      size--;
      r = g === 0 ? 0 : r + g;
    }
    first[s] = r;
    if (r === 0) last[s] = 0;
  };
  /** The row ids of slot `s` in (from, upto], ascending, onto `out`. */
  const collect = (s: number, from: number, upto: number, out: number[]) => {
    for (let r = first[s]!; r !== 0 && r <= upto; ) {
      if (r > from) out.push(r);
      const g = gap[r & mask]!;
      r = g === 0 ? 0 : r + g;
    }
  };
  /** How many row ids of slot `s` are in (from, upto]: `collect` without the array (the flush's walk). */
  const count = (s: number, from: number, upto: number) => {
    let n = 0;
    for (let r = first[s]!; r !== 0 && r <= upto; ) {
      if (r > from) n++;
      const g = gap[r & mask]!;
      r = g === 0 ? 0 : r + g;
    }
    return n;
  };

  /** A row at row id `rid` of the monitor numbered `m` (monitor-slots.ts), newer than every one added before it. */
  const addAt = (m: number, rid: number) => {
    // Gone from the table already (read just before a flush deleted it): nothing to point to.
    if (rid <= floor) return;
    let s = m < member.length && member[m] === 1 ? m : -1;
    if (s < 0) {
      // A monitor met again after a sweep let it go still has its place in the order.
      order.add(monitors.id(m));
      s = join(m);
    } else {
      if (last[s]! >= rid) return;
      trim(s);
    }
    // The first row, or one older than any held (another process's, read late). An entry's place
    // is its row id, so only the ring's size depends on `low`.
    if (low < 0 || rid <= low) low = rid - 1;
    reach(Math.max(high, rid));
    if (rid > high) high = rid;
    idle[s] = 0;
    gap[rid & mask] = 0;
    const l = last[s]!;
    if (l === 0) first[s] = rid;
    else gap[l & mask] = rid - l;
    last[s] = rid;
    size++;
  };

  return {
    /** A row of `monitorId` at row id `rid`, newer than every one added before it. */
    add: (monitorId: string, rid: number) => addAt(monitors.slot(monitorId), rid),
    /** `add` for a caller that has the monitor's number already (state-book.ts). */
    addAt,
    /** The row ids of `monitorId` in (after, upto], ascending. */
    of(monitorId: string, after = floor, upto = Number.MAX_SAFE_INTEGER): number[] {
      const out: number[] = [];
      const s = slotIn(monitorId);
      if (s >= 0) collect(s, Math.max(after, floor), upto, out);
      return out;
    },
    /** The row ids of all these monitors (any order), for a statement's `json_each`. */
    ofAll(monitorIds: Iterable<string>, after = floor, upto = Number.MAX_SAFE_INTEGER): number[] {
      const out: number[] = [];
      const from = Math.max(after, floor);
      for (const m of monitorIds) {
        const s = slotIn(m);
        if (s >= 0) collect(s, from, upto, out);
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
      most: number,
      rows = Number.POSITIVE_INFINITY,
    ): string[] {
      const from = Math.max(after, floor);
      const out: string[] = [];
      let taken = 0;
      order.walk(afterMonitor, (m) => {
        const s = slotIn(m);
        if (s < 0) return true;
        const n = count(s, from, upto);
        if (n > 0) {
          out.push(m);
          taken += n;
        }
        return out.length < most && taken < rows;
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
     * After a whole round every chain starts above the floor its round began with, so the ring need
     * no longer reach below it.
     */
    sweep(budget: number): boolean {
      if (sweepAt === 0) roundFloor = floor;
      for (let i = 0; i < budget; i++) {
        if (sweepAt >= Math.min(member.length, monitors.size)) {
          sweepAt = 0;
          if (roundFloor > low) {
            low = roundFloor;
            shrink();
          }
          if (dropped * 8 > order.length) {
            order.prune((m) => slotIn(m) >= 0);
            dropped = 0;
          }
          return true;
        }
        const s = sweepAt++;
        if (member[s] === 0) continue; // not in the index
        if (idle[s] === 1) {
          // Empty since the last sweep: the monitor is gone, or checks less often than the flush runs.
          member[s] = 0;
          dropped++;
          continue;
        }
        trim(s);
        if (first[s] === 0) idle[s] = 1;
      }
      return false;
    },
    /** Row ids held (tests, metrics). */
    get size() {
      return size;
    },
    /** Entries in the ring (tests: it stays as small as the span of live rows needs). */
    get ringLength() {
      return gap.length;
    },
  };
};

export type RecentIndex = ReturnType<typeof createRecentIndex>;
