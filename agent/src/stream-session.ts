import type { Client } from '@connectrpc/connect';
import type { AgentService, WatchAssignmentsResponse } from '@lookout/proto';
import type { Logger } from '@lookout/shared';
import { fullJitter } from './backoff.js';
import type { CheckRunner } from './check-runner.js';
import { every } from './every.js';
import { type ClassifiedError, classifyRpcError, type RpcErrorKind, WrongRegionError } from './rpc-errors.js';
import type { Timers } from './scheduler.js';

/**
 * The server sends a keep-alive at least every 15 s; a stream silent for longer than this is dead
 * (control plane killed, network gone) and is dropped so the agent reconnects.
 */
const STREAM_SILENCE_MS = 45_000;
const WATCHDOG_MS = 5_000;

export interface StreamSessionDeps {
  client: Client<typeof AgentService>;
  log: Logger;
  timers: Timers;
  random: () => number;
  instanceId: string;
  agentVersion: string;
  /** The check types this agent can run, declared at Register: the control plane places only those on it. */
  checkTypes: readonly string[];
  concurrency: number;
  /** `LOOKOUT_AGENT_REGION`: a token of another region stops the agent. */
  expectedRegion: string | undefined;
  /** How long to wait after the control plane rejected the token (`LOOKOUT_AGENT_AUTH_RETRY_SECONDS`). */
  authRetryMs: number;
  callTimeoutMs: number;
  checks: CheckRunner;
  /** Called after each Register (buffered results go out at once). */
  onRegistered(): void;
  /** Every failed call, by kind (metrics). */
  onRpcError?: ((kind: RpcErrorKind) => void) | undefined;
}

/**
 * The agent's session with the control plane: Register, then follow the WatchAssignments stream
 * (a watchdog drops a silent one), reconnecting with full-jitter backoff. Every failed call of the
 * agent comes to `failed`, the one place that decides what an error means (rpc-errors.ts) and what
 * to do about it: retry soon, wait long for a new token (one error line per episode), or stop.
 */
export const createStreamSession = (deps: StreamSessionDeps) => {
  const { client, log, timers, checks } = deps;
  /** `maxBatch`: the most results a ReportResults call may carry, as the control plane announced (0: not said). */
  let session: { id: string; epoch: bigint; maxBatch: number } | null = null;
  let connected = false;
  let stopping = false;
  let stream: AbortController | null = null;
  /** Why the current stream was ended from outside (a rejected report, say): already counted. */
  let endedBy: ClassifiedError | null = null;
  /** Since when the control plane has rejected the token (null: it accepts it). */
  let rejectedSince: number | null = null;
  /** Monitors named by the parts of a full sync so far. */
  const syncKeep = new Set<string>();
  let wake = () => {};

  const handle = (msg: WatchAssignmentsResponse) => {
    const ev = msg.event;
    if (ev.case === 'sync') {
      // A sync may come in parts; a full one replaces the whole set once its last part is in.
      for (const id of ev.value.removes) checks.drop(id);
      for (const a of ev.value.upserts) {
        checks.apply(a);
        if (ev.value.full) syncKeep.add(a.monitorId);
      }
      if (ev.value.more) return;
      if (ev.value.full) for (const id of checks.ids()) if (!syncKeep.has(id)) checks.drop(id);
      syncKeep.clear();
      log.info({ assigned: checks.ids().length }, 'assignments synced');
    } else if (ev.case === 'upsert') checks.apply(ev.value);
    else if (ev.case === 'remove') checks.drop(ev.value.monitorId);
    else if (ev.case === 'runNow') checks.runNow(ev.value.monitorId, ev.value.requestId, ev.value.reason);
  };

  /** One connection: register, then follow the stream until it ends. */
  const connectOnce = async () => {
    endedBy = null;
    const reg = await client.register(
      {
        instanceId: deps.instanceId,
        hostname: deps.instanceId,
        agentVersion: deps.agentVersion,
        concurrency: deps.concurrency,
        checkTypes: [...deps.checkTypes],
      },
      { timeoutMs: deps.callTimeoutMs },
    );
    if (deps.expectedRegion && reg.region !== deps.expectedRegion) {
      throw new WrongRegionError(reg.region, deps.expectedRegion);
    }
    checks.setRegion(reg.region);
    session = { id: reg.sessionId, epoch: reg.epoch, maxBatch: reg.limits?.maxResultsPerBatch ?? 0 };
    connected = true;
    if (rejectedSince !== null) {
      log.info(
        { rejected_for_seconds: Math.round((timers.now() - rejectedSince) / 1000) },
        'token accepted again',
      );
      rejectedSince = null;
    }
    log.info({ region: reg.region, epoch: Number(reg.epoch) }, 'registered');
    deps.onRegistered();
    if (stopping) return; // draining: the final flush uses this session; no new stream
    syncKeep.clear(); // a sync cut off by a broken stream starts over
    const current = new AbortController();
    stream = current;
    let lastMessageAt = timers.now();
    const watchdog = every(timers, WATCHDOG_MS, () => {
      if (timers.now() - lastMessageAt > STREAM_SILENCE_MS) {
        log.warn('assignment stream silent too long; reconnecting');
        current.abort();
      }
    });
    try {
      for await (const msg of client.watchAssignments(
        { instanceId: deps.instanceId, sessionId: reg.sessionId, running: checks.running() },
        { signal: current.signal },
      )) {
        lastMessageAt = timers.now();
        handle(msg);
      }
    } finally {
      watchdog();
    }
  };

  /** The control plane refuses the token: say it once per episode, drop the session, wait long. */
  const rejected = (err: ClassifiedError) => {
    session = null;
    if (rejectedSince !== null) {
      log.debug({ code: err.code, err: err.message }, 'token still rejected');
      return;
    }
    rejectedSince = timers.now();
    log.error(
      { code: err.code, err: err.message, retry_in_seconds: Math.round(deps.authRetryMs / 1000) },
      "the control plane rejected this agent's token (revoked, expired or not this deployment's): " +
        'trying again only every LOOKOUT_AGENT_AUTH_RETRY_SECONDS; checks keep running on the last ' +
        'assignments and results stay buffered; set a valid LOOKOUT_AGENT_TOKEN and restart to connect now',
    );
  };

  /** Counts a failed call; a rejected token or a lost session ends the stream, so the loop decides. */
  const note = (err: ClassifiedError): ClassifiedError => {
    deps.onRpcError?.(err.kind);
    if (err.kind === 'credentials') rejected(err);
    if ((err.kind === 'credentials' || err.sessionLost) && stream && !stream.signal.aborted) {
      endedBy = err;
      stream.abort();
    }
    return err;
  };

  /** Every failed call of the agent (ReportResults, Heartbeat) comes here, and the loop's own too. */
  const failed = (e: unknown): RpcErrorKind => note(classifyRpcError(e)).kind;

  /** After a connection ended with `e`: how long to wait before the next attempt, or throw to stop. */
  const handleError = (e: unknown, attempt: number): number => {
    // A stream ended from outside (a rejected report, a lost session) was noted when it happened.
    const err = endedBy ?? note(classifyRpcError(e));
    endedBy = null;
    switch (err.kind) {
      case 'fatal':
        log.fatal({ err: err.message }, 'wrong region');
        throw e;
      case 'credentials':
        return Math.round(deps.authRetryMs * (0.8 + 0.2 * deps.random()));
      case 'transient':
        log.warn(
          { err: `${err.code}: ${err.message}`, attempt },
          'control plane unreachable; checks keep running on the last assignments',
        );
        return fullJitter(attempt, deps.random);
    }
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = timers.set(resolve, ms);
      wake = () => {
        timers.clear(t);
        resolve();
      };
    });

  /** Runs until `stop`; rejects only for a fatal error (a token of another region). */
  const run = async () => {
    let attempt = 0;
    while (!stopping) {
      let waitMs = 0;
      let wasConnected = false;
      try {
        await connectOnce();
        attempt = 0; // a stream that ended normally (recycled): reconnect at once
      } catch (e) {
        if (stopping) break;
        wasConnected = connected;
        // After a session that worked, the backoff starts over.
        attempt = wasConnected ? 1 : attempt + 1;
        waitMs = handleError(e, attempt);
      } finally {
        connected = false;
      }
      if (stopping) break;
      await sleep(waitMs);
    }
  };

  return {
    run,
    failed,
    /** Agent health, every ~15 s while registered; a lost session reconnects. */
    heartbeat(health: {
      assigned: number;
      inFlight: number;
      queueDepth: number;
      bufferedResults: number;
      droppedResults: bigint;
      scheduleLagP99Ms: number;
      shortestIntervalSeconds: number;
      shortestIntervalAgeSeconds: number;
    }) {
      if (!session) return;
      client
        .heartbeat(
          { instanceId: deps.instanceId, sessionId: session.id, ...health },
          { timeoutMs: deps.callTimeoutMs },
        )
        .catch((e: unknown) => void failed(e));
    },
    /** No more reconnects (a backoff wait ends now); the stream stays open for the final flush. */
    stop() {
      stopping = true;
      wake();
    },
    /** Ends the stream (after the final flush). */
    close() {
      stream?.abort();
    },
    session: () => session,
    get connected() {
      return connected;
    },
  };
};

export type StreamSession = ReturnType<typeof createStreamSession>;
