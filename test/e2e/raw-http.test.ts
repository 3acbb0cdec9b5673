import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { exited, MAIN, startProcess } from '../support/processes.js';

/**
 * HTTP/1.1 as raw sockets see it: how many answers a request gets, and whether the server closes the
 * connection. Each test waits for the socket's 'close' event and only then counts what arrived.
 */

const open = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });

/** Everything the server sent, once it has closed the connection. */
const untilClosed = (s: Socket) =>
  new Promise<string>((resolve) => {
    let received = '';
    s.on('data', (d: Buffer) => (received += d.toString('latin1')));
    s.on('error', () => {});
    s.on('close', () => resolve(received));
  });

/** The status codes of the responses in `raw`, in order (a second one may follow the first's body directly). */
const statuses = (raw: string) => [...raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

/** `raw` holds exactly one response, with this status, which says the connection closes. */
const expectOneAnswer = (raw: string, status: number) => {
  expect(statuses(raw), raw).toEqual([status]);
  expect(raw, raw).toMatch(/\r\nConnection: close\r\n/i);
};

/** The body of the only response in `raw`. */
const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));

/**
 * Sends `start` (the head and perhaps some body), then `more` every 20 ms whatever the server says, as
 * a slow client that ignores the answer does, until the server closes the connection; resolves with
 * everything the server sent.
 */
const slowRequest = async (port: number, start: string, more = 'a') => {
  const s = await open(port);
  const all = untilClosed(s);
  s.write(start);
  const drip = setInterval(() => {
    if (s.destroyed) clearInterval(drip);
    else s.write(more);
  }, 20);
  try {
    return await all;
  } finally {
    clearInterval(drip);
  }
};

describe('a request whose body is still arriving gets one answer, then the connection is closed', () => {
  let h: Harness;
  let w: Awaited<ReturnType<Harness['workspace']>>;
  let heartbeat: string;
  beforeAll(async () => {
    h = await startHarness({
      max_body_bytes: 4096,
      http_headers_timeout_ms: 300,
      http_request_timeout_ms: 600,
      http_keep_alive_timeout_ms: 300,
    });
    w = await h.workspace('raw-body');
    heartbeat = (await w.api('POST', '/heartbeats', { json: { display_name: 'raw' } })).body.id;
  });
  afterAll(() => h.close());

  /** A request head for POST /monitors/create with these further headers. */
  const api = (headers: string) =>
    `POST /api/v1/monitors/create HTTP/1.1\r\nHost: ${w.host}\r\nContent-Type: application/json\r\n${headers}\r\n`;

  it('a declared body over the limit, sent slowly: one 413', { timeout: 15_000 }, async () => {
    const got = await slowRequest(h.cp.port, api(`X-API-Key: ${w.adminKey}\r\nContent-Length: 100000\r\n`));
    expectOneAnswer(got, 413);
  });

  it('a chunked body that grows over the limit, sent slowly: one 413', { timeout: 15_000 }, async () => {
    const got = await slowRequest(
      h.cp.port,
      `${api(`X-API-Key: ${w.adminKey}\r\nTransfer-Encoding: chunked\r\n`)}1000\r\n${'a'.repeat(0x1000)}\r\n`,
      '1\r\na\r\n',
    );
    expectOneAnswer(got, 413);
  });

  it('a body within the limit behind a bad key, sent slowly: one 401', { timeout: 15_000 }, async () => {
    const got = await slowRequest(h.cp.port, api('X-API-Key: ak.nope\r\nContent-Length: 1000\r\n'));
    expectOneAnswer(got, 401);
  });

  it('a body within the limit that never ends: one 408', { timeout: 15_000 }, async () => {
    const s = await open(h.cp.port);
    const all = untilClosed(s);
    s.write(`${api(`X-API-Key: ${w.adminKey}\r\nContent-Length: 1000\r\n`)}{"display_name":`);
    const got = await all;
    expectOneAnswer(got, 408);
    // The client's failure is counted as its 408, never as a 500 of ours.
    const metrics = (await h.request('GET', '/metrics')).text;
    const create = metrics
      .split('\n')
      .filter((l) => l.startsWith('lookout_http_requests_total') && l.includes('/api/v1/monitors/create'));
    expect(create.some((l) => l.includes('status="408"'))).toBe(true);
    expect(create.filter((l) => l.includes('status="500"'))).toEqual([]);
  });

  it('a ping over the limit, sent slowly: one 413; the ping is not recorded', {
    timeout: 15_000,
  }, async () => {
    const got = await slowRequest(
      h.cp.port,
      `POST /hb/ping/${heartbeat} HTTP/1.1\r\nHost: ${w.host}\r\nContent-Length: 100000\r\n\r\n`,
    );
    expectOneAnswer(got, 413);
    expect((await w.api('GET', `/heartbeats/${heartbeat}/pings`)).body.data).toEqual([]);
  });

  it('a complete request is still answered on a kept-alive connection', async () => {
    const s = await open(h.cp.port);
    const all = untilClosed(s);
    const body = '{"display_name":""}';
    s.write(`${api(`X-API-Key: ${w.adminKey}\r\nContent-Length: ${body.length}\r\n`)}${body}`);
    const first = await new Promise<string>((resolve) =>
      s.once('data', (d: Buffer) => resolve(d.toString())),
    );
    expect(statuses(first)).toEqual([422]);
    expect(first).toMatch(/\r\nConnection: keep-alive\r\n/i);
    s.end();
    await all;
  });
});

/** Sends a whole request and half-closes the socket (FIN), as curl with a closed stdin does. */
const halfClosed = async (port: number, request: string) => {
  const s = await open(port);
  const all = untilClosed(s);
  s.end(request);
  return all;
};

describe('a client that half-closes its socket after its request still gets the answer', () => {
  let h: Harness;
  let w: Awaited<ReturnType<Harness['workspace']>>;
  beforeAll(async () => {
    h = await startHarness();
    w = await h.workspace('raw-half');
  });
  afterAll(() => h.close());

  it('a GET ping is answered 200 and recorded', async () => {
    const hb = (await w.api('POST', '/heartbeats', { json: { display_name: 'half' } })).body.id;
    const got = await halfClosed(h.cp.port, `GET /hb/ping/${hb} HTTP/1.1\r\nHost: ${w.host}\r\n\r\n`);
    expect(statuses(got), got).toEqual([200]);
    expect(bodyOf(got)).toEqual({ message: 'Ping recorded.', status: 'ok' });
    const pings = await w.api('GET', `/heartbeats/${hb}/pings`);
    expect(pings.body.data.map((p: { kind: string }) => p.kind)).toEqual(['success']);
  });

  it('a POST ping with a body, and an API request, too', async () => {
    const hb = (await w.api('POST', '/heartbeats', { json: { display_name: 'half post' } })).body.id;
    const got = await halfClosed(
      h.cp.port,
      `POST /hb/ping/${hb}/fail HTTP/1.1\r\nHost: ${w.host}\r\nContent-Type: text/plain\r\nContent-Length: 9\r\n\r\ndisk full`,
    );
    expect(statuses(got), got).toEqual([200]);
    const pings = await w.api('GET', `/heartbeats/${hb}/pings`);
    expect(pings.body.data).toMatchObject([{ kind: 'fail', body: 'disk full' }]);
    const list = await halfClosed(
      h.cp.port,
      `GET /api/v1/heartbeats/${hb} HTTP/1.1\r\nHost: ${w.host}\r\nX-API-Key: ${w.adminKey}\r\n\r\n`,
    );
    expect(statuses(list), list).toEqual([200]);
    expect(bodyOf(list)).toMatchObject({ id: hb, state: 'down' });
  });
});

describe('the built server (npm start)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lookout-raw-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('records a half-closed GET ping through its ping writer thread', async () => {
    const env = {
      LOOKOUT_DATA_DIR: dir,
      LOOKOUT_HTTP_PORT: '0',
      LOOKOUT_RPC_PORT: '0',
      LOOKOUT_LOG_LEVEL: 'warn',
    };
    const p = await startProcess(MAIN, env, /API key:\s+(ak\.\S+)/);
    try {
      const key = p.match[1]!;
      const port = Number(p.output().match(/demo\.localhost:(\d+)/)![1]);
      // API calls as any client makes them: the socket stays open both ways until the server closes it.
      const api = async (request: string) => {
        const s = await open(port);
        const all = untilClosed(s);
        s.write(
          request.replace('\r\n', `\r\nHost: demo.localhost\r\nX-API-Key: ${key}\r\nConnection: close\r\n`),
        );
        return bodyOf(await all);
      };
      const body = '{"display_name":"built"}';
      const hb = await api(
        `POST /api/v1/heartbeats HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      const got = await halfClosed(port, `GET /hb/ping/${hb.id} HTTP/1.1\r\nHost: demo.localhost\r\n\r\n`);
      expect(statuses(got), got).toEqual([200]);
      const pings = await api(`GET /api/v1/heartbeats/${hb.id}/pings HTTP/1.1\r\n\r\n`);
      expect(pings.data.map((x: { kind: string }) => x.kind)).toEqual(['success']);
    } finally {
      p.child.kill('SIGTERM');
      await exited(p.child);
    }
  });
});
