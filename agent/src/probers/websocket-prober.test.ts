import type { AddressInfo } from 'node:net';
import { createServer as createTcp } from 'node:net';
import type { Assertion } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCa } from '../../../test/support/certs.js';
import { startWebSocketServer } from '../../../test/support/websocket-server.js';
import { CheckDeadline } from '../deadline.js';
import type { ProbeSpec, WebSocketSettings } from '../probe-port.js';
import { createProbers } from './index.js';
import { closeCodeText, createWebSocketProber } from './websocket-prober.js';

const spec = (url: string, settings: Partial<WebSocketSettings> = {}): ProbeSpec<'websocket'> => ({
  monitor_id: 'm',
  monitor_type: 'websocket',
  url,
  timeout_ms: 2000,
  settings: { ws_message: null, assertions: [], ...settings },
});
const timeout = () => new DOMException('timed out after 50 ms', 'TimeoutError');
const onBody = (comparison: Assertion['comparison'], target: string): Assertion => ({
  source: 'text_body',
  property: '',
  comparison,
  target,
});

const ca = makeCa();
let plain: Awaited<ReturnType<typeof startWebSocketServer>>;
let secure: Awaited<ReturnType<typeof startWebSocketServer>>;

beforeAll(async () => {
  plain = await startWebSocketServer();
  secure = await startWebSocketServer({ cert: ca.leaf(['localhost', '127.0.0.1']) });
});
afterAll(async () => {
  await plain.close();
  await secure.close();
});

describe('websocket prober against a `ws` server on loopback', () => {
  const p = createWebSocketProber();
  const probe = (url: string, settings: Partial<WebSocketSettings> = {}) =>
    p.probe(spec(url, settings), new CheckDeadline());

  it('passes once the connection opens, reading nothing when nothing is sent or asserted', async () => {
    const r = await probe(plain.url('/silent'));
    expect(r.outcome).toMatchObject({ ok: true, error: null, status_code: 101 });
    expect(r.reading).toEqual({ status_code: 101, first_message: null });
  });

  it('sends ws_message and reads the first message back', async () => {
    const r = await probe(plain.url('/echo'), { ws_message: '{"op":"ping"}' });
    expect(r.outcome).toMatchObject({ ok: true });
    expect(r.reading?.first_message).toBe('{"op":"ping"}');
  });

  it('waits for the first message an assertion reads, sent unasked', async () => {
    const r = await probe(plain.url('/hello'), { assertions: [onBody('contains', 'ok')] });
    expect(r.reading?.first_message).toBe('{"status":"ok","version":3}');
  });

  it('fails naming the close code when the server closes first', async () => {
    expect((await probe(plain.url('/close-1008'), { ws_message: 'hi' })).outcome).toMatchObject({
      ok: false,
      error: {
        kind: 'ws_closed',
        message: 'the server closed the connection before a first message with 1008 (policy violation): bye',
      },
    });
    expect((await probe(plain.url('/close-4001'), { ws_message: 'hi' })).outcome.error?.message).toBe(
      'the server closed the connection before a first message with 4001: bye',
    );
  });

  it('names a close code and shows its reason cut, without control characters', () => {
    expect(closeCodeText(1011, '')).toBe('1011 (internal error)');
    expect(closeCodeText(4000, `a\r\nb${'x'.repeat(200)}`)).toBe(`4000: a  b${'x'.repeat(116)}`);
  });

  it('fails with the HTTP status of a refused or redirected upgrade', async () => {
    expect((await probe(plain.url('/forbidden'))).outcome).toMatchObject({
      ok: false,
      status_code: 403,
      error: { kind: 'ws_handshake', message: 'the server answered the upgrade with HTTP 403' },
    });
    // A redirect is not followed: it could lead anywhere, the SSRF guard's addresses among them.
    expect((await probe(plain.url('/redirect'))).outcome).toMatchObject({
      ok: false,
      status_code: 302,
      error: {
        kind: 'ws_handshake',
        message: 'the server answered the upgrade with HTTP 302 to ws://169.254.169.254/',
      },
    });
  });

  it('fails when no message comes before the deadline', async () => {
    const deadline = new CheckDeadline();
    const pending = p.run(spec(plain.url('/silent'), { ws_message: 'anyone?' }), deadline);
    setTimeout(() => deadline.abort(timeout()), 50);
    expect(await pending).toMatchObject({
      ok: false,
      error: { kind: 'timeout', message: 'timed out waiting for a first message' },
    });
  });

  it('fails on a first message over the cap', async () => {
    expect((await probe(plain.url('/big'), { ws_message: 'x' })).outcome).toMatchObject({
      ok: false,
      error: { kind: 'ws_message_too_big', message: 'a first message over 1048576 bytes' },
    });
  });

  it('fails when nothing listens or the server never answers the upgrade', async () => {
    const closed = createTcp();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(await p.run(spec(`ws://127.0.0.1:${port}/`), new CheckDeadline())).toMatchObject({
      ok: false,
      error: { kind: 'connection_refused' },
    });
    const silent = createTcp(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const deadline = new CheckDeadline();
    const pending = p.run(spec(`ws://127.0.0.1:${(silent.address() as AddressInfo).port}/`), deadline);
    setTimeout(() => deadline.abort(timeout()), 50);
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'timeout', message: 'timed out' } });
    silent.close();
  });

  it('refuses what is not a ws:// or wss:// URL, a local socket among them', async () => {
    for (const bad of ['http://127.0.0.1/', 'ws+unix:/tmp/x.sock', 'not a url', 'ws://127.0.0.1/#frag'])
      expect((await probe(bad)).outcome).toMatchObject({ ok: false, error: { kind: 'bad_url' } });
  });
});

describe('the agent runs websocket checks', () => {
  it('declares the type and sends its specs to the websocket prober', async () => {
    const probers = createProbers();
    expect(probers.types).toContain('websocket');
    expect(
      await probers.run(spec(plain.url('/echo'), { ws_message: 'x' }), new CheckDeadline()),
    ).toMatchObject({
      ok: true,
    });
  });
});

describe('websocket prober over TLS', () => {
  it('passes against a certificate it trusts, by name or address', async () => {
    const p = createWebSocketProber({ ca: ca.pem.cert });
    for (const host of ['localhost', '127.0.0.1']) {
      const r = await p.probe(spec(secure.url('/echo', host), { ws_message: 'x' }), new CheckDeadline());
      expect(r.outcome).toMatchObject({ ok: true });
      expect(r.reading?.first_message).toBe('x');
    }
  });

  it('fails on a certificate it does not trust', async () => {
    const p = createWebSocketProber();
    expect(await p.run(spec(secure.url('/echo', 'localhost')), new CheckDeadline())).toMatchObject({
      ok: false,
      error: { kind: 'tls_invalid' },
    });
  });
});

describe('the SSRF guard on websocket checks', () => {
  it('refuses a private address or a name that resolves to one', async () => {
    const guarded = createWebSocketProber({ blockPrivate: true });
    for (const url of [plain.url('/echo'), plain.url('/echo', 'localhost'), plain.url('/echo', '[::1]')])
      expect(await guarded.run(spec(url), new CheckDeadline())).toMatchObject({
        ok: false,
        error: { kind: 'blocked_target', message: expect.stringContaining('is not an allowed destination') },
      });
  });
});
