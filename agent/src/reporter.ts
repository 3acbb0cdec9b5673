import type { CheckResult } from '@lookout/proto';
import type { Logger } from '@lookout/shared';
import { RESULTS_FIELD, type ReportEncodedResults } from './report-rpc.js';
import type { RpcErrorKind } from './rpc-errors.js';
import type { Timers } from './scheduler.js';
import { createWaitingResults } from './waiting-results.js';

/**
 * Results a call carries when nothing is backed up. At 1,667 checks/s an agent fills one every 0.3 s
 * (slower agents send what they have on the 1 s tick). 500 rather than 200: the control plane commits
 * each call (one transaction, one fsync, the monitors' states read once), and its CPU per result fell
 * by about a third (docs/benchmarks.md, "History": issue 27's fourteenth round).
 */
export const REPORT_BATCH = 500;
/**
 * How many results the next call carries: a batch of REPORT_BATCH, or, with several batches waiting
 * (the control plane answered slower than checks finished), as many whole batches as wait, never more
 * than the control plane's limit (`max`, 0 when it announced none). One call is in flight at a time,
 * so what one call carries bounds the rate an agent can report at.
 */
export const batchSize = (waiting: number, max: number) => {
  if (max <= 0) return REPORT_BATCH;
  if (max <= REPORT_BATCH) return max;
  return Math.min(max, Math.max(REPORT_BATCH, waiting - (waiting % REPORT_BATCH)));
};
/**
 * The most bytes of results one call carries: half the control plane's read limit for a message
 * (control-plane rpc/rpc-server.ts, RPC_READ_MAX_BYTES, 16 MiB). Normal results are ~100 bytes, so
 * only results with screenshots (at most 16 waiting, 256 KiB each: waiting-results.ts) or long
 * scripted reports make a batch stop short of its count.
 */
export const REPORT_MAX_BYTES = 8 * 1024 * 1024;
/** The longest pause a control plane's slow-down request can impose between two batches. */
export const MAX_SLOW_DOWN_MS = 10_000;
/** What a round sends: full batches only (a push filled one), or everything buffered. */
const FULL = 1;
const ALL = 2;

export interface ReporterDeps {
  /** ReportResults, its results encoded by the agent (report-rpc.ts). */
  reportEncoded: ReportEncodedResults;
  instanceId: string;
  timers: Timers;
  log: Logger;
  callTimeoutMs: number;
  buffer: { maxItems: number; maxBytes: number; maxAgeMs: number };
  /**
   * The open session, or null while not registered (then nothing is sent); `maxBatch`, the most results
   * a call may carry, as the control plane announced at Register (0 or absent: REPORT_BATCH).
   */
  session(): { id: string; maxBatch?: number } | null;
  /** A failed call, for the one place that decides what it means (the stream session). */
  failed(e: unknown): RpcErrorKind;
  /** True once the agent drains: a slow-down request no longer pauses the final flush. */
  stopping(): boolean;
}

/**
 * Keeps results until the control plane acknowledges them and sends them in batches, oldest first:
 * on a timer, when a batch is full, after each Register and on shutdown. At most one call is in
 * flight: a trigger while one is only marks that another round is wanted, and the round under way
 * picks it up when its call answers; with several batches waiting meanwhile, the next call carries
 * them together (`batchSize`). A round started by a full batch sends full batches only (fewer
 * waiting results wait for the timer); the timer, Register and shutdown send everything. A reply's
 * slow-down request pauses the next batch (results keep buffering meanwhile); a failed call ends
 * the round, and full batches wait for the timer until a call succeeds again.
 */
export const createReporter = (deps: ReporterDeps) => {
  const { timers, log } = deps;
  const buffer = createWaitingResults({ ...deps.buffer, field: RESULTS_FIELD });
  /** The rounds under way (null: none); resolves when no round is wanted any more. */
  let running: Promise<void> | null = null;
  /** The round wanted next: none, full batches only, or everything. */
  let wanted: 0 | typeof FULL | typeof ALL = 0;
  /** The last call failed: pushes do not start rounds until the timer's round gets through. */
  let failing = false;
  /** How often the control plane asked this agent to slow down. */
  let slowDowns = 0;
  /** Ends a slow-down pause early (shutdown flushes at once). */
  let endPause = () => {};

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = timers.set(() => resolve(), Math.min(ms, MAX_SLOW_DOWN_MS));
      endPause = () => {
        timers.clear(t);
        resolve();
      };
    }).finally(() => {
      endPause = () => {};
    });

  /** One round: batches oldest first while at least `min` results wait. False when a call failed. */
  const round = async (min: number): Promise<boolean> => {
    for (let session = deps.session(); session && buffer.size >= min; session = deps.session()) {
      const size = batchSize(buffer.size, session.maxBatch ?? 0);
      const batch = buffer.peek(size, timers.now(), REPORT_MAX_BYTES);
      // A full batch is the control plane's limit when that is smaller than ours, or as many as fit
      // in REPORT_MAX_BYTES.
      if (!batch || (batch.count < Math.min(min, size) && !batch.cut)) return true;
      try {
        const reply = await deps.reportEncoded(
          { instanceId: deps.instanceId, sessionId: session.id, records: batch.records },
          { timeoutMs: deps.callTimeoutMs },
        );
        failing = false;
        buffer.ack(batch);
        // Back-pressure: the control plane is behind; results wait in the buffer meanwhile.
        if (reply.slowDownMs > 0 && !deps.stopping()) {
          slowDowns++;
          await pause(reply.slowDownMs);
        }
      } catch (e) {
        failing = true;
        // A rejected token is logged (once) where it is decided; other failures are retried next tick.
        if (deps.failed(e) === 'transient') {
          log.warn(
            { err: (e as Error).message, buffered: buffer.size },
            'reporting failed; results stay buffered',
          );
        }
        return false;
      }
    }
    return true;
  };

  const drain = async () => {
    try {
      while (wanted !== 0) {
        const min = wanted === ALL ? 1 : REPORT_BATCH;
        wanted = 0;
        // After a failed call, full batches wait for the timer; a flush asked for meanwhile (the
        // timer, Register, shutdown) still gets its one attempt.
        if (!(await round(min)) && (wanted as number) === FULL) wanted = 0;
      }
    } finally {
      running = null;
    }
  };

  /** Asks for a round (`ALL`: everything buffered); resolves when the rounds under way are over. */
  const trigger = (what: typeof FULL | typeof ALL): Promise<void> => {
    if (what > wanted) wanted = what;
    running ??= drain();
    return running;
  };

  return {
    /** A finished run's result; a full batch is sent at once. */
    push(startedAt: number, result: CheckResult) {
      buffer.push(startedAt, result, timers.now());
      if (buffer.size >= REPORT_BATCH && !failing && wanted === 0) void trigger(FULL);
    },
    /** Sends everything buffered (the timer, Register, shutdown). */
    report: () => trigger(ALL),
    endPause: () => endPause(),
    get buffered() {
      return buffer.size;
    },
    /** The bytes the waiting results take (their bound: `buffer_max_bytes`). */
    get bufferedBytes() {
      return buffer.bytes;
    },
    get dropped() {
      return buffer.dropped;
    },
    get droppedScreenshots() {
      return buffer.droppedScreenshots;
    },
    get slowDowns() {
      return slowDowns;
    },
  };
};

export type Reporter = ReturnType<typeof createReporter>;
