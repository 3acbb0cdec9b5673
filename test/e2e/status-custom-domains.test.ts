import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type Zone } from '../support/dns-server.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * Status pages on their own domains (README.md, "Status pages"): `/` on the page's custom_domain, with
 * its machine forms below it, through real HTTP with the Host header; and `/_tls/ask` for Caddy's
 * on-demand TLS. Each domain is proved first by the TXT record its page names, on a real DNS server
 * (the proof itself: status-custom-domain-proof.test.ts).
 */

const zone: Zone = {};
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let h: Harness;
beforeAll(async () => {
  dns = await startDnsServer(zone);
  h = await startHarness({ custom_domain_dns_servers: [dns.address] });
});
afterAll(async () => {
  await h.close();
  await dns.close();
});

/** Publishes the page's TXT record and verifies the domain through the API. */
const prove = async (
  api: Awaited<ReturnType<Harness['workspace']>>['api'],
  page: { id: string; custom_domain_records: { name: string; value: string }[] },
) => {
  const { name, value } = page.custom_domain_records[0]!;
  zone[name] = [{ type: 'TXT', name, data: value }];
  const r = await api('POST', `/status-pages/${page.id}/custom-domain/verify`);
  expect(r.body.custom_domain_status, r.text).toBe('verified');
};

describe('custom domains', () => {
  it('a page answers at / on its custom domain, with its JSON, feeds and badges; workspace hosts keep working', async () => {
    const w = await h.workspace('domains');
    const created = await w.api('POST', '/status-pages', {
      json: {
        name: 'Acme Cloud',
        slug: 'acme',
        custom_domain: 'Status.Acme.test',
        components: [{ name: 'API' }],
      },
    });
    expect(created.status, created.text).toBe(201);
    await prove(w.api, created.body);
    const componentId = created.body.components[0].id as string;
    const on = (path: string, host = 'status.acme.test:8443') => h.request('GET', path, { host });

    const page = await on('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain('<h1>Acme Cloud</h1>');
    // Links stay on the domain: the forms and feeds sit at its root.
    expect(page.text).toContain('href="/feed.atom"');
    expect(page.text).toContain('action="/subscribe"');
    const summary = await on('/api/v2/summary.json');
    expect(summary.status).toBe(200);
    expect(summary.body.page).toMatchObject({ name: 'Acme Cloud', url: 'http://status.acme.test' });
    expect((await on('/api/v2/status.json')).body.status.indicator).toBe('none');
    const atom = await on('/feed.atom');
    expect(XMLValidator.validate(atom.text)).toBe(true);
    expect((await on('/feed.rss')).status).toBe(200);
    expect((await on('/badge.svg')).headers['content-type']).toBe('image/svg+xml');
    expect((await on(`/components/${componentId}/badge.svg`)).status).toBe(200);
    // Again, now from the fast path: same bytes, 304 on its ETag.
    const again = await on('/');
    expect(again.text).toBe(page.text);
    const cached = await h.request('GET', '/', {
      host: 'status.acme.test:8443',
      headers: { 'if-none-match': String(again.headers.etag) },
    });
    expect(cached.status).toBe(304);
    expect((await on('/nothing-here')).status).toBe(404);

    // The workspace host still serves the page and the API; probes answer on any host.
    expect((await h.request('GET', '/status/acme', { host: w.host })).text).toContain('Acme Cloud');
    expect((await w.api('GET', `/status-pages/${created.body.id}`)).status).toBe(200);
    expect((await on('/healthz')).status).toBe(200);
    // Another host is not the page's.
    expect((await on('/', 'status.other.test')).text).not.toContain('Acme Cloud');
    expect((await on('/api/v2/summary.json', 'status.other.test')).status).toBe(404);

    // A new domain moves the page; the old one stops answering once the cache forgets it (5 s).
    const moved = await w.api('PATCH', `/status-pages/${created.body.id}`, {
      json: { custom_domain: 'status2.acme.test' },
    });
    await prove(w.api, moved.body);
    h.clock.advance(6_000);
    expect((await on('/api/v2/status.json', 'status2.acme.test')).status).toBe(200);
    expect((await on('/api/v2/status.json')).status).toBe(404);
  });

  it('/_tls/ask says yes only for a page’s custom domain or a workspace host, and is rate limited', async () => {
    const w = await h.workspace('tlsask');
    const created = await w.api('POST', '/status-pages', {
      json: { name: 'Ask', slug: 'ask', custom_domain: 'status.ask.test', components: [] },
    });
    const ask = (domain?: string) =>
      h.request('GET', `/_tls/ask${domain === undefined ? '' : `?domain=${encodeURIComponent(domain)}`}`, {
        host: 'localhost',
      });
    // Not before the domain is proved (a miss is cached 5 s).
    expect((await ask('status.ask.test')).status).toBe(404);
    await prove(w.api, created.body);
    h.clock.advance(6_000);
    expect((await ask('status.ask.test')).status).toBe(200);
    expect((await ask('STATUS.ask.test.')).status).toBe(200);
    expect((await ask('tlsask.localhost')).status).toBe(200);
    expect((await ask('nobody.localhost')).status).toBe(404);
    expect((await ask('evil.example.test')).status).toBe(404);
    expect((await ask('localhost')).status).toBe(404);
    const missing = await ask();
    expect(missing.status).toBe(422);
    expect(missing.body.error.details).toMatchObject([{ field: 'domain' }]);
    // The clock stands still, so no token comes back: 60 questions in all, then 429.
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await ask('status.ask.test')).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const limited = await ask('status.ask.test');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});
