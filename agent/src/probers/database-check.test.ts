import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckDeadline } from '../deadline.js';
import type { ProbeSpec } from '../probe-port.js';
import { parseDatabaseUrl, READ_CAP, RESPONSE_TEXT_CAP, redact, valueText } from './database-check.js';
import { createProbers } from './index.js';
import { createMysqlProber } from './mysql-prober.js';
import { createPostgresProber } from './postgres-prober.js';
import { commandWords, createRedisProber } from './redis-prober.js';

/** The parts of the database probers that need no server (the servers are in test/peers/databases.test.ts). */
const none = () => 'none' as const;

it('the agent declares postgres, mysql and redis (pure JavaScript clients: every host can run them)', () => {
  expect(createProbers().types).toEqual(expect.arrayContaining(['postgres', 'mysql', 'redis']));
});

describe('connection URLs', () => {
  it('reads host, port, user, password, database and TLS; decodes escapes; strips IPv6 brackets', () => {
    expect(parseDatabaseUrl('postgres://u%40x:p%2Fw@db.example:6543/app', ['postgres'], 5432, none)).toEqual({
      host: 'db.example',
      port: 6543,
      user: 'u@x',
      password: 'p/w',
      database: 'app',
      tls: 'none',
    });
    expect(parseDatabaseUrl('redis://[::1]', ['redis'], 6379, none)).toMatchObject({
      host: '::1',
      port: 6379,
    });
  });

  it('refuses another scheme, no host, or a bad escape, never quoting the URL', () => {
    for (const url of [
      'http://u:hunter22@x/',
      'postgres://u:hunter22@/db',
      'postgres://u:%zz@x/',
      'hunter22',
    ]) {
      let message = '';
      try {
        parseDatabaseUrl(url, ['postgres'], 5432, none);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message, url).not.toBe('');
      expect(message).not.toContain('hunter22');
    }
  });
});

describe('what a failure says and what assertions read', () => {
  it('masks the password in every spelling, and the whole URL', () => {
    const url = 'postgres://u:p%2Fw0rd@h/d';
    expect(redact(`bad value "p/w0rd" in ${url} (p%2Fw0rd)`, url, 'p/w0rd')).toBe(
      'bad value "***" in [connection URL] (***)',
    );
  });

  it('gives a value as text: null empty, buffers as UTF-8, arrays by their first, cut at the cap', () => {
    expect(valueText(null)).toBe('');
    expect(valueText(Buffer.from('héllo'))).toBe('héllo');
    expect(valueText(['a', 'b'])).toBe('a');
    expect(valueText(42)).toBe('42');
    expect(valueText('x'.repeat(RESPONSE_TEXT_CAP + 10))).toHaveLength(RESPONSE_TEXT_CAP);
  });

  it('reads a redis command line as redis-cli does', () => {
    expect(commandWords('  SET "a key" \'it is\'  "q\\"x" ')).toEqual(['SET', 'a key', 'it is', 'q"x']);
    expect(commandWords('PING')).toEqual(['PING']);
    expect(() => commandWords('GET "open')).toThrow(/unclosed quote/);
  });
});

describe('the SSRF guard on database checks', () => {
  const cases = [
    ['postgres', createPostgresProber({ blockPrivate: true }), 'postgres://u:pw@HOST:5432/db'],
    ['mysql', createMysqlProber({ blockPrivate: true }), 'mysql://u:pw@HOST:3306/db'],
    ['redis', createRedisProber({ blockPrivate: true }), 'redis://:pw@HOST:6379/0'],
  ] as const;
  it.each(cases)(
    '%s refuses loopback in every spelling, literal or by name (only loopback is tried here)',
    async (type, p) => {
      const template = cases.find((c) => c[0] === type)![2];
      for (const host of ['127.0.0.1', 'localhost', '[::1]', '[::ffff:127.0.0.1]', '0x7f.1', '127.1']) {
        const spec = {
          monitor_id: 'm',
          monitor_type: type,
          url: template.replace('HOST', host),
          timeout_ms: 2000,
          settings: { query: 'SELECT 1', assertions: [] },
        } as ProbeSpec<typeof type>;
        const o = await (p.run as (s: typeof spec, d: CheckDeadline) => ReturnType<typeof p.run>)(
          spec,
          new CheckDeadline(),
        );
        expect(o, host).toMatchObject({ ok: false, error: { kind: 'blocked_target' } });
      }
    },
  );
});

describe('a hostile server cannot make the agent hold a giant message', () => {
  const servers: Server[] = [];
  afterAll(() => {
    for (const s of servers) s.close();
  });
  /** Answers (at once, or after the client's first bytes) with `head` and then twice READ_CAP of junk. */
  const hostile = async (head: Buffer, first: 'server' | 'client') => {
    const junk = Buffer.alloc(64 * 1024, 'x');
    const flood = (s: Socket) => {
      s.on('error', () => {});
      s.write(head);
      for (let sent = 0; sent < 2 * READ_CAP && !s.destroyed; sent += junk.length) s.write(junk);
    };
    const server = createServer((s) => (first === 'server' ? flood(s) : s.once('data', () => flood(s))));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    return (server.address() as { port: number }).port;
  };
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };

  it.each([
    [
      'postgres',
      () => createPostgresProber(),
      'postgres://u:pw@127.0.0.1:PORT/db',
      'SELECT 1',
      () => hostile(Buffer.concat([Buffer.from('E'), u32(100_000_000)]), 'client'),
    ],
    [
      'mysql',
      () => createMysqlProber(),
      'mysql://u:pw@127.0.0.1:PORT/db',
      'SELECT 1',
      () => hostile(Buffer.from([0xff, 0xff, 0xff, 0]), 'server'),
    ],
    [
      'redis',
      () => createRedisProber(),
      'redis://:pw@127.0.0.1:PORT/0',
      'PING',
      () => hostile(Buffer.from('$100000000\r\n'), 'client'),
    ],
  ] as const)('%s fails as response_too_large', async (type, make, url, query, serve) => {
    const port = await serve();
    const spec = {
      monitor_id: 'm',
      monitor_type: type,
      url: url.replace('PORT', String(port)),
      timeout_ms: 10_000,
      settings: { query, assertions: [] },
    } as ProbeSpec<typeof type>;
    const p = make() as { run(s: typeof spec, d: CheckDeadline): Promise<{ ok: boolean }> };
    const o = await p.run(spec, new CheckDeadline());
    expect(o).toMatchObject({ ok: false, error: { kind: 'response_too_large' } });
  });
});
