import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * What a monitor carries to its target (header values, the request body, query values, endpoint auth)
 * can be secret. Members and admins, who edit monitors, see it; viewers see that it is there, masked;
 * endpoint auth secrets are never returned to anyone.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const MASK = '********';
const secretMonitor = {
  display_name: 'Orders API',
  monitor_type: 'api',
  url: 'https://api.example.com/health?token=qs-s3cret&region=eu',
  http_method: 'POST',
  expected_status_code: 200,
  request_headers: { Authorization: 'Bearer hdr-s3cret', 'X-Tenant': 'acme-s3cret' },
  request_body: '{"password":"body-s3cret"}',
  auth: { type: 'basic', username: 'probe', password: 'auth-s3cret' },
};
const SECRETS = ['qs-s3cret', 'hdr-s3cret', 'acme-s3cret', 'body-s3cret', 'auth-s3cret'];

describe('monitor secrets by role', () => {
  it('viewers see header names, masked values, a masked body and masked query values, on every read', async () => {
    const w = await h.workspace('sec-viewer');
    const viewer = await w.userWithKey('viewer');
    const created = await w.api('POST', '/monitors/create', { json: secretMonitor });
    expect(created.status).toBe(201);
    const asViewer = w.as(viewer.key);

    const one = await asViewer('GET', `/monitors/${created.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      url: `https://api.example.com/health?token=${MASK}&region=${MASK}`,
      request_headers: { Authorization: MASK, 'X-Tenant': MASK },
      request_body: MASK,
      auth: { type: 'basic', username: 'probe' },
    });
    const list = await asViewer('GET', '/monitors');
    expect(list.body.data[0]).toEqual(one.body);
    for (const r of [one, list]) for (const s of SECRETS) expect(r.text).not.toContain(s);
  });

  it("a multi-step check's steps: viewers see each step's header names, masked values, masked body and query values", async () => {
    const w = await h.workspace('sec-steps');
    const viewer = await w.userWithKey('viewer');
    const steps = [
      {
        name: 'Sign in',
        method: 'POST',
        url: 'https://shop.example.com/login?key=qs-s3cret',
        headers: { 'X-Api-Key': 'hdr-s3cret' },
        body: '{"password":"body-s3cret"}',
        extract: [{ name: 'token', source: 'json_body', property: '$.token' }],
      },
      {
        name: 'Orders',
        method: 'GET',
        url: 'https://shop.example.com/orders',
        headers: { Authorization: 'Bearer {{token}}' },
      },
    ];
    const created = await w.api('POST', '/monitors/create', {
      json: { display_name: 'Shop', monitor_type: 'multistep', url: 'https://shop.example.com', steps },
    });
    expect(created.status).toBe(201);
    expect(created.body.steps).toEqual(steps);
    const one = await w.as(viewer.key)('GET', `/monitors/${created.body.id}`);
    expect(one.body.steps).toEqual([
      {
        ...steps[0],
        url: `https://shop.example.com/login?key=${MASK}`,
        headers: { 'X-Api-Key': MASK },
        body: MASK,
      },
      { ...steps[1], headers: { Authorization: MASK } },
    ]);
    for (const s of ['qs-s3cret', 'hdr-s3cret', 'body-s3cret']) expect(one.text).not.toContain(s);
  });

  it('members and admins see them (they edit monitors); auth secrets never come back', async () => {
    const w = await h.workspace('sec-member');
    const member = await w.userWithKey('member');
    const asMember = w.as(member.key);
    const created = await asMember('POST', '/monitors/create', { json: secretMonitor });
    expect(created.status).toBe(201);
    const expected = {
      url: secretMonitor.url,
      request_headers: secretMonitor.request_headers,
      request_body: secretMonitor.request_body,
      auth: { type: 'basic', username: 'probe' },
    };
    expect(created.body).toMatchObject(expected);
    for (const get of [asMember, w.api]) {
      const r = await get('GET', `/monitors/${created.body.id}`);
      expect(r.body).toMatchObject(expected);
      expect(r.text).not.toContain('auth-s3cret');
    }
    const patched = await asMember('PATCH', `/monitors/${created.body.id}`, {
      json: { display_name: 'Orders API v2' },
    });
    expect(patched.body).toMatchObject(expected);
    const paused = await asMember('POST', `/monitors/${created.body.id}/pause`);
    expect(paused.body).toMatchObject(expected);
  });

  it('empty headers and no body stay as they are for viewers (nothing to hide)', async () => {
    const w = await h.workspace('sec-empty');
    const viewer = await w.userWithKey('viewer');
    const created = await w.api('POST', '/monitors/create', {
      json: {
        display_name: 'Home',
        monitor_type: 'http',
        url: 'https://example.com/',
        http_method: 'GET',
        expected_status_code: 200,
      },
    });
    const r = await w.as(viewer.key)('GET', `/monitors/${created.body.id}`);
    expect(r.body).toMatchObject({ url: 'https://example.com/', request_headers: {}, request_body: null });
  });
});
