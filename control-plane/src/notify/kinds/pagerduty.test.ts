import { afterEach, describe, expect, it } from 'vitest';
import { messages, sendThrough, startService } from '../../../../test/support/service-double.js';

let svc: Awaited<ReturnType<typeof startService>>;
afterEach(() => svc.close());

const KEY = 'R0UT1NGKEY0123456789abcdefABCDEF';
const accepted = (dedup: string) => ({
  status: 202,
  body: { status: 'success', message: 'Event processed', dedup_key: dedup },
});

describe('pagerduty', () => {
  it('trigger, acknowledge and resolve reach /v2/enqueue under one dedup_key, the alert uuid', async () => {
    svc = await startService((r) => accepted(r.json.dedup_key));
    const config = { routing_key: KEY, api_url: svc.base };
    const m = { ...messages.raised, links: { acknowledge: 'https://acme.lookout.test/ack/1' } };
    for (const msg of [m, messages.acknowledged, messages.resolved]) {
      expect((await sendThrough('pagerduty', config, msg)).result).toMatchObject({
        ok: true,
        status_code: 202,
      });
    }
    expect(
      svc.requests.map((r) => [r.method, r.path, r.json.event_action, r.json.dedup_key, r.json.routing_key]),
    ).toEqual([
      ['POST', '/v2/enqueue', 'trigger', messages.alert.id, KEY],
      ['POST', '/v2/enqueue', 'acknowledge', messages.alert.id, KEY],
      ['POST', '/v2/enqueue', 'resolve', messages.alert.id, KEY],
    ]);
    expect(svc.requests[0]!.json).toMatchObject({
      client: 'Lookout',
      payload: {
        summary: messages.raised.subject,
        source: 'Monitor “Home page”',
        severity: 'critical',
        timestamp: '2026-06-01T11:59:00.000Z',
      },
      links: [{ href: 'https://acme.lookout.test/ack/1', text: 'Acknowledge in Lookout' }],
    });
    expect(svc.requests[1]!.json.payload).toBeUndefined();
    // Resolve: PagerDuty's own semantics, the same dedup_key; it closes the incident and keeps its duration.
    expect(svc.requests[2]!.json).toEqual({
      routing_key: KEY,
      event_action: 'resolve',
      dedup_key: messages.alert.id,
    });
  });

  it('a test triggers and resolves its own key; 400 (invalid event) is given up; 429 is retried and the trigger not sent twice', async () => {
    svc = await startService((r, n) =>
      n === 2
        ? {
            status: 429,
            body: { status: 'throttle event', message: 'Requests for this service are arriving too quickly' },
          }
        : accepted(r.json.dedup_key),
    );
    const t = await sendThrough('pagerduty', { routing_key: KEY, api_url: svc.base }, messages.test);
    expect(t.result.ok).toBe(true);
    expect(svc.requests.map((r) => [r.json.event_action, r.json.dedup_key])).toEqual([
      ['trigger', 'test:t-1'],
      ['resolve', 'test:t-1'],
      ['resolve', 'test:t-1'],
    ]);
    expect(svc.requests[0]!.json.payload.severity).toBe('info');
    await svc.close();
    svc = await startService(() => ({
      status: 400,
      body: {
        status: 'invalid event',
        message: 'Event object is invalid',
        errors: ["Length of 'routing_key' is incorrect"],
      },
    }));
    const bad = await sendThrough('pagerduty', { routing_key: KEY, api_url: svc.base }, messages.raised);
    expect(bad.result).toMatchObject({ ok: false, permanent: true, status_code: 400 });
    expect(bad.attempts).toHaveLength(1);
  });
});
