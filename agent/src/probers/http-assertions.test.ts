import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Assertion, AssertionComparison, AssertionSource } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeWithDeadline } from '../deadline.js';
import { realTimers } from '../scheduler.js';
import { createHttpProber } from './http-prober.js';
import { probeSpec } from './spec-fixture.js';

/** http checks with assertions against a real server on loopback (the agent's own prober and deadline). */

const a = (
  source: AssertionSource,
  comparison: AssertionComparison,
  target = '',
  property = '',
): Assertion => ({
  source,
  property,
  comparison,
  target,
});

const big = JSON.stringify({ status: 'ok', pad: 'x'.repeat(300 * 1024) });
const huge = `{"status":"ok","pad":"${'y'.repeat(2 << 20)}"}`;

const handler = (req: IncomingMessage, res: ServerResponse) => {
  const json = (status: number, text: string, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
  switch (req.url) {
    case '/status':
      return json(200, JSON.stringify({ status: 'degraded', data: [{ status: 'ok' }, { status: 'down' }] }), {
        'x-version': '2.1.0',
      });
    case '/healthy':
      return json(200, JSON.stringify({ status: 'ok', data: [] }));
    case '/html':
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
    case '/big':
      return json(200, big);
    case '/huge':
      return json(200, huge);
    case '/nested':
      return json(200, `${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    case '/503':
      return json(503, '{"status":"down"}');
    default:
      return res.writeHead(404).end();
  }
};

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const prober = createHttpProber();
const run = (path: string, assertions: Assertion[], over: object = {}) =>
  probeWithDeadline(prober, probeSpec({ url: `${base}${path}`, assertions, ...over }), realTimers);

describe('http checks with assertions', () => {
  it('fails naming the assertion and the value it saw', async () => {
    const r = await run('/status', [a('json_body', 'equals', 'ok', '$.status')]);
    expect(r).toMatchObject({
      ok: false,
      status_code: 200,
      error: { kind: 'assertion_failed', message: '$.status was "degraded", expected equals "ok"' },
    });
  });

  it('passes when every assertion holds: JSON, headers, text, status and time', async () => {
    const r = await run('/status', [
      a('status_code', 'equals', '200'),
      a('json_body', 'equals', 'ok', '$.data[0].status'),
      a('json_body', 'contains', 'down', '$.data[*].status'),
      a('headers', 'matches', '^2\\.', 'X-Version'),
      a('headers', 'contains', 'json', 'content-type'),
      a('text_body', 'not_contains', 'maintenance'),
      a('response_time', 'less_than', '5000'),
    ]);
    expect(r.error).toBeNull();
    expect(r.ok).toBe(true);
  });

  it('reads a header the response does not have as absent', async () => {
    const r = await run('/healthy', [a('headers', 'not_empty', '', 'x-version')]);
    expect(r.error).toEqual({
      kind: 'assertion_failed',
      message: 'header x-version was absent, expected not_empty',
    });
  });

  it('fails a body that is not JSON, or larger than the cap, and never crashes', async () => {
    expect((await run('/html', [a('json_body', 'not_empty', '', '$.status')])).error).toEqual({
      kind: 'assertion_failed',
      message: '$.status: the body is not JSON',
    });
    expect((await run('/big', [a('json_body', 'equals', 'ok', '$.status')])).error?.message).toBe(
      '$.status: the body is larger than 256 KiB, the cap for json_body',
    );
    // 2 MiB: read past the 1 MiB the prober keeps, then refused without parsing.
    expect((await run('/huge', [a('json_body', 'equals', 'ok', '$.status')])).error?.message).toBe(
      '$.status: the body is larger than 256 KiB, the cap for json_body',
    );
    // text_body reads the first 1 MiB of it.
    expect((await run('/huge', [a('text_body', 'contains', '"status":"ok"')])).ok).toBe(true);
    expect((await run('/nested', [a('json_body', 'is_empty', '', '$..*')])).error?.kind).toBe(
      'assertion_failed',
    );
  });

  it('keeps the status and keyword checks as they were, before the assertions', async () => {
    const r = await run('/503', [a('json_body', 'equals', 'ok', '$.status')]);
    expect(r.error).toEqual({ kind: 'status_mismatch', message: 'expected 200, got 503' });
    const k = await run('/html', [a('text_body', 'contains', 'html')], { required_keyword: 'operational' });
    expect(k.error?.kind).toBe('keyword_missing');
    expect(
      (await run('/503', [a('json_body', 'equals', 'down', '$.status')], { expected_status_code: 503 })).ok,
    ).toBe(true);
  });
});
