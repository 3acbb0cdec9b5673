import { mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type Zone } from '../support/dns-server.js';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * A custom domain's proof in the status page editor, in Chromium against a real control plane that
 * asks a real DNS server on loopback: the exact records to create, **Verify** failing while DNS has
 * none, then succeeding once the TXT record is there, and only then the page on its domain. Desktop
 * and phone widths; screenshots to SCREENSHOTS (default a temp dir).
 */
const shots = process.env.SCREENSHOTS ?? join(tmpdir(), 'lookout-status-custom-domain-ui');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

const zone: Zone = {};
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let lookout: Lookout;
let browser: Browser;
let pageId = '';

/** The status JSON as the public asks for it on the custom domain. */
const onDomain = (domain: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: lookout.port, path: '/api/v2/status.json', headers: { host: domain } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  dns = await startDnsServer(zone);
  // The job's own first check is left far off: here the button does the checking.
  lookout = await startLookout({
    LOOKOUT_CUSTOM_DOMAIN_DNS_SERVERS: dns.address,
    LOOKOUT_CUSTOM_DOMAIN_CHECK_MS: '600000',
  });
  browser = await launchBrowser();
  const r = await lookout.api(
    'demo',
    '/status-pages',
    { 'x-api-key': lookout.apiKey },
    { method: 'POST', json: { name: 'Acme status', slug: 'acme', custom_domain: 'status.acme-ui.test' } },
  );
  expect(r.status, r.body).toBe(201);
  pageId = JSON.parse(r.body).id;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
  await dns?.close();
});

describe('custom domain proof in the editor', () => {
  it('shows the records to create; Verify fails without them and succeeds with the TXT record, then the page is served there', async () => {
    const { context, page } = await signedInAt(
      browser,
      lookout,
      { email: lookout.adminEmail, password: lookout.password },
      `/status-pages/${pageId}/edit`,
    );
    await page.setViewportSize(DESKTOP);
    const proof = page.getByRole('region', { name: /Domain ownership: status\.acme-ui\.test/ });
    await expect.poll(() => proof.isVisible()).toBe(true);
    expect(await proof.getByRole('heading').textContent()).toContain('Not checked yet');
    const txtValue = (await proof.getByText(/^lookout-verification=[0-9a-f]{32}$/).textContent())!;
    expect(await proof.getByText('_lookout-challenge.status.acme-ui.test', { exact: true }).count()).toBe(1);
    expect(await proof.getByText('demo.localhost', { exact: true }).count()).toBe(1);
    await shot(page, 'proof-pending-desktop');

    await proof.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => proof.getByRole('heading').textContent()).toContain('Not verified');
    expect(await proof.getByRole('status').textContent()).toContain('Not served there: no record');
    expect(await proof.textContent()).toContain('was found');
    expect(await onDomain('status.acme-ui.test')).toBe(404);
    await shot(page, 'proof-failed-desktop');

    // The owner creates the TXT record the page names; 10 s after the last check, Verify again.
    zone['_lookout-challenge.status.acme-ui.test'] = [
      { type: 'TXT', name: '_lookout-challenge.status.acme-ui.test', data: txtValue },
    ];
    await proof.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => proof.getByRole('alert').textContent()).toMatch(/try again in \d+ s/);
    await page.waitForTimeout(10_500);
    await proof.getByRole('button', { name: 'Verify' }).click();
    await expect
      .poll(() => proof.getByRole('status').textContent())
      .toContain('Lookout serves this page at http://status.acme-ui.test/');
    expect(await proof.getByRole('heading').textContent()).toContain('Verified');
    expect(await proof.getByRole('alert').count()).toBe(0);
    await expect.poll(() => onDomain('status.acme-ui.test'), { timeout: 10_000 }).toBe(200);
    await shot(page, 'proof-verified-desktop');

    await page.setViewportSize(PHONE);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'proof-verified-phone');

    // The page's screen says it too.
    await page.getByRole('link', { name: '← Acme status' }).click();
    await expect.poll(() => page.getByText('Verified', { exact: true }).count()).toBe(1);
    await page.setViewportSize(DESKTOP);
    await shot(page, 'screen-verified-desktop');
    await context.close();
  }, 60_000);
});
