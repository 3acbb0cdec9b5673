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

interface Entry {
  id: string;
  intervalMs: number;
  /** Where in its interval it runs (computed once per upsert: a hash). */
  phase: number;
  nextAt: number;
  /** Bumped by each upsert: heap nodes of an older generation are stale. */
  gen: number;
  running: boolean;
  /** Ends a run (made once per entry, not per run). */
  done: () => void;
}

/** A due time in the heap. One per entry is live; a run reuses its node for the next slot. */
interface Node {
  at: number;
  e: Entry;
  gen: number;
}

export interface SchedulerOptions {
  region: string;
  timers: Timers;
  /**
   * Starts one run, or queues or drops it; calls `done` once, when it is over (or dropped).
   * `scheduledAt` is the slot's wall-clock time.
   */
  dispatch(id: string, scheduledAt: number, done: () => void): void;
}

export const createScheduler = (opts: SchedulerOptions) => {
  const { timers, region } = opts;
  const entries = new Map<string, Entry>();
  let heap: Node[] = [];
  let timer: unknown = null;
  let timerAt = Number.POSITIVE_INFINITY;
  let stopped = false;
  let skipped = 0;

  const live = (n: Node) => entries.get(n.e.id) === n.e && n.e.gen === n.gen;
  const push = (n: Node) => {
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
    const at = heap[0]?.at ?? Number.POSITIVE_INFINITY;
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
      opts.dispatch(e.id, slot, e.done);
    }
    arm();
  };

  return {
    /** Adds or replaces a monitor; its next run keeps to its phase (no run now). */
    upsert(id: string, intervalMs: number) {
      const phase = phaseOf(id, region, intervalMs);
      const nextAt = nextSlot(phase, intervalMs, timers.now());
      // The same entry is updated in place: a run going on now ends on it (its `done`), so the
      // monitor runs again from its next slot.
      let e = entries.get(id);
      if (e) Object.assign(e, { intervalMs, phase, nextAt, gen: e.gen + 1 });
      else {
        const fresh: Entry = { id, intervalMs, phase, nextAt, gen: 1, running: false, done: () => {} };
        fresh.done = () => {
          fresh.running = false;
        };
        entries.set(id, fresh);
        e = fresh;
      }
      push({ at: nextAt, e, gen: e.gen });
      arm();
    },
    remove(id: string) {
      entries.delete(id);
      arm();
    },
    has: (id: string) => entries.has(id),
    ids: () => [...entries.keys()],
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
