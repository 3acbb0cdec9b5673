import { Counter, Histogram, Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentMetrics, startMetricsServer } from './metrics.js';

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

describe('agent metrics listener', () => {
  it('serves /metrics from the agent’s counters and live state, /healthz, and 404 otherwise', async () => {
    const metrics = createAgentMetrics({ agent: 'eu-1', region: 'eu-west' });
    let queueDepth = 7;
    metrics.attach({
      connected: true,
      skippedRuns: 2,
      droppedResults: 1,
      slowDowns: 0,
      health: () => ({ assigned: 40, inFlight: 3, queueDepth, bufferedResults: 12 }),
    });
    metrics.onCheck({ type: 'http', ok: true, ms: 12 });
    metrics.onCheck({ type: 'http', ok: false, ms: 30 });
    metrics.onCheck({ type: 'dns', ok: true, ms: 2 });
    metrics.onLag(3);
    const server = await startMetricsServer({
      host: '127.0.0.1',
      port: 0,
      registry: metrics.registry,
      health: () => ({ status: 'ok' }),
    });
    close = server.close;
    const base = `http://127.0.0.1:${server.port}`;
    const labels = 'agent="eu-1",region="eu-west"';
    let text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toContain(`lookout_agent_checks_total{type="http",outcome="ok",${labels}} 1`);
    expect(text).toContain(`lookout_agent_checks_total{type="http",outcome="fail",${labels}} 1`);
    expect(text).toContain(`lookout_agent_checks_total{type="dns",outcome="ok",${labels}} 1`);
    expect(text).toContain(`lookout_agent_schedule_lag_seconds_bucket{le="0.005",${labels}} 1`);
    expect(text).toContain(`lookout_agent_queue_depth{${labels}} 7`);
    expect(text).toContain(`lookout_agent_buffered_results{${labels}} 12`);
    expect(text).toContain(`lookout_agent_skipped_runs{${labels}} 2`);
    expect(text).toContain(`lookout_agent_connected{${labels}} 1`);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    queueDepth = 0;
    text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toContain(`lookout_agent_queue_depth{${labels}} 0`);
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('counts checks and lags into the same counters and histograms prom-client would expose', async () => {
    const labels = { agent: 'eu-1', region: 'eu-west' };
    const metrics = createAgentMetrics(labels);
    // The reference: prom-client's own Counter and Histograms with the names, labels and buckets of
    // the agent's metrics, fed the same observations.
    const ref = new Registry();
    ref.setDefaultLabels(labels);
    const checks = new Counter({
      name: 'lookout_agent_checks_total',
      help: 'Checks run, by monitor type and outcome.',
      labelNames: ['type', 'outcome'],
      registers: [ref],
    });
    const duration = new Histogram({
      name: 'lookout_agent_check_duration_seconds',
      help: 'How long checks took, by monitor type.',
      labelNames: ['type'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [ref],
    });
    const lag = new Histogram({
      name: 'lookout_agent_schedule_lag_seconds',
      help: 'From a check’s scheduled slot to its start (timer and queue wait).',
      buckets: [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [ref],
    });
    const families = (text: string) => {
      const names = [
        'lookout_agent_checks_total',
        'lookout_agent_check_duration_seconds',
        'lookout_agent_schedule_lag_seconds',
      ];
      return text
        .split('\n')
        .filter((l) => names.some((n) => l.includes(n)))
        .sort();
    };
    // Before any check: the label-less lag histogram is there with zeros, the others empty.
    expect(families(await metrics.registry.metrics())).toEqual(families(await ref.metrics()));
    const runs = [
      { type: 'http', ok: true, ms: 5 },
      { type: 'http', ok: false, ms: 30_000 },
      { type: 'dns', ok: true, ms: 0.2 },
      { type: 'http', ok: true, ms: 45_000 },
      { type: 'tcp', ok: false, ms: 250 },
      { type: 'http', ok: true, ms: 12.5 },
    ];
    for (const c of runs) {
      metrics.onCheck(c);
      checks.inc({ type: c.type, outcome: c.ok ? 'ok' : 'fail' });
      duration.observe({ type: c.type }, c.ms / 1000);
    }
    for (const ms of [0, 1, 1.5, 5, 7, 6000, 250]) {
      metrics.onLag(ms);
      lag.observe(ms / 1000);
    }
    const ours = families(await metrics.registry.metrics());
    expect(ours).toContain(
      'lookout_agent_check_duration_seconds_bucket{le="0.005",agent="eu-1",region="eu-west",type="http"} 1',
    );
    expect(ours).toEqual(families(await ref.metrics()));
    const json = (await metrics.registry.getMetricsAsJSON()).filter((m) =>
      ['lookout_agent_checks_total', 'lookout_agent_check_duration_seconds'].includes(m.name),
    );
    const refJson = (await ref.getMetricsAsJSON()).filter((m) =>
      ['lookout_agent_checks_total', 'lookout_agent_check_duration_seconds'].includes(m.name),
    );
    /** Each sample as one comparable line: its name, its labels in name order, its value. */
    const byName = (ms: typeof json) =>
      Object.fromEntries(
        ms.map((m) => [
          m.name,
          {
            type: m.type,
            help: m.help,
            values: m.values
              .map((v) => {
                const ls = Object.entries(v.labels).sort(([a], [b]) => a.localeCompare(b));
                return `${(v as { metricName?: string }).metricName ?? m.name} ${JSON.stringify(ls)} ${v.value}`;
              })
              .sort(),
          },
        ]),
      );
    expect(byName(json)).toEqual(byName(refJson));
  });
});
