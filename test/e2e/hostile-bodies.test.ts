import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../control-plane/src/config.js';
import { createNamedKey } from '../../control-plane/src/domain/access/api-keys.js';
import { createWorkspace } from '../../control-plane/src/domain/tenancy/workspaces.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { createSqliteStore } from '../../control-plane/src/store/sqlite/sqlite-store.js';
import { type ClockedControlPlane, startClockedControlPlane } from '../support/clocked-control-plane.js';
import { exited } from '../support/processes.js';

/**
 * Hostile JSON bodies against the real server in its own process, with the heap deploy/ gives it
 * (384 MiB): deeply nested PagerDuty custom_details used to be pretty-printed before the routing key
 * was checked (output quadratic in the depth: heap out of memory), or to overflow the stack (500).
 */
const T0 = Date.parse('2026-06-01T12:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'lookout-hostile-'));
const children: ChildProcess[] = [];
let cp: ClockedControlPlane;
let store: Store;
let apiKey: string;

beforeAll(async () => {
  store = createSqliteStore({ path: join(dir, 'lookout.db') });
  await store.init();
  const { workspace, admin } = await createWorkspace(
    store,
    loadConfig({}, {}).plans,
    { subdomain: 'hostile', admin_email: 'a@hostile.test', plan: 'team' },
    new Date(T0),
  );
  apiKey = (await createNamedKey(store, workspace, admin, { name: 'k', expiry: 'none' }, new Date(T0))).value;
  cp = await startClockedControlPlane({
    data: dir,
    clockStart: T0,
    children,
    execArgv: ['--max-old-space-size=384'],
    env: { LOOKOUT_AUTH_FAILURES_PER_MINUTE: '0' },
  });
});
afterAll(async () => {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await exited(c);
  }
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const send = (method: string, path: string, opts: { host?: string; body?: string; key?: string } = {}) =>
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    const headers: Record<string, string> = { host: opts.host ?? 'localhost' };
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(opts.body));
    }
    if (opts.key) headers['x-api-key'] = opts.key;
    const req = httpRequest({ host: '127.0.0.1', port: cp.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
      );
    });
    // Generous: a server that dies answers with a reset, not a timeout.
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
    req.on('error', reject);
    req.end(opts.body);
  });

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const event = (routingKey: string, customDetails: string) =>
  `{"routing_key":${JSON.stringify(routingKey)},"event_action":"trigger","payload":{"summary":"s","source":"x","severity":"critical","custom_details":${customDetails}}}`;

describe('hostile JSON bodies (real process, 384 MiB heap)', () => {
  it('deep nesting on both PagerDuty paths is a 4xx, and the same process keeps serving', async () => {
    const integration = await send('POST', '/api/v1/integrations', {
      host: 'hostile.localhost',
      key: apiKey,
      body: JSON.stringify({ name: 'pd', kind: 'pagerduty' }),
    });
    expect(integration.status).toBe(201);
    const serviceKey = integration.body.service_key as string;
    const bodies = {
      // 16 arrays nested 4,000 deep: 128 kB.
      wide: `[${Array.from({ length: 16 }, () => nested(4000)).join(',')}]`,
      // 20 kB nested 10,000 deep.
      deep: nested(10_000),
    };
    expect(bodies.wide.length).toBeGreaterThan(128_000);
    for (const [name, details] of Object.entries(bodies)) {
      for (const path of ['/v2/enqueue', '/api/v1/integrations/pagerduty/v2/enqueue']) {
        for (const key of ['lsk.not-a-key', serviceKey]) {
          const r = await send('POST', path, { body: event(key, details) });
          const label = `${name} ${path} ${key === serviceKey ? 'valid key' : 'unknown key'}`;
          expect(r.status, label).toBe(400);
          expect(r.body.error.code, label).toBe('bad_request');
          expect(r.body.error.message, label).toMatch(/nested more than 64 levels deep/);
        }
      }
    }
    expect((await send('GET', '/healthz')).status).toBe(200);
    const ok = await send('POST', '/v2/enqueue', {
      body: event(serviceKey, JSON.stringify({ disk: { used: '95%' } })),
    });
    expect(ok.status).toBe(202);
    expect(ok.body).toMatchObject({ status: 'success', message: 'Event processed' });
    expect(children[0]!.exitCode).toBeNull();
  });
});
