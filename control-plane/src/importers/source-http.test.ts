import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportInputError } from './import-source.js';
import { requestJson, sourceBase } from './source-http.js';

const KEY = 'key-THAT-must-not-show';
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/slow') return; // never answers
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`"${'x'.repeat(5000)}"`);
      return;
    }
    if (req.url === '/redirect') {
      res.writeHead(302, { location: 'http://elsewhere.example.com/steal' });
      res.end();
      return;
    }
    if (req.url === '/echo') {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `bad key ${req.headers['x-api-key']}` }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const get = (path: string, opts: { timeoutMs?: number; maxBytes?: number } = {}) =>
  requestJson(new URL(path, base), { method: 'GET', headers: { 'x-api-key': KEY }, secret: KEY, ...opts });

describe('the importers’ HTTP client', () => {
  it('takes only http(s) addresses without credentials, and keeps their path as the base', () => {
    expect(() => sourceBase('file:///etc/passwd', 'x')).toThrow(ImportInputError);
    expect(() => sourceBase('ftp://example.com', 'x')).toThrow(/http:\/\/ or https:\/\//);
    expect(() => sourceBase('https://user:pw@example.com', 'x')).toThrow(/user name or password/);
    expect(() => sourceBase('not a url', 'x')).toThrow(/is not a URL/);
    expect(sourceBase('https://hc.example.com/sub?x=1#y', 'x').href).toBe('https://hc.example.com/sub/');
  });

  it('reads JSON; gives up on a silent server, an answer too large and a redirect', async () => {
    expect(await get('/ok')).toEqual({ status: 200, json: { ok: true } });
    await expect(get('/slow', { timeoutMs: 200 })).rejects.toThrow(/no answer in time/);
    await expect(get('/big', { maxBytes: 1000 })).rejects.toThrow(/more than 1000 bytes/);
    await expect(get('/redirect')).rejects.toThrow(/a redirect, not followed/);
  });

  it('never carries the key into a message', async () => {
    const r = await get('/echo');
    expect(r.status).toBe(500);
    const refused = await requestJson(new URL(`http://127.0.0.1:1/${KEY}`), {
      method: 'GET',
      secret: KEY,
    }).catch((e: Error) => e.message);
    expect(String(refused)).not.toContain(KEY);
    expect(String(refused)).toContain('***');
  });
});
