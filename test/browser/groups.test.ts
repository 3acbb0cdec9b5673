import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * Groups, tags and severity in the web app, in Chromium at 1280 and 390 px: the Groups page (create,
 * a name taken in another case refused beside the field, rename, delete with a confirmation), the
 * monitor and heartbeat forms (the group picker searching the server, tags with the server's problem
 * beside them, severity), and the detail pages showing them. Screenshots to /tmp/fields-*.png.
 */
let lookout: Lookout;
let browser: Browser;
const admin = () => ({ email: lookout.adminEmail, password: lookout.password });
const call = async (method: string, path: string, json?: unknown) => {
  const r = await lookout.api('demo', path, { 'x-api-key': lookout.apiKey }, { method, json });
  expect(r.status, r.body.slice(0, 300)).toBeLessThan(300);
  return r.body ? JSON.parse(r.body) : null;
};

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
  // More groups than one page of the picker holds: the one chosen is found by searching.
  for (let i = 0; i < 105; i++) await call('POST', '/groups', { name: `Rack ${String(i).padStart(3, '0')}` });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

describe('groups and tags in the web app', () => {
  for (const width of [1280, 390]) {
    it(`at ${width} px: the Groups page creates, refuses a taken name, renames and deletes`, async () => {
      const { context, page } = await signedInAt(browser, lookout, admin(), '/monitors');
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('link', { name: 'Groups' }).click();
      await page.waitForURL(lookout.url('demo', '/groups'));
      await expect.poll(() => page.getByRole('heading', { name: 'Groups', level: 1 }).count()).toBe(1);
      const form = page.getByRole('form', { name: 'New group' });
      const name = `Edge ${width}`;
      await form.getByLabel('Name').fill(name);
      await form.getByRole('button', { name: 'Create group' }).click();
      await expect.poll(() => page.getByRole('row', { name: new RegExp(name) }).count()).toBe(1);

      // The same name in other letters: refused, named beside the field and in the summary.
      await form.getByLabel('Name').fill(name.toUpperCase());
      await form.getByRole('button', { name: 'Create group' }).click();
      const summary = page.getByRole('alert');
      await expect.poll(() => summary.textContent()).toMatch(/Name/);
      await expect.poll(() => form.getByText(/taken by another group/).count()).toBe(1);
      await page.screenshot({ path: `/tmp/fields-groups-${width}.png` });

      await page.getByRole('searchbox', { name: 'Search groups' }).fill(name);
      await page.getByRole('button', { name: `Rename ${name}` }).click();
      const rename = page.getByRole('form', { name: `Rename ${name}` });
      await rename.getByLabel('Name').fill(`${name} renamed`);
      await rename.getByRole('button', { name: 'Rename' }).click();
      await page.getByRole('searchbox', { name: 'Search groups' }).fill(`${name} renamed`);
      await expect.poll(() => page.getByRole('row', { name: new RegExp(`${name} renamed`) }).count()).toBe(1);
      await page.getByRole('button', { name: `Delete ${name} renamed` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => page.getByText(/No group matches/).count()).toBe(1);
      await context.close();
    });
  }

  it('a monitor: group picked by searching, a bad tag named beside Tags, then saved and shown (390 px)', async () => {
    const group = await call('POST', '/groups', { name: 'Core switches' });
    const { context, page } = await signedInAt(browser, lookout, admin(), '/monitors/new');
    await page.setViewportSize({ width: 390, height: 900 });
    const form = page.getByRole('form', { name: 'New monitor' });
    await form.getByLabel('Name', { exact: true }).fill('Switch A');
    await form.getByLabel('URL', { exact: true }).fill('https://switch-a.example.test/');
    const labels = form.getByRole('group', { name: 'Group, tags and severity' });
    // The picker holds the newest page; the group is found by asking the server.
    await labels.getByRole('searchbox', { name: 'Search' }).fill('core sw');
    const picker = labels.getByLabel('Group', { exact: true });
    await expect.poll(() => picker.locator('option').allTextContents()).toContain('Core switches');
    await picker.selectOption({ label: 'Core switches' });
    await labels.getByLabel('Tags').fill('env:prod, Bad Tag');
    await labels.getByLabel('Severity').selectOption('warning');
    await form.getByRole('button', { name: 'Create monitor' }).click();
    const summary = page.getByRole('alert').first();
    await expect.poll(() => summary.textContent()).toMatch(/Tags/);
    await expect.poll(() => labels.getByText(/“Bad” must be key or key:value/).count()).toBe(1);
    await page.screenshot({ path: '/tmp/fields-monitor-form-390.png', fullPage: true });

    await labels.getByLabel('Tags').fill('env:prod, db');
    await form.getByRole('button', { name: 'Create monitor' }).click();
    await page.waitForURL(/\/monitors\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByText('Core switches').count()).toBe(1);
    expect(await page.locator('.labels-line').textContent()).toMatch(/Severity: Warning.*Tags: env:proddb/);
    await page.screenshot({ path: '/tmp/fields-monitor-detail-390.png', fullPage: true });
    const id = page.url().split('/').pop()!;
    expect(await call('GET', `/monitors/${id}`)).toMatchObject({
      group_id: group.id,
      tags: ['env:prod', 'db'],
      severity: 'warning',
    });

    // Edit: the form starts from what is stored; "No group" ungroups.
    await page.goto(lookout.url('demo', `/monitors/${id}/edit`));
    const edit = page.getByRole('form', { name: 'Edit monitor' });
    await expect.poll(() => edit.getByLabel('Tags').inputValue()).toBe('env:prod, db');
    await edit.getByLabel('Group', { exact: true }).selectOption({ label: 'No group' });
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/\/monitors\/[0-9a-f-]{36}$/);
    expect((await call('GET', `/monitors/${id}`)).group_id).toBeNull();
    await context.close();
  });

  it('a heartbeat: group, tags and severity in its form and on its page (1280 px)', async () => {
    await call('POST', '/groups', { name: 'Nightly jobs' });
    const { context, page } = await signedInAt(browser, lookout, admin(), '/heartbeats');
    await page.setViewportSize({ width: 1280, height: 900 });
    const form = page.getByRole('form', { name: 'Create heartbeat' });
    await form.getByLabel('Name').fill('DB backup');
    // The search box of the Group picker (the form has another picker, for dependencies).
    await form.locator('input[type=search][aria-controls="new-hb-group_id"]').fill('nightly');
    const picker = form.getByLabel('Group', { exact: true });
    await expect.poll(() => picker.locator('option').allTextContents()).toContain('Nightly jobs');
    await picker.selectOption({ label: 'Nightly jobs' });
    await form.getByLabel('Tags').fill('job:backup db');
    await form.getByRole('button', { name: 'Create heartbeat' }).click();
    // A new heartbeat opens on its own page.
    await page.waitForURL(/\/heartbeats\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByText('Nightly jobs').count()).toBe(1);
    expect(await page.locator('.labels-line').textContent()).toMatch(
      /Severity: Critical.*Tags: job:backupdb/,
    );
    await page.screenshot({ path: '/tmp/fields-heartbeat-1280.png', fullPage: true });
    await context.close();
  });

  it('a status-page component stands for a group, chosen in the editor and named on the page (1280 px)', async () => {
    const group = await call('POST', '/groups', { name: 'Edge network' });
    const { context, page } = await signedInAt(browser, lookout, admin(), '/status-pages/new');
    await page.setViewportSize({ width: 1280, height: 900 });
    const form = page.getByRole('form', { name: 'New status page' });
    await form.getByLabel('Name', { exact: true }).first().fill('Network');
    await form.getByRole('button', { name: 'Add component' }).click();
    const first = form.getByRole('group', { name: 'Component 1' });
    await first.getByLabel('Name', { exact: true }).fill('Edge');
    await first.getByLabel('Shows').selectOption({ label: 'A group’s worst status' });
    await first.getByRole('searchbox', { name: 'Search' }).fill('edge net');
    const picker = first.getByLabel('Group of monitors', { exact: true });
    await expect.poll(() => picker.locator('option').allTextContents()).toContain('Edge network');
    await picker.selectOption({ label: 'Edge network' });
    await page.screenshot({ path: '/tmp/fields-status-editor-1280.png' });
    await form.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/status-pages\/[0-9a-f-]{36}$/);
    await page.getByText('Group: Edge network').waitFor();
    const pageId = /\/status-pages\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
    const stored = await call('GET', `/status-pages/${pageId}`);
    expect(stored.components[0]).toMatchObject({ group_id: group.id, status: 'unknown' });
    await context.close();
  });
});
