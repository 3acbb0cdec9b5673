import { type Client, createClient, type Interceptor } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { AgentService } from '@lookout/proto';
import type { Logger } from '@lookout/shared';
import { createCheckRunner } from './check-runner.js';
import type { AgentConfig } from './config.js';
import { every } from './every.js';
import type { Prober } from './probe-port.js';
import { reportEncodedResults } from './report-rpc.js';
import { createReporter } from './reporter.js';
import type { RpcErrorKind } from './rpc-errors.js';
import { realTimers, type Timers } from './scheduler.js';
import { createStreamSession } from './stream-session.js';

export interface AgentDeps {
  config: AgentConfig;
  logger: Logger;
  /** The probers; `types`: the check types declared at Register (none: the first protocol's types). */
  prober: Prober & { readonly types?: readonly string[] };
  timers?: Timers;
  random?: () => number;
  agentVersion?: string;
  /** Told the schedule lag of every scheduled run (ms from its slot to its start): metrics, benchmarks. */
  onLag?: (ms: number) => void;
  /** Told the outcome of every check (metrics). */
  onCheck?: (type: string, ok: boolean, ms: number) => void;
  /** Told every failed call to the control plane, by kind (metrics). */
  onRpcError?: (kind: RpcErrorKind) => void;
}

const REPORT_INTERVAL_MS = 1000;
const HEARTBEAT_MS = 15_000;
/** Every unary call has a deadline, so a hung connection cannot stall reporting or reconnecting. */
const CALL_TIMEOUT_MS = 10_000;

/**
 * A region agent, put together from its roles: the check runner (assignments, schedule, bounded
 * queue: check-runner.ts), the stream session (Register, WatchAssignments, backoff, what an error
 * means: stream-session.ts) and the reporter (buffer, ReportResults, slow-down: reporter.ts). This
 * file is the lifecycle: start, the report and heartbeat timers, the graceful stop, and what metrics
 * read. Results wait in a bounded buffer until acknowledged, so nothing is lost across control-plane
 * restarts; the last assignments keep running while the control plane is unreachable.
 */
export const createAgent = (deps: AgentDeps) => {
  const { config } = deps;
  const timers = deps.timers ?? realTimers;
  const log = deps.logger.child({ component: 'agent', instance: config.instance_id });

  const auth: Interceptor = (next) => (req) => {
    req.header.set('authorization', `Bearer ${config.token}`);
    return next(req);
  };
  const transport = createGrpcTransport({ baseUrl: config.control_plane_url, interceptors: [auth] });
  const client: Client<typeof AgentService> = createClient(AgentService, transport);

  let stopping = false;
  const reporter = createReporter({
    reportEncoded: reportEncodedResults(transport),
    instanceId: config.instance_id,
    timers,
    log,
    callTimeoutMs: CALL_TIMEOUT_MS,
    buffer: {
      maxItems: config.buffer_max_results,
      maxBytes: config.buffer_max_bytes,
      maxAgeMs: config.buffer_max_age_seconds * 1000,
    },
    session: () => session.session(),
    failed: (e) => session.failed(e),
    stopping: () => stopping,
  });
  const checks = createCheckRunner({
    prober: deps.prober,
    timers,
    concurrency: config.concurrency,
    queueMax: config.queue_max,
    onResult: reporter.push,
    onLag: deps.onLag,
    onCheck: deps.onCheck,
    onError: (e) => log.error({ err: (e as Error).message }, 'a check run failed outside its probe'),
  });
  const session = createStreamSession({
    client,
    log,
    timers,
    random: deps.random ?? Math.random,
    instanceId: config.instance_id,
    agentVersion: deps.agentVersion ?? 'dev',
    checkTypes: deps.prober.types ?? [],
    concurrency: config.concurrency,
    expectedRegion: config.region,
    authRetryMs: config.auth_retry_seconds * 1000,
    callTimeoutMs: CALL_TIMEOUT_MS,
    checks,
    onRegistered: () => void reporter.report(),
    onRpcError: deps.onRpcError,
  });
  if (config.region) checks.setRegion(config.region);

  const health = () => ({
    ...checks.health(),
    bufferedResults: reporter.buffered,
    droppedResults: BigInt(reporter.dropped + checks.skipped.queueFull),
  });

  let stopTimers = () => {};
  let loopDone: Promise<void> = Promise.resolve();
  return {
    start() {
      loopDone = session.run();
      const reportTimer = every(timers, REPORT_INTERVAL_MS, () => void reporter.report());
      const heartbeatTimer = every(timers, HEARTBEAT_MS, () => session.heartbeat(health()));
      stopTimers = () => {
        reportTimer();
        heartbeatTimer();
      };
      return loopDone;
    },
    /** Graceful: stop scheduling, let running checks finish (bounded), flush results, close the stream. */
    async stop(graceMs = config.shutdown_grace_ms) {
      stopping = true;
      session.stop();
      reporter.endPause();
      stopTimers();
      await Promise.race([checks.stop(), new Promise((r) => setTimeout(r, graceMs))]);
      await reporter.report();
      session.close();
      await loopDone.catch(() => {});
    },
    health,
    get connected() {
      return session.connected;
    },
    get region() {
      return checks.region;
    },
    get checksRun() {
      return checks.checksRun;
    },
    get skippedRuns() {
      return checks.skipped.queueFull + checks.skipped.overlap;
    },
    get droppedResults() {
      return reporter.dropped;
    },
    get droppedScreenshots() {
      return reporter.droppedScreenshots;
    },
    get bufferedBytes() {
      return reporter.bufferedBytes;
    },
    /** How often the control plane asked this agent to slow down its reporting. */
    get slowDowns() {
      return reporter.slowDowns;
    },
    assigned: () => checks.ids(),
  };
};

export type Agent = ReturnType<typeof createAgent>;
