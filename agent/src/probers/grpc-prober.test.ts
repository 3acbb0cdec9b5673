import { createServer as createHttp1 } from 'node:http';
import { createServer as createH2 } from 'node:http2';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServer as createTcp, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCa } from '../../../test/support/certs.js';
import { startGrpcHealthServer } from '../../../test/support/grpc-health-server.js';
import { CheckDeadline } from '../deadline.js';
import type { GrpcSettings, ProbeSpec } from '../probe-port.js';
import { healthCheckRequest, MalformedResponse, servingStatusOf } from './grpc-health.js';
import { createGrpcProber, grpcTarget } from './grpc-prober.js';
import { createProbers } from './index.js';

const spec = (url: string, settings: Partial<GrpcSettings> = {}): ProbeSpec<'grpc'> => ({
  monitor_id: 'm',
  monitor_type: 'grpc',
  url,
  timeout_ms: 2000,
  settings: { grpc_service: '', grpc_tls: false, assertions: [], ...settings },
});
const timeout = () => new DOMException('timed out after 200 ms', 'TimeoutError');

const ca = makeCa();
const leaf = ca.leaf(['localhost', '127.0.0.1']);
let plain: Awaited<ReturnType<typeof startGrpcHealthServer>>;
let secure: Awaited<ReturnType<typeof startGrpcHealthServer>>;
let silent: Server;
let silentPort: number;

beforeAll(async () => {
  plain = await startGrpcHealthServer({
    statuses: new Map([
      ['', 'SERVING'],
      ['shop.Cart', 'SERVING'],
      ['shop.Orders', 'NOT_SERVING'],
      ['shop.Search', 'UNKNOWN'],
    ]),
  });
  secure = await startGrpcHealthServer({ cert: leaf });
  // Accepts and never answers.
  silent = createTcp(() => {});
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
  silentPort = (silent.address() as AddressInfo).port;
});
afterAll(async () => {
  await plain.close();
  await secure.close();
  silent.close();
});

describe('grpc prober against a @grpc/grpc-js health service on loopback', () => {
  const p = createGrpcProber();
  const check = (url: string, settings: Partial<GrpcSettings> = {}) =>
    p.run(spec(url, settings), new CheckDeadline());

  it('passes when the server or the named service is SERVING', async () => {
    const whole = await check(`127.0.0.1:${plain.port}`);
    expect(whole).toMatchObject({ ok: true, error: null });
    expect(whole.timings?.connect_ms).toBeGreaterThan(0);
    expect(await check(`localhost:${plain.port}`, { grpc_service: 'shop.Cart' })).toMatchObject({ ok: true });
  });

  it('fails naming the status when a service is NOT_SERVING or UNKNOWN, and recovers', async () => {
    expect(await check(`127.0.0.1:${plain.port}`, { grpc_service: 'shop.Orders' })).toMatchObject({
      ok: false,
      error: { kind: 'grpc_not_serving', message: 'service "shop.Orders" is NOT_SERVING, expected SERVING' },
    });
    expect(await check(`127.0.0.1:${plain.port}`, { grpc_service: 'shop.Search' })).toMatchObject({
      ok: false,
      error: { kind: 'grpc_not_serving', message: 'service "shop.Search" is UNKNOWN, expected SERVING' },
    });
    plain.statuses.set('shop.Orders', 'SERVING');
    expect(await check(`127.0.0.1:${plain.port}`, { grpc_service: 'shop.Orders' })).toMatchObject({
      ok: true,
    });
    plain.statuses.set('', 'NOT_SERVING');
    expect(await check(`127.0.0.1:${plain.port}`)).toMatchObject({
      ok: false,
      error: { message: 'the server is NOT_SERVING, expected SERVING' },
    });
    plain.statuses.set('', 'SERVING');
  });

  it('fails with the gRPC status for a service the server does not know', async () => {
    expect(await check(`127.0.0.1:${plain.port}`, { grpc_service: 'no.Such' })).toMatchObject({
      ok: false,
      error: {
        kind: 'grpc_error',
        message: 'the health check answered NOT_FOUND (5): unknown service no.Such',
      },
    });
  });

  it('fails with UNIMPLEMENTED against a gRPC server without the health service', async () => {
    const bare = await startGrpcHealthServer({ health: false });
    expect(await check(`127.0.0.1:${bare.port}`)).toMatchObject({
      ok: false,
      error: {
        kind: 'grpc_error',
        message: expect.stringMatching(/^the health check answered UNIMPLEMENTED \(12\)/),
      },
    });
    await bare.close();
  });

  it('fails when nothing listens, when the server never answers, and on a target that is not host:port', async () => {
    const closed = createTcp();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(await check(`127.0.0.1:${port}`)).toMatchObject({
      ok: false,
      error: { kind: 'connection_refused' },
    });

    const deadline = new CheckDeadline();
    const pending = p.run(spec(`127.0.0.1:${silentPort}`), deadline);
    setTimeout(() => deadline.abort(timeout()), 50);
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'timeout' } });

    for (const bad of [
      '127.0.0.1',
      'http://127.0.0.1:80',
      '127.0.0.1:0',
      '127.0.0.1:99999',
      'a b:1',
      '[::1]',
    ])
      expect(await check(bad)).toMatchObject({ ok: false, error: { kind: 'bad_url' } });
  });

  it('says so when the server is not a gRPC health service', async () => {
    const h2 = createH2((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<p>no'));
    await new Promise<void>((r) => h2.listen(0, '127.0.0.1', () => r()));
    const port = (h2.address() as AddressInfo).port;
    expect(await check(`127.0.0.1:${port}`)).toMatchObject({
      ok: false,
      error: { kind: 'grpc_error', message: 'HTTP status 404, not a gRPC answer' },
    });
    h2.close();
    // An HTTP/1.1 server does not speak HTTP/2 at all.
    const h1 = createHttp1((_req, res) => res.end('hello'));
    await new Promise<void>((r) => h1.listen(0, '127.0.0.1', () => r()));
    expect(await check(`127.0.0.1:${(h1.address() as AddressInfo).port}`)).toMatchObject({
      ok: false,
      error: {
        kind: 'grpc_error',
        message: expect.stringMatching(/^the server does not speak HTTP\/2 gRPC/),
      },
    });
    h1.close();
  });

  it('fails on an answer over its size cap, never buffering it', async () => {
    const h2 = createH2((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/grpc' });
      res.end(Buffer.alloc(64 * 1024));
    });
    await new Promise<void>((r) => h2.listen(0, '127.0.0.1', () => r()));
    const port = (h2.address() as AddressInfo).port;
    expect(await check(`127.0.0.1:${port}`)).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('a health response over 16384 bytes') },
    });
    h2.close();
  });
});

describe('the agent runs grpc checks', () => {
  it('declares the type and sends its specs to the grpc prober', async () => {
    const probers = createProbers();
    expect(probers.types).toContain('grpc');
    expect(await probers.run(spec(`127.0.0.1:${plain.port}`), new CheckDeadline())).toMatchObject({
      ok: true,
    });
  });
});

describe('grpc prober with TLS', () => {
  it('passes against a server whose certificate it trusts, naming the host or the address', async () => {
    const p = createGrpcProber({ ca: ca.pem.cert });
    for (const host of ['localhost', '127.0.0.1']) {
      const r = await p.run(spec(`${host}:${secure.port}`, { grpc_tls: true }), new CheckDeadline());
      expect(r).toMatchObject({ ok: true, error: null });
      expect(r.timings?.tls_ms).toBeGreaterThan(0);
    }
  });

  it('fails on a certificate it does not trust, and on TLS against a plaintext server and back', async () => {
    const untrusting = createGrpcProber();
    expect(
      await untrusting.run(spec(`localhost:${secure.port}`, { grpc_tls: true }), new CheckDeadline()),
    ).toMatchObject({ ok: false, error: { kind: 'tls_invalid' } });
    const p = createGrpcProber({ ca: ca.pem.cert });
    expect(
      await p.run(spec(`localhost:${plain.port}`, { grpc_tls: true }), new CheckDeadline()),
    ).toMatchObject({
      ok: false,
      error: {
        kind: 'tls_failed',
        message: expect.stringMatching(/^the server does not speak TLS \(grpc_tls is on\)/),
      },
    });
    expect(await p.run(spec(`localhost:${secure.port}`), new CheckDeadline())).toMatchObject({
      ok: false,
      error: {
        kind: 'grpc_error',
        message: 'the server closed the call without answering (does it want TLS? grpc_tls is off)',
      },
    });
  });
});

describe('grpc prober against hostile or odd servers', () => {
  it('fails against a TLS server that speaks only HTTP/1.1, naming it', async () => {
    // One that names its protocols (the handshake fails), and one that names none.
    for (const alpn of [{ ALPNProtocols: ['http/1.1'] }, {}]) {
      const h1 = createHttps({ ...leaf, ...alpn }, (_req, res) => res.end('hello'));
      await new Promise<void>((r) => h1.listen(0, '127.0.0.1', () => r()));
      const port = (h1.address() as AddressInfo).port;
      const r = await createGrpcProber({ ca: ca.pem.cert }).run(
        spec(`localhost:${port}`, { grpc_tls: true }),
        new CheckDeadline(),
      );
      expect(r).toMatchObject({
        ok: false,
        error: {
          kind: 'grpc_error',
          message: expect.stringMatching(/^the server does not speak HTTP\/2 over TLS/),
        },
      });
      h1.close();
    }
  });

  it('ends at the deadline when the server answers headers and then never ends the call', async () => {
    const h2 = createH2((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/grpc' });
      res.write(Buffer.from([0, 0, 0, 0, 2]));
    });
    await new Promise<void>((r) => h2.listen(0, '127.0.0.1', () => r()));
    const port = (h2.address() as AddressInfo).port;
    const deadline = new CheckDeadline();
    const pending = createGrpcProber().run(spec(`127.0.0.1:${port}`), deadline);
    setTimeout(() => deadline.abort(timeout()), 50);
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    h2.close();
  });

  it('shows the grpc-message of a server decoded, cut and without control characters', async () => {
    const h2 = createH2((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/grpc' });
      res.addTrailers({ 'grpc-status': '14', 'grpc-message': `down%0D%0ASubject: hi%20${'x'.repeat(500)}` });
      res.end();
    });
    await new Promise<void>((r) => h2.listen(0, '127.0.0.1', () => r()));
    const port = (h2.address() as AddressInfo).port;
    const r = await createGrpcProber().run(spec(`127.0.0.1:${port}`), new CheckDeadline());
    expect(r.error?.message).toBe(
      `the health check answered UNAVAILABLE (14): down  Subject: hi ${'x'.repeat(182)}`,
    );
    h2.close();
  });

  it('fails on a status message that is not a health response', async () => {
    const h2 = createH2((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/grpc' });
      res.addTrailers({ 'grpc-status': '0' });
      res.end(Buffer.from([1, 0, 0, 0, 2, 0x08, 1]));
    });
    await new Promise<void>((r) => h2.listen(0, '127.0.0.1', () => r()));
    const port = (h2.address() as AddressInfo).port;
    expect(await createGrpcProber().run(spec(`127.0.0.1:${port}`), new CheckDeadline())).toMatchObject({
      ok: false,
      error: { kind: 'grpc_error', message: 'a compressed health response (none was offered)' },
    });
    h2.close();
  });
});

describe('the SSRF guard on grpc checks', () => {
  it('refuses a private address or a name that resolves to one', async () => {
    const guarded = createGrpcProber({ blockPrivate: true });
    for (const url of [
      `127.0.0.1:${plain.port}`,
      `localhost:${plain.port}`,
      `[::ffff:127.0.0.1]:${plain.port}`,
      `[fe80::1%lo]:${plain.port}`,
      `169.254.169.254:${plain.port}`,
    ])
      expect(await guarded.run(spec(url), new CheckDeadline())).toMatchObject({
        ok: false,
        error: { kind: 'blocked_target', message: expect.stringContaining('is not an allowed destination') },
      });
  });
});

describe('the health messages', () => {
  it('writes the request as protobuf does, and reads a status among unknown fields', () => {
    expect(healthCheckRequest('')).toEqual(Buffer.from([0, 0, 0, 0, 0]));
    expect(healthCheckRequest('ab')).toEqual(Buffer.from([0, 0, 0, 0, 4, 0x0a, 2, 0x61, 0x62]));
    expect(healthCheckRequest('x'.repeat(200)).subarray(5, 8)).toEqual(Buffer.from([0x0a, 0xc8, 0x01]));
    expect(servingStatusOf(Buffer.from([0, 0, 0, 0, 0]))).toBe(0);
    expect(servingStatusOf(Buffer.from([0, 0, 0, 0, 2, 0x08, 2]))).toBe(2);
    // field 2 (a string) before field 1, field 3 (fixed32) after.
    expect(
      servingStatusOf(Buffer.from([0, 0, 0, 0, 11, 0x12, 2, 0x68, 0x69, 0x08, 1, 0x1d, 1, 2, 3, 4])),
    ).toBe(1);
  });

  it('refuses a compressed, truncated or malformed message', () => {
    for (const bad of [
      [],
      [1, 0, 0, 0, 2, 0x08, 1],
      [0, 0, 0, 0, 9, 0x08, 1],
      [0, 0, 0, 0, 2, 0x08, 0x80],
      [0, 0, 0, 0, 3, 0x12, 9, 1],
      [0, 0, 0, 0, 2, 0x0b, 1],
      [0, 0, 0, 0, 6, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff],
    ])
      expect(() => servingStatusOf(Buffer.from(bad))).toThrow(MalformedResponse);
  });

  it('reads targets as host:port', () => {
    expect(grpcTarget('example.com:443')).toEqual({ host: 'example.com', port: 443 });
    expect(grpcTarget('[::1]:50051')).toEqual({ host: '::1', port: 50051 });
    expect(grpcTarget('example.com')).toBeNull();
    expect(grpcTarget('::1:50051')).toBeNull();
  });
});
