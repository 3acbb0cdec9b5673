import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    auth_failures_per_minute: 3,
    pings_per_heartbeat_per_second: 1,
    trust_proxy: true,
  });
});
afterAll(() => h.close());

describe('rate limits (429 with Retry-After)', () => {
  it('failed API key attempts: after the allowance, failed attempts from that address get 429; a valid key always works', async () => {
    const w = await h.workspace('limits');
    const from = (ip: string, key: string) =>
      h.request('GET', '/api/v1/monitors', { host: w.host, key, headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.7', `ak.wrong-${i}`)).status).toBe(401);
    const refused = await from('203.0.113.7', 'ak.wrong-again');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // A valid key from the same address (a shared NAT) still works: only failures are limited.
    for (let i = 0; i < 5; i++) expect((await from('203.0.113.7', w.adminKey)).status).toBe(200);
    expect((await from('203.0.113.7', 'ak.wrong-still')).status).toBe(429);
    // Another address is not affected, and successes use up nothing.
    for (let i = 0; i < 5; i++) expect((await from('198.51.100.2', w.adminKey)).status).toBe(200);
    expect((await from('198.51.100.2', 'ak.wrong')).status).toBe(401);
    // A minute later the allowance is back.
    h.clock.advance(60_000);
    expect((await from('203.0.113.7', 'ak.wrong-later')).status).toBe(401);
  });

  it('failed service keys (Bearer, X-Lookout-Service-Key, Basic, routing_key) share the same per-address limit; a valid one always works', async () => {
    const w = await h.workspace('limits-services');
    const webhook = (await w.api('POST', '/integrations', { json: { name: 'w', kind: 'webhook' } })).body
      .service_key as string;
    const pd = (await w.api('POST', '/integrations', { json: { name: 'p', kind: 'pagerduty' } })).body
      .service_key as string;
    const ip = '192.0.2.44';
    const event = (headers: Record<string, string>) =>
      h.request('POST', '/api/v1/integrations/webhook/events', {
        host: w.host,
        json: { title: 'Disk full', dedup_key: 'disk' },
        headers: { 'x-forwarded-for': ip, ...headers },
      });
    const enqueue = (routing_key: string) =>
      h.request('POST', '/v2/enqueue', {
        json: {
          routing_key,
          event_action: 'trigger',
          payload: { summary: 's', source: 'x', severity: 'info' },
        },
        headers: { 'x-forwarded-for': ip },
      });
    expect((await event({ authorization: 'Bearer lsk.wrong-1' })).status).toBe(401);
    expect((await event({ 'x-lookout-service-key': 'lsk.wrong-2' })).status).toBe(401);
    expect((await enqueue('lsk.wrong-3')).status).toBe(401);
    // The allowance (3) is used up: further failures of any kind wait, API keys included.
    for (const refused of [
      await event({ authorization: `Basic ${Buffer.from('grafana:lsk.wrong-4').toString('base64')}` }),
      await enqueue('lsk.wrong-5'),
      await h.request('GET', '/api/v1/monitors', {
        host: w.host,
        key: 'ak.wrong',
        headers: { 'x-forwarded-for': ip },
      }),
    ]) {
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Valid keys from the same address work, in every place a key can be.
    expect((await event({ authorization: `Bearer ${webhook}` })).status).toBe(202);
    expect((await event({ 'x-lookout-service-key': webhook })).status).toBe(202);
    expect((await enqueue(pd)).status).toBe(202);
    expect(
      (
        await h.request('GET', '/api/v1/monitors', {
          host: w.host,
          key: w.adminKey,
          headers: { 'x-forwarded-for': ip },
        })
      ).status,
    ).toBe(200);
    // Nothing was stored by the refused attempts: one alert each from the two accepted integrations.
    expect((await w.api('GET', '/alerts')).body.data).toHaveLength(2);
  });

  it('pings: a burst of ten times the rate per heartbeat, then 429 until a token is back', async () => {
    const w = await h.workspace('limits-pings');
    const a = (await w.api('POST', '/heartbeats', { json: { display_name: 'a' } })).body.id as string;
    const b = (await w.api('POST', '/heartbeats', { json: { display_name: 'b' } })).body.id as string;
    for (let i = 0; i < 10; i++) expect((await h.request('POST', `/hb/ping/${a}`)).status).toBe(200);
    const refused = await h.request('GET', `/hb/ping/${a}`);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body.error.message).toMatch(/Too many pings/);
    expect((await h.request('POST', `/hb/ping/${b}`)).status).toBe(200);
    h.clock.advance(1000);
    expect((await h.request('POST', `/hb/ping/${a}`)).status).toBe(200);
    expect((await h.request('POST', `/hb/ping/${a}`)).status).toBe(429);
    // Only accepted pings were stored.
    expect((await w.api('GET', `/heartbeats/${a}/pings`)).body.data).toHaveLength(11);
  });
});
