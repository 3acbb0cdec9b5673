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
      droppedScreenshots: 4,
      bufferedBytes: 5800,
      slowDowns: 0,
      health: () => ({ assigned: 40, inFlight: 3, queueDepth, bufferedResults: 12 }),
    });
    metrics.onCheck('http', true, 12);
    metrics.onCheck('http', false, 30);
    metrics.onCheck('dns', true, 2);
    metrics.onCheck('http', true, 40_000);
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
    expect(text).toContain(`lookout_agent_checks_total{type="http",outcome="ok",${labels}} 2`);
    expect(text).toContain(`lookout_agent_checks_total{type="http",outcome="fail",${labels}} 1`);
    expect(text).toContain(`lookout_agent_checks_total{type="dns",outcome="ok",${labels}} 1`);
    expect(text).toContain(`lookout_agent_checks_total{type="dns",outcome="fail",${labels}} 0`);
    // Histograms: cumulative buckets per type; above the last bound only in +Inf, the sum and the count.
    const duration = 'lookout_agent_check_duration_seconds';
    expect(text).toContain(`# TYPE ${duration} histogram`);
    expect(text).toContain(`${duration}_bucket{le="0.01",type="http",${labels}} 0`);
    expect(text).toContain(`${duration}_bucket{le="0.025",type="http",${labels}} 1`);
    expect(text).toContain(`${duration}_bucket{le="0.05",type="http",${labels}} 2`);
    expect(text).toContain(`${duration}_bucket{le="30",type="http",${labels}} 2`);
    expect(text).toContain(`${duration}_bucket{le="+Inf",type="http",${labels}} 3`);
    expect(text).toContain(`${duration}_sum{type="http",${labels}} 40.042`);
    expect(text).toContain(`${duration}_count{type="http",${labels}} 3`);
    expect(text).toContain(`${duration}_bucket{le="0.005",type="dns",${labels}} 1`);
    expect(text).toContain(`lookout_agent_schedule_lag_seconds_bucket{le="0.002",${labels}} 0`);
    expect(text).toContain(`lookout_agent_schedule_lag_seconds_bucket{le="0.005",${labels}} 1`);
    expect(text).toContain(`lookout_agent_schedule_lag_seconds_count{${labels}} 1`);
    expect(text).toContain(`lookout_agent_queue_depth{${labels}} 7`);
    expect(text).toContain(`lookout_agent_buffered_results{${labels}} 12`);
    expect(text).toContain(`lookout_agent_buffered_bytes{${labels}} 5800`);
    expect(text).toContain(`lookout_agent_skipped_runs{${labels}} 2`);
    expect(text).toContain(`lookout_agent_dropped_screenshots{${labels}} 4`);
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
});
