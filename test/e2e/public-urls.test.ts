import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * URLs the service prints (the OpenAPI `servers`, heartbeat `ping_url`, integration `endpoint`) come
 * from configuration alone, never from the Host (or X-Forwarded-*) a request came with; a request with
 * two Host headers is refused.
 */

/** Sends raw HTTP/1.1 (two Host headers cannot be sent any other way) and reads the whole reply. */
const rawRequest = (port: number, head: string) =>
  new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headers = '', raw = ''] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0);
      // A chunked reply: keep the chunks' data, drop their sizes.
      const body = /transfer-encoding: chunked/i.test(headers)
        ? raw
            .split('\r\n')
            .filter((_line, i) => i % 2 === 1)
            .join('')
        : raw;
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = body;
      }
      resolve({ status, body: json });
    });
    socket.write(`${head}Connection: close\r\n\r\n`);
  });

describe('printed URLs with the default public settings', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('OpenAPI servers, ping_url and endpoint ignore a forged Host port', async () => {
    const w = await h.workspace('demo');
    const base = `http://demo.localhost:${h.cp.port}`;
    const forged = { host: 'demo.localhost:1', key: w.adminKey };
    const doc = await h.request('GET', '/api/v1/openapi.json', { host: 'demo.localhost:1' });
    expect(doc.body.servers).toEqual([{ url: `${base}/api/v1` }]);

    const hb = await h.request('POST', '/api/v1/heartbeats', { ...forged, json: { display_name: 'backup' } });
    expect(hb.status).toBe(201);
    expect(hb.body.ping_url).toBe(`${base}/hb/ping/${hb.body.id}`);
    const listed = await h.request('GET', '/api/v1/heartbeats', forged);
    expect(listed.body.data[0].ping_url).toBe(`${base}/hb/ping/${hb.body.id}`);
    const one = await h.request('GET', `/api/v1/heartbeats/${hb.body.id}`, forged);
    expect(one.body.ping_url).toBe(`${base}/hb/ping/${hb.body.id}`);

    const i = await h.request('POST', '/api/v1/integrations', {
      ...forged,
      json: { name: 'am', kind: 'alertmanager' },
    });
    expect(i.status).toBe(201);
    expect(i.body.endpoint).toBe(`${base}/api/v1/integrations/alertmanager/events`);
    const got = await h.request('GET', `/api/v1/integrations/${i.body.id}`, forged);
    expect(got.body.endpoint).toBe(`${base}/api/v1/integrations/alertmanager/events`);
  });

  it('without a workspace, the OpenAPI server is a template with the workspace as a variable', async () => {
    const doc = await h.request('GET', '/api/v1/openapi.json', { host: 'nowhere.localhost:1' });
    expect(doc.body.servers).toEqual([
      {
        url: `http://{workspace}.localhost:${h.cp.port}/api/v1`,
        variables: { workspace: { default: 'demo', description: expect.any(String) } },
      },
    ]);
  });

  it('two Host headers: 400 JSON, on the API and on the ping endpoint', async () => {
    const w = await h.workspace('twohosts');
    const hb = await w.api('POST', '/heartbeats', { json: { display_name: 'job' } });
    for (const [method, path] of [
      ['GET', '/api/v1/openapi.json'],
      ['GET', '/api/v1/heartbeats'],
      ['GET', `/hb/ping/${hb.body.id}`],
      ['POST', `/api/v1/hb/ping/${hb.body.id}/fail`],
    ] as const) {
      const r = await rawRequest(
        h.cp.port,
        `${method} ${path} HTTP/1.1\r\nHost: twohosts.localhost\r\nX-API-Key: ${w.adminKey}\r\nHost: evil.example.com\r\nContent-Length: 0\r\n`,
      );
      expect(r.status, `${method} ${path}`).toBe(400);
      expect(r.body).toMatchObject({
        error: { code: 'bad_request', message: expect.stringMatching(/Host/) },
      });
    }
    // Neither ping was recorded.
    const after = await w.api('GET', `/heartbeats/${hb.body.id}`);
    expect(after.body).toMatchObject({ state: 'new', last_ping_at: null });
    // One Host header is fine on both paths.
    const ok = await rawRequest(
      h.cp.port,
      `GET /hb/ping/${hb.body.id} HTTP/1.1\r\nHost: twohosts.localhost\r\n`,
    );
    expect(ok.status).toBe(200);
  });
});

describe('printed URLs behind a proxy', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      service_domain: 'lookout.example.com',
      public_url_scheme: 'https',
      public_port: 443,
      trust_proxy: true,
    });
  });
  afterAll(() => h.close());

  it('the configured scheme, domain and port win over X-Forwarded-Proto/-Host and Host', async () => {
    const w = await h.workspace('acme');
    const headers = { 'x-forwarded-proto': 'http', 'x-forwarded-host': 'acme.lookout.example.com:8443' };
    const opts = { host: 'acme.lookout.example.com:1', key: w.adminKey, headers };
    const doc = await h.request('GET', '/api/v1/openapi.json', opts);
    expect(doc.body.servers).toEqual([{ url: 'https://acme.lookout.example.com/api/v1' }]);
    const hb = await h.request('POST', '/api/v1/heartbeats', { ...opts, json: { display_name: 'backup' } });
    expect(hb.body.ping_url).toBe(`https://acme.lookout.example.com/hb/ping/${hb.body.id}`);
    const i = await h.request('POST', '/api/v1/integrations', {
      ...opts,
      json: { name: 'g', kind: 'grafana' },
    });
    expect(i.body.endpoint).toBe('https://acme.lookout.example.com/api/v1/integrations/grafana/events');
  });
});
