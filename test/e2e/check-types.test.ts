import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * Check types as modules (domain/checks/): each type's own fields through the API — defaults,
 * refusals naming every bad field, fields of another type refused, a database URL sealed and shown
 * as a hint — on the real control plane and its SQLite file.
 */
let h: Harness;
beforeAll(async () => {
  // With a key, as a deployment runs: secrets are sealed at rest.
  h = await startHarness({ encryption_key: randomBytes(32).toString('base64') });
});
afterAll(() => h.close());

type Workspace = Awaited<ReturnType<Harness['workspace']>>;
const create = (w: Workspace, body: Record<string, unknown>) =>
  w.api('POST', '/monitors/create', { json: { display_name: 'x', ...body } });
const badFields = (r: { body: { error: { details: { field: string }[] } } }) =>
  r.body.error.details.map((d) => d.field).sort();

describe('the new check types through the API', () => {
  it('creates each type with its defaults, and shows only its own fields', async () => {
    const w = await h.workspace('types-defaults');
    const ping = await create(w, { monitor_type: 'ping', url: 'db.example.com' });
    expect(ping.status).toBe(201);
    expect(ping.body).toMatchObject({ packet_count: 3, assertions: [] });
    expect(ping.body).not.toHaveProperty('grpc_service');
    const grpc = await create(w, { monitor_type: 'grpc', url: 'grpc.example.com:443', grpc_tls: true });
    expect(grpc.status).toBe(201);
    expect(grpc.body).toMatchObject({ grpc_service: '', grpc_tls: true, assertions: [] });
    const ws = await create(w, { monitor_type: 'websocket', url: 'wss://example.com/socket' });
    expect(ws.body).toMatchObject({ ws_message: null });
    const smtp = await create(w, { monitor_type: 'smtp', url: 'mail.example.com' });
    expect(smtp.body).toMatchObject({ port: 25, smtp_security: 'none', ssl_cert_monitoring: false });
    const redis = await create(w, { monitor_type: 'redis', url: 'redis://cache.example.com:6379/0' });
    expect(redis.body).toMatchObject({ query: 'PING' });
    const pg = await create(w, { monitor_type: 'postgres', url: 'postgres://u:p@db.example.com/app' });
    expect(pg.body).toMatchObject({ query: 'SELECT 1' });
    // The first types keep exactly what they had, and gain assertions where a response is read.
    const http = await create(w, {
      monitor_type: 'http',
      url: 'https://example.com/',
      http_method: 'GET',
      expected_status_code: 200,
    });
    expect(http.body).toMatchObject({ assertions: [], max_redirects: 5 });
    const tcp = await create(w, { monitor_type: 'tcp', url: 'db.example.com', port: 5432 });
    expect(tcp.body).not.toHaveProperty('assertions');
  });

  it('a patch changes a setting and keeps the others; reading it back gives the same', async () => {
    const w = await h.workspace('types-patch');
    const grpc = await create(w, {
      monitor_type: 'grpc',
      url: 'grpc.example.com:443',
      grpc_service: 'orders',
      assertions: [{ source: 'response_time', comparison: 'less_than', target: 500 }],
    });
    const patched = await w.api('PATCH', `/monitors/${grpc.body.id}`, { json: { grpc_tls: true } });
    expect(patched.status).toBe(200);
    const read = await w.api('GET', `/monitors/${grpc.body.id}`);
    expect(read.body).toMatchObject({
      grpc_service: 'orders',
      grpc_tls: true,
      assertions: [{ source: 'response_time', comparison: 'less_than', target: 500 }],
    });
  });

  it('bad settings: one 422 naming every bad field of the type, nothing stored', async () => {
    const w = await h.workspace('types-bad');
    // As for every body: values of the wrong shape are named together; then the rules across fields.
    const cases: [Record<string, unknown>, string[]][] = [
      [
        { monitor_type: 'ping', url: 'x.example', packet_count: 0, assertions: 'all' },
        ['assertions', 'packet_count'],
      ],
      [{ monitor_type: 'ping', url: 'https://example.com/', grpc_tls: true }, ['grpc_tls', 'url']],
      [
        { monitor_type: 'grpc', url: 'grpc.example.com:1', grpc_service: 7, grpc_tls: 'yes' },
        ['grpc_service', 'grpc_tls'],
      ],
      [{ monitor_type: 'grpc', url: 'grpc.example.com', ws_message: 'hi' }, ['url', 'ws_message']],
      [{ monitor_type: 'websocket', url: 'wss://example.com/', ws_message: '' }, ['ws_message']],
      [{ monitor_type: 'websocket', url: 'https://example.com/' }, ['url']],
      [
        { monitor_type: 'smtp', url: 'mail.example.com', smtp_security: 'ssl', port: 0 },
        ['port', 'smtp_security'],
      ],
      [
        { monitor_type: 'smtp', url: 'mail.example.com/x', ssl_cert_monitoring: true },
        ['ssl_cert_monitoring', 'url'],
      ],
      [{ monitor_type: 'postgres', url: 'postgres://db.example.com/app', query: '' }, ['query']],
      [
        { monitor_type: 'postgres', url: 'mysql://db.example.com/app', packet_count: 3 },
        ['packet_count', 'url'],
      ],
      [{ monitor_type: 'redis', url: 'cache.example.com' }, ['url']],
      [
        {
          monitor_type: 'ping',
          url: 'gw.example.com',
          assertions: [
            { source: 'packet_loss', comparison: 'less_than', target: 10 },
            { source: 'json_body', property: '$.x', comparison: 'equals', target: 1 },
          ],
        },
        ['assertions[1].source'],
      ],
      [{ monitor_type: 'tcp', url: 'db.example.com', port: 5432, max_redirects: 3 }, ['max_redirects']],
      [
        {
          monitor_type: 'api',
          url: 'https://example.com/',
          http_method: 'GET',
          expected_status_code: 200,
          max_redirects: 0,
        },
        ['max_redirects'],
      ],
      [
        {
          monitor_type: 'http',
          url: 'https://example.com/',
          http_method: 'GET',
          expected_status_code: 200,
          assertions: [{ source: 'json_body', comparison: 'equals', target: 'ok' }, { source: 'x' }],
        },
        ['assertions[0].property', 'assertions[1].comparison', 'assertions[1].source'],
      ],
    ];
    for (const [body, fields] of cases) {
      const r = await create(w, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(badFields(r), JSON.stringify(body)).toEqual(fields);
    }
    const unread = await create(w, {
      monitor_type: 'smtp',
      url: 'mail.example.com',
      assertions: [{ source: 'status_code', comparison: 'equals', target: 250 }],
    });
    expect(unread.body.error.details).toEqual([
      {
        field: 'assertions[0].source',
        message: 'smtp checks do not read status_code; they read response_time, text_body',
      },
    ]);
    const wrongType = await create(w, { monitor_type: 'tcp', url: 'db.example.com', port: 1, query: 'x' });
    expect(wrongType.body.error.details).toContainEqual({
      field: 'query',
      message: 'applies only to postgres, mysql and redis monitors, not tcp',
    });
    expect((await w.api('GET', '/monitors')).body.data).toEqual([]);
  });
});

describe('a database check’s connection URL is a secret', () => {
  const url = 'postgres://monitor:hunter2-s3cret@db.example.com:5432/app';

  it('is shown to nobody (a hint in its place), kept on a patch without it, replaced with it', async () => {
    const w = await h.workspace('types-db-secret');
    const created = await create(w, { monitor_type: 'postgres', url });
    expect(created.status).toBe(201);
    expect(created.body.url).toBe('postgres://db.example.com:5432/…/app');
    const viewer = await w.userWithKey('viewer');
    for (const read of [
      await w.api('GET', `/monitors/${created.body.id}`),
      await w.as(viewer.key)('GET', `/monitors/${created.body.id}`),
      await w.api('GET', '/monitors'),
    ])
      expect(JSON.stringify(read.body)).not.toContain('hunter2');
    // Stored sealed: not in the database file's monitor row either.
    const stored = await h.store.getMonitor(w.workspace.id, created.body.id);
    expect(JSON.stringify(stored)).not.toContain('hunter2');
    const renamed = await w.api('PATCH', `/monitors/${created.body.id}`, { json: { display_name: 'DB' } });
    expect(renamed.body.url).toBe('postgres://db.example.com:5432/…/app');
    const moved = await w.api('PATCH', `/monitors/${created.body.id}`, {
      json: { url: 'postgres://monitor:s3cret@db2.example.com/app2' },
    });
    expect(moved.body.url).toBe('postgres://db2.example.com/…app2');
    const bad = await w.api('PATCH', `/monitors/${created.body.id}`, { json: { url: 'db2.example.com' } });
    expect(bad.status).toBe(422);
    expect(badFields(bad)).toEqual(['url']);
  });
});
