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
  it('failed API key attempts: after the allowance, every key attempt from that address waits', async () => {
    const w = await h.workspace('limits');
    const from = (ip: string, key: string) =>
      h.request('GET', '/api/v1/monitors', { host: w.host, key, headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.7', `ak.wrong-${i}`)).status).toBe(401);
    const refused = await from('203.0.113.7', 'ak.wrong-again');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Even a valid key waits: the address is guessing.
    expect((await from('203.0.113.7', w.adminKey)).status).toBe(429);
    // Another address is not affected, and successes use up nothing.
    for (let i = 0; i < 5; i++) expect((await from('198.51.100.2', w.adminKey)).status).toBe(200);
    // A minute later the allowance is back.
    h.clock.advance(60_000);
    expect((await from('203.0.113.7', w.adminKey)).status).toBe(200);
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
