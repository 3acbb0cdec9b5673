import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rdapBaseFor } from './domain-prober.js';
import { createRdapBootstrap, RDAP_CACHE_FILE, RDAP_RETRY_AFTER_FAILURE_MS } from './rdap-refresh.js';

/** The bootstrap cache on its own: a local server stands in for IANA, files live in a temp dir. */
let server: Server;
let base = '';
let fetches = 0;
let failing = false;
beforeAll(async () => {
  server = createServer((req, res) => {
    fetches++;
    if (failing || req.url !== '/dns.json') return res.writeHead(503).end('{}');
    // Answered a little later, so that concurrent checks meet one fetch in flight.
    setTimeout(
      () => res.end(JSON.stringify({ version: '1.0', services: [[['test'], ['https://rdap.test/']]] })),
      20,
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const setup = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lookout-rdap-'));
  let now = Date.parse('2026-06-01T00:00:00Z');
  const errors: unknown[] = [];
  const source = (url = `${base}/dns.json`) =>
    createRdapBootstrap({
      url,
      maxAgeMs: 3_600_000,
      cacheFile: join(dir, RDAP_CACHE_FILE),
      now: () => now,
      onError: (e) => errors.push(e),
    });
  return {
    dir,
    errors,
    source,
    advance: (ms: number) => {
      now += ms;
    },
    done: () => rmSync(dir, { recursive: true, force: true }),
  };
};

describe('RDAP bootstrap cache', () => {
  it('concurrent checks share one fetch; the file is written whole, with no temporary file left', async () => {
    const t = setup();
    fetches = 0;
    const s = t.source();
    expect(await Promise.all([s.ensure(), s.ensure(), s.ensure()])).toEqual([
      'fetched',
      'fetched',
      'fetched',
    ]);
    expect(fetches).toBe(1);
    expect(readdirSync(t.dir)).toEqual([RDAP_CACHE_FILE]);
    expect(JSON.parse(readFileSync(join(t.dir, RDAP_CACHE_FILE), 'utf8'))).toEqual({
      source: `${base}/dns.json`,
      fetched_at: '2026-06-01T00:00:00.000Z',
      bootstrap: { version: '1.0', services: [[['test'], ['https://rdap.test/']]] },
    });
    t.done();
  });

  it('a damaged file or one from another address is not used: the data is fetched', async () => {
    const t = setup();
    writeFileSync(join(t.dir, RDAP_CACHE_FILE), '{"source": "x", "fetched_');
    fetches = 0;
    expect(await t.source().ensure()).toBe('fetched');
    expect(t.errors).toHaveLength(1);
    expect(await t.source(`${base}/dns.json`).ensure()).toBe('cached');
    expect(fetches).toBe(1);
    // The same file, configured for another address: fetched from there (which fails here).
    const other = t.source(`${base}/other.json`);
    expect(await other.ensure()).toBe('failed');
    expect(rdapBaseFor('a.test', other.current())).toBeNull();
    t.done();
  });

  it('a failed fetch keeps the data there is and is not retried before RDAP_RETRY_AFTER_FAILURE_MS', async () => {
    const t = setup();
    const s = t.source();
    expect(await s.ensure()).toBe('fetched');
    t.advance(3_600_000);
    failing = true;
    fetches = 0;
    try {
      expect(await s.ensure()).toBe('failed');
      expect(rdapBaseFor('a.test', s.current())).toBe('https://rdap.test/');
      t.advance(RDAP_RETRY_AFTER_FAILURE_MS - 1);
      expect(await s.ensure()).toBe('failed');
      expect(fetches).toBe(1);
      t.advance(1);
      failing = false;
      expect(await s.ensure()).toBe('fetched');
      expect(fetches).toBe(2);
    } finally {
      failing = false;
      t.done();
    }
  });
});
