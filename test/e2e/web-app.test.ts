import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIR } from '../../control-plane/src/http/web-app.js';
import { type Harness, startHarness } from '../support/harness.js';

/** The web app as the control plane serves it (built by `npm run build`, which `npm ci` runs). */
let h: Harness;
let host: string;
let script: string;
beforeAll(async () => {
  h = await startHarness();
  host = (await h.workspace('web')).host;
  script = readdirSync(`${WEB_DIR}assets`).find((f) => /^index-[\w-]+\.js$/.test(f))!;
});
afterAll(() => h.close());

describe('web app', () => {
  it('serves the app on every pinned page path, signed in or not, with a strict CSP and no caching', async () => {
    for (const path of [
      '/',
      '/sign-in',
      '/accept-invite',
      '/settings/api-keys',
      '/settings/password',
      '/settings/users',
      '/settings/mail',
      '/settings/notifications',
      '/monitors',
      '/monitors/3f1c2a9e-0000-4000-8000-000000000000',
      '/monitors/new',
      '/monitors/3f1c2a9e-0000-4000-8000-000000000000/edit',
      '/alerts',
      '/alerts/abc',
      '/status-pages',
      '/status-pages/new',
      '/status-pages/3f1c2a9e-0000-4000-8000-000000000000',
      '/status-pages/3f1c2a9e-0000-4000-8000-000000000000/edit',
    ]) {
      const r = await h.request('GET', path, { host });
      expect(r.status, path).toBe(200);
      expect(r.headers['content-type'], path).toMatch(/text\/html/);
      expect(r.text, path).toContain(`/assets/${script}`);
      expect(r.headers['cache-control'], path).toBe('no-cache');
      expect(r.headers['content-security-policy'], path).toMatch(
        /default-src 'self'.*frame-ancestors 'none'/,
      );
    }
  });

  it('hashed assets are cached for a year as immutable, and sent compressed when the client accepts it', async () => {
    const plain = await h.request('GET', `/assets/${script}`, { host });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toMatch(/javascript/);
    expect(plain.headers['cache-control']).toBe('max-age=31536000,immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await h.request('GET', `/assets/${script}`, {
      host,
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    const gz = await h.request('GET', `/assets/${script}`, { host, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    // The first load stays small (the dashboard's budget is 150 kB of compressed JS).
    expect(Number(br.headers['content-length'])).toBeLessThan(150_000);
  });

  it('never serves a file outside the build, and other paths stay JSON errors', async () => {
    for (const path of [
      '/assets/../../package.json',
      '/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/assets/..%2f..%2fweb%2fvite.config.ts',
      '/assets/nope.js',
      '/index.html.br',
      '/src/main.tsx',
      '/package.json',
    ]) {
      const r = await h.request('GET', path, { host });
      expect(r.status, path).toBe(404);
      expect(r.headers['content-type'], path).toMatch(/application\/json/);
      expect(r.body.error.code, path).toBe('not_found');
    }
  });

  it('a browser opening an unknown path gets the app (status 404) to show its not-found page; the API and files stay JSON', async () => {
    const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    for (const path of ['/status', '/settings/billing', '/monitors/1/2/3', '/nothing/here']) {
      const r = await h.request('GET', path, { host, headers: html });
      expect(r.status, path).toBe(404);
      expect(r.headers['content-type'], path).toMatch(/text\/html/);
      expect(r.text, path).toContain(`/assets/${script}`);
      expect(r.headers['cache-control'], path).toBe('no-cache');
      expect(r.headers['content-security-policy'], path).toMatch(/frame-ancestors 'none'/);
    }
    // Not for the API, files, other methods, API keys, or clients that do not ask for HTML.
    const json = [
      await h.request('GET', '/api/v1/nothing', { host, headers: html }),
      await h.request('GET', '/assets/nope.js', { host, headers: html }),
      await h.request('POST', '/settings/billing', { host, headers: html, json: {} }),
      await h.request('GET', '/settings/billing', { host, headers: html, key: 'ak.anything' }),
      await h.request('GET', '/settings/billing', { host, headers: { accept: '*/*' } }),
    ];
    for (const r of json) {
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toMatch(/application\/json/);
      expect(r.body.error.code).toBe('not_found');
    }
  });

  it('a request with X-API-Key is an API call even on a page path: JSON, never the app or a redirect', async () => {
    const r = await h.request('GET', '/settings/api-keys', { host, key: 'ak.anything' });
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toMatch(/application\/json/);
    expect(r.body.error.message).toMatch(/the API is under \/api\/v1/);
    expect(r.headers.location).toBeUndefined();
  });

  it('the API keeps answering JSON next to the app', async () => {
    const r = await h.request('GET', '/api/v1/monitors', { host });
    expect(r.status).toBe(401);
    expect(r.headers['content-type']).toMatch(/application\/json/);
  });
});
