import { execFile } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackExchange } from '../../../test/support/exchange-request.js';
import { type ExchangeRequest, exchange, requestBytes } from './http-exchange.js';

describe('requestBytes: the request as it goes on the wire', () => {
  it('writes the request line, a Host, the headers in order and the body', () => {
    expect(
      requestBytes(
        'GET',
        '/a?b=1',
        'example.com:8080',
        { 'user-agent': 'L', connection: 'close' },
        null,
      ).toString(),
    ).toBe('GET /a?b=1 HTTP/1.1\r\nHost: example.com:8080\r\nuser-agent: L\r\nconnection: close\r\n\r\n');
    expect(requestBytes('POST', '/', 'h', { 'content-length': '2' }, Buffer.from('{}')).toString()).toBe(
      'POST / HTTP/1.1\r\nHost: h\r\ncontent-length: 2\r\n\r\n{}',
    );
  });

  it('keeps a Host the request sets itself, and gives a body-less POST a zero length as node:http does', () => {
    expect(requestBytes('GET', '/', 'h', { HOST: 'other' }, null).toString()).toBe(
      'GET / HTTP/1.1\r\nHOST: other\r\n\r\n',
    );
    expect(requestBytes('POST', '/', 'h', {}, null).toString()).toBe(
      'POST / HTTP/1.1\r\nHost: h\r\ncontent-length: 0\r\n\r\n',
    );
    expect(requestBytes('DELETE', '/', 'h', {}, null).toString()).toBe(
      'DELETE / HTTP/1.1\r\nHost: h\r\n\r\n',
    );
  });

  it('refuses a header, method or path that would inject a line, with node:http codes', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as { code?: string }).code;
      }
      return 'no error';
    };
    expect(code(() => requestBytes('GET', '/', 'h', { 'x-a': 'v\r\nx-b: injected' }, null))).toBe(
      'ERR_INVALID_CHAR',
    );
    expect(code(() => requestBytes('GET', '/', 'h', { 'x a': 'v' }, null))).toBe('ERR_INVALID_HTTP_TOKEN');
    expect(code(() => requestBytes('GET /x HTTP/1.1\r\n', '/', 'h', {}, null))).toBe(
      'ERR_INVALID_HTTP_TOKEN',
    );
    expect(code(() => requestBytes('GET', '/a b', 'h', {}, null))).toBe('ERR_UNESCAPED_CHARACTERS');
  });
});

/** A loopback server that answers each path with the pieces given, and leaves the connection open. */
const answers: Record<string, { pieces: string[]; close?: boolean }> = {
  '/chunked': {
    pieces: [
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n',
      '7;ext=1\r\nall sys\r\n',
      'e\r\ntems operation\r\n2\r\nal\r\n0\r\nx-trailer: t\r\n\r\n',
    ],
  },
  '/length-kept-open': { pieces: ['HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel', 'lo'] },
  '/early-hints': {
    pieces: [
      'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n',
      'HTTP/1.1 204 No Content\r\n\r\n',
    ],
  },
  '/head': { pieces: ['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n'] },
  '/not-modified': { pieces: ['HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n'] },
  '/until-close': { pieces: ['HTTP/1.0 200 OK\r\n\r\nbody to ', 'the end'], close: true },
  '/cut': { pieces: ['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part'], close: true },
  '/redirect': {
    pieces: ['HTTP/1.1 301 Moved\r\nLocation: /elsewhere\r\nlocation: /second\r\nContent-Length: 0\r\n\r\n'],
  },
};
let server: Server;
let port: number;
const received: string[] = [];
beforeAll(async () => {
  server = createServer((socket: Socket) => {
    let head = '';
    socket.on('data', async (d) => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      received.push(head);
      const a = answers[head.split(' ')[1]!] ?? {
        pieces: ['HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'],
      };
      for (const piece of a.pieces) {
        socket.write(piece);
        await new Promise((r) => setTimeout(r, 5));
      }
      if (a.close) socket.end();
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => server.close());

const request = (path: string, over: Partial<ExchangeRequest> = {}) => loopbackExchange(port, path, over);
const noAbort = () => {};

describe('exchange: one request and response on a fresh connection', () => {
  it('reads a chunked body with extensions and trailers, across pieces', async () => {
    const r = await exchange(request('/chunked'), noAbort);
    expect(r).toMatchObject({ status: 200, body: 'all systems operational' });
    expect(r.total).toBeGreaterThanOrEqual(r.firstByte);
    expect(r.firstByte).toBeGreaterThan(0);
  });

  it('ends at the response’s length, not when the server closes (it never does here)', async () => {
    expect(await exchange(request('/length-kept-open'), noAbort)).toMatchObject({
      status: 200,
      body: 'hello',
    });
  });

  it('keeps no body unless asked, and only as much as asked', async () => {
    expect(await exchange(request('/chunked', { keepBody: 0 }), noAbort)).toMatchObject({
      status: 200,
      body: '',
    });
    expect((await exchange(request('/chunked', { keepBody: 7 }), noAbort)).body).toBe('all sys');
  });

  it('says when the body went on past what it kept', async () => {
    expect(await exchange(request('/chunked', { keepBody: 7 }), noAbort)).toMatchObject({
      body: 'all sys',
      bodyTruncated: true,
    });
    expect(await exchange(request('/chunked', { keepBody: 23 }), noAbort)).toMatchObject({
      body: 'all systems operational',
      bodyTruncated: false,
    });
    expect((await exchange(request('/chunked', { keepBody: 0 }), noAbort)).bodyTruncated).toBe(false);
  });

  it('keeps the final response’s headers only when asked, names in lower case, repeats joined', async () => {
    expect((await exchange(request('/redirect'), noAbort)).headers).toBeUndefined();
    const r = await exchange(request('/redirect', { keepHeaders: true }), noAbort);
    expect({ ...r.headers }).toEqual({ location: '/elsewhere, /second', 'content-length': '0' });
    const hints = await exchange(request('/early-hints', { keepHeaders: true }), noAbort);
    expect({ ...hints.headers }).toEqual({});
  });

  it('skips an interim 103 for the final response, and reads no body after HEAD or 304', async () => {
    expect(await exchange(request('/early-hints'), noAbort)).toMatchObject({ status: 204, body: '' });
    expect(await exchange(request('/head', { head: true }), noAbort)).toMatchObject({
      status: 200,
      body: '',
    });
    expect(received.at(-1)).toMatch(/^HEAD \/head HTTP\/1.1\r\n/);
    expect(await exchange(request('/not-modified'), noAbort)).toMatchObject({ status: 304 });
  });

  it('reads a body that ends with the connection, and fails one cut short', async () => {
    expect(await exchange(request('/until-close'), noAbort)).toMatchObject({
      status: 200,
      body: 'body to the end',
    });
    await expect(exchange(request('/cut'), noAbort)).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('gives the first Location of a redirect', async () => {
    expect(await exchange(request('/redirect'), noAbort)).toMatchObject({
      status: 301,
      location: '/elsewhere',
    });
  });

  it('ends the exchange when told to, with the reason it is given', async () => {
    const hang = createServer((s) => s.on('error', () => {}));
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
    try {
      let end: ((err: unknown) => void) | null = null;
      const pending = exchange(request('/', { port: (hang.address() as { port: number }).port }), (f) => {
        end = f;
      });
      const reason = new DOMException('time is up', 'TimeoutError');
      setTimeout(() => end?.(reason), 20);
      await expect(pending).rejects.toBe(reason);
    } finally {
      hang.close();
    }
  });
});

describe('exchange against hostile responses', () => {
  it('fails each with a parse error, and none of them hangs the process', async () => {
    // Its own process, with a time limit: a parse that never returned would hang this suite.
    const script = join(import.meta.dirname, '..', '..', '..', 'test', 'support', 'hostile-http.ts');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
      timeout: 30_000,
      killSignal: 'SIGKILL',
    });
    const results = Object.fromEntries(
      stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { name: string; code?: string; status?: number })
        .map((r) => [r.name, r.code ?? `status ${r.status}`]),
    );
    expect(results).toEqual({
      'negative content-length': 'HPE_UNEXPECTED_CONTENT_LENGTH',
      'content-length not a number': 'HPE_UNEXPECTED_CONTENT_LENGTH',
      'two different content-lengths': 'HPE_UNEXPECTED_CONTENT_LENGTH',
      'negative chunk size': 'HPE_INVALID_CHUNK_SIZE',
      'chunk size not hex': 'HPE_INVALID_CHUNK_SIZE',
      'a header line that never ends': 'HPE_HEADER_OVERFLOW',
      'a chunk size line that never ends': 'HPE_HEADER_OVERFLOW',
      'headers over the bound': 'HPE_HEADER_OVERFLOW',
      'trailers over the bound': 'HPE_HEADER_OVERFLOW',
      'endless interim responses': 'HPE_INVALID_STATUS',
      'not http': 'HPE_INVALID_CONSTANT',
    });
  }, 40_000);
});
