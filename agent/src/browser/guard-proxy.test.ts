import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GuardProxy, startGuardProxy } from './guard-proxy.js';

/** The proxy Chromium goes through, spoken to as Chromium does: absolute-form requests and CONNECT. */
let site: Server;
let sitePort: number;
const proxies: GuardProxy[] = [];

beforeAll(async () => {
  site = createServer((req, res) => res.end(`hello ${req.headers.host} ${req.url}`));
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  sitePort = (site.address() as { port: number }).port;
});
afterAll(async () => {
  for (const p of proxies) await p.close();
  site.close();
});

const proxy = async (opts: Parameters<typeof startGuardProxy>[0]) => {
  const p = await startGuardProxy(opts);
  proxies.push(p);
  return p;
};

/** A plain-HTTP request through the proxy: the answer, or the error when the proxy hangs up. */
const viaProxy = (p: GuardProxy, url: string) =>
  new Promise<string>((resolve) => {
    const req = request(
      { host: '127.0.0.1', port: p.port, path: url, headers: { host: new URL(url).host } },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve(`${res.statusCode} ${body}`));
      },
    );
    req.on('error', (e) => resolve(`error ${(e as NodeJS.ErrnoException).code}`));
    req.end();
  });

/** A CONNECT through the proxy: its status line. */
const tunnel = (p: GuardProxy, target: string) =>
  new Promise<string>((resolve) => {
    const s = connect(p.port, '127.0.0.1', () =>
      s.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`),
    );
    s.once('data', (d) => {
      resolve(d.toString().split('\r\n')[0]!);
      s.destroy();
    });
    s.on('error', () => resolve('error'));
  });

describe('the guard proxy', () => {
  it('forwards plain HTTP and tunnels CONNECT when private targets are allowed', async () => {
    const p = await proxy({ blockPrivate: false });
    expect(await viaProxy(p, `http://127.0.0.1:${sitePort}/a?b=1`)).toBe(
      `200 hello 127.0.0.1:${sitePort} /a?b=1`,
    );
    expect(await tunnel(p, `127.0.0.1:${sitePort}`)).toBe('HTTP/1.1 200 Connection Established');
    // *.localhost is loopback, as Chromium resolves it without a proxy (the system resolver may not know it).
    expect(await viaProxy(p, `http://demo.localhost:${sitePort}/`)).toBe(
      `200 hello demo.localhost:${sitePort} /`,
    );
    expect(p.refused).toBe(0);
  });

  it('with blockPrivate, refuses private addresses and names that resolve to them, and says why', async () => {
    const p = await proxy({ blockPrivate: true });
    expect(await viaProxy(p, `http://127.0.0.1:${sitePort}/`)).toMatch(/^error (ECONNRESET|socket hang up)/);
    expect(p.failure('127.0.0.1', sitePort)).toBe(
      'refused by the agent’s address guard: 127.0.0.1 is not an allowed destination',
    );
    // A name is resolved here, and every address it has is checked.
    expect(await tunnel(p, `localhost:${sitePort}`)).toBe('HTTP/1.1 403 Forbidden');
    expect(p.failure('localhost', sitePort)).toMatch(/refused by the agent’s address guard: localhost/);
    expect(await tunnel(p, `app.localhost:${sitePort}`)).toBe('HTTP/1.1 403 Forbidden');
    expect(await tunnel(p, '[::ffff:169.254.169.254]:80')).toBe('HTTP/1.1 403 Forbidden');
    expect(await tunnel(p, '[::1]:443')).toBe('HTTP/1.1 403 Forbidden');
    expect(p.refused).toBe(5);
  });

  it('lets through what `allow` names (a test site), and never itself', async () => {
    const p = await proxy({
      blockPrivate: true,
      allow: (address, port) => address === '127.0.0.1' && port === sitePort,
    });
    expect(await viaProxy(p, `http://127.0.0.1:${sitePort}/x`)).toBe(`200 hello 127.0.0.1:${sitePort} /x`);
    expect(await tunnel(p, `127.0.0.1:${sitePort + 1 === 65536 ? 1 : sitePort + 1}`)).toBe(
      'HTTP/1.1 403 Forbidden',
    );
    const open = await proxy({ blockPrivate: false });
    expect(await tunnel(open, `127.0.0.1:${open.port}`)).toBe('HTTP/1.1 403 Forbidden');
    expect(open.failure('127.0.0.1', open.port)).toBe('the agent’s own proxy is not a destination');
  });

  it('bounds the connections it holds', async () => {
    const p = await proxy({ blockPrivate: false, maxConnections: 2 });
    const held = [connect(p.port, '127.0.0.1'), connect(p.port, '127.0.0.1')];
    await Promise.all(held.map((s) => new Promise((r) => s.once('connect', r))));
    await new Promise((r) => setTimeout(r, 50));
    const third = await new Promise<string>((resolve) => {
      const s = connect(p.port, '127.0.0.1', () =>
        s.write(`GET http://127.0.0.1:${sitePort}/ HTTP/1.1\r\nHost: x\r\n\r\n`),
      );
      s.once('data', () => resolve('answered'));
      s.once('close', () => resolve('closed'));
      s.on('error', () => {});
    });
    expect(third).toBe('closed');
    for (const s of held) s.destroy();
  });
});
