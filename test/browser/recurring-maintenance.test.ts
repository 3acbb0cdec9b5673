import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, startLookout } from './support.js';

/**
 * Recurring maintenance in a real browser against a real control plane: the Maintenance page creates
 * a window on a cron schedule in a time zone, for everything with a tag, shows a bad schedule's 422 at
 * its field, and lists the rule in words with the next occurrence. Screenshots at 1280 and 390 px in
 * /tmp/maint-*.png for a person to look at.
 */
let lookout: Lookout;
let browser: Browser;

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

const signedIn = async (path: string, viewport: { width: number; height: number }) => {
  const context = await browser.newContext({ timezoneId: 'Europe/Berlin', locale: 'en-GB', viewport });
  const page = await context.newPage();
  await page.goto(lookout.url('demo', path));
  await page.getByLabel('Email').fill(lookout.adminEmail);
  await page.getByLabel('Password').fill(lookout.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  return { context, page };
};

describe('recurring maintenance in the web app', () => {
  it('creates a window every Sunday night for a tag, and shows its rule and next occurrence', async () => {
    const { context, page } = await signedIn('/routing/maintenance', { width: 1280, height: 900 });
    await page.getByRole('heading', { name: 'Maintenance windows', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('Sunday backups');
    await page.getByLabel('Repeats').selectOption({ label: 'On a cron schedule' });
    await page.getByLabel('Applies to').selectOption({ label: 'Everything with a tag' });
    await page.getByLabel('Tag').fill('env:prod');
    await page.getByLabel('Cron schedule').fill('0 2 * *');
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByLabel('Duration (minutes)').fill('120');
    await page.getByRole('button', { name: 'Create window' }).click();
    // The server's 422 is shown at the field it names.
    await page.getByText('must have five fields', { exact: false }).first().waitFor();
    await page.screenshot({ path: '/tmp/maint-error-1280.png', fullPage: true });
    await page.getByLabel('Cron schedule').fill('0 2 * * 0');
    await page.getByRole('button', { name: 'Create window' }).click();
    const row = page.getByRole('row', { name: /Sunday backups/ });
    await row.getByText('At 02:00, only on Sunday, Europe/Berlin, for 2 hours').waitFor();
    const windows = JSON.parse(
      (await lookout.api('demo', '/maintenance-windows', { 'x-api-key': lookout.apiKey })).body,
    ).data;
    expect(windows[0]).toMatchObject({
      scope_type: 'tag',
      scope_id: 'env:prod',
      schedule: '0 2 * * 0',
      timezone: 'Europe/Berlin',
      duration_seconds: 7200,
    });
    // The next occurrence, in the browser's zone (Berlin here): a Sunday at 02:00.
    const next = new Date(windows[0].next_occurrence.starts_at);
    const berlin = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    expect(await row.textContent()).toContain(berlin.format(next));
    expect(berlin.format(next)).toContain('02:00');
    expect(await row.textContent()).toContain('Tag: env:prod');

    // A group, found by searching the server, silenced every night.
    const made = await lookout.api(
      'demo',
      '/groups',
      { 'x-api-key': lookout.apiKey },
      { method: 'POST', json: { name: 'Nightly batch' } },
    );
    expect(made.status, made.body).toBe(201);
    await page.getByLabel('Name').fill('Batch night');
    await page.getByLabel('Repeats').selectOption({ label: 'On a cron schedule' });
    await page.getByLabel('Applies to').selectOption({ label: 'A group' });
    await page.getByRole('searchbox', { name: 'Search' }).fill('nightly');
    const group = page.getByLabel('Group', { exact: true });
    await expect.poll(() => group.locator('option').allTextContents()).toContain('Nightly batch');
    await group.selectOption({ label: 'Nightly batch' });
    await page.getByLabel('Cron schedule').fill('0 2 * * *');
    await page.getByLabel('Duration (minutes)').fill('180');
    await page.getByRole('button', { name: 'Create window' }).click();
    const batch = page.getByRole('row', { name: /Batch night/ });
    await batch.waitFor();
    await batch.getByText('Group: Nightly batch').waitFor();
    await batch.getByText('At 02:00, Europe/Berlin, for 3 hours').waitFor();
    await page.screenshot({ path: '/tmp/maint-1280.png', fullPage: true });
    await context.close();

    const phone = await signedIn('/routing/maintenance', { width: 390, height: 844 });
    await phone.page.getByRole('row', { name: /Sunday backups/ }).waitFor();
    expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await phone.page.screenshot({ path: '/tmp/maint-390.png', fullPage: true });
    await phone.context.close();
  });
});
