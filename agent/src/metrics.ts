import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, collectDefaultMetrics, Gauge, Histogram, type MetricType, Registry } from 'prom-client';
import { type BucketCounts, createBucketCounts, cumulative, observe } from './bucket-counts.js';

/** What the agent's gauges are read from at scrape time (see `createAgent`). */
export interface AgentState {
  readonly connected: boolean;
  readonly skippedRuns: number;
  readonly droppedResults: number;
  /** Screenshots left out of results while the buffer held its most (waiting-results.ts). */
  readonly droppedScreenshots: number;
  /** The estimated memory the unacknowledged results take. */
  readonly bufferedBytes: number;
  readonly slowDowns: number;
  health(): { assigned: number; inFlight: number; queueDepth: number; bufferedResults: number };
}

type Exposed = Awaited<ReturnType<Histogram['get']>>;
/** prom-client's typings declare the type an enum; at run time it is this string. */
const HISTOGRAM = 'histogram' as unknown as MetricType;

/**
 * A Prometheus histogram whose numbers live in `BucketCounts` the agent keeps itself, read when the
 * registry is scraped. prom-client's registry asks a metric for `get()` (its values, in the
 * documented shape) or, when present, for `getForPromString()`; both answer from the counts.
 */
class CountedHistogram extends Histogram<string> {
  constructor(
    private readonly config: { name: string; help: string; labelNames?: string[]; registers: Registry[] },
    private readonly read: () => Iterable<[labels: Record<string, string>, counts: BucketCounts]>,
  ) {
    super({ ...config, buckets: [] });
  }

  override async get(): Promise<Exposed> {
    const { name, help } = this.config;
    const values: Exposed['values'] = [];
    const bucket = `${name}_bucket`;
    for (const [labels, h] of this.read()) {
      const sums = cumulative(h);
      h.bounds.forEach((le, i) => {
        values.push({ labels: { le, ...labels }, value: sums[i]!, metricName: bucket });
      });
      values.push({ labels: { le: '+Inf', ...labels }, value: h.count, metricName: bucket });
      values.push({ labels, value: h.sum, metricName: `${name}_sum` });
      values.push({ labels, value: h.count, metricName: `${name}_count` });
    }
    return { name, help, type: HISTOGRAM, values, aggregator: 'sum', collect: () => {} };
  }

  getForPromString(): Promise<Exposed> {
    return this.get();
  }
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LAG_BUCKETS = [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** One monitor type's checks: outcomes and durations (seconds). */
interface TypeCounts {
  ok: number;
  fail: number;
  duration: BucketCounts;
}

/**
 * The agent's Prometheus metrics. A check's outcome and timing are plain numbers added to (`onCheck`,
 * `onLag`: no label objects, no hashing, nothing allocated); counters, histograms and gauges read
 * them, and the agent, when scraped, so nothing is computed between scrapes.
 */
export const createAgentMetrics = (labels: { agent: string; region?: string }) => {
  const registry = new Registry();
  registry.setDefaultLabels(labels);
  collectDefaultMetrics({ register: registry });
  const byType = new Map<string, TypeCounts>();
  const lagCounts = createBucketCounts(LAG_BUCKETS);
  new Counter({
    name: 'lookout_agent_checks_total',
    help: 'Checks run, by monitor type and outcome.',
    labelNames: ['type', 'outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [type, t] of byType) {
        this.inc({ type, outcome: 'ok' }, t.ok);
        this.inc({ type, outcome: 'fail' }, t.fail);
      }
    },
  });
  new CountedHistogram(
    {
      name: 'lookout_agent_check_duration_seconds',
      help: 'How long checks took, by monitor type.',
      labelNames: ['type'],
      registers: [registry],
    },
    function* () {
      for (const [type, t] of byType) yield [{ type }, t.duration];
    },
  );
  new CountedHistogram(
    {
      name: 'lookout_agent_schedule_lag_seconds',
      help: 'From a check’s scheduled slot to its start (timer and queue wait).',
      registers: [registry],
    },
    () => [[{}, lagCounts]],
  );
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
    'lookout_agent_dropped_screenshots',
    'Screenshots of failed browser runs left out of their results (the results kept) because 16 waiting results already had one, since start.',
    (a) => a.droppedScreenshots,
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
    onCheck(type: string, ok: boolean, ms: number) {
      let t = byType.get(type);
      if (!t) {
        t = { ok: 0, fail: 0, duration: createBucketCounts(DURATION_BUCKETS) };
        byType.set(type, t);
      }
      if (ok) t.ok++;
      else t.fail++;
      observe(t.duration, ms / 1000);
    },
    onLag(ms: number) {
      observe(lagCounts, ms / 1000);
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
