import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Store } from '../store/port.js';

/**
 * The control plane's Prometheus metrics (`GET /metrics`). The HTTP layer, the ping endpoint and the
 * agent service report into it; alerts and notifications are counted where they are stored (see
 * `instrumentStore`), so no domain module knows about metrics.
 */
export const createMetrics = () => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'lookout_http_requests_total',
    help: 'HTTP requests, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'lookout_http_request_duration_seconds',
    help: 'HTTP request latency, by method and route template.',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const pings = new Counter({
    name: 'lookout_pings_accepted_total',
    help: 'Heartbeat pings stored and acknowledged.',
    registers: [registry],
  });
  const results = new Counter({
    name: 'lookout_results_ingested_total',
    help: 'Check results reported by agents, by region and whether they were new or replays.',
    labelNames: ['region', 'outcome'],
    registers: [registry],
  });
  const alerts = new Counter({
    name: 'lookout_alerts_raised_total',
    help: 'Alerts opened, by source type and cause.',
    labelNames: ['source_type', 'cause'],
    registers: [registry],
  });
  const notifications = new Counter({
    name: 'lookout_notifications_total',
    help: 'Notification delivery attempts, by channel kind and outcome.',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });
  const jobPasses = new Counter({
    name: 'lookout_job_passes_total',
    help: 'Passes of each background job of this replica (jobs.ts), by outcome (ok, failed).',
    labelNames: ['job', 'outcome'],
    registers: [registry],
  });
  const jobLastPass = new Gauge({
    name: 'lookout_job_last_pass_timestamp_seconds',
    help: "When the last successful pass of each background job started, on the service's clock (a job that stopped running falls behind time()).",
    labelNames: ['job'],
    registers: [registry],
  });
  let agentStreams: () => Map<string, number> = () => new Map();
  new Gauge({
    name: 'lookout_agents_connected',
    help: 'Agents holding an assignment stream on this replica, by region.',
    labelNames: ['region'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [region, n] of agentStreams()) this.set({ region }, n);
    },
  });
  let backlog: () => number = () => 0;
  new Gauge({
    name: 'lookout_result_write_backlog',
    help: 'Results accepted from agents and not yet written (group commit queue).',
    registers: [registry],
    collect() {
      this.set(backlog());
    },
  });

  return {
    registry,
    request(method: string, route: string, status: number, seconds: number) {
      requests.inc({ method, route, status });
      duration.observe({ method, route }, seconds);
    },
    pingAccepted: () => pings.inc(),
    resultsIngested(region: string, stored: number, duplicates: number) {
      if (stored > 0) results.inc({ region, outcome: 'stored' }, stored);
      if (duplicates > 0) results.inc({ region, outcome: 'duplicate' }, duplicates);
    },
    /** Where the agents-connected gauge and the backlog gauge read from at scrape time. */
    readAgentStreams(fn: () => Map<string, number>) {
      agentStreams = fn;
    },
    readResultBacklog(fn: () => number) {
      backlog = fn;
    },
    alertRaised: (sourceType: string, cause: string) => alerts.inc({ source_type: sourceType, cause }),
    notification: (kind: string, outcome: string) => notifications.inc({ kind, outcome }),
    /** One pass of a background job, which started at `startedAt` (the time it worked with) and ended `ok` or not. */
    jobPass(job: string, startedAt: Date, ok: boolean) {
      jobPasses.inc({ job, outcome: ok ? 'ok' : 'failed' });
      if (ok) jobLastPass.set({ job }, startedAt.getTime() / 1000);
    },
  };
};

export type Metrics = ReturnType<typeof createMetrics>;

/** The store, counting the alerts it opens and the deliveries it logs. */
export const instrumentStore = (store: Store, metrics: Metrics): Store => ({
  ...store,
  async raiseAlert(alert) {
    const r = await store.raiseAlert(alert);
    if (r.created) metrics.alertRaised(r.alert.source_type, r.alert.cause);
    return r;
  },
  async stepHeartbeat(input) {
    const r = await store.stepHeartbeat(input);
    if (r.created && r.alert) metrics.alertRaised(r.alert.source_type, r.alert.cause);
    return r;
  },
  async insertDelivery(d) {
    await store.insertDelivery(d);
    if (!d.test) metrics.notification(d.kind, d.outcome);
  },
});
