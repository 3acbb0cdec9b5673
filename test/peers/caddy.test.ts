import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, read } from '../support/deploy/common.js';
import { startDnsServer } from '../support/dns-server.js';
import { type Harness, startHarness } from '../support/harness.js';
import { findBinary, freePort, type RunningBinary, startBinary } from './support/binaries.js';
import { runTool } from './support/deploy-tools.js';

/**
 * deploy/caddy/Caddyfile read by Debian's caddy: it validates, a broken copy does not, and run for
 * real in front of a real control plane (with Caddy's own local CA instead of an ACME one, and its
 * ports moved) it gets a certificate on demand for a status page's custom domain, after asking
 * Lookout, and refuses the handshake for a name Lookout does not serve: an unknown one, and one a page
 * claims whose DNS (a real DNS server on loopback) never proved it.
 */

const CADDYFILE = 'deploy/caddy/Caddyfile';
const caddy = () => findBinary(['caddy', '/usr/bin/caddy'], 'apt-get install caddy');
const dir = mkdtempSync(join(tmpdir(), 'lookout-caddy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const copy = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('caddy validate on deploy/caddy/Caddyfile', () => {
  it('is valid configuration, asks Lookout’s /_tls/ask and proxies with readiness checks', () => {
    const v = runTool(caddy(), ['validate', '--config', join(ROOT, CADDYFILE), '--adapter', 'caddyfile']);
    expect(v.output).toMatch(/Valid configuration/);
    expect(v.status).toBe(0);
    const adapted = runTool(caddy(), ['adapt', '--config', join(ROOT, CADDYFILE), '--adapter', 'caddyfile']);
    expect(adapted.status).toBe(0);
    const json = JSON.parse(adapted.output.slice(adapted.output.indexOf('{')));
    expect(json.apps.tls.automation.on_demand.ask).toMatch(/\/_tls\/ask$/);
    expect(json.apps.tls.automation.policies[0].on_demand).toBe(true);
    expect(JSON.stringify(json.apps.http)).toContain('"/readyz"');
  });

  it('fails on a broken copy', () => {
    const broken = copy('Broken', read(CADDYFILE).replace('reverse_proxy', 'reverse_proxi'));
    const v = runTool(caddy(), ['validate', '--config', broken, '--adapter', 'caddyfile']);
    expect(v.status).not.toBe(0);
  });
});

describe('Caddy in front of a control plane', () => {
  let h: Harness;
  let c: RunningBinary;
  let httpsPort: number;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  beforeAll(async () => {
    // The proved domain points at the workspace host by CNAME; the claimed one has no record at all.
    dns = await startDnsServer({
      'status.caddy.test': [{ type: 'CNAME', name: 'status.caddy.test', data: 'caddy.localhost' }],
    });
    h = await startHarness({ custom_domain_dns_servers: [dns.address] });
    const w = await h.workspace('caddy');
    const proved = await w.api('POST', '/status-pages', {
      json: { name: 'Behind Caddy', slug: 'caddy', custom_domain: 'status.caddy.test', components: [] },
    });
    const verified = await w.api('POST', `/status-pages/${proved.body.id}/custom-domain/verify`);
    expect(verified.body.custom_domain_status).toBe('verified');
    const claimed = await w.api('POST', '/status-pages', {
      json: { name: 'Claimed', slug: 'claimed', custom_domain: 'status.claimed.test', components: [] },
    });
    expect(
      (await w.api('POST', `/status-pages/${claimed.body.id}/custom-domain/verify`)).body
        .custom_domain_status,
    ).toBe('failed');
    const [admin, http, https] = [await freePort(), await freePort(), await freePort()];
    httpsPort = https;
    const text = read(CADDYFILE).replace(
      '{\n\temail',
      `{\n\tadmin 127.0.0.1:${admin}\n\thttp_port ${http}\n\thttps_port ${https}\n\tlocal_certs\n\tskip_install_trust\n\tstorage file_system ${join(dir, 'data')}\n\temail`,
    );
    const upstream = `127.0.0.1:${h.cp.port}`;
    process.env.UPSTREAMS = upstream;
    process.env.ASK_UPSTREAM = upstream;
    c = await startBinary(
      caddy(),
      ['run', '--config', copy('Caddyfile', text), '--adapter', 'caddyfile'],
      `http://127.0.0.1:${admin}/config/`,
    );
  });
  afterAll(async () => {
    await c?.stop();
    await h?.close();
    await dns?.close();
  });

  const get = (name: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: httpsPort,
          path: '/',
          servername: name,
          headers: { host: name },
          rejectUnauthorized: false,
        },
        (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });

  it('a proved custom domain gets its certificate on demand and its status page; an unknown or unproved name gets no certificate', async () => {
    const page = await get('status.caddy.test');
    expect(page.status, c.output()).toBe(200);
    expect(page.body).toContain('Behind Caddy');
    // With local_certs Caddy would sign any name; only Lookout's 404 from /_tls/ask stops it.
    await expect(get('unknown.example.test')).rejects.toThrow();
    await expect(get('status.claimed.test')).rejects.toThrow();
  });
});
