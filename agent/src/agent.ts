import { type Client, Code, ConnectError, createClient, type Interceptor } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  AgentService,
  type Assignment,
  type CheckResult,
  type WatchAssignmentsResponse,
} from '@lookout/proto';
import type { Logger } from '@lookout/shared';
import PQueue from 'p-queue';
import { fullJitter } from './backoff.js';
import type { AgentConfig } from './config.js';
import { deadline } from './deadline.js';
import { createLagWindow } from './lag-window.js';
import type { Prober, ProbeSpec } from './probe-port.js';
import { createResultBuffer } from './result-buffer.js';
import { createScheduler, realTimers, type Timers } from './scheduler.js';
import { resultOf, specOf } from './wire.js';

export interface AgentDeps {
  config: AgentConfig;
  logger: Logger;
  prober: Prober;
  timers?: Timers;
  random?: () => number;
  agentVersion?: string;
  /** Told the schedule lag of every scheduled run (ms from its slot to its start): metrics, benchmarks. */
  onLag?: (ms: number) => void;
  /** Told the outcome of every check (metrics). */
  onCheck?: (check: { type: string; ok: boolean; ms: number }) => void;
}

const REPORT_INTERVAL_MS = 1000;
const REPORT_BATCH = 200;
/** The longest pause a control plane's slow-down request can impose between two batches. */
const MAX_SLOW_DOWN_MS = 10_000;
const HEARTBEAT_MS = 15_000;
/** Every unary call has a deadline, so a hung connection cannot stall reporting or reconnecting. */
const CALL_TIMEOUT_MS = 10_000;
/**
 * The server sends a keep-alive at least every 15 s; a stream silent for longer than this is dead
 * (control plane killed, network gone) and is dropped so the agent reconnects.
 */
const STREAM_SILENCE_MS = 45_000;

/**
 * A region agent: holds the assignment stream (reconnecting with full-jitter backoff), runs each
 * assigned monitor on its own timer through a bounded queue, and reports results in batches. Results
 * wait in a bounded buffer until acknowledged, so nothing is lost across control-plane restarts; the
 * last assignments keep running while the control plane is unreachable.
 */
export const createAgent = (deps: AgentDeps) => {
  const { config, logger, prober } = deps;
  const timers = deps.timers ?? realTimers;
  const random = deps.random ?? Math.random;
  const log = logger.child({ component: 'agent', instance: config.instance_id });

  const auth: Interceptor = (next) => (req) => {
    req.header.set('authorization', `Bearer ${config.token}`);
    return next(req);
  };
  const client: Client<typeof AgentService> = createClient(
    AgentService,
    createGrpcTransport({
      baseUrl: config.control_plane_url,
      interceptors: [auth],
    }),
  );

  /**
   * What this agent runs, kept compact (not the wire messages): 50,000 of these must fit in little
   * memory. `spec` is what the prober takes, converted once per upsert; `problem` is why it cannot run.
   */
  const assignments = new Map<
    string,
    { version: bigint; intervalMs: number; spec: ProbeSpec | null; problem: string | null }
  >();
  const queue = new PQueue({ concurrency: config.concurrency });
  const buffer = createResultBuffer<CheckResult>({
    maxItems: config.buffer_max_results,
    maxAgeMs: config.buffer_max_age_seconds * 1000,
  });
  const lags = createLagWindow();
  let region = config.region ?? '';
  let session: { id: string; epoch: bigint } | null = null;
  let stopping = false;
  let stream: AbortController | null = null;
  let skippedRuns = 0;
  let checksRun = 0;
  let connected = false;
  let reporting: Promise<void> = Promise.resolve();
  /** How often the control plane asked this agent to slow down. */
  let slowDowns = 0;
  /** Ends a slow-down pause early (shutdown flushes at once). */
  let endPause = () => {};

  /** One run of one monitor; a failed check is a result too. */
  const run = async (id: string, scheduledAt: number, runNowRequestId?: string) => {
    const assignment = assignments.get(id);
    if (!assignment) return;
    const { spec } = assignment;
    const startedAt = timers.now();
    const t0 = performance.now();
    if (!runNowRequestId) {
      const lag = Math.max(0, startedAt - scheduledAt);
      lags.add(lag);
      deps.onLag?.(lag);
    }
    // The hard deadline: a prober that ignores its signal still cannot hold a slot past it.
    const limit = deadline((spec?.timeout_ms ?? 0) + 1000);
    let outcome: Awaited<ReturnType<Prober['run']>>;
    try {
      if (!spec) throw new Error(assignment.problem ?? 'this agent cannot run this monitor');
      outcome = await Promise.race([
        prober.run(spec, limit.signal),
        new Promise<never>((_, reject) =>
          limit.signal.addEventListener('abort', () => reject(limit.signal.reason), { once: true }),
        ),
      ]);
    } catch (e) {
      outcome = {
        ok: false,
        error: { kind: 'agent_error', message: (e as Error).message },
        response_time_ms: performance.now() - t0,
      };
    } finally {
      limit.done();
    }
    checksRun++;
    deps.onCheck?.({ type: spec?.monitor_type ?? 'unknown', ok: outcome.ok, ms: performance.now() - t0 });
    const resultId = runNowRequestId
      ? `${id}:${region}:run:${runNowRequestId}`
      : `${id}:${region}:${scheduledAt}`;
    buffer.push(
      resultId,
      startedAt,
      resultOf({
        id: resultId,
        monitorId: id,
        version: assignment.version,
        scheduledAt,
        startedAt,
        outcome,
        ...(runNowRequestId ? { runNowRequestId } : {}),
      }),
      timers.now(),
    );
    if (buffer.size >= REPORT_BATCH) void report();
  };

  const dispatch = (id: string, scheduledAt: number): Promise<void> => {
    if (queue.size >= config.queue_max) {
      skippedRuns++;
      return Promise.resolve();
    }
    return queue.add(() => run(id, scheduledAt));
  };
  // Phases depend on the region, which the first Register tells; until then nothing is scheduled.
  let sched = createScheduler({ region, timers, dispatch });

  const apply = (a: Assignment) => {
    let spec: ProbeSpec | null = null;
    let problem: string | null = null;
    try {
      spec = specOf(a);
    } catch (e) {
      problem = (e as Error).message; // e.g. a check type newer than this agent: its runs report this
    }
    const intervalMs = (a.spec?.intervalSeconds || 60) * 1000;
    assignments.set(a.monitorId, { version: a.version, intervalMs, spec, problem });
    sched.upsert(a.monitorId, intervalMs);
  };
  const drop = (id: string) => {
    assignments.delete(id);
    sched.remove(id);
  };

  /** Sends buffered results oldest first until the buffer is empty or a call fails. */
  const report = (): Promise<void> => {
    reporting = reporting.then(async () => {
      while (session && buffer.size > 0) {
        const batch = buffer.peek(REPORT_BATCH, timers.now());
        if (batch.length === 0) return;
        try {
          const reply = await client.reportResults(
            {
              instanceId: config.instance_id,
              sessionId: session.id,
              results: batch.map((b) => b.value),
            },
            { timeoutMs: CALL_TIMEOUT_MS },
          );
          buffer.ack(batch.map((b) => b.id));
          // Back-pressure: the control plane is behind; results wait in the buffer meanwhile.
          if (reply.slowDownMs > 0 && !stopping) {
            slowDowns++;
            await new Promise<void>((resolve) => {
              const t = timers.set(() => resolve(), Math.min(reply.slowDownMs, MAX_SLOW_DOWN_MS));
              endPause = () => {
                timers.clear(t);
                resolve();
              };
            });
            endPause = () => {};
          }
        } catch (e) {
          log.warn(
            { err: (e as Error).message, buffered: buffer.size },
            'reporting failed; results stay buffered',
          );
          return;
        }
      }
    });
    return reporting;
  };

  const health = () => ({
    assigned: assignments.size,
    inFlight: queue.pending,
    queueDepth: queue.size,
    bufferedResults: buffer.size,
    droppedResults: BigInt(buffer.dropped + skippedRuns),
    scheduleLagP99Ms: Math.round(lags.p99()),
  });

  /** One connection: register, then follow the stream until it ends. */
  const connectOnce = async () => {
    const reg = await client.register(
      {
        instanceId: config.instance_id,
        hostname: config.instance_id,
        agentVersion: deps.agentVersion ?? 'dev',
        concurrency: config.concurrency,
      },
      { timeoutMs: CALL_TIMEOUT_MS },
    );
    if (config.region && reg.region !== config.region) {
      throw new Error(`the token is for region ${reg.region}, not ${config.region} (LOOKOUT_AGENT_REGION)`);
    }
    if (region !== reg.region) {
      region = reg.region;
      const old = sched;
      sched = createScheduler({ region, timers, dispatch });
      old.stop();
      for (const [id, a] of assignments) sched.upsert(id, a.intervalMs);
    }
    session = { id: reg.sessionId, epoch: reg.epoch };
    connected = true;
    log.info({ region, epoch: Number(reg.epoch) }, 'registered');
    void report();
    syncKeep.clear(); // a sync cut off by a broken stream starts over
    stream = new AbortController();
    const running = [...assignments].map(([monitorId, a]) => ({ monitorId, version: a.version }));
    let lastMessageAt = timers.now();
    const current = stream;
    const watchdog = every(5_000, () => {
      if (timers.now() - lastMessageAt > STREAM_SILENCE_MS) {
        log.warn('assignment stream silent too long; reconnecting');
        current.abort();
      }
    });
    try {
      for await (const msg of client.watchAssignments(
        { instanceId: config.instance_id, sessionId: reg.sessionId, running },
        { signal: stream.signal },
      )) {
        lastMessageAt = timers.now();
        handle(msg);
      }
    } finally {
      watchdog();
    }
  };

  /** Monitors named by the parts of a full sync so far. */
  const syncKeep = new Set<string>();
  const handle = (msg: WatchAssignmentsResponse) => {
    const ev = msg.event;
    if (ev.case === 'sync') {
      // A sync may come in parts; a full one replaces the whole set once its last part is in.
      for (const id of ev.value.removes) drop(id);
      for (const a of ev.value.upserts) {
        apply(a);
        if (ev.value.full) syncKeep.add(a.monitorId);
      }
      if (ev.value.more) return;
      if (ev.value.full) for (const id of [...assignments.keys()]) if (!syncKeep.has(id)) drop(id);
      syncKeep.clear();
      log.info({ assigned: assignments.size }, 'assignments synced');
    } else if (ev.case === 'upsert') apply(ev.value);
    else if (ev.case === 'remove') drop(ev.value.monitorId);
    else if (ev.case === 'runNow') {
      const { monitorId, requestId } = ev.value;
      if (assignments.has(monitorId) && queue.size < config.queue_max) {
        void queue.add(() => run(monitorId, timers.now(), requestId));
      }
    }
  };

  const loop = async () => {
    let attempt = 0;
    while (!stopping) {
      try {
        await connectOnce();
        attempt = 0; // a stream that ended normally (recycled): reconnect at once
      } catch (e) {
        if (stopping) break;
        const err = e instanceof ConnectError ? `${Code[e.code]}: ${e.rawMessage}` : (e as Error).message;
        if (e instanceof Error && /not .* \(LOOKOUT_AGENT_REGION\)/.test(e.message)) {
          log.fatal({ err }, 'wrong region');
          throw e;
        }
        log.warn({ err, attempt }, 'control plane unreachable; checks keep running on the last assignments');
        attempt++;
      } finally {
        connected = false;
      }
      if (stopping) break;
      await new Promise((r) =>
        timers.set(() => r(undefined), attempt === 0 ? 0 : fullJitter(attempt, random)),
      );
    }
  };

  let reportTimer: unknown = null;
  let heartbeatTimer: unknown = null;
  const every = (ms: number, fn: () => void) => {
    let cancelled = false;
    const tick = () => {
      if (cancelled) return;
      fn();
      if (!stopping && !cancelled) timer = timers.set(tick, ms);
    };
    let timer = timers.set(tick, ms);
    return () => {
      cancelled = true;
      timers.clear(timer);
    };
  };

  let loopDone: Promise<void> = Promise.resolve();
  return {
    start() {
      loopDone = loop();
      reportTimer = every(REPORT_INTERVAL_MS, () => void report());
      heartbeatTimer = every(HEARTBEAT_MS, () => {
        if (!session) return;
        client
          .heartbeat(
            { instanceId: config.instance_id, sessionId: session.id, ...health() },
            { timeoutMs: CALL_TIMEOUT_MS },
          )
          .catch((e: unknown) => {
            if (e instanceof ConnectError && e.code === Code.FailedPrecondition) stream?.abort();
          });
      });
      return loopDone;
    },
    /** Graceful: stop scheduling, let running checks finish (bounded), flush results, close the stream. */
    async stop(graceMs = config.shutdown_grace_ms) {
      stopping = true;
      endPause();
      sched.stop();
      (reportTimer as () => void)?.();
      (heartbeatTimer as () => void)?.();
      queue.clear();
      await Promise.race([queue.onIdle(), new Promise((r) => setTimeout(r, graceMs))]);
      await report();
      stream?.abort();
      await loopDone.catch(() => {});
    },
    health,
    get connected() {
      return connected;
    },
    get region() {
      return region;
    },
    get checksRun() {
      return checksRun;
    },
    get skippedRuns() {
      return skippedRuns + sched.skipped;
    },
    get droppedResults() {
      return buffer.dropped;
    },
    /** How often the control plane asked this agent to slow down its reporting. */
    get slowDowns() {
      return slowDowns;
    },
    assigned: () => [...assignments.keys()],
  };
};

export type Agent = ReturnType<typeof createAgent>;
