import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * Settings → Audit log in Chromium at 1280 and 390 px, against the real API: an admin changes a
 * monitor in the web app and finds the entry (their session's badge, the resource linked, the
 * before/after), a script's change under its API key's name with its secret redacted; the filters
 * narrow the list; Load more reads the next page; Export NDJSON downloads the filtered entries; a
 * member gets no link, the page's refusal and a 403 from the API. Screenshots to /tmp/auditweb-*.png.
 */
let lookout: Lookout;
let browser: Browser;
let member: { email: string; password: string };
let ciKey: string;
const admin = () => ({ email: lookout.adminEmail, password: lookout.password });
const asCi = async (method: string, path: string, json?: unknown) => {
  const r = await lookout.api('demo', path, { 'x-api-key': ciKey }, { method, json });
  expect(r.status, r.body.slice(0, 300)).toBeLessThan(300);
  return r.body ? JSON.parse(r.body) : null;
};
const PASSWORD = 'hunter2-never-shown-7d1c';

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
  const m = await lookout.cli([
    'user',
    'create',
    '--workspace',
    'demo',
    '--email',
    'mia@demo.localhost',
    '--role',
    'member',
  ]);
  member = { email: m.user.email, password: m.user.password };
  const k = await lookout.cli([
    'api-key',
    'create',
    '--workspace',
    'demo',
    '--email',
    lookout.adminEmail,
    '--name',
    'ci-deploy',
    '--expiry',
    'none',
  ]);
  ciKey = k.key;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

const openAuditLog = async (page: Page) => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
  await page.waitForURL(lookout.url('demo', '/settings/audit-log'));
  await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
};
const entries = (page: Page) => page.locator('tr.audit-entry');
const applyFilters = async (page: Page, f: Record<string, string>) => {
  const form = page.getByRole('form', { name: 'Filter the audit log' });
  for (const [label, value] of Object.entries(f)) await form.getByLabel(label, { exact: true }).fill(value);
  await form.getByRole('button', { name: 'Apply filters' }).click();
};

describe('Settings → Audit log', () => {
  for (const width of [1280, 390]) {
    it(`at ${width} px: an admin's change to a monitor is there with its before/after; filters narrow; export`, async () => {
      const monitor = await asCi('POST', '/monitors/create', {
        display_name: `Shop ${width}`,
        monitor_type: 'http',
        http_method: 'GET',
        expected_status_code: 200,
        url: 'https://shop.example.com/health',
        auth: { type: 'basic', username: 'probe', password: 'first-password-0000' },
      });
      await asCi('PATCH', `/monitors/${monitor.id}`, {
        auth: { type: 'basic', username: 'probe', password: PASSWORD },
      });

      const { context, page } = await signedInAt(browser, lookout, admin(), `/monitors/${monitor.id}/edit`);
      await page.setViewportSize({ width, height: 900 });
      await page.getByLabel('Name', { exact: true }).fill(`Shop ${width} (EU)`);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('heading', { name: `Shop ${width} (EU)`, level: 1 }).waitFor();

      await openAuditLog(page);
      // Newest first: the admin's own edit, through their session.
      const newest = entries(page).first();
      await expect.poll(() => newest.textContent()).toContain('monitor.update');
      expect(await newest.textContent()).toMatch(/Session\s*admin@demo\.localhost/);
      expect(await newest.getByRole('link', { name: monitor.id }).getAttribute('href')).toBe(
        `/monitors/${monitor.id}`,
      );
      await newest.getByRole('button', { name: /^Show details of monitor\.update/ }).click();
      const diff = page.getByRole('table', { name: 'Changes of monitor.update' });
      const nameRow = diff.getByRole('row', { name: /display_name/ });
      expect(await nameRow.getByRole('cell').allTextContents()).toEqual([
        `Shop ${width}`,
        `Shop ${width} (EU)`,
      ]);
      await page.screenshot({ path: `/tmp/auditweb-entry-${width}.png`, fullPage: true });

      // The script's change: under its key's name, its password redacted on both sides.
      const byKey = entries(page)
        .filter({ hasText: /API key\s*ci-deploy/ })
        .filter({ hasText: 'monitor.update' });
      await byKey
        .first()
        .getByRole('button', { name: /^Show details of monitor\.update/ })
        .click();
      const keyDiff = page.getByRole('table', { name: 'Changes of monitor.update' }).last();
      // The auth object opens into its changed parts: the password's row says [redacted], never the value.
      const secretRow = keyDiff.getByRole('row', { name: /auth\.password/ });
      await expect.poll(() => secretRow.getByRole('cell').last().textContent()).toBe('[redacted]');
      expect(await page.content()).not.toContain(PASSWORD);
      expect(await page.content()).not.toContain('first-password-0000');

      // Filters narrow: by action, then by actor.
      await applyFilters(page, { Action: 'monitor.create' });
      await expect
        .poll(async () => (await entries(page).allTextContents()).every((t) => t.includes('monitor.create')))
        .toBe(true);
      expect(await entries(page).count()).toBeGreaterThan(0);
      await applyFilters(page, { Action: '', Actor: 'ci-deploy' });
      await expect
        .poll(async () => (await entries(page).allTextContents()).every((t) => t.includes('ci-deploy')))
        .toBe(true);
      expect(await entries(page).filter({ hasText: lookout.adminEmail }).count()).toBe(0);
      await page.screenshot({ path: `/tmp/auditweb-filtered-${width}.png`, fullPage: true });

      // Export NDJSON: the same filter, one entry a line.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Export NDJSON' }).click(),
      ]);
      const lines = readFileSync((await download.path())!, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.every((e) => e.actor.name === 'ci-deploy')).toBe(true);
      expect(lines.some((e) => e.action === 'monitor.update' && e.resource_id === monitor.id)).toBe(true);

      // Nothing matches: said in words.
      await applyFilters(page, { Actor: '', Action: 'nothing.matches' });
      await page.getByText('No entry matches these filters.').waitFor();
      await page.getByRole('button', { name: 'Clear' }).click();
      await expect.poll(() => entries(page).count()).toBeGreaterThan(2);
      await context.close();
    });
  }

  it('Load more reads the next page, and a deleted monitor is no longer linked', async () => {
    const monitor = await asCi('POST', '/monitors/create', {
      display_name: 'Paged',
      monitor_type: 'http',
      http_method: 'GET',
      expected_status_code: 200,
      url: 'https://paged.example.com',
    });
    for (let i = 0; i < 55; i++)
      await asCi('PATCH', `/monitors/${monitor.id}`, { display_name: `Paged ${i}` });
    await asCi('DELETE', `/monitors/${monitor.id}`);
    const { context, page } = await signedInAt(browser, lookout, admin(), '/monitors');
    await page.setViewportSize({ width: 1280, height: 900 });
    await openAuditLog(page);
    await applyFilters(page, { 'Resource type': 'monitor' });
    await expect.poll(() => entries(page).count()).toBe(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    // Every monitor entry once: as many rows as the export of the same filter has lines.
    const all = await lookout.api('demo', '/audit-log/export?resource_type=monitor', { 'x-api-key': ciKey });
    const total = all.body.trim().split('\n').length;
    expect(total).toBeGreaterThan(50);
    await expect.poll(() => entries(page).count()).toBe(total);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(total > 100 ? 1 : 0);
    // The monitor is gone: its id is shown, not linked.
    await expect.poll(() => entries(page).first().textContent()).toContain('monitor.delete');
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('link', { name: monitor.id }).count()).toBe(0);
    await context.close();
  });

  it("the CLI's changes show under the CLI badge: the member and the key made before the tests", async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), '/settings/audit-log');
    await applyFilters(page, { Actor: 'cli' });
    const cli = entries(page).filter({ hasText: /CLI\s*cli/ });
    await expect.poll(() => cli.filter({ hasText: 'api_key.create' }).count()).toBe(1);
    expect(await cli.filter({ hasText: 'user.create' }).count()).toBe(1);
    await context.close();
  });

  it('a member sees no link, gets the refusal, and the API answers 403', async () => {
    const { context, page } = await signedInAt(browser, lookout, member, '/monitors');
    await page.setViewportSize({ width: 390, height: 900 });
    expect(await page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await page.goto(lookout.url('demo', '/settings/audit-log'));
    await page.getByText('Only admins of the workspace read its audit log.').waitFor();
    expect(await page.locator('tr.audit-entry').count()).toBe(0);
    const status = await page.evaluate(() => fetch('/api/v1/audit-log').then((r) => r.status));
    expect(status).toBe(403);
    await page.screenshot({ path: '/tmp/auditweb-member-390.png', fullPage: true });
    await context.close();
  });
});
