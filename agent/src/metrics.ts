import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** What the agent's gauges are read from at scrape time (see `createAgent`). */
export interface AgentState {
  readonly connected: boolean;
  readonly skippedRuns: number;
  readonly droppedResults: number;
  /** The estimated memory the unacknowledged results take. */
  readonly bufferedBytes: number;
  readonly slowDowns: number;
  health(): { assigned: number; inFlight: number; queueDepth: number; bufferedResults: number };
}

/**
 * The agent's Prometheus metrics. Counters and histograms are fed by `onCheck`/`onLag`; gauges read
 * the agent when scraped, so nothing is computed between scrapes.
 */
export const createAgentMetrics = (labels: { agent: string; region?: string }) => {
  const registry = new Registry();
  registry.setDefaultLabels(labels);
  collectDefaultMetrics({ register: registry });
  const checks = new Counter({
    name: 'lookout_agent_checks_total',
    help: 'Checks run, by monitor type and outcome.',
    labelNames: ['type', 'outcome'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'lookout_agent_check_duration_seconds',
    help: 'How long checks took, by monitor type.',
    labelNames: ['type'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const lag = new Histogram({
    name: 'lookout_agent_schedule_lag_seconds',
    help: 'From a check’s scheduled slot to its start (timer and queue wait).',
    buckets: [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const rpcErrors = new Counter({
    name: 'lookout_agent_rpc_errors_total',
    help: 'Failed calls to the control plane, by kind: credentials (the token is rejected; retried only every LOOKOUT_AGENT_AUTH_RETRY_SECONDS), transient (retried soon), fatal (the agent stops).',
    labelNames: ['kind'],
    registers: [registry],
  });
  for (const kind of ['credentials', 'transient', 'fatal']) rpcErrors.inc({ kind }, 0);
  let agent: AgentState | null = null;
  const gauge = (name: string, help: string, read: (a: AgentState) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        if (agent) this.set(read(agent));
      },
    });
  gauge('lookout_agent_connected', '1 while registered with a control plane.', (a) => (a.connected ? 1 : 0));
  gauge('lookout_agent_assigned_monitors', 'Monitors assigned to this agent.', (a) => a.health().assigned);
  gauge('lookout_agent_checks_in_flight', 'Checks running now.', (a) => a.health().inFlight);
  gauge('lookout_agent_queue_depth', 'Checks waiting for a concurrency slot.', (a) => a.health().queueDepth);
  gauge(
    'lookout_agent_buffered_results',
    'Results not yet acknowledged by the control plane.',
    (a) => a.health().bufferedResults,
  );
  gauge(
    'lookout_agent_buffered_bytes',
    'Estimated memory the unacknowledged results take; beyond LOOKOUT_AGENT_BUFFER_MAX_BYTES the oldest are dropped.',
    (a) => a.bufferedBytes,
  );
  gauge(
    'lookout_agent_dropped_results',
    'Results dropped from a full or too old buffer since start.',
    (a) => a.droppedResults,
  );
  gauge(
    'lookout_agent_skipped_runs',
    'Scheduled runs skipped since start (queue full or the previous run still going).',
    (a) => a.skippedRuns,
  );
  gauge(
    'lookout_agent_slow_downs',
    'Times the control plane asked for a pause since start.',
    (a) => a.slowDowns,
  );

  return {
    registry,
    /** Connects the gauges to the running agent. */
    attach(a: AgentState) {
      agent = a;
    },
    onCheck(c: { type: string; ok: boolean; ms: number }) {
      checks.inc({ type: c.type, outcome: c.ok ? 'ok' : 'fail' });
      duration.observe({ type: c.type }, c.ms / 1000);
    },
    onLag(ms: number) {
      lag.observe(ms / 1000);
    },
    onRpcError(kind: 'credentials' | 'transient' | 'fatal') {
      rpcErrors.inc({ kind });
    },
  };
};

/**
 * The agent's own small HTTP listener: `GET /metrics` and `GET /healthz`. Health means the process
 * runs its schedule; it stays 200 while the control plane is unreachable (the agent buffers then), so
 * an orchestrator never restarts an agent for the control plane's outage.
 */
export const startMetricsServer = async (opts: {
  host: string;
  port: number;
  registry: Registry;
  health: () => object;
}): Promise<{ port: number; close(): Promise<void> }> => {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(opts.health()));
      return;
    }
    if (path === '/metrics') {
      opts.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': opts.registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
};
