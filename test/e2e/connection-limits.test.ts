import { connect as h2connect } from 'node:http2';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * Both listeners (HTTP API and agent RPC) close connections that stay idle or never finish a request,
 * and refuse connections beyond their configured cap. Each test waits for the socket's 'close' event:
 * on a server without these limits it never comes and the test fails on its timeout.
 */

const open = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });

/** Resolves with what the server sent once it closed the connection. */
const closedByServer = (s: Socket) =>
  new Promise<string>((resolve) => {
    let received = '';
    s.on('data', (d: Buffer) => (received += d.toString('latin1')));
    s.on('error', () => {});
    s.on('close', () => resolve(received));
  });

/** One complete HTTP/1.1 request on a kept-alive socket; resolves with the status line. */
const requestOn = (s: Socket) =>
  new Promise<string>((resolve) => {
    s.once('data', (d: Buffer) => resolve(d.toString('latin1').split('\r\n')[0]!));
    s.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  });

const H2_PREFACE = 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n';

describe('connection limits with small timeouts', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      http_headers_timeout_ms: 300,
      http_request_timeout_ms: 600,
      http_keep_alive_timeout_ms: 300,
      rpc_idle_timeout_ms: 300,
    });
  });
  afterAll(() => h.close());

  it('HTTP API: an idle connection, a half-sent request and an idle kept-alive connection are closed', {
    timeout: 15_000,
  }, async () => {
    const idle = await open(h.cp.port);
    const half = await open(h.cp.port);
    half.write('POST /api/v1/monitors/create HTTP/1.1\r\nHost: demo.localhost\r\nX-API-Key: ak.');
    const kept = await open(h.cp.port);
    expect(await requestOn(kept)).toBe('HTTP/1.1 200 OK');
    const [idleGot, halfGot, keptGot] = await Promise.all([idle, half, kept].map(closedByServer));
    expect(idleGot).toMatch(/^(HTTP\/1\.1 408|)/);
    expect(halfGot).toMatch(/^(HTTP\/1\.1 408|)/);
    expect(keptGot).toBe('');
  });

  it('HTTP API: a request whose body never ends is closed', { timeout: 15_000 }, async () => {
    const slow = await open(h.cp.port);
    slow.write(
      'POST /api/v1/monitors/create HTTP/1.1\r\nHost: demo.localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"display',
    );
    await closedByServer(slow);
  });

  it('agent RPC: an idle connection and a half-sent HTTP/2 preface are closed', {
    timeout: 15_000,
  }, async () => {
    const idle = await open(h.cp.rpcPort);
    const half = await open(h.cp.rpcPort);
    // The preface and the first 5 of a SETTINGS frame's 9 header bytes, then nothing.
    half.write(Buffer.concat([Buffer.from(H2_PREFACE, 'latin1'), Buffer.from([0, 0, 0, 4, 0])]));
    await Promise.all([idle, half].map(closedByServer));
  });

  it('agent RPC: a stream whose request never ends is closed, though the session stays busy', {
    timeout: 15_000,
  }, async () => {
    const session = h2connect(`http://127.0.0.1:${h.cp.rpcPort}`);
    session.on('error', () => {});
    const call = () => {
      const stream = session.request({
        ':method': 'POST',
        ':path': '/lookout.agent.v1.AgentService/ReportResults',
        'content-type': 'application/grpc',
        te: 'trailers',
      });
      stream.on('error', () => {});
      return stream;
    };
    // Another stream that keeps sending keeps the session itself busy, so only the half-sent
    // stream's own idleness can end it.
    const busy = call();
    busy.write(Buffer.from([0, 0, 1, 0, 0]));
    const pinger = setInterval(() => busy.write(Buffer.from([0])), 50);
    try {
      const stream = call();
      stream.write(Buffer.from([0, 0, 0, 0, 50])); // a gRPC frame header promising 50 bytes, never sent
      stream.resume();
      await new Promise<void>((resolve) => stream.on('close', () => resolve()));
      expect(session.destroyed).toBe(false);
    } finally {
      clearInterval(pinger);
      // Not in the same tick as the stream's 'close': node 20's session.destroy() there never returns.
      await new Promise((resolve) => setImmediate(resolve));
      session.destroy();
    }
  });
});

describe('connection caps', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ http_max_connections: 2, rpc_max_connections: 2 });
  });
  afterAll(() => h.close());

  it('HTTP API: the connection beyond the cap is refused; those within it are served', {
    timeout: 15_000,
  }, async () => {
    const a = await open(h.cp.port);
    const b = await open(h.cp.port);
    expect(await requestOn(a)).toBe('HTTP/1.1 200 OK');
    expect(await requestOn(b)).toBe('HTTP/1.1 200 OK');
    const excess = await open(h.cp.port);
    excess.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(await closedByServer(excess)).toBe('');
    expect(await requestOn(a)).toBe('HTTP/1.1 200 OK');
    a.destroy();
    b.destroy();
  });

  it('agent RPC: the connection beyond the cap is refused; those within it are served', {
    timeout: 15_000,
  }, async () => {
    const sessions = [0, 1].map(() => h2connect(`http://127.0.0.1:${h.cp.rpcPort}`));
    for (const s of sessions) s.on('error', () => {});
    try {
      // A ping answered means the server accepted the connection and holds its session.
      for (const s of sessions) await new Promise((resolve) => s.once('connect', resolve));
      for (const s of sessions)
        await new Promise<void>((resolve, reject) => s.ping((err) => (err ? reject(err) : resolve())));
      const excess = await open(h.cp.rpcPort);
      excess.write(H2_PREFACE);
      expect(await closedByServer(excess)).toBe('');
      await new Promise<void>((resolve, reject) =>
        sessions[0]!.ping((err) => (err ? reject(err) : resolve())),
      );
    } finally {
      for (const s of sessions) s.destroy();
    }
  });
});
