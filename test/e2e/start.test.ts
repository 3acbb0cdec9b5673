import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, MAIN, startProcess } from '../support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'lookout-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = {
  LOOKOUT_DATA_DIR: dir,
  LOOKOUT_HTTP_PORT: '0',
  LOOKOUT_RPC_PORT: '0',
  LOOKOUT_LOG_LEVEL: 'warn',
};

const get = (port: number, path: string, key: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { host: 'demo.localhost', 'x-api-key': key } },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });

describe('npm start (the control plane process)', () => {
  it('creates the demo workspace on first start, prints URL, password and key once, and drains on SIGTERM', async () => {
    const first = await startProcess(MAIN, env, /API key:\s+(ak\.\S+)/);
    const out = first.output();
    expect(out).toMatch(/API:\s+http:\/\/demo\.localhost:\d+\/api\/v1/);
    expect(out).toMatch(/admin password: \S{20,}/);
    const key = first.match[1]!;
    const port = Number(out.match(/demo\.localhost:(\d+)/)![1]);
    const r = await get(port, '/api/v1/monitors', key);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ data: [], next_cursor: null });
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);

    const second = await startProcess(MAIN, env, /Lookout is running: (\S+)/);
    expect(second.output()).not.toMatch(/ak\./);
    expect(second.output()).toContain('workspace "demo" exists');
    const port2 = Number(second.match[1]!.match(/:(\d+)\//)![1]);
    expect((await get(port2, '/api/v1/alerts', key)).status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  });

  it('with LOOKOUT_DEMO_WORKSPACE=false (production) makes no workspace and prints no secret', async () => {
    const data = mkdtempSync(join(dir, 'no-demo-'));
    const p = await startProcess(
      MAIN,
      { ...env, LOOKOUT_DATA_DIR: data, LOOKOUT_DEMO_WORKSPACE: 'false' },
      /Lookout is running: HTTP API on port (\d+)/,
    );
    expect(p.output()).not.toMatch(/ak\.|password/);
    const ready = await get(Number(p.match[1]), '/readyz', '');
    expect(ready.status).toBe(200);
    p.child.kill('SIGTERM');
    expect(await exited(p.child)).toBe(0);
    const db = new Database(join(data, 'lookout.db'), { readonly: true });
    expect(db.prepare('SELECT count(*) n FROM workspaces').get()).toEqual({ n: 0 });
    db.close();
  });

  it('refuses bad configuration at boot with one line per bad value', async () => {
    const bad = startProcess(
      MAIN,
      { ...env, LOOKOUT_HTTP_PORT: '99999', LOOKOUT_LOG_LEVEL: 'loud', LOOKOUT_REGIONS: 'EU West' },
      /never/,
    );
    const err = await bad.then(
      () => '',
      (e: Error) => e.message,
    );
    expect(err).toMatch(/exited 2/);
    expect(err).toContain('LOOKOUT_HTTP_PORT');
    expect(err).toContain('LOOKOUT_LOG_LEVEL');
    expect(err).toContain('LOOKOUT_REGIONS');
  });
});
