import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * Settings → Secrets in Chromium at 1280 and 390 px: an admin adds a secret (the value typed into a
 * password field, never shown again: only ••••hint), replaces its value, is told in words which
 * monitors keep a secret from being deleted, and deletes an unused one; a viewer sees the list and
 * no forms. Screenshots to /tmp/secrets-*.png.
 */
let lookout: Lookout;
let browser: Browser;
let viewer: { email: string; password: string };
const admin = () => ({ email: lookout.adminEmail, password: lookout.password });
const call = async (method: string, path: string, json?: unknown) => {
  const r = await lookout.api('demo', path, { 'x-api-key': lookout.apiKey }, { method, json });
  expect(r.status, r.body.slice(0, 300)).toBeLessThan(300);
  return r.body ? JSON.parse(r.body) : null;
};

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
  const r = await lookout.cli([
    'user',
    'create',
    '--workspace',
    'demo',
    '--email',
    'vic@demo.localhost',
    '--role',
    'viewer',
  ]);
  viewer = { email: r.user.email, password: r.user.password };
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

describe('Settings → Secrets', () => {
  for (const width of [1280, 390]) {
    it(`at ${width} px: an admin adds, replaces and deletes; a used secret's delete is refused in words`, async () => {
      const name = `PAY_TOKEN_${width}`;
      const value = `sk_live_browser_${width}_abcd`;
      const { context, page } = await signedInAt(browser, lookout, admin(), '/monitors');
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('link', { name: 'Secrets' }).click();
      await page.waitForURL(lookout.url('demo', '/settings/secrets'));
      await expect.poll(() => page.getByRole('heading', { name: 'Secrets', level: 1 }).count()).toBe(1);

      const form = page.getByRole('form', { name: 'Add secret' });
      expect(await form.getByLabel('Value').getAttribute('type')).toBe('password');
      // A bad name is named beside its field.
      await form.getByLabel('Name').fill('9 lives');
      await form.getByLabel('Value').fill(value);
      await form.getByRole('button', { name: 'Add secret' }).click();
      await expect.poll(() => form.getByText(/upper-case letters/).count()).toBe(1);
      await form.getByLabel('Name').fill(name.toLowerCase());
      expect(await form.getByLabel('Name').inputValue()).toBe(name);
      await form.getByLabel('Value').fill(value);
      await form.getByRole('button', { name: 'Add secret' }).click();
      const row = page.getByRole('row', { name: new RegExp(name) });
      await expect.poll(() => row.count()).toBe(1);
      await expect.poll(() => row.textContent()).toMatch(/••••ending in abcd/);
      expect(await page.content()).not.toContain(value);

      // A monitor naming it: listed as its user, with a link; the delete is refused naming it.
      const monitor = await call('POST', '/monitors/create', {
        display_name: `Checkout ${width}`,
        monitor_type: 'multistep',
        url: 'https://shop.example.com',
        steps: [
          {
            name: 'Pay',
            method: 'POST',
            url: '{{url}}/pay',
            headers: { Authorization: `Bearer {{secrets.${name}}}` },
          },
        ],
      });
      await page.reload();
      await expect.poll(() => row.getByRole('link', { name: `Checkout ${width}` }).count()).toBe(1);
      await page.getByRole('button', { name: `Replace value of ${name}` }).click();
      const replace = page.getByRole('form', { name: `Replace ${name}` });
      await replace.getByLabel('New value').fill('short');
      await replace.getByRole('button', { name: 'Replace value' }).click();
      await expect.poll(() => row.textContent()).toContain('too short for a hint');
      await page.screenshot({ path: `/tmp/secrets-list-${width}.png`, fullPage: true });

      await page.getByRole('button', { name: `Delete ${name}` }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => dialog.getByText(`used by Checkout ${width}`).count()).toBe(1);
      await page.screenshot({ path: `/tmp/secrets-refused-${width}.png` });
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      await call('DELETE', `/monitors/${monitor.id}`);
      await page.getByRole('button', { name: `Delete ${name}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => row.count()).toBe(0);
      await context.close();
    });
  }

  it('a viewer sees names, hints and users, and no forms or buttons', async () => {
    await call('PUT', '/secrets/SHOP_PASSWORD', { value: 'correct-horse-battery-9f2e' });
    const { context, page } = await signedInAt(browser, lookout, viewer, '/settings/secrets');
    await page.setViewportSize({ width: 390, height: 900 });
    const row = page.getByRole('row', { name: /SHOP_PASSWORD/ });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toMatch(/••••ending in 9f2e/);
    expect(await page.getByRole('form').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Delete|Replace/ }).count()).toBe(0);
    await page.screenshot({ path: '/tmp/secrets-viewer-390.png', fullPage: true });
    await context.close();
  });
});
