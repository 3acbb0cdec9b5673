import { create } from '@bufbuild/protobuf';
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from '@connectrpc/connect';
import {
  type AgentService,
  type Assignment,
  type EncodedReportResultsRequest,
  HeartbeatResponseSchema,
  RegisterResponseSchema,
  type ReportResultsResponse,
  ReportResultsResponseSchema,
  type WatchAssignmentsResponse,
  WatchAssignmentsResponseSchema,
} from '@lookout/proto';
import { AppError, type Clock, type Logger, newId, type SecretBox } from '@lookout/shared';
import type { Config } from '../config.js';
import type { AgentStore } from '../domain/agents/agent-store.js';
import { authenticateAgent } from '../domain/agents/agent-tokens.js';
import { createPlacement, declaredCheckTypes, placementBasis } from '../domain/agents/capabilities.js';
import { createHeldVersions } from '../domain/agents/held-versions.js';
import { sha256Weight, shareChanges, type Weight } from '../domain/agents/rendezvous.js';
import type { MaintenanceWindowStore } from '../domain/maintenance/maintenance-store.js';
import { createResultCover } from '../domain/maintenance/result-cover.js';
import type { MonitorCatalog } from '../domain/monitors/monitor-catalog.js';
import { ingestResults } from '../domain/results/check-results.js';
import type { CoverOfWorkspace } from '../domain/results/result-maintenance.js';
import { createResultWriter, slowDownMs } from '../domain/results/result-writer.js';
import type { AgentToken, CatalogMonitor } from '../domain/types.js';
import type { Metrics } from '../process/metrics.js';
import { toConnectError } from './errors.js';
import { decodeResult } from './result-decoder.js';
import type { RunNowHub, RunNowRequest } from './run-now-hub.js';
import { assignmentEncoder, resultFromWire } from './wire.js';

/** The store ports the agent service uses: agents' sessions, and what ingesting results writes and reads. */
export type AgentServiceStore = AgentStore &
  Parameters<typeof ingestResults>[0]['store'] &
  Pick<MaintenanceWindowStore, 'listLiveMaintenanceWindows'>;

export interface AgentServiceDeps {
  store: AgentServiceStore;
  clock: Clock;
  config: Config;
  logger: Logger;
  /** This replica's monitors, kept current from the monitor feed (also the source of run requests). */
  catalog: MonitorCatalog;
  runNow: RunNowHub;
  /** Randomness for stream-recycle jitter (tests pass a fixed one). */
  random?: () => number;
  metrics?: Metrics;
  /** Rendezvous weight of a monitor for an agent (tests count its calls); SHA-256 by default. */
  weight?: Weight;
  /** Aborted when the server drains: streams end cleanly so agents reconnect elsewhere. */
  shutdown?: AbortSignal;
  /** Opens secret targets (database checks' connection URLs) for the agents that run them. */
  box: SecretBox;
  /** Ingestion's maintenance test (process/wiring.ts); absent: one of its own over the store. */
  maintenance?: CoverOfWorkspace;
}

const MAX_RESULTS_PER_BATCH = 1000;
const KEEPALIVE_MS = 15_000;
/** Upserts per part of the first sync. */
const SYNC_PART = 1000;
/** How often a session's last-seen and last-results times are written (health needs seconds, not milliseconds). */
const RESULTS_NOTE_MS = 5_000;

/** What one pass of an assignment stream sends (`passMessages`). */
interface Pass {
  /** The first pass: the whole share, sent in parts of SYNC_PART upserts. */
  sync: { upserts: CatalogMonitor[]; removes: string[]; full: boolean } | null;
  upserts: CatalogMonitor[];
  removes: string[];
  runs: RunNowRequest[];
  /** Nothing else to send for a while: a keep-alive with this server time (ms). */
  keepAliveAt: number | null;
}

/**
 * The messages of a pass, each made as the stream takes it. A pass holds the catalog's monitors, not
 * a message per monitor: after a burst of creates, or in a first sync, those were ~1 KB a monitor
 * (37 MB for 35,000 upserts), and a suspended stream kept the last pass's array until its next pass.
 * In parts of SYNC_PART upserts: neither side ever holds one huge message.
 */
function* passMessages(
  p: Pass,
  assignmentOf: (m: CatalogMonitor) => Assignment,
): Generator<WatchAssignmentsResponse> {
  if (p.sync) {
    const { upserts, removes, full } = p.sync;
    const parts = Math.max(1, Math.ceil(upserts.length / SYNC_PART));
    for (let i = 0; i < parts; i++) {
      yield create(WatchAssignmentsResponseSchema, {
        event: {
          case: 'sync',
          value: {
            upserts: upserts.slice(i * SYNC_PART, (i + 1) * SYNC_PART).map(assignmentOf),
            removes: i === 0 ? removes : [],
            full,
            more: i < parts - 1,
          },
        },
      });
    }
  }
  for (const m of p.upserts)
    yield create(WatchAssignmentsResponseSchema, { event: { case: 'upsert', value: assignmentOf(m) } });
  for (const id of p.removes)
    yield create(WatchAssignmentsResponseSchema, { event: { case: 'remove', value: { monitorId: id } } });
  for (const r of p.runs)
    yield create(WatchAssignmentsResponseSchema, {
      event: { case: 'runNow', value: { monitorId: r.monitorId, reason: r.reason, requestId: r.requestId } },
    });
  if (p.keepAliveAt !== null)
    yield create(WatchAssignmentsResponseSchema, {
      event: { case: 'keepAlive', value: { serverTimeMs: BigInt(p.keepAliveAt) } },
    });
}

/**
 * The agent API as served: ReportResults takes its results as their wire bytes (agent.proto's
 * EncodedReportResultsRequest, the same bytes as ReportResultsRequest) and decodes each with
 * result-decoder.ts instead of protobuf-es's reflection (rpc-server.ts registers it so).
 */
export type AgentServiceImpl = Omit<ServiceImpl<typeof AgentService>, 'reportResults'> & {
  reportResults(req: EncodedReportResultsRequest, ctx: HandlerContext): Promise<ReportResultsResponse>;
};

/** Each result of a batch from its bytes; a malformed one fails the call, naming it. */
const decodeBatch = (results: readonly Uint8Array[]) =>
  results.map((bytes, i) => {
    try {
      return resultFromWire(decodeResult(bytes));
    } catch (e) {
      throw new ConnectError(`results[${i}]: ${(e as Error).message}`, Code.InvalidArgument);
    }
  });

/** The agent API: thin translation between the wire and the domain; all rules live in domain/. */
export const createAgentService = (deps: AgentServiceDeps): AgentServiceImpl => {
  const { store, clock, config, logger, runNow, catalog } = deps;
  const maintenance = deps.maintenance ?? createResultCover(store);
  const random = deps.random ?? Math.random;
  const assignmentOf = assignmentEncoder(deps.box);
  const weight = deps.weight ?? sha256Weight;
  const log = logger.child({ component: 'agent-service' });
  /** Well inside the liveness window, so a live agent is never judged gone between two writes. */
  const touchEveryMs = Math.min(RESULTS_NOTE_MS, (config.agent_live_seconds * 1000) / 3);
  const writer = createResultWriter((rs, step) => store.recordResults(rs, step));
  /** Assignment streams open on this replica, by region (the agents-connected gauge). */
  const streams = new Map<string, number>();
  deps.metrics?.readAgentStreams(() => streams);
  deps.metrics?.readResultBacklog(writer.backlog);
  /** When each session last had its results-at time written: at most every few seconds, not per batch. */
  const resultsNoted = new Map<string, number>();

  const authed = async (ctx: HandlerContext): Promise<AgentToken> => {
    try {
      return await authenticateAgent(store, ctx.requestHeader.get('authorization'));
    } catch (e) {
      throw toConnectError(e);
    }
  };
  const requireInstance = (instanceId: string) => {
    if (!/^[\w.:-]{1,200}$/.test(instanceId)) {
      throw new ConnectError(
        'instance_id must be 1-200 letters, digits, dots, colons, dashes or underscores',
        Code.InvalidArgument,
      );
    }
  };
  const liveAgents = async (region: string) => {
    const cutoff = clock.now().getTime() - config.agent_live_seconds * 1000;
    return (await store.listAgentSessions(region)).filter((a) => a.last_seen_at.getTime() >= cutoff);
  };

  return {
    async register(req, ctx) {
      const token = await authed(ctx);
      requireInstance(req.instanceId);
      const now = clock.now();
      const session = await store.registerAgent({
        instance_id: req.instanceId,
        region: token.region,
        session_id: newId(),
        hostname: req.hostname.slice(0, 200),
        agent_version: req.agentVersion.slice(0, 50),
        started_at: now,
        last_seen_at: now,
        check_types: declaredCheckTypes(req.checkTypes),
      });
      log.info(
        {
          agent: req.instanceId,
          region: token.region,
          epoch: session.epoch,
          check_types: session.check_types,
        },
        'agent registered',
      );
      return create(RegisterResponseSchema, {
        sessionId: session.session_id,
        epoch: BigInt(session.epoch),
        region: token.region,
        serverTimeMs: BigInt(now.getTime()),
        limits: {
          maxResultsPerBatch: MAX_RESULTS_PER_BATCH,
          reportIntervalMs: 1000,
          heartbeatIntervalMs: KEEPALIVE_MS,
        },
      });
    },

    async *watchAssignments(req, ctx) {
      const token = await authed(ctx);
      requireInstance(req.instanceId);
      const region = token.region;
      const me = req.instanceId;
      await catalog.ready();
      // Whether the agent runs nothing yet (the first sync replaces all it holds).
      const full = req.running.length === 0;
      /**
       * What the agent runs, id → version: after the first sync, exactly the monitors it owns. Indexed
       * by the process's numbers for monitor ids (held-versions.ts); the request's list (an entry per
       * monitor of the share at ~130 bytes each) is not kept for the stream's life.
       */
      const sent = createHeldVersions(catalog.slots);
      /**
       * What the agent runs that no monitor of the catalog is (deleted, or never one): removed by the
       * first pass, and never numbered, since the process keeps a number for good and an agent's list is
       * not a reason to.
       */
      const strays: string[] = [];
      for (const r of req.running) {
        if (catalog.get(r.monitorId)) sent.set(r.monitorId, Number(r.version));
        else strays.push(r.monitorId);
      }
      req.running = [];
      let first = true;
      /**
       * Ends the wait between passes early (a change, a run request, the stream ending). Told while a
       * pass runs (it awaits the store and pauses), it ends the next wait before it starts.
       */
      let woken = false;
      const wakeNext = () => {
        woken = true;
      };
      let wake: () => void = wakeNext;
      const sub = runNow.subscribe(
        region,
        (id) => sent.has(id),
        () => wake(),
      );
      /**
       * Monitors changed since the share was last brought up to date: only their owners are computed
       * again; 'all' (the first pass, a reload of the catalog, the live agents changed) computes the
       * owner of every monitor of the region.
       */
      let dirty: Set<string> | 'all' = 'all';
      const offChange = catalog.onChange((ids) => {
        if (ids === null) dirty = 'all';
        else if (dirty !== 'all') for (const id of ids) dirty.add(id);
        wake();
      });
      streams.set(region, (streams.get(region) ?? 0) + 1);
      const stopAt = clock.now().getTime() + config.stream_max_seconds * 1000 * (0.9 + 0.2 * random());
      let lastSent = 0;
      let lastTouched = Number.NEGATIVE_INFINITY;
      /** The live agents (and the types each runs) the share was computed among. */
      let basis = '';
      let placement = createPlacement([], weight);
      const onAbort = () => wake();
      ctx.signal.addEventListener('abort', onAbort);
      deps.shutdown?.addEventListener('abort', onAbort);
      try {
        while (!ctx.signal.aborted && !deps.shutdown?.aborted && clock.now().getTime() < stopAt) {
          const session = await store.getAgentSession(me);
          if (!session || session.session_id !== req.sessionId) {
            throw new ConnectError('superseded: a newer session of this agent instance exists', Code.Aborted);
          }
          // Seen: written every few seconds, not every poll (liveness is judged in tens of seconds).
          const seenAt = clock.now().getTime();
          if (seenAt - lastTouched >= touchEveryMs || seenAt < lastTouched) {
            lastTouched = seenAt;
            await store.touchAgentSession(me, req.sessionId, clock.now());
          }
          const agents = await liveAgents(region);
          if (!agents.some((a) => a.instance_id === me)) agents.push(session);
          const nextBasis = placementBasis(agents);
          if (nextBasis !== basis) {
            basis = nextBasis;
            placement = createPlacement(agents, weight);
            dirty = 'all';
          }
          const pass: Pass = { sync: null, upserts: [], removes: [], runs: [], keepAliveAt: null };
          /** Run requests that waited for a monitor this stream has just been handed. */
          let claimed: RunNowRequest[] = [];
          if (dirty === 'all' || dirty.size > 0) {
            // Changes that land while the pass pauses are the next pass's.
            const changed = dirty;
            dirty = new Set();
            const { upserts, removes } = await shareChanges(
              catalog.region(region),
              changed,
              sent,
              (id, m) => placement.ownerOf(id, m.monitor_type) === me,
            );
            for (const m of upserts) sent.set(m.id, m.version);
            for (const id of removes) sent.delete(id);
            // The first pass hands over the whole share (some of it the agent already runs).
            claimed = sub.claim(first ? sent.keys() : upserts.map((m) => m.id));
            if (first) {
              pass.sync = { upserts, removes: strays.length > 0 ? [...removes, ...strays] : removes, full };
              strays.length = 0;
              first = false;
            } else {
              pass.upserts = upserts;
              pass.removes = removes;
            }
          }
          for (const r of [...sub.take(), ...claimed]) {
            // Queued while this stream held the monitor, which has moved since: to its new holder.
            if (!sent.has(r.monitorId)) runNow.publish(r);
            else pass.runs.push(r);
          }
          const now = clock.now().getTime();
          const some = pass.sync !== null || pass.upserts.length + pass.removes.length + pass.runs.length > 0;
          if (!some && now - lastSent >= KEEPALIVE_MS) pass.keepAliveAt = now;
          if (some || pass.keepAliveAt !== null) lastSent = now;
          yield* passMessages(pass, assignmentOf);
          if (!woken) {
            await new Promise<void>((resolve) => {
              const t = setTimeout(resolve, config.assignment_poll_ms);
              wake = () => {
                clearTimeout(t);
                resolve();
              };
            });
          }
          woken = false;
          wake = wakeNext;
        }
      } finally {
        streams.set(region, (streams.get(region) ?? 1) - 1);
        sub.close();
        offChange();
        ctx.signal.removeEventListener('abort', onAbort);
        deps.shutdown?.removeEventListener('abort', onAbort);
      }
    },

    async reportResults(req, ctx) {
      const token = await authed(ctx);
      requireInstance(req.instanceId);
      if (req.results.length > MAX_RESULTS_PER_BATCH) {
        throw new ConnectError(`at most ${MAX_RESULTS_PER_BATCH} results per batch`, Code.InvalidArgument);
      }
      const now = clock.now();
      try {
        const outcome = await ingestResults(
          { store, catalog, record: writer.write, maintenance },
          { region: token.region, instanceId: req.instanceId, results: decodeBatch(req.results) },
          now,
        );
        deps.metrics?.resultsIngested(
          token.region,
          outcome.accepted - outcome.duplicates,
          outcome.duplicates,
        );
        const noted = resultsNoted.get(req.sessionId) ?? 0;
        if (now.getTime() - noted >= touchEveryMs || now.getTime() < noted) {
          resultsNoted.set(req.sessionId, now.getTime());
          if (resultsNoted.size > 10_000) resultsNoted.clear();
          await store.touchAgentSession(req.instanceId, req.sessionId, now, { resultsAt: now });
        }
        return create(ReportResultsResponseSchema, {
          accepted: outcome.accepted,
          duplicates: outcome.duplicates,
          slowDownMs: slowDownMs(writer.backlog()),
        });
      } catch (e) {
        if (!(e instanceof AppError)) log.error({ err: e, agent: req.instanceId }, 'result ingestion failed');
        throw toConnectError(e);
      }
    },

    async heartbeat(req, ctx) {
      await authed(ctx);
      requireInstance(req.instanceId);
      const now = clock.now();
      const current = await store.touchAgentSession(req.instanceId, req.sessionId, now, {
        health: {
          assigned: req.assigned,
          in_flight: req.inFlight,
          queue_depth: req.queueDepth,
          buffered_results: req.bufferedResults,
          dropped_results: Number(req.droppedResults),
          schedule_lag_p99_ms: req.scheduleLagP99Ms,
          shortest_interval_seconds: req.shortestIntervalSeconds,
          // As an age, not a time: the agent's clock need not agree with ours.
          results_due_since:
            req.shortestIntervalSeconds > 0
              ? new Date(now.getTime() - req.shortestIntervalAgeSeconds * 1000).toISOString()
              : null,
        },
      });
      if (!current) throw new ConnectError('superseded: register again', Code.FailedPrecondition);
      return create(HeartbeatResponseSchema, { serverTimeMs: BigInt(now.getTime()) });
    },
  };
};
