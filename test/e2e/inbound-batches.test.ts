import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ALERTS_PER_REQUEST } from '../../control-plane/src/domain/integrations/inbound-events.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * Large inbound batches (an Alertmanager group of many alerts) are applied in slices that yield to the
 * event loop, so the rest of the server keeps answering meanwhile; beyond a bound per request, 422.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const amAlert = (i: number) => ({
  status: 'firing',
  labels: { alertname: 'Load', instance: `host-${i}`, severity: 'warning' },
  annotations: { summary: `Load on host-${i}` },
  fingerprint: `fp-${i}`,
});
const group = (n: number) => ({
  version: '4',
  status: 'firing',
  receiver: 'lookout',
  alerts: Array.from({ length: n }, (_, i) => amAlert(i)),
});

describe('large inbound batches', () => {
  it('while a batch of the largest allowed size is applied, /healthz sent meanwhile is answered first', async () => {
    const w = await h.workspace('batches');
    const i = await w.api('POST', '/integrations', { json: { name: 'am', kind: 'alertmanager' } });
    // One connection for /healthz, opened beforehand, so the probe only has to be read and answered.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const healthz = () =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: h.cp.port, path: '/healthz', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end();
      });
    expect(await healthz()).toBe(200);

    const order: string[] = [];
    const batch = h
      .request('POST', '/api/v1/integrations/alertmanager/events', {
        host: w.host,
        json: group(MAX_ALERTS_PER_REQUEST),
        headers: { authorization: `Bearer ${i.body.service_key}` },
      })
      .then((r) => {
        order.push('batch');
        return r;
      });
    // Wait (without a clock) until the batch's first alerts are in the store, then probe.
    while ((await h.store.listAlerts(w.workspace.id, { limit: 1 })).data.length === 0) {
      await new Promise((r) => setImmediate(r));
    }
    const probe = healthz().then((status) => {
      order.push('healthz');
      return status;
    });
    const [r, status] = await Promise.all([batch, probe]);
    agent.destroy();
    expect(status).toBe(200);
    expect(r.status).toBe(202);
    expect(r.body.events).toHaveLength(MAX_ALERTS_PER_REQUEST);
    expect(r.body.events.every((e: { outcome: string }) => e.outcome === 'created')).toBe(true);
    expect(order).toEqual(['healthz', 'batch']);
  });

  it('more alerts than the bound in one request: 422 naming alerts and the bound, nothing stored', async () => {
    const w = await h.workspace('batches-bound');
    for (const kind of ['alertmanager', 'grafana']) {
      const i = await w.api('POST', '/integrations', { json: { name: kind, kind } });
      const body = group(MAX_ALERTS_PER_REQUEST + 1);
      const r = await h.request('POST', `/api/v1/integrations/${kind}/events`, {
        host: w.host,
        json: kind === 'grafana' ? { ...body, version: undefined } : body,
        headers: { authorization: `Bearer ${i.body.service_key}` },
      });
      expect(r.status, kind).toBe(422);
      expect(r.body.error.details, kind).toEqual([
        { field: 'alerts', message: `must have at most ${MAX_ALERTS_PER_REQUEST} items` },
      ]);
    }
    expect((await w.api('GET', '/alerts')).body.data).toHaveLength(0);
  });
});
