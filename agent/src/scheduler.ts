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
  /** Where in its interval it runs (computed once: a hash). */
  phase: number;
  nextAt: number;
  gen: number;
  running: boolean;
}

export interface SchedulerOptions {
  region: string;
  timers: Timers;
  /** Starts one run; resolves when it is over. `scheduledAt` is the slot's wall-clock time. */
  dispatch(id: string, scheduledAt: number): Promise<void>;
}

export const createScheduler = (opts: SchedulerOptions) => {
  const { timers, region } = opts;
  const entries = new Map<string, Entry>();
  let heap: { at: number; id: string; gen: number }[] = [];
  let timer: unknown = null;
  let timerAt = Number.POSITIVE_INFINITY;
  let stopped = false;
  let skipped = 0;

  const push = (n: { at: number; id: string; gen: number }) => {
    heap.push(n);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heap[p]!.at <= heap[i]!.at) break;
      [heap[p], heap[i]] = [heap[i]!, heap[p]!];
      i = p;
    }
  };
  const pop = () => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && heap[l]!.at < heap[m]!.at) m = l;
        if (r < heap.length && heap[r]!.at < heap[m]!.at) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i]!, heap[m]!];
        i = m;
      }
    }
    return top;
  };

  const arm = () => {
    if (stopped) return;
    // drop stale heap heads (removed or rescheduled entries)
    while (heap.length > 0 && entries.get(heap[0]!.id)?.gen !== heap[0]!.gen) pop();
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
      const e = entries.get(n.id);
      if (!e || e.gen !== n.gen) continue;
      const slot = n.at;
      e.nextAt = nextSlot(e.phase, e.intervalMs, Math.max(slot, now - e.intervalMs));
      push({ at: e.nextAt, id: e.id, gen: e.gen });
      if (e.running) {
        skipped++;
        continue;
      }
      e.running = true;
      const gen = e.gen;
      opts.dispatch(e.id, slot).finally(() => {
        const cur = entries.get(e.id);
        if (cur && cur.gen === gen) cur.running = false;
      });
    }
    arm();
  };

  return {
    /** Adds or replaces a monitor; its next run keeps to its phase (no run now). */
    upsert(id: string, intervalMs: number) {
      const prev = entries.get(id);
      const gen = (prev?.gen ?? 0) + 1;
      const phase = phaseOf(id, region, intervalMs);
      const nextAt = nextSlot(phase, intervalMs, timers.now());
      entries.set(id, { id, intervalMs, phase, nextAt, gen, running: prev?.running ?? false });
      push({ at: nextAt, id, gen });
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
      heap = heap.filter((n) => entries.get(n.id)?.gen === n.gen);
      heap.sort((a, b) => a.at - b.at);
    },
  };
};

export type Scheduler = ReturnType<typeof createScheduler>;
