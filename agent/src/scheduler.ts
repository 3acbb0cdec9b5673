import { nextSlot, phaseOf } from './phase.js';

/**
 * Runs each assigned monitor on its own wall-clock phase. One timer for the earliest due run (a
 * min-heap of due times), so 50,000 monitors cost one timer, not 50,000. A run that is still going
 * when its next slot comes skips that slot: never two runs of one monitor at once.
 */
export interface Timers {
  now(): number;
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  // Referenced on purpose: these timers are what keeps an agent alive while the control plane is away.
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** A scheduled monitor as its runs see it: its id, what the owner keeps with it, and how a run ends. */
export interface ScheduledRun<T> {
  readonly id: string;
  readonly data: T;
  /** Ends the run: the monitor's next slot may start another. */
  done(): void;
}

/**
 * One per monitor, and the token its runs carry (`done` is a method, not a closure per monitor:
 * 100,000 monitors are 100,000 of these).
 */
class Entry<T> implements ScheduledRun<T> {
  id: string;
  intervalMs: number;
  /** Where in its interval it runs (computed once per upsert: a hash). */
  phase: number;
  nextAt: number;
  /** Bumped by each upsert: heap nodes of an older generation are stale. */
  gen = 1;
  running = false;
  data: T;
  constructor(id: string, intervalMs: number, phase: number, nextAt: number, data: T) {
    this.id = id;
    this.intervalMs = intervalMs;
    this.phase = phase;
    this.nextAt = nextAt;
    this.data = data;
  }
  done() {
    this.running = false;
  }
}

/** A due time in the heap. One per entry is live; a run reuses its node for the next slot. */
interface Node<T> {
  at: number;
  e: Entry<T>;
  gen: number;
}

export interface SchedulerOptions<T> {
  region: string;
  timers: Timers;
  /**
   * Starts one run, or queues or drops it; calls `run.done()` once, when it is over (or dropped).
   * `scheduledAt` is the slot's wall-clock time.
   */
  dispatch(run: ScheduledRun<T>, scheduledAt: number): void;
}

/**
 * The timer wakes on wall-clock multiples of this (ms): the runs due within one tick start together,
 * so the process wakes at most ~100 times a second however many slots fall in it.
 */
const TICK_MS = 10;

export const createScheduler = <T>(opts: SchedulerOptions<T>) => {
  const { timers, region } = opts;
  const entries = new Map<string, Entry<T>>();
  let heap: Node<T>[] = [];
  let timer: unknown = null;
  let timerAt = Number.POSITIVE_INFINITY;
  let stopped = false;
  let skipped = 0;

  const live = (n: Node<T>) => entries.get(n.e.id) === n.e && n.e.gen === n.gen;
  const push = (n: Node<T>) => {
    heap.push(n);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const up = heap[p]!;
      if (up.at <= n.at) break;
      heap[i] = up;
      i = p;
    }
    heap[i] = n;
  };
  const pop = () => {
    const top = heap[0]!;
    const last = heap.pop()!;
    const size = heap.length;
    if (size > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1;
        const c = r < size && heap[r]!.at < heap[l]!.at ? r : l;
        if (heap[c]!.at >= last.at) break;
        heap[i] = heap[c]!;
        i = c;
      }
      heap[i] = last;
    }
    return top;
  };

  const arm = () => {
    if (stopped) return;
    // drop stale heap heads (removed or rescheduled entries)
    while (heap.length > 0 && !live(heap[0]!)) pop();
    const at = Math.ceil((heap[0]?.at ?? Number.POSITIVE_INFINITY) / TICK_MS) * TICK_MS;
    if (at === timerAt) return;
    if (timer !== null) timers.clear(timer);
    timer = null;
    timerAt = at;
    if (at !== Number.POSITIVE_INFINITY) timer = timers.set(fire, Math.max(0, at - timers.now()));
  };

  const fire = () => {
    timer = null;
    timerAt = Number.POSITIVE_INFINITY;
    const now = timers.now();
    while (heap.length > 0 && heap[0]!.at <= now) {
      const n = pop();
      if (!live(n)) continue;
      const e = n.e;
      const slot = n.at;
      e.nextAt = nextSlot(e.phase, e.intervalMs, Math.max(slot, now - e.intervalMs));
      n.at = e.nextAt;
      push(n);
      if (e.running) {
        skipped++;
        continue;
      }
      e.running = true;
      opts.dispatch(e, slot);
    }
    arm();
  };

  return {
    /**
     * Adds or replaces a monitor, with what its owner keeps for it; its next run keeps to its phase
     * (no run now).
     */
    upsert(id: string, intervalMs: number, data: T) {
      const phase = phaseOf(id, region, intervalMs);
      const nextAt = nextSlot(phase, intervalMs, timers.now());
      // The same entry is updated in place: a run going on now ends on it (its `done`), so the
      // monitor runs again from its next slot.
      let e = entries.get(id);
      if (e) {
        e.intervalMs = intervalMs;
        e.phase = phase;
        e.nextAt = nextAt;
        e.data = data;
        e.gen++;
      } else {
        e = new Entry(id, intervalMs, phase, nextAt, data);
        entries.set(id, e);
      }
      push({ at: nextAt, e, gen: e.gen });
      arm();
    },
    remove(id: string) {
      entries.delete(id);
      arm();
    },
    /** What the owner keeps for a monitor, if it is scheduled. */
    get: (id: string): T | undefined => entries.get(id)?.data,
    /** A scheduled monitor's interval in ms. */
    intervalOf: (id: string): number | undefined => entries.get(id)?.intervalMs,
    /** Every monitor: its id, interval and what its owner keeps. */
    *monitors(): IterableIterator<{ id: string; intervalMs: number; data: T }> {
      yield* entries.values();
    },
    get size() {
      return entries.size;
    },
    get skipped() {
      return skipped;
    },
    stop() {
      stopped = true;
      if (timer !== null) timers.clear(timer);
      timer = null;
    },
    /** Compacts the heap when removals left many dead nodes (call occasionally). */
    compact() {
      heap = heap.filter(live);
      heap.sort((a, b) => a.at - b.at);
    },
  };
};

export type Scheduler = ReturnType<typeof createScheduler>;
