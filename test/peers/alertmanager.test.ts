import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { alertJson } from '../../control-plane/src/http/alerts/responses.js';
import { type Harness, startHarness } from '../support/harness.js';
import { waitFor } from '../support/wait.js';
import { type Alertmanager, startAlertmanager } from './support/alertmanager.js';

/** An alert as the API returns it. */
type AlertJson = ReturnType<typeof alertJson>;

/**
 * The real Prometheus Alertmanager (Debian's prometheus-alertmanager) sending real webhooks to a real
 * control plane: a firing alert opens one Lookout alert, Alertmanager's repeats do not duplicate it,
 * its resolution resolves it. Missing binary: this fails, saying how to install it.
 */
let h: Harness;
let am: Alertmanager;
let w: Awaited<ReturnType<Harness['workspace']>>;
let integrationId: string;
let pagerdutyId: string;

beforeAll(async () => {
  h = await startHarness();
  w = await h.workspace('peers-am');
  const i = await w.api('POST', '/integrations', { json: { name: 'alertmanager', kind: 'alertmanager' } });
  expect(i.status).toBe(201);
  integrationId = i.body.id;
  const pd = await w.api('POST', '/integrations', { json: { name: 'pagerduty-style', kind: 'pagerduty' } });
  pagerdutyId = pd.body.id;
  am = await startAlertmanager({
    dir: h.dir,
    // Alertmanager's own endpoint, as an operator would configure it (no workspace host needed: the key names it).
    webhookUrl: `${h.cp.url}/api/v1/integrations/alertmanager/events`,
    bearer: i.body.service_key,
    // Alertmanager's PagerDuty integration, unchanged but for the URL and the routing key.
    pagerduty: { url: `${h.cp.url}/v2/enqueue`, routingKey: pd.body.service_key },
  });
});
afterAll(async () => {
  await am?.stop();
  await h?.close();
});

const alertsOf = (id: string) => async () =>
  (await w.api('GET', `/alerts?source_id=${id}`)).body.data as AlertJson[];
const lookoutAlerts = async () => alertsOf(integrationId)();

const alert = (endsAt?: Date, labels: Record<string, string> = {}) => ({
  labels: { alertname: 'DiskFull', instance: 'db-1', severity: 'warning', ...labels },
  annotations: { summary: 'Disk on db-1 is 95% full', description: 'Only 5% left.' },
  startsAt: new Date(Date.now() - 60_000).toISOString(),
  ...(endsAt ? { endsAt: endsAt.toISOString() } : {}),
  generatorURL: 'http://prometheus.test/graph',
});

describe('Prometheus Alertmanager → Lookout (real webhooks)', () => {
  it('firing opens one alert; repeats update it without duplicating; resolution resolves it', async () => {
    const wait = { timeoutMs: 30_000, everyMs: 100 };
    await am.postAlerts([alert()]);
    const [opened] = await waitFor(lookoutAlerts, (a) => a.length > 0, {
      ...wait,
      what: `a Lookout alert\n${am.output()}`,
    });
    expect(opened).toMatchObject({
      status: 'open',
      source_type: 'integration',
      cause: 'alertmanager',
      title: 'Disk on db-1 is 95% full',
      severity: 'warning',
    });
    expect(opened!.dedup_key).toMatch(/^[0-9a-f]{16}$/);

    // Prometheus re-sends firing alerts; Alertmanager re-notifies every repeat_interval. Move Lookout's
    // clock, so an update shows as a new updated_at on the same alert.
    await am.postAlerts([alert()]);
    h.clock.advance(60_000);
    const later = h.clock.now().toISOString();
    const updated = await waitFor(lookoutAlerts, (a) => a[0]?.updated_at === later, {
      ...wait,
      what: 'a repeated notification',
    });
    expect(updated.length).toBe(1);
    expect(updated[0]!.id).toBe(opened!.id);

    // Resolved: Prometheus sends the alert with endsAt in the past.
    await am.postAlerts([alert(new Date(Date.now() - 1_000))]);
    const resolved = await waitFor(lookoutAlerts, (a) => a[0]?.status === 'resolved', {
      ...wait,
      what: 'the resolution',
    });
    expect(resolved.length).toBe(1);
    expect(resolved[0]).toMatchObject({
      id: opened!.id,
      resolved_by: { type: 'integration', integration_id: integrationId },
    });
  });

  it('its PagerDuty integration, pointed at Lookout, triggers and resolves through the Events API v2', async () => {
    const wait = { timeoutMs: 30_000, everyMs: 100 };
    const labels = { alertname: 'HighLatency', via: 'pagerduty', severity: 'critical' };
    await am.postAlerts([alert(undefined, labels)]);
    const [opened, ...more] = await waitFor(alertsOf(pagerdutyId), (a) => a.length > 0, {
      ...wait,
      what: `a Lookout alert from the PagerDuty integration\n${am.output()}`,
    });
    expect(more).toEqual([]);
    expect(opened).toMatchObject({ status: 'open', cause: 'pagerduty', severity: 'critical' });
    expect(opened!.title).toContain('HighLatency');
    await am.postAlerts([alert(new Date(Date.now() - 1_000), labels)]);
    const resolved = await waitFor(alertsOf(pagerdutyId), (a) => a[0]?.status === 'resolved', {
      ...wait,
      what: 'the resolution over the Events API',
    });
    expect(resolved.length).toBe(1);
    expect(resolved[0]).toMatchObject({
      id: opened!.id,
      resolved_by: { type: 'integration', integration_id: pagerdutyId },
    });
  });
});
