import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type Zone } from '../support/dns-server.js';
import { type Harness, startHarness } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * A custom domain is served, and confirmed to Caddy's `/_tls/ask`, only after its owner proved it in
 * DNS (docs/decisions.md "Custom domains"): a TXT record with the page's token or a CNAME to the
 * workspace host, asked of a real DNS server on loopback; re-checked hourly, dropped after three
 * failed checks in a row.
 */

const zone: Zone = {};
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let h: Harness;
beforeAll(async () => {
  dns = await startDnsServer(zone);
  h = await startHarness({ custom_domain_dns_servers: [dns.address], custom_domain_check_ms: 50 });
});
afterAll(async () => {
  await h.close();
  await dns.close();
});

const HOUR = 3_600_000;
const txt = (name: string, value: string) => {
  zone[name] = [{ type: 'TXT', name, data: value }];
};
const cname = (name: string, target: string) => {
  zone[name] = [{ type: 'CNAME', name, data: target }];
};
const served = async (domain: string) => {
  const page = await h.request('GET', '/api/v2/status.json', { host: domain });
  const ask = await h.request('GET', `/_tls/ask?domain=${domain}`, { host: 'localhost' });
  return { page: page.status, ask: ask.status };
};

describe('custom domain proof', () => {
  it('another workspace’s domain is neither served nor given a certificate until its DNS proves it', async () => {
    const attacker = await h.workspace('other');
    const created = await attacker.api('POST', '/status-pages', {
      json: { name: 'Victim Corp status', slug: 'victim', custom_domain: 'status.victim-corp.test' },
    });
    expect(created.status, created.text).toBe(201);
    const p = created.body;
    expect(p.custom_domain_status).toBe('pending');
    expect(p.custom_domain_checked_at).toBeNull();
    const token = /^lookout-verification=([0-9a-f]{32})$/.exec(p.custom_domain_records[0].value)?.[1];
    expect(p.custom_domain_records).toEqual([
      {
        type: 'TXT',
        name: '_lookout-challenge.status.victim-corp.test',
        value: `lookout-verification=${token}`,
      },
      { type: 'CNAME', name: 'status.victim-corp.test', value: 'other.localhost' },
    ]);
    h.clock.advance(6_000); // past the view cache, so nothing below is an old answer
    expect(await served('status.victim-corp.test')).toEqual({ page: 404, ask: 404 });

    // The victim's DNS has its own records: its CNAME to its own workspace, a TXT with another token.
    cname('status.victim-corp.test', 'victim.localhost');
    txt(
      '_lookout-challenge.status.victim-corp.test',
      'lookout-verification=0123456789abcdef0123456789abcdef',
    );
    h.clock.advance(11_000); // past the spacing of checks (the job may have checked it already)
    const verify = await attacker.api('POST', `/status-pages/${p.id}/custom-domain/verify`);
    expect(verify.status, verify.text).toBe(200);
    expect(verify.body).toMatchObject({
      custom_domain_status: 'failed',
      custom_domain_checked_at: h.clock.now().toISOString(),
    });
    const failures = verify.body.custom_domain_failures as number;
    expect(verify.body.custom_domain_error).toContain('_lookout-challenge.status.victim-corp.test');
    expect(await served('status.victim-corp.test')).toEqual({ page: 404, ask: 404 });
    // The job's re-check finds nothing either.
    h.clock.advance(HOUR + 1);
    const rechecked = await waitFor(
      () => attacker.api('GET', `/status-pages/${p.id}`),
      (r) => r.body.custom_domain_failures === failures + 1,
      { what: 'the hourly re-check' },
    );
    expect(rechecked.body.custom_domain_status).toBe('failed');
    expect(await served('status.victim-corp.test')).toEqual({ page: 404, ask: 404 });
  });

  it('an unproved claim blocks nobody: the owner claims the same domain, proves it, and then it is taken', async () => {
    const squatter = await h.workspace('squatter');
    const claim = await squatter.api('POST', '/status-pages', {
      json: { name: 'Mine', slug: 'mine', custom_domain: 'status.owner-corp.test' },
    });
    expect(claim.status).toBe(201);
    const owner = await h.workspace('owner');
    const created = await owner.api('POST', '/status-pages', {
      json: { name: 'Owner status', slug: 'owner', custom_domain: 'status.owner-corp.test' },
    });
    expect(created.status, created.text).toBe(201);
    cname('status.owner-corp.test', 'owner.localhost');
    h.clock.advance(11_000);
    const proved = await owner.api('POST', `/status-pages/${created.body.id}/custom-domain/verify`);
    expect(proved.body.custom_domain_status).toBe('verified');
    const page = await h.request('GET', '/api/v2/summary.json', { host: 'status.owner-corp.test' });
    expect(page.body.page.name).toBe('Owner status');
    // The squatter's check finds nothing of its own, and a new claim of a proved domain is a 409.
    const plain = await squatter.api('POST', '/status-pages', { json: { name: 'Plain', slug: 'plain' } });
    h.clock.advance(11_000);
    const squat = await squatter.api('POST', `/status-pages/${claim.body.id}/custom-domain/verify`);
    expect(squat.body.custom_domain_status).toBe('failed');
    for (const r of [
      await squatter.api('POST', '/status-pages', {
        json: { name: 'Again', slug: 'again', custom_domain: 'STATUS.owner-corp.test' },
      }),
      await squatter.api('PATCH', `/status-pages/${plain.body.id}`, {
        json: { custom_domain: 'status.owner-corp.test' },
      }),
    ]) {
      expect(r.status).toBe(409);
      expect(r.body.error.details).toEqual([
        { field: 'custom_domain', message: 'is already used by another status page' },
      ]);
    }
  });

  it('a TXT record with the page’s token verifies it; removed, the page stays served through two failed re-checks and is dropped at the third', async () => {
    const w = await h.workspace('txtproof');
    const p = (
      await w.api('POST', '/status-pages', {
        json: { name: 'Acme', slug: 'acme', custom_domain: 'Status.TXT-acme.test' },
      })
    ).body;
    const record = p.custom_domain_records[0];
    expect(record.name).toBe('_lookout-challenge.status.txt-acme.test');
    txt(record.name, record.value);
    h.clock.advance(11_000); // past the spacing of checks (the job may have checked it already)
    const verify = await w.api('POST', `/status-pages/${p.id}/custom-domain/verify`);
    expect(verify.body).toMatchObject({
      custom_domain_status: 'verified',
      custom_domain_failures: 0,
      custom_domain_error: null,
    });
    expect(await served('status.txt-acme.test')).toEqual({ page: 200, ask: 200 });
    // Asking DNS again at once is refused (it costs a lookup each time).
    const again = await w.api('POST', `/status-pages/${p.id}/custom-domain/verify`);
    expect(again.status).toBe(429);
    expect(again.headers['retry-after']).toBeDefined();

    // The record goes: each hourly re-check fails; the grace keeps the page for two of them.
    delete zone[record.name];
    for (const failures of [1, 2]) {
      h.clock.advance(HOUR + 1);
      const r = await waitFor(
        () => w.api('GET', `/status-pages/${p.id}`),
        (x) => x.body.custom_domain_failures === failures,
        { what: `failed re-check ${failures}` },
      );
      expect(r.body.custom_domain_status).toBe('verified');
      expect(await served('status.txt-acme.test')).toEqual({ page: 200, ask: 200 });
    }
    h.clock.advance(HOUR + 1);
    const dropped = await waitFor(
      () => w.api('GET', `/status-pages/${p.id}`),
      (x) => x.body.custom_domain_failures === 3,
      { what: 'the third failed re-check' },
    );
    expect(dropped.body.custom_domain_status).toBe('failed');
    h.clock.advance(6_000);
    expect(await served('status.txt-acme.test')).toEqual({ page: 404, ask: 404 });

    // Back in DNS: the next re-check serves it again.
    txt(record.name, record.value);
    h.clock.advance(HOUR + 1);
    await waitFor(
      () => w.api('GET', `/status-pages/${p.id}`),
      (x) => x.body.custom_domain_status === 'verified',
      { what: 'the re-check that finds the record again' },
    );
    h.clock.advance(6_000);
    expect(await served('status.txt-acme.test')).toEqual({ page: 200, ask: 200 });
  });

  it('a CNAME to the workspace host verifies it (on the job’s first pass); a new domain starts over with a new token', async () => {
    const w = await h.workspace('cnameproof');
    cname('status.cname-acme.test', 'CNAMEproof.localhost.');
    const p = (
      await w.api('POST', '/status-pages', {
        json: { name: 'Acme', slug: 'acme', custom_domain: 'status.cname-acme.test' },
      })
    ).body;
    await waitFor(
      () => w.api('GET', `/status-pages/${p.id}`),
      (x) => x.body.custom_domain_status === 'verified',
      { what: 'the first check of a new domain' },
    );
    expect(await served('status.cname-acme.test')).toEqual({ page: 200, ask: 200 });

    // Saving the page with the same domain keeps its proof; another domain must be proved anew.
    const same = await w.api('PATCH', `/status-pages/${p.id}`, {
      json: { name: 'Acme Cloud', custom_domain: 'STATUS.cname-acme.test' },
    });
    expect(same.body).toMatchObject({
      custom_domain_status: 'verified',
      custom_domain_records: p.custom_domain_records,
    });
    const moved = await w.api('PATCH', `/status-pages/${p.id}`, {
      json: { custom_domain: 'status2.cname-acme.test' },
    });
    expect(moved.body).toMatchObject({ custom_domain_status: 'pending', custom_domain_checked_at: null });
    expect(moved.body.custom_domain_records[0].value).not.toBe(p.custom_domain_records[0].value);
    h.clock.advance(6_000);
    expect(await served('status2.cname-acme.test')).toEqual({ page: 404, ask: 404 });
    expect(await served('status.cname-acme.test')).toEqual({ page: 404, ask: 404 });
  });

  it('verify: 422 without a domain, 404 for another workspace’s page, 403 for a viewer', async () => {
    const w = await h.workspace('verifyrules');
    const plain = (await w.api('POST', '/status-pages', { json: { name: 'Plain', slug: 'plain' } })).body;
    expect(plain).toMatchObject({ custom_domain_status: null, custom_domain_records: [] });
    const none = await w.api('POST', `/status-pages/${plain.id}/custom-domain/verify`);
    expect(none.status).toBe(422);
    expect(none.body.error.details).toEqual([{ field: 'custom_domain', message: 'is not set on this page' }]);
    const other = await h.workspace('verifyother');
    expect((await other.api('POST', `/status-pages/${plain.id}/custom-domain/verify`)).status).toBe(404);
    const viewer = await w.userWithKey('viewer');
    expect((await w.as(viewer.key)('POST', `/status-pages/${plain.id}/custom-domain/verify`)).status).toBe(
      403,
    );
  });
});
