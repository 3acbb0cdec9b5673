import type { ChildProcess } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, startAgentProcess } from '../support/processes.js';
import { type ShopApp, startShopApp } from '../support/shop-app.js';
import { type JourneySite, startJourneySite } from './journey-site.js';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * A scripted monitor's runs on its page, in chromium, from a real agent (with Debian's Chromium)
 * against local sites: the Last run panel before and after the first run, and "Check now" waiting for
 * the run it asked for and showing its steps; a failing browser journey shows the failed step with
 * its error and line, and the screenshot, which loads. Screenshots at 1280 px light and 390 px dark
 * in /tmp/webscript-run-*.png.
 */
let lookout: Lookout;
let browser: Browser;
let shop: ShopApp;
let site: JourneySite;
let agent: ChildProcess | undefined;
const admin = () => ({ email: lookout.adminEmail, password: lookout.password });
const create = async (json: Record<string, unknown>) => {
  const r = await lookout.api(
    'demo',
    '/monitors/create',
    { 'x-api-key': lookout.apiKey },
    { method: 'POST', json: { check_interval_seconds: 3600, check_locations: ['eu-west'], ...json } },
  );
  expect(r.status, r.body.slice(0, 400)).toBe(201);
  return JSON.parse(r.body).id as string;
};

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
  shop = await startShopApp();
  site = await startJourneySite();
  const { token } = (await lookout.cli(['agent-token', 'create', '--region', 'eu-west'])) as {
    token: string;
  };
  agent = (
    await startAgentProcess({
      rpcUrl: lookout.rpcUrl,
      token,
      region: 'eu-west',
      instance: 'web-browser-1',
      ready: /assignments synced/,
    })
  ).child;
}, 120_000);
afterAll(async () => {
  agent?.kill('SIGTERM');
  if (agent) await exited(agent);
  await shop?.close();
  await site?.close();
  await browser?.close();
  await lookout?.stop();
});

const shoot = async (page: Page, what: string) => {
  // The page's own poll has caught up with the run too.
  await page.getByRole('region', { name: 'Recent results' }).getByRole('row').nth(1).waitFor();
  const panel = page.getByRole('region', { name: /Last run|The run you asked for/ });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: `/tmp/webscript-${what}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await panel.screenshot({ path: `/tmp/webscript-${what}-390-dark.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
};

/** "Check now", then the panel of the run it asked for. */
const checkNow = async (page: Page) => {
  await page.getByRole('button', { name: 'Check now' }).click();
  const panel = page.getByRole('region', { name: 'The run you asked for' });
  await panel.getByRole('list', { name: 'Steps' }).waitFor({ timeout: 120_000 });
  return panel;
};

const status = (n: number) => ({ source: 'status_code', comparison: 'equals', target: n });

describe('scripted runs on the monitor page', () => {
  it('a multi-step monitor: empty before its first run, then Check now shows each step with its time', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), '/monitors');
    // First in a region without agents, so the page shows the empty state before any run.
    const id = await create({
      display_name: 'Checkout API journey',
      monitor_type: 'multistep',
      url: shop.url,
      check_locations: ['us-east'],
      steps: [
        {
          name: 'Sign in with the probe account that has a rather long name to see how it wraps on a phone',
          method: 'POST',
          url: '{{url}}/login',
          body: '{"user": "ann", "password": "pw"}',
          extract: [{ name: 'token', source: 'json_body', property: '$.token' }],
          assertions: [status(200)],
        },
        {
          name: 'Create order',
          method: 'POST',
          url: '{{url}}/orders',
          headers: { Authorization: 'Bearer {{token}}' },
          extract: [{ name: 'order', source: 'headers', property: 'Location', regex: '/orders/(\\d+)' }],
          assertions: [status(201)],
        },
        {
          // Markup in a name is shown as text, never run.
          name: 'Read it back <img src=x onerror="window.__ran=1">',
          method: 'GET',
          url: '{{url}}/orders/{{order}}',
          headers: { Authorization: 'Bearer {{token}}' },
        },
        { name: 'Pay', method: 'POST', url: '{{url}}/pay', assertions: [status(200)] },
      ],
    });
    await page.goto(lookout.url('demo', `/monitors/${id}`));
    const last = page.getByRole('region', { name: 'Last run' });
    await last.getByText('No run yet').waitFor();
    const moved = await lookout.api(
      'demo',
      `/monitors/${id}`,
      { 'x-api-key': lookout.apiKey },
      { method: 'PATCH', json: { check_locations: ['eu-west'] } },
    );
    expect(moved.status).toBe(200);
    await page.reload();

    const panel = await checkNow(page);
    const steps = panel.getByRole('list', { name: 'Steps' }).getByRole('listitem');
    await expect.poll(() => steps.count()).toBe(4);
    expect(await steps.nth(1).textContent()).toMatch(/2\. Create order.*OK.*HTTP 201.*ms/);
    expect(await panel.getByText('Passed').count()).toBe(1);
    expect(await steps.nth(2).textContent()).toContain('<img src=x onerror="window.__ran=1">');
    expect(await page.evaluate('window.__ran')).toBeUndefined();
    await shoot(page, 'run-passing');

    // Made to fail: Check now again shows the new run, its failed step marked with the reason.
    shop.failing = true;
    const again = await checkNow(page);
    await again.getByText('Failed', { exact: true }).first().waitFor();
    expect(
      await again.getByRole('list', { name: 'Steps' }).getByRole('listitem').nth(3).textContent(),
    ).toMatch(/^4\. Pay.*Failed.*HTTP 502.*expected status 200, got 502/);
    shop.failing = false;
    await context.close();
  }, 150_000);

  it('a failing browser journey: the failed step with its error and line, and the screenshot', async () => {
    site.broken = true;
    const id = await create({
      display_name: 'Shop journey',
      monitor_type: 'browser',
      url: site.url,
      timeout_seconds: 20,
      script: `await page.goto(url);
await test.step('Sign in', async () => {
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill('me@example.com');
  await page.getByLabel('Password').fill('right-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});
await test.step('Pay', async () => {
  await page.getByRole('link', { name: 'Order form' }).click();
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.locator('#status')).toHaveText('Order placed', { timeout: 1500 });
});
`,
    });
    const { context, page } = await signedInAt(browser, lookout, admin(), `/monitors/${id}`);
    const panel = await checkNow(page);
    await panel.getByText('Failed', { exact: true }).first().waitFor();
    // Step 1 is the first navigation, outside any test.step.
    const failed = panel.getByRole('list', { name: 'Steps' }).getByRole('listitem').nth(2);
    expect(await failed.textContent()).toMatch(/^3\. Pay.*Failed.*toHaveText.*\(line 12 of the script\)$/);
    // Web Vitals in words, and the console error behind the failure.
    await panel.getByText('Largest Contentful Paint (LCP)').waitFor();
    await panel.getByText(/Console errors \(\d+\)/).click();
    await panel.getByText(/payment failed: 503/).waitFor();
    const shot = panel.getByRole('img', { name: "The page when step 3 'Pay' failed" });
    await expect
      .poll(() => shot.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    // It opens full size: a link to the image itself.
    const href = await panel
      .getByRole('link', { name: "The page when step 3 'Pay' failed" })
      .getAttribute('href');
    expect(href).toMatch(/^\/api\/v1\/monitors\/.+\/screenshot$/);
    await shoot(page, 'run-failing');
    await context.close();
  }, 150_000);
});
