import {
  createServer as createHttp,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCa, selfSigned } from '../../../test/support/certs.js';
import { CheckDeadline, probeWithDeadline } from '../deadline.js';
import type { ProbeSpec } from '../probe-port.js';
import { realTimers } from '../scheduler.js';
import { createHttpProber } from './http-prober.js';
import { type FlatSpec, probeSpec } from './spec-fixture.js';

const NOW = new Date();
const ca = makeCa(NOW);
const servers: Server[] = [];
const seen: { method?: string; auth?: string; body?: string; header?: string }[] = [];

const handler = (req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    seen.push({
      method: req.method,
      auth: req.headers.authorization,
      body: Buffer.concat(chunks).toString(),
      header: req.headers['x-probe'] as string,
    });
    const path = req.url ?? '/';
    if (path === '/ok') return res.end('all systems operational');
    if (path === '/500') return res.writeHead(500).end('boom');
    if (path === '/rel') return res.writeHead(302, { location: '/ok' }).end();
    if (path === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    const hops = /^\/hops\/(\d+)$/.exec(path ?? '');
    if (hops && hops[1] !== '0')
      return res.writeHead(302, { location: `/hops/${Number(hops[1]) - 1}` }).end();
    if (hops) return res.writeHead(200).end('arrived');
    if (path === '/hang') return; // never answers
    if (path === '/stall') return res.writeHead(200).write('part of a body'); // never ends it
    if (path === '/auth') return res.writeHead(req.headers.authorization === 'Basic dTpw' ? 200 : 401).end();
    if (path === '/bearer')
      return res.writeHead(req.headers.authorization === 'Bearer t0k' ? 200 : 401).end();
    if (path === '/created') return res.writeHead(201).end('{"id":1}');
    res.writeHead(404).end();
  });
};

const listen = async (s: Server) => {
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return (s.address() as AddressInfo).port;
};

let plain: number;
let good: number;
let nearExpiry: number;
let wrongHost: number;
let untrusted: number;

beforeAll(async () => {
  plain = await listen(createHttp(handler));
  good = await listen(createHttps({ ...ca.leaf(['127.0.0.1', 'localhost']) }, handler));
  nearExpiry = await listen(createHttps({ ...ca.leaf(['127.0.0.1'], 5) }, handler));
  wrongHost = await listen(createHttps({ ...ca.leaf(['other.example']) }, handler));
  untrusted = await listen(createHttps({ ...selfSigned(['127.0.0.1']) }, handler));
});
afterAll(() => {
  for (const s of servers) s.closeAllConnections?.();
  for (const s of servers) s.close();
});

const spec = (url: string, over: FlatSpec = {}) => probeSpec({ url, ...over });

const prober = createHttpProber({ ca: ca.pem.cert, now: () => NOW });
/** As the agent runs a check: under its one deadline (the prober arms no timer of its own). */
const run = (s: ProbeSpec) => probeWithDeadline(prober, s, realTimers);

describe('http prober against real HTTP and HTTPS servers', () => {
  it('passes on the expected status and reports timing phases', async () => {
    const r = await run(spec(`http://127.0.0.1:${plain}/ok`));
    expect(r).toMatchObject({ ok: true, error: null, status_code: 200 });
    expect(r.timings!.total_ms).toBeGreaterThanOrEqual(r.timings!.first_byte_ms);
    expect(r.timings!.connect_ms).toBeGreaterThan(0);
  });

  it('fails on another status, and on a missing keyword', async () => {
    expect(await run(spec(`http://127.0.0.1:${plain}/500`))).toMatchObject({
      ok: false,
      status_code: 500,
      error: { kind: 'status_mismatch' },
    });
    expect(
      await run(spec(`http://127.0.0.1:${plain}/ok`, { required_keyword: 'operational' })),
    ).toMatchObject({ ok: true });
    expect(await run(spec(`http://127.0.0.1:${plain}/ok`, { required_keyword: 'degraded' }))).toMatchObject({
      ok: false,
      error: { kind: 'keyword_missing' },
    });
  });

  it('follows relative redirects, stops a loop, and can leave redirects alone', async () => {
    expect(await run(spec(`http://127.0.0.1:${plain}/rel`))).toMatchObject({ ok: true, status_code: 200 });
    expect(await run(spec(`http://127.0.0.1:${plain}/loop`))).toMatchObject({
      ok: false,
      error: { kind: 'too_many_redirects' },
    });
    expect(
      await run(
        spec(`http://127.0.0.1:${plain}/rel`, { follow_redirects: false, expected_status_code: 302 }),
      ),
    ).toMatchObject({ ok: true, status_code: 302 });
  });

  it('follows at most max_redirects redirects', async () => {
    const three = `http://127.0.0.1:${plain}/hops/3`;
    expect(await run(spec(three, { max_redirects: 3 }))).toMatchObject({ ok: true, status_code: 200 });
    expect(await run(spec(three, { max_redirects: 2 }))).toMatchObject({
      ok: false,
      error: { kind: 'too_many_redirects', message: 'more than 2 redirects' },
    });
  });

  it('sends basic and bearer auth, and api bodies and headers', async () => {
    expect(
      await run(
        spec(`http://127.0.0.1:${plain}/auth`, { auth: { type: 'basic', username: 'u', password: 'p' } }),
      ),
    ).toMatchObject({ ok: true });
    expect(await run(spec(`http://127.0.0.1:${plain}/auth`))).toMatchObject({ ok: false, status_code: 401 });
    expect(
      await run(spec(`http://127.0.0.1:${plain}/bearer`, { auth: { type: 'bearer', token: 't0k' } })),
    ).toMatchObject({ ok: true });
    const r = await run(
      spec(`http://127.0.0.1:${plain}/created`, {
        monitor_type: 'api',
        http_method: 'POST',
        request_body: '{"ping":true}',
        request_headers: { 'x-probe': 'yes', 'content-type': 'application/json' },
        expected_status_code: 201,
      }),
    );
    expect(r).toMatchObject({ ok: true, status_code: 201 });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: '{"ping":true}', header: 'yes' });
  });

  it('times out on a server that never answers, and reports a refused connection', async () => {
    expect(await run(spec(`http://127.0.0.1:${plain}/hang`, { timeout_ms: 200 }))).toMatchObject({
      ok: false,
      error: { kind: 'timeout' },
    });
    const closed = await listen(createHttp(handler));
    await new Promise<void>((r) => servers.at(-1)!.close(() => r()));
    expect(await run(spec(`http://127.0.0.1:${closed}/ok`))).toMatchObject({
      ok: false,
      error: { kind: 'connection_refused' },
    });
  });

  it('times out on a body that never ends, and gives up when the caller aborts', async () => {
    expect(
      await run(spec(`http://127.0.0.1:${plain}/stall`, { timeout_ms: 200, required_keyword: 'body' })),
    ).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(await run(spec(`http://127.0.0.1:${plain}/stall`, { timeout_ms: 200 }))).toMatchObject({
      ok: false,
      error: { kind: 'timeout' },
    });
    // The caller's deadline ends the check long before its own 60 s timeout.
    const deadline = new CheckDeadline();
    const pending = prober.run(spec(`http://127.0.0.1:${plain}/hang`, { timeout_ms: 60_000 }), deadline);
    setTimeout(() => deadline.abort(new DOMException('hard deadline', 'TimeoutError')), 50);
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    const passed = new CheckDeadline();
    passed.abort(new DOMException('hard deadline', 'TimeoutError'));
    expect(await prober.run(spec(`http://127.0.0.1:${plain}/ok`), passed)).toMatchObject({
      ok: false,
      error: { kind: 'timeout' },
    });
  });

  it('runs the same spec again and again', async () => {
    const s = spec(`http://127.0.0.1:${plain}/ok`, { required_keyword: 'operational' });
    for (let i = 0; i < 3; i++) expect(await run(s)).toMatchObject({ ok: true, status_code: 200 });
    expect(await run(spec('not a url'))).toMatchObject({ ok: false, error: { kind: 'bad_url' } });
  });

  it('opens a fresh connection for every check, and every HTTPS check does a full TLS handshake', async () => {
    const opened: string[] = [];
    const resumed: boolean[] = [];
    const onPlain = () => opened.push('http');
    const onTls = (socket: TLSSocket) => {
      opened.push('https');
      resumed.push(socket.isSessionReused());
    };
    const http = servers[0]!;
    const https = servers[1]!;
    http.on('connection', onPlain);
    https.on('secureConnection', onTls);
    try {
      for (let i = 0; i < 3; i++) {
        expect(await run(spec(`http://127.0.0.1:${plain}/ok`))).toMatchObject({ ok: true });
        const r = await run(spec(`https://127.0.0.1:${good}/ok`));
        expect(r).toMatchObject({ ok: true });
        expect(r.timings!.tls_ms).toBeGreaterThan(r.timings!.connect_ms);
      }
      // A kept-alive or resumed connection would measure less than a first visitor sees.
      expect(opened).toEqual(['http', 'https', 'http', 'https', 'http', 'https']);
      expect(resumed).toEqual([false, false, false]);
    } finally {
      http.off('connection', onPlain);
      https.off('secureConnection', onTls);
    }
  });

  it('HTTPS: reports certificate expiry; a cert near expiry counts its days', async () => {
    const r = await run(spec(`https://127.0.0.1:${good}/ok`, { ssl_cert_monitoring: true }));
    expect(r).toMatchObject({
      ok: true,
      tls: { days_remaining: 364, subject: '127.0.0.1', issuer: 'Lookout Test CA' },
    });
    const soon = await run(spec(`https://127.0.0.1:${nearExpiry}/ok`, { ssl_cert_monitoring: true }));
    expect(soon.tls?.days_remaining).toBe(4);
  });

  it('HTTPS: a wrong host name and an untrusted chain are failures', async () => {
    expect(await run(spec(`https://127.0.0.1:${wrongHost}/ok`))).toMatchObject({
      ok: false,
      error: { kind: 'tls_hostname_mismatch' },
    });
    expect(await run(spec(`https://127.0.0.1:${untrusted}/ok`))).toMatchObject({
      ok: false,
      error: { kind: 'tls_invalid' },
    });
  });
});

describe('the SSRF guard (blockPrivate, for hosted use)', () => {
  const guarded = createHttpProber({ ca: ca.pem.cert, now: () => NOW, blockPrivate: true });
  const check = (url: string) => guarded.run(spec(url), new CheckDeadline());

  it('refuses loopback targets, by address and by a name that resolves there; nothing is sent', async () => {
    const before = seen.length;
    for (const url of [
      `http://127.0.0.1:${plain}/ok`,
      `http://localhost:${plain}/ok`,
      `https://[::1]:${good}/ok`,
    ]) {
      const r = await check(url);
      expect(r, url).toMatchObject({ ok: false, error: { kind: 'blocked_target' } });
    }
    expect((await check(`http://localhost:${plain}/ok`)).error?.message).toBe(
      `EBLOCKED: localhost is not an allowed destination`,
    );
    expect(seen.length).toBe(before);
    // Unguarded (the default, and self-hosted use), the same target is checked.
    expect(await run(spec(`http://localhost:${plain}/ok`))).toMatchObject({ ok: true });
  });
});
