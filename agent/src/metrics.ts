import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';

/** What the agent's gauges are read from at scrape time (see `createAgent`). */
export interface AgentState {
  readonly connected: boolean;
  readonly skippedRuns: number;
  readonly droppedResults: number;
  readonly slowDowns: number;
  health(): { assigned: number; inFlight: number; queueDepth: number; bufferedResults: number };
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LAG_BUCKETS = [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** One histogram series as plain numbers: counts per bucket (not yet cumulative), sum and count. */
interface Series {
  buckets: Float64Array;
  sum: number;
  count: number;
}
const newSeries = (n: number): Series => ({ buckets: new Float64Array(n), sum: 0, count: 0 });
const observe = (s: Series, bounds: readonly number[], v: number) => {
  let i = 0;
  while (i < bounds.length && v > bounds[i]!) i++;
  if (i < bounds.length) s.buckets[i]!++;
  s.sum += v;
  s.count++;
};

/** A sample as prom-client's registry formats it (`labels` first, then `sharedLabels`). */
interface Sample {
  metricName?: string;
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  value: number;
}

/**
 * A metric the registry reads at scrape time from numbers the agent keeps itself: what prom-client's
 * own Counter and Histogram return from `getForPromString`, so `/metrics` reads exactly as theirs did
 * (names, types, labels, buckets, `_bucket`/`_sum`/`_count`), without prom-client's per-observation
 * work (label validation, hashing, object copies) on every check.
 */
const scrapedMetric = (
  registry: Registry,
  m: { name: string; help: string; type: 'counter' | 'histogram'; samples(): Sample[] },
) => {
  const metric = {
    name: m.name,
    help: m.help,
    type: m.type,
    aggregator: 'sum',
    getForPromString: async () => ({
      name: m.name,
      help: m.help,
      type: m.type,
      values: m.samples(),
      aggregator: 'sum',
    }),
    /** The JSON form: shared labels merged in, as prom-client's `get()` does. */
    get: async () => ({
      ...(await metric.getForPromString()),
      values: m
        .samples()
        .map(({ sharedLabels, ...v }) => ({ ...v, labels: { ...v.labels, ...sharedLabels } })),
    }),
    reset() {},
  };
  registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
};

const histogramSamples = (
  name: string,
  bounds: readonly number[],
  s: Series,
  labels: Record<string, string>,
) => {
  const out: Sample[] = [];
  let acc = 0;
  for (let i = 0; i < bounds.length; i++) {
    acc += s.buckets[i]!;
    out.push({ metricName: `${name}_bucket`, labels: { le: bounds[i]! }, sharedLabels: labels, value: acc });
  }
  out.push(
    { metricName: `${name}_bucket`, labels: { le: '+Inf' }, sharedLabels: labels, value: s.count },
    { metricName: `${name}_sum`, labels: {}, sharedLabels: labels, value: s.sum },
    { metricName: `${name}_count`, labels: {}, sharedLabels: labels, value: s.count },
  );
  return out;
};

/**
 * The agent's Prometheus metrics. Every check and every run's lag is counted into plain numbers
 * (`onCheck`/`onLag`: a few additions, ~1,000 times a second under load); the registry turns them
 * into counters and histograms when scraped, and gauges read the agent then too, so nothing is
 * computed between scrapes.
 */
export const createAgentMetrics = (labels: { agent: string; region?: string }) => {
  const registry = new Registry();
  registry.setDefaultLabels(labels);
  collectDefaultMetrics({ register: registry });
  /** Per check type, in the order first seen: outcomes and durations. */
  const byType = new Map<string, { ok: number; fail: number; duration: Series }>();
  const lag = newSeries(LAG_BUCKETS.length);
  scrapedMetric(registry, {
    name: 'lookout_agent_checks_total',
    help: 'Checks run, by monitor type and outcome.',
    type: 'counter',
    samples: () =>
      [...byType].flatMap(([type, t]) => [
        ...(t.ok > 0 ? [{ labels: { type, outcome: 'ok' }, value: t.ok }] : []),
        ...(t.fail > 0 ? [{ labels: { type, outcome: 'fail' }, value: t.fail }] : []),
      ]),
  });
  scrapedMetric(registry, {
    name: 'lookout_agent_check_duration_seconds',
    help: 'How long checks took, by monitor type.',
    type: 'histogram',
    samples: () =>
      [...byType].flatMap(([type, t]) =>
        histogramSamples('lookout_agent_check_duration_seconds', DURATION_BUCKETS, t.duration, { type }),
      ),
  });
  scrapedMetric(registry, {
    name: 'lookout_agent_schedule_lag_seconds',
    help: 'From a check’s scheduled slot to its start (timer and queue wait).',
    type: 'histogram',
    samples: () => histogramSamples('lookout_agent_schedule_lag_seconds', LAG_BUCKETS, lag, {}),
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
      let t = byType.get(c.type);
      if (!t) {
        t = { ok: 0, fail: 0, duration: newSeries(DURATION_BUCKETS.length) };
        byType.set(c.type, t);
      }
      if (c.ok) t.ok++;
      else t.fail++;
      observe(t.duration, DURATION_BUCKETS, c.ms / 1000);
    },
    onLag(ms: number) {
      observe(lag, LAG_BUCKETS, ms / 1000);
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
