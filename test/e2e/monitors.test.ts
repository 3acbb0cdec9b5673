import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const http = {
  display_name: 'Home',
  monitor_type: 'http',
  url: 'https://example.com/',
  http_method: 'GET',
  expected_status_code: 200,
};

describe('POST /monitors/create (spec 2.2, 4.1)', () => {
  it('creates an http monitor with defaults filled in and returns 201 with the record', async () => {
    const w = await h.workspace('mon-create');
    const r = await w.api('POST', '/monitors/create', {
      json: {
        ...http,
        check_interval_seconds: 60,
        timeout_seconds: 10,
        ssl_cert_monitoring: true,
        auth: { type: 'basic', username: 'u', password: 's3cret' },
      },
    });
    expect(r.status).toBe(201);
    const policy = await h.store.getDefaultEscalationPolicy(w.workspace.id);
    expect(r.body).toMatchObject({
      display_name: 'Home',
      monitor_type: 'http',
      check_interval_seconds: 60,
      timeout_seconds: 10,
      failure_threshold: 3,
      domain_expiry_alert_days: 30,
      ssl_cert_monitoring: true,
      ssl_cert_expiry_alert_days: 14,
      check_locations: ['eu-west', 'us-east'],
      escalation_policy_id: policy!.id,
      paused: false,
      warnings: [],
      auth: { type: 'basic', username: 'u' },
    });
    expect(r.text).not.toContain('s3cret');
    expect((await w.api('GET', `/monitors/${r.body.id}`)).body.display_name).toBe('Home');
    const stored = await h.store.getMonitor(w.workspace.id, r.body.id);
    expect(stored?.auth).toEqual({ type: 'basic', username: 'u', password: 's3cret' });
  });

  it('non-http types default expected_status_code to 200; domain_expiry_alert_days defaults to 30', async () => {
    const w = await h.workspace('mon-defaults');
    const d = await w.api('POST', '/monitors/create', {
      json: { display_name: 'reg', monitor_type: 'domain', url: 'example.com' },
    });
    expect(d.status).toBe(201);
    expect(d.body).toMatchObject({
      expected_status_code: 200,
      domain_expiry_alert_days: 30,
      failure_threshold: 3,
    });
    const dns = await w.api('POST', '/monitors/create', {
      json: { display_name: 'dns', monitor_type: 'dns', url: 'example.com', dns_record_type: 'MX' },
    });
    expect(dns.body).toMatchObject({ expected_status_code: 200, dns_record_type: 'MX' });
  });

  it('per-type rules: every bad field listed in one 422, nothing stored', async () => {
    const w = await h.workspace('mon-rules');
    const cases: [Record<string, unknown>, string[]][] = [
      [
        { display_name: 'a', monitor_type: 'http', url: 'https://x.test/' },
        ['http_method', 'expected_status_code'],
      ],
      [
        {
          display_name: 'a',
          monitor_type: 'api',
          url: 'x.test',
          http_method: 'POST',
          expected_status_code: 201,
        },
        ['url'],
      ],
      [{ display_name: 'a', monitor_type: 'tcp', url: 'db.test' }, ['port']],
      [{ display_name: 'a', monitor_type: 'tcp', url: 'https://db.test/', port: 1 }, ['url']],
      [
        { display_name: 'a', monitor_type: 'dns', url: 'x.test', ssl_cert_monitoring: true, port: 53 },
        ['port', 'ssl_cert_monitoring'],
      ],
      [
        {
          display_name: 'a',
          monitor_type: 'api',
          url: 'https://x.test/',
          http_method: 'GET',
          expected_status_code: 200,
          ssl_cert_monitoring: true,
        },
        ['ssl_cert_monitoring'],
      ],
      [{ ...http, url: 'http://x.test/', ssl_cert_monitoring: true }, ['ssl_cert_monitoring']],
      [{ display_name: 'a', monitor_type: 'domain', url: 'localhost' }, ['url']],
      [{ ...http, check_locations: ['mars-1'] }, ['check_locations']],
      [{ ...http, escalation_policy_id: crypto.randomUUID() }, ['escalation_policy_id']],
      [{ ...http, check_interval_seconds: 60, timeout_seconds: 61 }, ['timeout_seconds']],
    ];
    for (const [body, fields] of cases) {
      const r = await w.api('POST', '/monitors/create', { json: body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.code).toBe('validation_failed');
      expect(
        r.body.error.details.map((d: { field: string }) => d.field).sort(),
        JSON.stringify(r.body),
      ).toEqual([...fields].sort());
    }
    expect((await w.api('GET', '/monitors')).body.data).toEqual([]);
  });

  it('lists missing, unknown and mistyped fields together', async () => {
    const w = await h.workspace('mon-422');
    const r = await w.api('POST', '/monitors/create', {
      json: {
        monitor_type: 'ftp',
        url: 5,
        check_interval_seconds: 1.5,
        colour: 'red',
        display_name: 'x'.repeat(201),
      },
    });
    expect(r.status).toBe(422);
    const byField = Object.fromEntries(
      r.body.error.details.map((d: { field: string; message: string }) => [d.field, d.message]),
    );
    expect(byField).toEqual({
      display_name: 'must be at most 200 characters',
      monitor_type:
        'must be one of: http, api, dns, tcp, domain, ping, grpc, websocket, smtp, postgres, mysql, redis, multistep, browser',
      url: 'must be a string',
      check_interval_seconds: 'must be an integer',
      colour: 'is not a known field',
    });
  });

  it('an interval below the plan floor is stored at the floor and the response says so', async () => {
    const w = await h.workspace('mon-floor', 'free');
    const r = await w.api('POST', '/monitors/create', {
      json: { ...http, check_interval_seconds: 30, timeout_seconds: 10 },
    });
    expect(r.status).toBe(201);
    expect(r.body.check_interval_seconds).toBe(180);
    expect(r.body.warnings).toEqual([
      { field: 'check_interval_seconds', message: expect.stringContaining('30 s is below the free plan') },
    ]);
    const p = await w.api('PATCH', `/monitors/${r.body.id}`, { json: { check_interval_seconds: 10 } });
    expect(p.body.check_interval_seconds).toBe(180);
    expect(p.body.warnings).toHaveLength(1);
  });

  it('creating beyond the plan cap is refused with 402 and a message to upgrade', async () => {
    const w = await h.workspace('mon-cap', 'free');
    for (let i = 0; i < 10; i++) {
      expect(
        (await w.api('POST', '/monitors/create', { json: { ...http, display_name: `m${i}` } })).status,
      ).toBe(201);
    }
    const r = await w.api('POST', '/monitors/create', { json: http });
    expect(r.status).toBe(402);
    expect(r.body.error).toMatchObject({
      code: 'plan_limit_reached',
      message: expect.stringMatching(/[Uu]pgrade/),
    });
    expect((await h.store.listMonitors(w.workspace.id, { limit: 100 })).data).toHaveLength(10);
  });

  it('lists with filters and cursor pagination; get, patch, pause, resume, delete', async () => {
    const w = await h.workspace('mon-crud');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      h.clock.advance(1000);
      ids.unshift(
        (await w.api('POST', '/monitors/create', { json: { ...http, display_name: `web ${i}` } })).body.id,
      );
    }
    h.clock.advance(1000);
    const tcp = (
      await w.api('POST', '/monitors/create', {
        json: { display_name: 'db', monitor_type: 'tcp', url: '10.0.0.5', port: 5432 },
      })
    ).body;
    // By status (all pending: no checks yet), then by name: db, web 0, web 1, web 2.
    const p1 = await w.api('GET', '/monitors?limit=2');
    expect(p1.body.data.map((m: { id: string }) => m.id)).toEqual([tcp.id, ids[2]]);
    const p2 = await w.api('GET', `/monitors?limit=2&cursor=${p1.body.next_cursor}`);
    expect(p2.body.data.map((m: { id: string }) => m.id)).toEqual([ids[1], ids[0]]);
    expect(p2.body.next_cursor).toBeNull();
    expect(
      (await w.api('GET', '/monitors?monitor_type=tcp')).body.data.map((m: { id: string }) => m.id),
    ).toEqual([tcp.id]);
    expect((await w.api('GET', '/monitors?search=WEB%201')).body.data).toHaveLength(1);

    const patched = await w.api('PATCH', `/monitors/${ids[0]}`, {
      json: { display_name: 'renamed', failure_threshold: 5 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ display_name: 'renamed', failure_threshold: 5, version: 2 });
    const badPatch = await w.api('PATCH', `/monitors/${ids[0]}`, { json: { port: 80, monitor_type: 'tcp' } });
    expect(badPatch.status).toBe(422);
    expect((await w.api('GET', `/monitors/${ids[0]}`)).body.version).toBe(2);

    expect((await w.api('POST', `/monitors/${tcp.id}/pause`)).body.paused).toBe(true);
    expect((await w.api('GET', '/monitors?paused=true')).body.data.map((m: { id: string }) => m.id)).toEqual([
      tcp.id,
    ]);
    expect((await w.api('POST', `/monitors/${tcp.id}/resume`)).body.paused).toBe(false);
    expect((await w.api('DELETE', `/monitors/${tcp.id}`)).status).toBe(204);
    expect((await w.api('GET', `/monitors/${tcp.id}`)).status).toBe(404);
  });

  it('another workspace’s monitors are invisible (404) and untouchable', async () => {
    const a = await h.workspace('mon-iso-a');
    const b = await h.workspace('mon-iso-b');
    const m = (await a.api('POST', '/monitors/create', { json: http })).body;
    for (const [method, path] of [
      ['GET', `/monitors/${m.id}`],
      ['PATCH', `/monitors/${m.id}`],
      ['DELETE', `/monitors/${m.id}`],
      ['POST', `/monitors/${m.id}/pause`],
    ] as const) {
      const r = await b.api(method, path, method === 'PATCH' ? { json: { display_name: 'x' } } : {});
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await b.api('GET', '/monitors')).body.data).toEqual([]);
    expect((await a.api('GET', `/monitors/${m.id}`)).body.display_name).toBe('Home');
  });
});
