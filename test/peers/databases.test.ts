import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckDeadline } from '../../agent/src/deadline.js';
import type { ProbeOutcome, Prober, ProbeSpec } from '../../agent/src/probe-port.js';
import type { AssertResponse } from '../../agent/src/probers/database-check.js';
import { createMysqlProber } from '../../agent/src/probers/mysql-prober.js';
import { createPostgresProber } from '../../agent/src/probers/postgres-prober.js';
import { createRedisProber } from '../../agent/src/probers/redis-prober.js';
import { makeCa } from '../support/certs.js';
import { freePort } from '../support/processes.js';
import { waitFor } from '../support/wait.js';
import {
  type DatabaseServer,
  type Pem,
  startMariadb,
  startPostgres,
  startRedis,
} from './support/databases.js';

/**
 * The postgres, mysql and redis probers against Debian's postgresql, mariadb-server and redis-server,
 * each started here on a free loopback port with a password: the default query passes, the first
 * value is what assertions read, a wrong password / a bad query / a closed port / a silent server /
 * a slow query fail naming the cause without the password, and no run leaves a connection open.
 */
type DbType = 'postgres' | 'mysql' | 'redis';

interface Case {
  type: DbType;
  start: (opts: { tls: Pem }) => Promise<DatabaseServer>;
  prober: (assert: AssertResponse, ca?: string) => Prober<DbType>;
  defaultQuery: string;
  defaultText: string;
  /** Many rows: the first value is read and the rest never is. */
  manyRows: { query: string; first: string };
  badQuery: string;
  /** Writes, and a try at undoing read-only first: both refused. */
  writes: string[];
  /** A query whose server error quotes the password given to it. */
  echoes: (password: string) => string;
  /** Takes `seconds` to answer. */
  slow: (seconds: number) => string;
  /** The count of the prober's other connections open on the server, read through the prober. */
  others: { query: string; count: (text: string) => number };
}

const cases: Case[] = [
  {
    type: 'postgres',
    start: startPostgres,
    prober: (assert, ca) => createPostgresProber({ assert, ...(ca ? { ca } : {}) }) as Prober<DbType>,
    defaultQuery: 'SELECT 1',
    defaultText: '1',
    manyRows: { query: 'SELECT generate_series(7, 5000000)', first: '7' },
    badQuery: 'SELEC 1',
    writes: ['CREATE TABLE t (x int)', 'SET default_transaction_read_only = off; CREATE TABLE t (x int)'],
    echoes: (pw) => `SELECT '${pw}'::int`,
    slow: (s) => `SELECT pg_sleep(${s})`,
    others: {
      query:
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'lookout' AND pid <> pg_backend_pid()",
      count: Number,
    },
  },
  {
    type: 'mysql',
    start: startMariadb,
    prober: (assert, ca) => createMysqlProber({ assert, ...(ca ? { ca } : {}) }) as Prober<DbType>,
    defaultQuery: 'SELECT 1',
    defaultText: '1',
    manyRows: { query: 'SELECT seq FROM seq_7_to_5000000', first: '7' },
    badQuery: 'SELEC 1',
    writes: ['CREATE TABLE t (x int)', 'SET SESSION TRANSACTION READ WRITE; CREATE TABLE t (x int)'],
    echoes: (pw) => `SELECT * FROM \`${pw}\``,
    slow: (s) => `SELECT SLEEP(${s})`,
    others: {
      query:
        "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = 'lookout' AND ID <> CONNECTION_ID()",
      count: Number,
    },
  },
  {
    type: 'redis',
    start: startRedis,
    prober: (assert, ca) => createRedisProber({ assert, ...(ca ? { ca } : {}) }) as Prober<DbType>,
    defaultQuery: 'PING',
    defaultText: 'PONG',
    manyRows: { query: 'ROLE', first: 'master' },
    badQuery: 'GET',
    writes: ['SET k v', 'CONFIG SET requirepass ""', 'FLUSHALL'],
    echoes: (pw) => `"${pw}" x`,
    slow: (s) => `XREAD BLOCK ${s * 1000} STREAMS nothing-here $`,
    others: {
      query: 'INFO clients',
      count: (text) => Number(/connected_clients:(\d+)/.exec(text)?.[1]) - 1,
    },
  },
];

/** A deadline that ends after `ms` (as the agent's would at the check's timeout). */
const deadlineIn = (ms: number) => {
  const d = new CheckDeadline();
  const t = setTimeout(() => d.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError')), ms);
  t.unref();
  return d;
};

const spec = (type: DbType, url: string, query: string, timeout_ms = 10_000): ProbeSpec<DbType> => ({
  monitor_id: 'm',
  monitor_type: type,
  url,
  timeout_ms,
  settings: { query, assertions: [] },
});

/** A server that accepts and never says a word. */
let silent: Server;
let silentPort: number;
const held: Socket[] = [];

beforeAll(async () => {
  silent = createServer((s) => held.push(s));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
  silentPort = (silent.address() as { port: number }).port;
});
afterAll(() => {
  for (const s of held) s.destroy();
  silent.close();
});

/** The servers' certificate, for localhost, signed by a CA made here (trusted only when given). */
const ca = makeCa();
const serverPem = ca.leaf(['localhost', '127.0.0.1']);

describe.each(cases)('$type prober against the real server', (c) => {
  let server: DatabaseServer;
  let last = '';
  const prober = c.prober((outcome, response) => {
    last = response.text;
    return outcome;
  });
  const run = async (
    query: string,
    url = server.url,
    ms = 10_000,
  ): Promise<ProbeOutcome & { text: string }> => {
    last = '';
    const o = await prober.run(spec(c.type, url, query, ms), deadlineIn(ms));
    return { ...o, text: last };
  };
  const withPort = (port: number) => server.url.replace(`:${server.port}/`, `:${port}/`);

  beforeAll(async () => {
    server = await c.start({ tls: serverPem });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('connects, runs the default query and reads its first value', async () => {
    const o = await run(c.defaultQuery);
    expect(o).toMatchObject({ ok: true, error: null, text: c.defaultText });
    expect(o.response_time_ms).toBeGreaterThan(0);
  });

  it('reads the first value of many rows without reading them all', async () => {
    expect(await run(c.manyRows.query)).toMatchObject({ ok: true, text: c.manyRows.first });
  });

  it('a wrong password fails as auth_failed, never quoting it', async () => {
    const wrong = server.url.replace(encodeURIComponent(server.password), 'Wr0ng-pa55word');
    const o = await run(c.defaultQuery, wrong);
    expect(o).toMatchObject({ ok: false, error: { kind: 'auth_failed' } });
    expect(o.error!.message).not.toContain('Wr0ng-pa55word');
  });

  it("a bad query fails as query_failed with the server's words; the password is masked in them", async () => {
    const bad = await run(c.badQuery);
    expect(bad).toMatchObject({ ok: false, error: { kind: 'query_failed' } });
    expect(bad.error!.message.length).toBeGreaterThan(5);
    const echoed = await run(c.echoes(server.password));
    expect(echoed.ok).toBe(false);
    expect(echoed.error!.message).not.toContain(server.password);
  });

  it('runs read-only: a write, or a try at turning read-only off first, fails as query_failed', async () => {
    for (const q of c.writes) {
      const o = await run(q);
      expect(o, q).toMatchObject({ ok: false, error: { kind: 'query_failed' } });
    }
    expect(await run(c.defaultQuery)).toMatchObject({ ok: true });
  });

  it('a closed port is refused; a silent server and a slow query time out at the deadline', async () => {
    const closed = await freePort();
    expect(await run(c.defaultQuery, withPort(closed))).toMatchObject({
      ok: false,
      error: { kind: 'connection_refused' },
    });
    expect(await run(c.defaultQuery, withPort(silentPort), 300)).toMatchObject({
      ok: false,
      error: { kind: 'timeout', message: 'timed out' },
    });
    expect(await run(c.slow(2), server.url, 300)).toMatchObject({ ok: false, error: { kind: 'timeout' } });
  });

  it('leaves no connection open on the server, whatever the run ended with', async () => {
    for (let i = 0; i < 5; i++) {
      await run(c.defaultQuery);
      await run(c.badQuery);
      await run(c.manyRows.query);
    }
    await run(c.slow(1), server.url, 100);
    const open = await waitFor(
      async () => {
        const o = await run(c.others.query);
        expect(o.ok, JSON.stringify(o.error)).toBe(true);
        return c.others.count(o.text);
      },
      (n) => n === 0,
      { timeoutMs: 15_000, everyMs: 200, what: `no other ${c.type} connection open` },
    );
    expect(open).toBe(0);
  });

  it('TLS: verified against a trusted CA; the same server fails as tls_invalid when its CA is not trusted', async () => {
    const trusting = c.prober((o) => o, ca.pem.cert);
    expect(
      await trusting.run(spec(c.type, server.tlsUrl!, c.defaultQuery), deadlineIn(10_000)),
    ).toMatchObject({
      ok: true,
    });
    const untrusted = await run(c.defaultQuery, server.tlsUrl!);
    expect(untrusted, JSON.stringify(untrusted.error)).toMatchObject({
      ok: false,
      error: { kind: 'tls_invalid' },
    });
  });

  it('a URL of another kind, or none, fails as invalid_target without quoting it', async () => {
    const o = await run(c.defaultQuery, `http://user:${server.password}@example.test/`);
    expect(o).toMatchObject({ ok: false, error: { kind: 'invalid_target' } });
    expect(o.error!.message).not.toContain(server.password);
    expect(await run(c.defaultQuery, 'not a url')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_target' },
    });
  });
});
