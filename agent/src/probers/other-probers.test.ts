import { createServer as createHttp, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTcp } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer } from '../../../test/support/dns-server.js';
import { CheckDeadline } from '../deadline.js';
import { createDnsProber } from './dns-prober.js';
import { createDomainProber, rdapBaseFor } from './domain-prober.js';
import { createRdapBootstrap } from './rdap-refresh.js';
import { type FlatSpec, probeSpec } from './spec-fixture.js';
import { createTcpProber } from './tcp-prober.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const spec = (over: FlatSpec) => probeSpec({ monitor_type: 'tcp', ...over });
const deadline = () => new CheckDeadline();

let dns: Awaited<ReturnType<typeof startDnsServer>>;
let rdap: Server;
let rdapPort: number;
let tcpPort: number;
const tcp = createTcp((s) => s.end());

beforeAll(async () => {
  dns = await startDnsServer({
    'example.test': [
      { type: 'A', name: 'example.test', ttl: 60, data: '192.0.2.10' },
      { type: 'A', name: 'example.test', ttl: 60, data: '192.0.2.11' },
      { type: 'AAAA', name: 'example.test', ttl: 60, data: '2001:db8::1' },
      { type: 'MX', name: 'example.test', ttl: 60, data: { preference: 10, exchange: 'mail.example.test' } },
      { type: 'TXT', name: 'example.test', ttl: 60, data: ['v=spf1 ', '-all'] },
      { type: 'NS', name: 'example.test', ttl: 60, data: 'ns1.example.test' },
    ],
    'www.example.test': [{ type: 'CNAME', name: 'www.example.test', ttl: 60, data: 'example.test' }],
  });
  rdap = createHttp((req, res) => {
    if (req.url === '/domain/example.com') {
      res.setHeader('content-type', 'application/rdap+json');
      return res.end(
        JSON.stringify({
          ldhName: 'EXAMPLE.COM',
          events: [
            { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
            { eventAction: 'expiration', eventDate: '2026-06-21T04:00:00Z' },
          ],
        }),
      );
    }
    if (req.url === '/domain/noexpiry.com') return res.end(JSON.stringify({ events: [] }));
    if (req.url === '/domain/example.test') {
      return res.end(
        JSON.stringify({ events: [{ eventAction: 'expiration', eventDate: '2027-06-01T00:00:00Z' }] }),
      );
    }
    if (req.url === '/bootstrap/dns.json') {
      const base = `http://127.0.0.1:${rdapPort}/`;
      return res.end(JSON.stringify({ version: '1.0', services: [[['test'], [base]]] }));
    }
    res.writeHead(404).end('{}');
  });
  await new Promise<void>((r) => rdap.listen(0, '127.0.0.1', () => r()));
  rdapPort = (rdap.address() as AddressInfo).port;
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', () => r()));
  tcpPort = (tcp.address() as AddressInfo).port;
});
afterAll(async () => {
  await dns.close();
  rdap.close();
  tcp.close();
});

describe('tcp prober', () => {
  it('connects to a listening port; a closed one is refused', async () => {
    const p = createTcpProber();
    expect(await p.run(spec({ port: tcpPort }), deadline())).toMatchObject({ ok: true, error: null });
    const closed = createTcp();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(await p.run(spec({ port }), deadline())).toMatchObject({
      ok: false,
      error: { kind: 'connection_refused' },
    });
  });
});

describe('the SSRF guard on tcp and dns checks', () => {
  it('refuses a private target or resolver', async () => {
    const tcp = createTcpProber({ blockPrivate: true });
    expect(await tcp.run(spec({ port: tcpPort }), deadline())).toMatchObject({
      ok: false,
      error: { kind: 'blocked_target' },
    });
    expect(await tcp.run(spec({ url: 'localhost', port: tcpPort }), deadline())).toMatchObject({
      ok: false,
      error: { kind: 'blocked_target' },
    });
    const dnsGuarded = createDnsProber({ blockPrivate: true });
    const r = await dnsGuarded.run(
      spec({ monitor_type: 'dns', url: 'example.test', dns_resolver: `${dns.address}` }),
      deadline(),
    );
    expect(r).toMatchObject({ ok: false, error: { kind: 'blocked_target' } });
  });
});

describe('dns prober against a real DNS server on loopback', () => {
  const p = createDnsProber();
  const q = (over: FlatSpec) =>
    p.run(spec({ monitor_type: 'dns', url: 'example.test', dns_resolver: dns.address, ...over }), deadline());

  it('resolves A, AAAA, CNAME, MX, TXT and NS records', async () => {
    expect((await q({ dns_record_type: 'A' })).dns?.records.sort()).toEqual(['192.0.2.10', '192.0.2.11']);
    expect((await q({ dns_record_type: 'AAAA' })).dns?.records).toEqual(['2001:db8::1']);
    expect((await q({ url: 'www.example.test', dns_record_type: 'CNAME' })).dns?.records).toEqual([
      'example.test',
    ]);
    expect((await q({ dns_record_type: 'MX' })).dns?.records).toEqual(['10 mail.example.test']);
    expect((await q({ dns_record_type: 'TXT' })).dns?.records).toEqual(['v=spf1 -all']);
    expect((await q({ dns_record_type: 'NS' })).dns?.records).toEqual(['ns1.example.test']);
  });

  it('checks expected values (case and trailing dot ignored)', async () => {
    expect(await q({ dns_record_type: 'A', dns_expected_values: ['192.0.2.10'] })).toMatchObject({
      ok: true,
    });
    expect(await q({ dns_record_type: 'NS', dns_expected_values: ['NS1.Example.Test.'] })).toMatchObject({
      ok: true,
    });
    expect(await q({ dns_record_type: 'A', dns_expected_values: ['192.0.2.99'] })).toMatchObject({
      ok: false,
      error: { kind: 'dns_mismatch' },
    });
  });

  it('an unknown name is a dns failure', async () => {
    expect(await q({ url: 'nope.example.test', dns_record_type: 'A' })).toMatchObject({
      ok: false,
      error: { kind: 'dns_failure' },
    });
  });
});

describe('domain prober against an RDAP server on loopback', () => {
  it('reads the expiration event and counts the days left', async () => {
    const p = createDomainProber({ now: () => NOW, rdapBaseUrl: `http://127.0.0.1:${rdapPort}/` });
    expect(await p.run(spec({ monitor_type: 'domain', url: 'example.com' }), deadline())).toMatchObject({
      ok: true,
      domain: { expires_at: '2026-06-21T04:00:00.000Z', days_remaining: 20 },
    });
    expect(await p.run(spec({ monitor_type: 'domain', url: 'unknown.com' }), deadline())).toMatchObject({
      ok: false,
      error: { kind: 'rdap_failure' },
    });
    expect(await p.run(spec({ monitor_type: 'domain', url: 'noexpiry.com' }), deadline())).toMatchObject({
      ok: false,
      error: { kind: 'rdap_failure' },
    });
  });

  it('loads bootstrap data when a domain check needs it: a TLD the shipped subset lacks becomes checkable; a failed load keeps the data', async () => {
    const errors: unknown[] = [];
    const source = (path: string) =>
      createRdapBootstrap({
        url: `http://127.0.0.1:${rdapPort}${path}`,
        maxAgeMs: 86_400_000,
        cacheFile: null,
        now: () => NOW.getTime(),
        onError: (e) => errors.push(e),
      });
    const boot = source('/bootstrap/dns.json');
    expect(rdapBaseFor('example.test', boot.current())).toBeNull();
    const p = createDomainProber({ now: () => NOW, bootstrap: boot });
    expect(await p.run(spec({ monitor_type: 'domain', url: 'example.test' }), deadline())).toMatchObject({
      ok: true,
      domain: { expires_at: '2027-06-01T00:00:00.000Z' },
    });
    expect(await boot.ensure()).toBe('fresh');

    const broken = source('/missing.json');
    expect(await broken.ensure()).toBe('failed');
    expect(errors).toHaveLength(1);
    expect(rdapBaseFor('example.com', broken.current())).toBe('https://rdap.verisign.com/com/v1/');
    const off = createRdapBootstrap({ url: null, maxAgeMs: 1, cacheFile: null, now: () => 0 });
    expect(await off.ensure()).toBe('off');
  });

  it('finds the RDAP base from the bootstrap data', () => {
    expect(rdapBaseFor('example.com')).toBe('https://rdap.verisign.com/com/v1/');
    expect(rdapBaseFor('Sub.Example.ORG.')).toBe('https://rdap.publicinterestregistry.org/rdap/');
    expect(rdapBaseFor('example.zzz')).toBeNull();
    expect(
      rdapBaseFor('a.co.uk', {
        services: [
          [['uk'], ['https://u/']],
          [['co.uk'], ['https://cu/']],
        ],
      }),
    ).toBe('https://cu/');
  });
});
