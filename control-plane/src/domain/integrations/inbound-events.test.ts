import { describe, expect, it } from 'vitest';
import {
  DESCRIPTION_MAX,
  pagerDutyRoutingKey,
  parseAlertmanager,
  parseGrafana,
  parsePagerDuty,
  parseWebhook,
  renderJson,
} from './inbound-events.js';

const fields = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as { details: { field: string }[] }).details.map((d) => d.field).sort();
  }
  throw new Error('expected a validation error');
};

describe('generic webhook', () => {
  it('is a trigger with defaults; a missing dedup key gets a fresh one', () => {
    expect(parseWebhook({ title: ' Disk full ' }, () => 'k1')).toEqual([
      { action: 'trigger', dedup_key: 'k1', title: 'Disk full', description: null, severity: 'critical' },
    ]);
    expect(
      parseWebhook({ title: 't', description: 'd', severity: 'info', dedup_key: 'x' }, () => 'unused'),
    ).toEqual([{ action: 'trigger', dedup_key: 'x', title: 't', description: 'd', severity: 'info' }]);
  });
  it('is strict: unknown fields, wrong types and over-long values are named', () => {
    expect(fields(() => parseWebhook({ titel: 't' }, () => 'k'))).toEqual(['titel', 'title']);
    expect(fields(() => parseWebhook({ title: 'x'.repeat(501), severity: 'high' }, () => 'k'))).toEqual([
      'severity',
      'title',
    ]);
    expect(fields(() => parseWebhook([1], () => 'k'))).toEqual(['body']);
  });
});

const am = (alerts: unknown[], over: Record<string, unknown> = {}) => ({
  version: '4',
  groupKey: 'g',
  truncatedAlerts: 0,
  status: 'firing',
  receiver: 'r',
  groupLabels: {},
  commonLabels: {},
  commonAnnotations: {},
  externalURL: 'http://am',
  alerts,
  someFutureField: true,
  ...over,
});

describe('Alertmanager webhook v4', () => {
  it('one event per alert: fingerprint is the key, firing triggers, resolved resolves', () => {
    const events = parseAlertmanager(
      am([
        {
          status: 'firing',
          labels: { alertname: 'DiskFull', severity: 'page', instance: 'db-1' },
          annotations: { summary: 'Disk full on db-1', description: '95%', runbook_url: 'http://rb' },
          startsAt: '2026-01-01T00:00:00Z',
          generatorURL: 'http://prom/graph',
          fingerprint: 'abc',
        },
        { status: 'resolved', labels: { alertname: 'CPU' }, fingerprint: 'def' },
      ]),
    );
    expect(events[0]).toMatchObject({
      action: 'trigger',
      dedup_key: 'abc',
      title: 'Disk full on db-1',
      severity: 'critical',
    });
    expect(events[0]!.description).toBe(
      '95%\nLabels: alertname=DiskFull, instance=db-1, severity=page\nStarted: 2026-01-01T00:00:00Z\nSource: http://prom/graph\nRunbook: http://rb',
    );
    expect(events[1]).toMatchObject({
      action: 'resolve',
      dedup_key: 'def',
      title: 'CPU',
      severity: 'critical',
    });
  });
  it('maps severities and falls back to the alert name, then the fingerprint, for the title', () => {
    const one = (labels: Record<string, string>) =>
      parseAlertmanager(am([{ status: 'firing', labels, fingerprint: 'f' }]))[0]!;
    expect(one({ severity: 'warning' }).severity).toBe('warning');
    expect(one({ severity: 'info' }).severity).toBe('info');
    expect(one({ severity: 'whatever' }).severity).toBe('critical');
    expect(one({}).title).toBe('Alert f');
  });
  it('names every missing or wrong field', () => {
    expect(fields(() => parseAlertmanager({}))).toEqual(['alerts', 'status', 'version']);
    expect(fields(() => parseAlertmanager(am([])))).toEqual(['alerts']);
    expect(
      fields(() => parseAlertmanager(am([{ status: 'pending', labels: { a: 1 } }], { version: '3' }))),
    ).toEqual(['alerts[0].fingerprint', 'alerts[0].labels.a', 'alerts[0].status', 'version']);
  });
});

describe('Grafana alerting webhook', () => {
  it('reads the Alertmanager-like shape with Grafana’s values', () => {
    const [e] = parseGrafana({
      status: 'firing',
      orgId: 1,
      version: '1',
      alerts: [
        {
          status: 'firing',
          labels: { alertname: 'HighLatency', severity: 'warning' },
          annotations: {},
          fingerprint: 'g1',
          valueString: "[ var='B' value=2.4 ]",
          dashboardURL: 'http://grafana/d/1',
        },
      ],
    });
    expect(e).toMatchObject({
      action: 'trigger',
      dedup_key: 'g1',
      title: 'HighLatency',
      severity: 'warning',
    });
    expect(e!.description).toContain("Values: [ var='B' value=2.4 ]");
    expect(e!.description).toContain('Dashboard: http://grafana/d/1');
    expect(fields(() => parseGrafana({ status: 'firing', alerts: [{}] }))).toEqual([
      'alerts[0].fingerprint',
      'alerts[0].labels',
      'alerts[0].status',
    ]);
  });
});

describe('PagerDuty Events API v2', () => {
  const payload = {
    summary: 'Error rate high',
    source: 'api',
    severity: 'warning',
    custom_details: { a: 1 },
  };
  it('trigger with or without a dedup key; acknowledge and resolve need one', () => {
    const t = parsePagerDuty(
      { routing_key: 'rk', event_action: 'trigger', payload, client: 'x' },
      () => 'gen',
    );
    expect(t.routing_key).toBe('rk');
    expect(t.event).toMatchObject({
      action: 'trigger',
      dedup_key: 'gen',
      title: 'Error rate high',
      severity: 'warning',
    });
    expect(t.event.description).toContain('Source: api');
    expect(t.event.description).toContain('"a": 1');
    const ack = parsePagerDuty(
      { routing_key: 'rk', event_action: 'acknowledge', dedup_key: 'd' },
      () => 'gen',
    );
    expect(ack.event).toMatchObject({ action: 'acknowledge', dedup_key: 'd' });
    expect(fields(() => parsePagerDuty({ routing_key: 'rk', event_action: 'resolve' }, () => 'g'))).toEqual([
      'dedup_key',
    ]);
    expect(fields(() => parsePagerDuty({ routing_key: 'rk', event_action: 'trigger' }, () => 'g'))).toEqual([
      'payload',
    ]);
    expect(
      fields(() =>
        parsePagerDuty({ event_action: 'trigger', payload: { summary: '', severity: 'fatal' } }, () => 'g'),
      ),
    ).toEqual(['payload.severity', 'payload.source', 'payload.summary', 'routing_key']);
  });
});

describe('rendering outside payloads (renderJson)', () => {
  it('is JSON.stringify(value, null, 2) when it fits', () => {
    const samples: unknown[] = [
      null,
      'a "quoted" \\ string',
      -1.5e-7,
      true,
      [],
      {},
      [1, [2, [3, []]], {}],
      { a: 1, 'b c': [true, null, { d: 'e' }], f: {}, g: [] },
      { '': [[[]]] },
    ];
    for (const v of samples) expect(renderJson(v, 10_000)).toBe(JSON.stringify(v, null, 2));
  });

  it('stops at the cap while rendering: bounded output, and most of a huge value is never read', () => {
    let reads = 0;
    const wide = new Proxy(
      Array.from({ length: 100_000 }, (_, i) => i),
      {
        get(target, prop, receiver) {
          if (typeof prop === 'string' && /^\d+$/.test(prop)) reads++;
          return Reflect.get(target, prop, receiver);
        },
      },
    );
    const out = renderJson(wide, 1000);
    expect(out.length).toBe(1000);
    expect(out.endsWith('…')).toBe(true);
    expect(reads).toBeLessThan(200);
    // Deep: JSON.stringify's indentation alone would be quadratic in the depth.
    let deep: unknown = [];
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(renderJson(deep, DESCRIPTION_MAX).length).toBe(DESCRIPTION_MAX);
  });

  it('PagerDuty custom details stay within the description cap', () => {
    const custom_details = Array.from({ length: 16 }, () => {
      let v: unknown = [];
      for (let i = 0; i < 60; i++) v = [v];
      return v;
    });
    const e = parsePagerDuty(
      {
        routing_key: 'rk',
        event_action: 'trigger',
        payload: { summary: 's', source: 'x', severity: 'info', custom_details },
      },
      () => 'g',
    ).event;
    expect(e.description!.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
    expect(e.description).toMatch(/^Source: x\nDetails: \[\n {2}\[/);
  });

  it('the routing key is read from the parsed body before validation', () => {
    expect(pagerDutyRoutingKey({ routing_key: 'lsk.x', event_action: 'nope' })).toBe('lsk.x');
    for (const b of [null, [], 'x', { routing_key: 7 }, { routing_key: '' }, {}])
      expect(pagerDutyRoutingKey(b)).toBeUndefined();
  });
});
