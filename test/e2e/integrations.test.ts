import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { alertJson } from '../../control-plane/src/http/alerts/responses.js';
import { type Harness, startHarness } from '../support/harness.js';

/** An alert as the API returns it. */
type AlertJson = ReturnType<typeof alertJson>;

/** Integrations (inbound alert sources) against a real control plane: admin CRUD and each endpoint. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type W = Awaited<ReturnType<Harness['workspace']>>;

const integration = async (w: W, kind: string, name = kind) => {
  const r = await w.api('POST', '/integrations', { json: { name, kind } });
  expect(r.status).toBe(201);
  return r.body as { id: string; service_key: string; endpoint: string };
};

const send = (w: W, path: string, key: string, json: unknown) =>
  h.request('POST', `/api/v1${path}`, { host: w.host, json, headers: { authorization: `Bearer ${key}` } });

const alertsOf = async (w: W, integrationId: string) =>
  (await w.api('GET', `/alerts?source_id=${integrationId}`)).body.data as AlertJson[];

const amAlert = (fingerprint: string, status: 'firing' | 'resolved', over: Record<string, unknown> = {}) => ({
  status,
  labels: { alertname: 'DiskFull', instance: 'db-1', severity: 'warning' },
  annotations: { summary: 'Disk on db-1 is 95% full', description: 'Only 5% left.' },
  startsAt: '2026-06-01T11:59:00Z',
  endsAt: status === 'resolved' ? '2026-06-01T12:01:00Z' : '0001-01-01T00:00:00Z',
  generatorURL: 'http://prometheus:9090/graph',
  fingerprint,
  ...over,
});

const amGroup = (status: 'firing' | 'resolved', alerts: unknown[]) => ({
  version: '4',
  groupKey: '{}:{alertname="DiskFull"}',
  truncatedAlerts: 0,
  status,
  receiver: 'lookout',
  groupLabels: { alertname: 'DiskFull' },
  commonLabels: {},
  commonAnnotations: {},
  externalURL: 'http://alertmanager:9093',
  alerts,
});

describe('integrations: admin CRUD with a service key shown once', () => {
  it('creates, lists, gets, renames, rotates and deletes; keys are hashed and shown once', async () => {
    const w = await h.workspace('int-crud');
    const c = await integration(w, 'alertmanager', 'prod alertmanager');
    expect(c.service_key).toMatch(/^lsk\.[A-Za-z0-9_-]{43}$/);
    expect(c).toMatchObject({
      kind: 'alertmanager',
      name: 'prod alertmanager',
      key_last_four: c.service_key.slice(-4),
      endpoint: `http://${w.host}:${h.cp.port}/api/v1/integrations/alertmanager/events`,
    });
    const list = (await w.api('GET', '/integrations')).body;
    expect(list.data.map((i: { id: string }) => i.id)).toEqual([c.id]);
    expect(JSON.stringify(list)).not.toContain(c.service_key);
    const stored = await h.store.getIntegration(w.workspace.id, c.id);
    expect(stored!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(c.service_key);
    expect(JSON.stringify((await w.api('GET', `/integrations/${c.id}`)).body)).not.toContain(c.service_key);

    const policyId = (await h.store.getDefaultEscalationPolicy(w.workspace.id))!.id;
    const renamed = await w.api('PATCH', `/integrations/${c.id}`, {
      json: { name: 'renamed', escalation_policy_id: policyId },
    });
    expect(renamed.body).toMatchObject({ name: 'renamed', escalation_policy_id: policyId });

    const ok = amGroup('firing', [amAlert('fp-crud', 'firing')]);
    expect((await send(w, '/integrations/alertmanager/events', c.service_key, ok)).status).toBe(202);
    const rotated = await w.api('POST', `/integrations/${c.id}/rotate-key`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.service_key).not.toBe(c.service_key);
    expect((await send(w, '/integrations/alertmanager/events', c.service_key, ok)).status).toBe(401);
    expect((await send(w, '/integrations/alertmanager/events', rotated.body.service_key, ok)).status).toBe(
      202,
    );

    // Roles: a member cannot manage integrations; another workspace cannot see them.
    const member = await w.userWithKey('member');
    expect(
      (await w.as(member.key)('POST', '/integrations', { json: { name: 'x', kind: 'webhook' } })).status,
    ).toBe(403);
    const other = await h.workspace('int-crud-other');
    expect((await other.api('GET', `/integrations/${c.id}`)).status).toBe(404);
    expect((await other.api('DELETE', `/integrations/${c.id}`)).status).toBe(404);
    // A key sent to another workspace's host is refused.
    const foreign = await h.request('POST', '/api/v1/integrations/alertmanager/events', {
      host: other.host,
      json: ok,
      headers: { authorization: `Bearer ${rotated.body.service_key}` },
    });
    expect(foreign.status).toBe(401);
    expect(foreign.body.error.message).toBe('Service key is not valid for this subdomain');

    expect((await w.api('DELETE', `/integrations/${c.id}`)).status).toBe(204);
    expect((await send(w, '/integrations/alertmanager/events', rotated.body.service_key, ok)).status).toBe(
      401,
    );
    // Its alerts stay.
    expect((await alertsOf(w, c.id)).length).toBe(1);
  });
});

describe('generic webhook', () => {
  it('a repeated dedup key updates the open alert; after POST /alerts/resolve the key opens a new one', async () => {
    const w = await h.workspace('int-webhook');
    const i = await integration(w, 'webhook');
    const first = await send(w, '/integrations/webhook/events', i.service_key, {
      title: 'Queue backed up',
      severity: 'warning',
      dedup_key: 'queue-1',
    });
    expect(first.status).toBe(202);
    expect(first.body.events).toEqual([
      { action: 'trigger', dedup_key: 'queue-1', outcome: 'created', alert_id: expect.any(String) },
    ]);
    h.clock.advance(60_000);
    const again = await send(w, '/integrations/webhook/events', i.service_key, {
      title: 'Queue backed up: 5,000 jobs',
      description: 'oldest job 20 minutes',
      dedup_key: 'queue-1',
    });
    expect(again.body.events[0]).toMatchObject({
      outcome: 'updated',
      alert_id: first.body.events[0].alert_id,
    });
    let alerts = await alertsOf(w, i.id);
    expect(alerts.length).toBe(1);
    expect(alerts[0]).toMatchObject({
      title: 'Queue backed up: 5,000 jobs',
      description: 'oldest job 20 minutes',
      severity: 'critical',
      source_type: 'integration',
      cause: 'webhook',
      dedup_key: 'queue-1',
      updated_at: h.clock.now().toISOString(),
    });
    expect(alerts[0]!.created_at).not.toBe(alerts[0]!.updated_at);
    // No recovery signal: resolved through the API (spec 4.3).
    const resolved = await w.api('POST', '/alerts/resolve', { json: { UUIDs: [alerts[0]!.id] } });
    expect(resolved.body.resolved.length).toBe(1);
    const third = await send(w, '/integrations/webhook/events', i.service_key, {
      title: 'Queue backed up again',
      dedup_key: 'queue-1',
    });
    expect(third.body.events[0].outcome).toBe('created');
    alerts = await alertsOf(w, i.id);
    expect(alerts.map((a) => a.status)).toEqual(['open', 'resolved']);
    // Without a dedup key, each call is its own alert.
    await send(w, '/integrations/webhook/events', i.service_key, { title: 'a' });
    await send(w, '/integrations/webhook/events', i.service_key, { title: 'a' });
    expect((await alertsOf(w, i.id)).length).toBe(4);
    // X-Lookout-Service-Key works as well as the bearer form.
    const viaHeader = await h.request('POST', '/api/v1/integrations/webhook/events', {
      host: w.host,
      json: { title: 'b' },
      headers: { 'x-lookout-service-key': i.service_key },
    });
    expect(viaHeader.status).toBe(202);
  });
});

describe('Prometheus Alertmanager webhook', () => {
  it('firing opens one alert per fingerprint, repeats update it, resolved resolves it (by the integration)', async () => {
    const w = await h.workspace('int-am');
    const i = await integration(w, 'alertmanager');
    const path = '/integrations/alertmanager/events';
    const r1 = await send(
      w,
      path,
      i.service_key,
      amGroup('firing', [amAlert('fp1', 'firing'), amAlert('fp2', 'firing')]),
    );
    expect(r1.status).toBe(202);
    expect(r1.body.events.map((e: { outcome: string }) => e.outcome)).toEqual(['created', 'created']);
    const r2 = await send(
      w,
      path,
      i.service_key,
      amGroup('firing', [amAlert('fp1', 'firing'), amAlert('fp2', 'firing')]),
    );
    expect(r2.body.events.map((e: { outcome: string }) => e.outcome)).toEqual(['updated', 'updated']);
    let alerts = await alertsOf(w, i.id);
    expect(alerts.length).toBe(2);
    const fp1 = alerts.find((a) => a.dedup_key === 'fp1')!;
    expect(fp1).toMatchObject({
      title: 'Disk on db-1 is 95% full',
      severity: 'warning',
      cause: 'alertmanager',
    });
    expect(fp1.description).toContain('Only 5% left.');
    expect(fp1.description).toContain('instance=db-1');
    const r3 = await send(w, path, i.service_key, amGroup('resolved', [amAlert('fp1', 'resolved')]));
    expect(r3.body.events[0]).toMatchObject({ outcome: 'resolved', alert_id: fp1.id });
    alerts = await alertsOf(w, i.id);
    expect(alerts.find((a) => a.id === fp1.id)).toMatchObject({
      status: 'resolved',
      resolved_by: { type: 'integration', integration_id: i.id },
    });
    expect(alerts.find((a) => a.dedup_key === 'fp2')!.status).toBe('open');
    // A resolve for something not open changes nothing; firing again opens a new alert.
    expect(
      (await send(w, path, i.service_key, amGroup('resolved', [amAlert('fp1', 'resolved')]))).body.events[0]
        .outcome,
    ).toBe('not_open');
    await send(w, path, i.service_key, amGroup('firing', [amAlert('fp1', 'firing')]));
    expect((await alertsOf(w, i.id)).length).toBe(3);
  });
});

describe('Grafana alerting webhook', () => {
  it('opens, updates and resolves by fingerprint, showing the values', async () => {
    const w = await h.workspace('int-grafana');
    const i = await integration(w, 'grafana');
    const path = '/integrations/grafana/events';
    const payload = (status: 'firing' | 'resolved') => ({
      receiver: 'lookout',
      status,
      orgId: 1,
      alerts: [
        {
          status,
          labels: { alertname: 'HighLatency', grafana_folder: 'api', severity: 'critical' },
          annotations: { summary: 'p99 latency above 2 s' },
          startsAt: '2026-06-01T11:58:00Z',
          endsAt: '0001-01-01T00:00:00Z',
          generatorURL: 'http://grafana:3000/alerting/grafana/abc/view',
          fingerprint: 'a1b2c3',
          silenceURL: 'http://grafana:3000/alerting/silence/new',
          dashboardURL: '',
          panelURL: '',
          values: { B: 2.4 },
          valueString: "[ var='B' labels={} value=2.4 ]",
        },
      ],
      groupLabels: { alertname: 'HighLatency' },
      commonLabels: {},
      commonAnnotations: {},
      externalURL: 'http://grafana:3000/',
      version: '1',
      groupKey: '{}:{alertname="HighLatency"}',
      truncatedAlerts: 0,
      title: '[FIRING:1] HighLatency',
      state: 'alerting',
      message: '**Firing**',
    });
    expect((await send(w, path, i.service_key, payload('firing'))).body.events[0].outcome).toBe('created');
    expect((await send(w, path, i.service_key, payload('firing'))).body.events[0].outcome).toBe('updated');
    const [a] = await alertsOf(w, i.id);
    expect(a).toMatchObject({ title: 'p99 latency above 2 s', severity: 'critical', dedup_key: 'a1b2c3' });
    expect(a!.description).toContain('value=2.4');
    expect((await send(w, path, i.service_key, payload('resolved'))).body.events[0].outcome).toBe('resolved');
    expect((await alertsOf(w, i.id))[0]!.status).toBe('resolved');
  });
});

describe('PagerDuty Events API v2', () => {
  it('trigger, acknowledge and resolve by dedup_key; routing_key is the service key; /v2/enqueue works', async () => {
    const w = await h.workspace('int-pd');
    const i = await integration(w, 'pagerduty');
    const event = (event_action: string, more: Record<string, unknown> = {}) => ({
      routing_key: i.service_key,
      event_action,
      ...more,
    });
    const payload = {
      summary: 'API error rate above 5%',
      source: 'api-gateway',
      severity: 'error',
      custom_details: { rate: 0.07 },
    };
    // A trigger without a dedup key gets one, returned as PagerDuty does.
    const t = await h.request('POST', '/v2/enqueue', { json: event('trigger', { payload }) });
    expect(t.status).toBe(202);
    expect(t.body).toMatchObject({ status: 'success', message: 'Event processed' });
    const key = t.body.dedup_key as string;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    const again = await h.request('POST', '/api/v1/integrations/pagerduty/v2/enqueue', {
      host: w.host,
      json: event('trigger', { dedup_key: key, payload: { ...payload, summary: 'API error rate above 9%' } }),
    });
    expect(again.body.dedup_key).toBe(key);
    let [a, ...rest] = await alertsOf(w, i.id);
    expect(rest).toEqual([]);
    expect(a).toMatchObject({ title: 'API error rate above 9%', severity: 'critical', status: 'open' });
    expect(a!.description).toContain('"rate": 0.07');
    expect(
      (await h.request('POST', '/v2/enqueue', { json: event('acknowledge', { dedup_key: key }) })).status,
    ).toBe(202);
    [a] = await alertsOf(w, i.id);
    expect(a).toMatchObject({
      status: 'acknowledged',
      acknowledged_by: { type: 'integration', integration_id: i.id },
    });
    expect(
      (await h.request('POST', '/v2/enqueue', { json: event('resolve', { dedup_key: key }) })).status,
    ).toBe(202);
    [a] = await alertsOf(w, i.id);
    expect(a).toMatchObject({
      status: 'resolved',
      resolved_by: { type: 'integration', integration_id: i.id },
    });
    // After a resolve, the same key opens a new alert.
    h.clock.advance(1000);
    await h.request('POST', '/v2/enqueue', { json: event('trigger', { dedup_key: key, payload }) });
    expect((await alertsOf(w, i.id)).map((x) => x.status)).toEqual(['open', 'resolved']);
  });
});
