import type { Assignment, CheckResult } from '@lookout/proto';
import PQueue from 'p-queue';
import { createCadence } from './cadence.js';
import { probeWithDeadline } from './deadline.js';
import { createLagWindow } from './lag-window.js';
import type { Prober } from './probe-port.js';
import { createRunList } from './run-list.js';
import { createScheduler, type ScheduledRun, type Timers } from './scheduler.js';
import { createSpecShapes, type SharedShape, specFor } from './spec-shapes.js';
import { resultOf, specOf } from './wire.js';

export interface CheckRunnerDeps {
  prober: Prober;
  timers: Timers;
  concurrency: number;
  /** Checks waiting for a slot before new runs are skipped. */
  queueMax: number;
  /** Every finished run's result. */
  onResult(startedAt: number, result: CheckResult): void;
  /** Told the schedule lag of every scheduled run (ms from its slot to its start). */
  onLag?: ((ms: number) => void) | undefined;
  /** Told the outcome of every check. */
  onCheck?: ((type: string, ok: boolean, ms: number) => void) | undefined;
  /** Told a fault in a run outside its probe (a bug: the run's result is lost). */
  onError?: ((e: unknown) => void) | undefined;
}

/**
 * An assignment as the agent keeps it, with its scheduler entry (100,000 of these must fit in little
 * memory): its version, its URL and its spec's shared shape, or why this agent cannot run it.
 */
type Assigned =
  | { version: bigint; url: string; shape: SharedShape; problem: null }
  | { version: bigint; url: string; shape: null; problem: string };

/**
 * What the agent runs and how: the assignments (kept compact, not the wire messages), the scheduler
 * that puts each on its wall-clock phase, and the bounded queue every run goes through with a hard
 * deadline. Knows nothing of the stream or of reporting.
 */
export const createCheckRunner = (deps: CheckRunnerDeps) => {
  const { prober, timers } = deps;
  const shapes = createSpecShapes();
  const queue = new PQueue({ concurrency: deps.concurrency });
  const lags = createLagWindow();
  const cadence = createCadence(() => timers.now());
  let region = '';
  let skippedRuns = 0;
  let checksRun = 0;

  /**
   * One run of one monitor; a failed check is a result too. Never rejects: a fault outside the probe
   * (a bug) is told to `onError`. A scheduled run ends its scheduler entry's run (`done`) itself, so
   * starting one takes no closure and no promise of its own besides p-queue's.
   */
  const run = async (
    id: string,
    scheduledAt: number,
    runNowRequestId?: string,
    scheduled?: ScheduledRun<Assigned>,
  ) => {
    try {
      const assignment = sched.get(id);
      if (!assignment) return;
      const spec = assignment.shape ? specFor(assignment.shape, id, assignment.url) : null;
      const startedAt = timers.now();
      const t0 = performance.now();
      if (!runNowRequestId) {
        const lag = Math.max(0, startedAt - scheduledAt);
        lags.add(lag);
        deps.onLag?.(lag);
      }
      let outcome: Awaited<ReturnType<Prober['run']>>;
      try {
        if (!spec) throw new Error(assignment.problem ?? 'this agent cannot run this monitor');
        // One timer per check: the prober's signal aborts at the spec's timeout; a hard backstop 1 s later.
        outcome = await probeWithDeadline(prober, spec, timers);
      } catch (e) {
        outcome = {
          ok: false,
          error: { kind: 'agent_error', message: (e as Error).message },
          response_time_ms: performance.now() - t0,
        };
      }
      checksRun++;
      sched.outcome(id, outcome.ok);
      deps.onCheck?.(spec?.monitor_type ?? 'unknown', outcome.ok, performance.now() - t0);
      deps.onResult(
        startedAt,
        resultOf({
          monitorId: id,
          version: assignment.version,
          scheduledAt,
          startedAt,
          outcome,
          ...(runNowRequestId ? { runNowRequestId } : {}),
        }),
      );
    } catch (e) {
      deps.onError?.(e);
    } finally {
      scheduled?.done();
    }
  };

  /**
   * Runs waiting for a free place in the queue, kept here as a compact first-in-first-out list (a
   * monitor id, a slot time and the scheduler's `done` per run) rather than as p-queue tasks: when
   * the agent is behind, up to `queueMax` runs wait, and a task waiting in p-queue holds a promise,
   * closures, an options object and a symbol each. p-queue is given a run when it has a free place,
   * so it bounds how many run at once; this list bounds how many wait.
   */
  const waiting = createRunList<ScheduledRun<Assigned>>();
  const start = (r: ScheduledRun<Assigned>, scheduledAt: number) => {
    void queue.add(() => run(r.id, scheduledAt, undefined, r));
  };
  const hasRoom = () => queue.pending + queue.size < deps.concurrency;
  /** After each run: the next waiting ones, as places free up. */
  queue.on('next', () => {
    while (waiting.size > 0 && hasRoom()) waiting.shift(start);
  });
  const dispatch = (r: ScheduledRun<Assigned>, scheduledAt: number) => {
    if (waiting.size === 0 && hasRoom()) start(r, scheduledAt);
    else if (waiting.size >= deps.queueMax) {
      skippedRuns++;
      r.done();
    } else waiting.push(r, scheduledAt);
  };
  // Phases depend on the region, which the first Register tells; until then nothing is scheduled.
  let sched = createScheduler<Assigned>({ region, timers, dispatch });
  const release = (id: string) => {
    const old = sched.get(id);
    if (old?.shape) shapes.release(old.shape);
  };

  return {
    /** Adds or replaces a monitor. A spec this agent cannot run (a newer check type) reports why on each run. */
    apply(a: Assignment) {
      let assigned: Assigned;
      const url = a.spec?.url ?? '';
      try {
        assigned = { version: a.version, url, shape: shapes.acquire(specOf(a)), problem: null };
      } catch (e) {
        // e.g. a check type newer than this agent: its runs report this
        assigned = { version: a.version, url, shape: null, problem: (e as Error).message };
      }
      release(a.monitorId);
      const intervalMs = (a.spec?.intervalSeconds || 60) * 1000;
      cadence.change(sched.intervalOf(a.monitorId), intervalMs);
      sched.upsert(a.monitorId, intervalMs, assigned, {
        retryMs: Math.min((a.spec?.retryIntervalSeconds ?? 0) * 1000, intervalMs),
        threshold: a.spec?.failureThreshold ?? 0,
      });
    },
    drop(id: string) {
      release(id);
      cadence.change(sched.intervalOf(id), undefined);
      sched.remove(id);
    },
    /**
     * A run now (confirmation, test, or a new monitor's first check), outside the schedule; ignored for
     * monitors not assigned here. A first check (`first`) runs only if a place is free at once, so a
     * burst of new monitors never holds up scheduled runs: one that finds none waits for its slot.
     */
    runNow(monitorId: string, requestId: string, reason = '') {
      if (!sched.get(monitorId)) return;
      const room =
        reason === 'first' ? waiting.size === 0 && hasRoom() : waiting.size + queue.size < deps.queueMax;
      if (room) void queue.add(() => run(monitorId, timers.now(), requestId));
    },
    /** The region from Register: phases depend on it, so a new one reschedules everything. */
    setRegion(next: string) {
      if (region === next) return;
      region = next;
      const old = sched;
      sched = createScheduler<Assigned>({ region, timers, dispatch });
      old.stop();
      for (const m of old.monitors()) sched.upsert(m.id, m.intervalMs, m.data, m);
    },
    get region() {
      return region;
    },
    ids: () => Array.from(sched.monitors(), (m) => m.id),
    /** What runs now, so the first Sync of a new stream can be a diff. */
    running: () => Array.from(sched.monitors(), (m) => ({ monitorId: m.id, version: m.data.version })),
    /** Stops scheduling and drops queued runs; resolves when the running ones are over. */
    stop() {
      sched.stop();
      waiting.clear();
      queue.clear();
      return queue.onIdle();
    },
    health: () => ({
      assigned: sched.size,
      inFlight: queue.pending,
      queueDepth: waiting.size + queue.size,
      scheduleLagP99Ms: Math.round(lags.p99()),
      ...cadenceSeconds(cadence.read()),
    }),
    get checksRun() {
      return checksRun;
    },
    /** The distinct spec shapes held: at most one per assigned monitor, most monitors sharing one. */
    get specShapes() {
      return shapes.size;
    },
    /** Runs skipped because the queue was full (queueFull) or the previous run still went (overlap). */
    get skipped() {
      return { queueFull: skippedRuns, overlap: sched.skipped };
    },
  };
};

/** The cadence as the heartbeat carries it, in whole seconds. */
const cadenceSeconds = (c: { shortestMs: number; ageMs: number }) => ({
  shortestIntervalSeconds: Math.ceil(c.shortestMs / 1000),
  shortestIntervalAgeSeconds: Math.floor(c.ageMs / 1000),
});

export type CheckRunner = ReturnType<typeof createCheckRunner>;
