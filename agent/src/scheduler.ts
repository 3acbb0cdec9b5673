import { nextSlot, phaseOf } from './phase.js';

/**
 * Runs each assigned monitor on its own wall-clock phase. One timer, for the earliest 10 ms tick that
 * holds a due run, so 100,000 monitors cost one timer, not 100,000. A run that is still going when its
 * next slot comes skips that slot: never two runs of one monitor at once. After a failed run (told by
 * `outcome`) the next one comes after the monitor's retry interval, until `threshold` runs in a row
 * have failed or one succeeds; then the phase again.
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
  /** The tick whose bucket holds its next run; a reference in any other bucket is stale. */
  tick = 0;
  removed = false;
  running = false;
  /** Runs in a row that failed (any run: scheduled, retry, or asked for). */
  failures = 0;
  retryMs: number;
  threshold: number;
  data: T;
  constructor(id: string, intervalMs: number, phase: number, nextAt: number, data: T, retry: Retry) {
    this.id = id;
    this.intervalMs = intervalMs;
    this.phase = phase;
    this.nextAt = nextAt;
    this.data = data;
    this.retryMs = retry.retryMs;
    this.threshold = retry.threshold;
  }
  done() {
    this.running = false;
  }
}

/**
 * A monitor's retries: after a failure the next run comes `retryMs` later, while fewer than `threshold`
 * runs in a row have failed. `retryMs` 0: no retries (the phase only).
 */
export interface Retry {
  retryMs: number;
  threshold: number;
}

const NO_RETRY: Retry = { retryMs: 0, threshold: 0 };

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

/**
 * Whether an entry's next run is a slot of its phase, not a retry (a retry that falls on a slot is that
 * slot): known from the times, so no entry keeps a flag for it.
 */
const onPhase = (e: { nextAt: number; phase: number; intervalMs: number }) =>
  (((e.nextAt - e.phase) % e.intervalMs) + e.intervalMs) % e.intervalMs === 0;

/** The tick a due time starts on: the first multiple of TICK_MS at or after it. */
const tickOf = (at: number) => Math.ceil(at / TICK_MS);

/**
 * The runs are filed in buckets, one per 10 ms tick that holds a due run (a calendar queue), and only
 * the ticks themselves are ordered, in a min-heap of numbers: a run costs an append to its next tick's
 * bucket, where a heap of every monitor's due time cost a sift through ~17 levels of objects scattered
 * over the heap per run (docs/benchmarks.md, "History": issue 27's sixteenth round). An entry moved to another
 * tick (an upsert) leaves a stale reference in its old bucket, skipped because the entry's `tick` no
 * longer names that bucket; a bucket goes when its tick has run.
 */
export const createScheduler = <T>(opts: SchedulerOptions<T>) => {
  const { timers, region } = opts;
  const entries = new Map<string, Entry<T>>();
  const buckets = new Map<number, Entry<T>[]>();
  /** The ticks that have a bucket, as a binary min-heap (a tick may appear twice; see `fire`). */
  const ticks: number[] = [];
  let timer: unknown = null;
  let timerAt = Number.POSITIVE_INFINITY;
  let stopped = false;
  let skipped = 0;

  const pushTick = (k: number) => {
    let i = ticks.length;
    ticks.push(k);
    while (i > 0) {
      const p = (i - 1) >> 1;
      const up = ticks[p]!;
      if (up <= k) break;
      ticks[i] = up;
      i = p;
    }
    ticks[i] = k;
  };
  const popTick = () => {
    const top = ticks[0]!;
    const last = ticks.pop()!;
    const size = ticks.length;
    if (size > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1;
        const c = r < size && ticks[r]! < ticks[l]! ? r : l;
        if (ticks[c]! >= last) break;
        ticks[i] = ticks[c]!;
        i = c;
      }
      ticks[i] = last;
    }
    return top;
  };
  /** Files an entry under the tick of its `nextAt`. */
  const file = (e: Entry<T>) => {
    const k = tickOf(e.nextAt);
    e.tick = k;
    const b = buckets.get(k);
    if (b) b.push(e);
    else {
      buckets.set(k, [e]);
      pushTick(k);
    }
  };

  const arm = () => {
    if (stopped) return;
    const at = ticks.length > 0 ? ticks[0]! * TICK_MS : Number.POSITIVE_INFINITY;
    if (at === timerAt) return;
    if (timer !== null) timers.clear(timer);
    timer = null;
    timerAt = at;
    if (at !== Number.POSITIVE_INFINITY) timer = timers.set(fire, Math.max(0, at - timers.now()));
  };

  /** One slot of a monitor: a run, or a skip while its previous run goes on. */
  const runSlot = (e: Entry<T>, slot: number) => {
    if (e.running) {
      skipped++;
      return;
    }
    e.running = true;
    opts.dispatch(e, slot);
  };

  const fire = () => {
    timer = null;
    timerAt = Number.POSITIVE_INFINITY;
    const now = timers.now();
    while (ticks.length > 0 && ticks[0]! * TICK_MS <= now) {
      const k = popTick();
      const bucket = buckets.get(k);
      // A tick filed again while its bucket ran (a clock stepped back) is in the heap twice.
      if (!bucket) continue;
      buckets.delete(k);
      for (const e of bucket) {
        if (e.removed || e.tick !== k) continue;
        // A retry's run as well: the phase takes over after it unless its outcome asks for another.
        const slot = e.nextAt;
        // After a stall of more than an interval, one slot within the last interval is due as well
        // (then skipped, as its first run still goes): the next one is after now.
        let next = nextSlot(e.phase, e.intervalMs, Math.max(slot, now - e.intervalMs));
        const catchUp = next <= now ? next : -1;
        if (catchUp >= 0) next += e.intervalMs;
        e.nextAt = next;
        file(e);
        runSlot(e, slot);
        if (catchUp >= 0) runSlot(e, catchUp);
      }
    }
    arm();
  };

  /** Moves an entry's next run to `at` (filed again unless that is the tick it is filed under). */
  const moveTo = (e: Entry<T>, at: number) => {
    e.nextAt = at;
    if (e.tick === tickOf(at)) return;
    file(e);
    arm();
  };

  return {
    /**
     * Adds or replaces a monitor, with what its owner keeps for it and its retries; its next run keeps
     * to its phase (no run now: a new monitor's first check is a run asked for, check-runner.ts).
     */
    upsert(id: string, intervalMs: number, data: T, retry: Retry = NO_RETRY) {
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
        e.retryMs = retry.retryMs;
        e.threshold = retry.threshold;
        // Still due on the same tick (a new version, the same interval): it is in that bucket already.
        if (e.tick === tickOf(nextAt)) return;
      } else {
        e = new Entry(id, intervalMs, phase, nextAt, data, retry);
        entries.set(id, e);
      }
      file(e);
      arm();
    },
    /**
     * A run of the monitor ended (a scheduled one, a retry, or one asked for: they all count): after
     * a failure with fewer than `threshold` in a row, its next run is a retry interval from now (unless
     * its next slot is sooner); after a success, or once the threshold is reached, the phase again.
     */
    outcome(id: string, ok: boolean) {
      const e = entries.get(id);
      if (!e) return;
      e.failures = ok ? 0 : e.failures + 1;
      const now = timers.now();
      if (!ok && e.retryMs > 0 && e.failures < e.threshold) {
        const at = now + e.retryMs;
        if (at < e.nextAt) moveTo(e, at);
      } else if (!onPhase(e)) moveTo(e, nextSlot(e.phase, e.intervalMs, now));
    },
    remove(id: string) {
      const e = entries.get(id);
      if (!e) return;
      e.removed = true;
      entries.delete(id);
    },
    /** What the owner keeps for a monitor, if it is scheduled. */
    get: (id: string): T | undefined => entries.get(id)?.data,
    /** A scheduled monitor's interval in ms. */
    intervalOf: (id: string): number | undefined => entries.get(id)?.intervalMs,
    /** Every monitor: its id, interval, retries and what its owner keeps. */
    *monitors(): IterableIterator<{ id: string; intervalMs: number; data: T } & Retry> {
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
  };
};

export type Scheduler = ReturnType<typeof createScheduler>;
