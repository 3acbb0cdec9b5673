import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ heartbeat_check_ms: 50 });
});
afterAll(() => h.close());

/** The value of one series in Prometheus' text format, or undefined when it is not there. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('GET /metrics (Prometheus)', () => {
  it('counts requests by route, pings accepted and alerts raised; exposes process and agent series', async () => {
    const w = await h.workspace('metrics');
    const hb = (await w.api('POST', '/heartbeats', { json: { display_name: 'job' } })).body as { id: string };
    for (let i = 0; i < 3; i++) expect((await h.request('POST', `/hb/ping/${hb.id}`)).status).toBe(200);
    expect((await h.request('GET', `/hb/ping/${hb.id}/fail`)).status).toBe(200);
    expect((await w.api('GET', '/monitors')).status).toBe(200);
    expect((await w.api('POST', '/monitors/create', { json: { display_name: 'x' } })).status).toBe(422);
    await waitFor(
      () => w.api('GET', `/alerts?source_id=${hb.id}`),
      (r) => r.body.data.length === 1,
      { what: 'the fail alert' },
    );

    const r = await h.request('GET', '/metrics');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toContain('text/plain');
    const m = r.text;
    expect(sample(m, 'lookout_pings_accepted_total')).toBe(4);
    expect(sample(m, 'lookout_http_requests_total{method="POST",route="/hb/ping/{uuid}",status="200"}')).toBe(
      3,
    );
    expect(sample(m, 'lookout_http_requests_total{method="GET",route="/api/v1/monitors",status="200"}')).toBe(
      1,
    );
    expect(
      sample(m, 'lookout_http_requests_total{method="POST",route="/api/v1/monitors/create",status="422"}'),
    ).toBe(1);
    expect(sample(m, 'lookout_alerts_raised_total{source_type="heartbeat",cause="fail"}')).toBe(1);
    expect(
      sample(m, 'lookout_http_request_duration_seconds_count{method="GET",route="/api/v1/monitors"}'),
    ).toBe(1);
    expect(sample(m, 'lookout_result_write_backlog')).toBe(0);
    expect(m).toContain('# TYPE lookout_agents_connected gauge');
    expect(m).toContain('# TYPE lookout_results_ingested_total counter');
    expect(m).toContain('# TYPE lookout_notifications_total counter');
    expect(sample(m, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(m, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('asks for the metrics token when one is configured', async () => {
    const token = 'metrics-token-0123456789';
    const g = await startHarness({ metrics_token: token });
    try {
      const no = await g.request('GET', '/metrics');
      expect(no.status).toBe(401);
      expect(no.body.error.code).toBe('unauthorized');
      expect(
        (await g.request('GET', '/metrics', { headers: { authorization: 'Bearer wrong-token-000000' } }))
          .status,
      ).toBe(401);
      const yes = await g.request('GET', '/metrics', { headers: { authorization: `Bearer ${token}` } });
      expect(yes.status).toBe(200);
      expect(yes.text).toContain('lookout_http_requests_total');
    } finally {
      await g.close();
    }
  });
});
