import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * The pickers of monitors and heartbeats (status-page components, maintenance targets) in Chromium
 * with more than a page of each: monitor 101 and beyond can be found by searching and by "Show more",
 * chosen, saved, and shown by name afterwards. Screenshots to /tmp/h8-picker-*.png.
 */
const MONITORS = 160;
const HEARTBEATS = 120;
const pad = (i: number) => String(i).padStart(3, '0');

let lookout: Lookout;
let browser: Browser;
const ids = new Map<string, string>();

const call = async (method: string, path: string, json?: unknown) => {
  const r = await lookout.api('demo', path, { 'x-api-key': lookout.apiKey }, { method, json });
  expect(r.status, r.body.slice(0, 300)).toBeLessThan(300);
  return JSON.parse(r.body);
};
const admin = () => ({ email: lookout.adminEmail, password: lookout.password });
/** The options a select offers, by their text. */
const options = (select: Locator) => select.locator('option').allTextContents();

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
  const made = await call('POST', '/monitors/batch', {
    monitors: Array.from({ length: MONITORS }, (_, i) => ({
      display_name: `Service ${pad(i + 1)}`,
      monitor_type: 'tcp',
      url: `host-${pad(i + 1)}.internal.example`,
      port: 5432,
      check_interval_seconds: 60,
      check_locations: ['eu-west'],
      paused: true,
    })),
  });
  for (const m of made.data) ids.set(m.display_name, m.id);
  for (let i = 0; i < HEARTBEATS; i++) {
    const hb = await call('POST', '/heartbeats', { display_name: `Job ${pad(i + 1)}` });
    ids.set(hb.display_name, hb.id);
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

const pickIn = async (scope: Locator, label: string, search: string, choose: string) => {
  await scope.getByRole('searchbox', { name: 'Search' }).fill(search);
  await expect.poll(() => scope.getByRole('status').textContent()).toMatch(/matching “/);
  const select = scope.getByLabel(label, { exact: true });
  await expect.poll(() => options(select)).toContain(choose);
  await select.selectOption({ label: choose });
  return select;
};

describe('pickers of monitors and heartbeats', () => {
  it('a status page: a monitor past the hundredth found by searching, heartbeat 1 (past the first page) by Show more; saved and named', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), '/status-pages/new');
    await page.setViewportSize({ width: 1280, height: 900 });
    const form = page.getByRole('form', { name: 'New status page' });
    await form.getByLabel('Name', { exact: true }).first().fill('Big fleet');
    await form.getByRole('button', { name: 'Add component' }).click();
    const first = form.getByRole('group', { name: 'Component 1' });
    await first.getByLabel('Name', { exact: true }).fill('Billing');
    const monitor = first.getByLabel('Monitor', { exact: true });
    // Before searching: one page of the newest, and the way to the rest is said.
    await expect.poll(async () => (await options(monitor)).length).toBe(101);
    expect(await first.getByRole('status').textContent()).toMatch(/100 shown, more below/);
    // One of those after the hundredth, not among them (the page holds the newest, all made at once).
    const firstPage = await options(monitor);
    const target = [...ids.keys()].find(
      (n) => /^Service 1[0-9]{2}$/.test(n) && n > 'Service 100' && !firstPage.includes(n),
    )!;
    expect(target).toBeDefined();
    // Searching asks the server, by name or by address (the target).
    await pickIn(first, 'Monitor', target.toLowerCase(), target);
    await first.getByRole('searchbox', { name: 'Search' }).fill('service 15');
    await expect
      .poll(async () => (await options(monitor)).slice(1).sort())
      .toEqual([...new Set([target, ...Array.from({ length: 10 }, (_, i) => `Service 15${i}`)])].sort());
    await first.getByRole('searchbox', { name: 'Search' }).fill('HOST-001.internal');
    await expect.poll(() => options(monitor)).toEqual(['Choose…', target, 'Service 001']);
    // The choice stays chosen (and shown) while the search moves on.
    expect(await monitor.inputValue()).toBe(ids.get(target));
    await first.getByRole('searchbox', { name: 'Search' }).fill('no such thing');
    await expect
      .poll(() => first.getByRole('status').textContent())
      .toBe('No monitor matches “no such thing”.');
    expect(await monitor.inputValue()).toBe(ids.get(target));
    await page.screenshot({ path: '/tmp/h8-picker-status-page-1280.png', fullPage: true });

    await form.getByRole('button', { name: 'Add component' }).click();
    const second = form.getByRole('group', { name: 'Component 2' });
    await second.getByLabel('Name', { exact: true }).fill('Nightly');
    await second.getByLabel('Shows').selectOption({ label: 'A heartbeat’s status' });
    const heartbeat = second.getByLabel('Heartbeat', { exact: true });
    await expect.poll(async () => (await options(heartbeat)).length).toBe(101);
    expect(await options(heartbeat)).not.toContain('Job 001');
    await second.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(async () => (await options(heartbeat)).length).toBe(121);
    expect(await second.getByRole('button', { name: 'Show more' }).count()).toBe(0);
    await heartbeat.selectOption({ label: 'Job 001' });

    await form.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/status-pages\/[0-9a-f-]{36}$/);
    const pageId = /\/status-pages\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
    const stored = await call('GET', `/status-pages/${pageId}`);
    expect(
      stored.components.map((c: { monitor_id: string | null; heartbeat_id: string | null }) => [
        c.monitor_id,
        c.heartbeat_id,
      ]),
    ).toEqual([
      [ids.get(target), null],
      [null, ids.get('Job 001')],
    ]);
    // Named on the page's screen, though neither is among the first hundred.
    await page.getByText(`Monitor: ${target}`).waitFor();
    await page.getByText('Heartbeat: Job 001').waitFor();

    // Editing: the stored choice is shown by name before any search.
    await page.goto(lookout.url('demo', `/status-pages/${pageId}/edit`));
    const edit = page.getByRole('form', { name: 'Edit Big fleet' });
    const editMonitor = edit
      .getByRole('group', { name: 'Component 1' })
      .getByLabel('Monitor', { exact: true });
    await expect.poll(() => editMonitor.inputValue()).toBe(ids.get(target));
    await expect.poll(() => editMonitor.locator('option:checked').textContent()).toBe(target);

    await page.setViewportSize({ width: 390, height: 844 });
    await edit
      .getByRole('group', { name: 'Component 1' })
      .getByRole('searchbox', { name: 'Search' })
      .fill('service 10');
    // Service 100 to 109, and the chosen one unless it is among them.
    await expect
      .poll(async () => (await options(editMonitor)).length)
      .toBe(/^Service 10\d$/.test(target) ? 11 : 12);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: '/tmp/h8-picker-status-page-390.png', fullPage: true });
    await context.close();
  });

  it('a maintenance window for monitor 101 and one for heartbeat 2, each named in the list', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), '/routing/maintenance');
    await page.setViewportSize({ width: 1280, height: 900 });
    const form = page.getByRole('form', { name: 'New window' });
    await form.getByLabel('Name', { exact: true }).fill('Database upgrade');
    await form.getByLabel('Applies to').selectOption({ label: 'One monitor' });
    await pickIn(form, 'Monitor', 'Service 101', 'Service 101');
    await page.screenshot({ path: '/tmp/h8-picker-maintenance-1280.png', fullPage: true });
    await form.getByRole('button', { name: 'Create window' }).click();
    const row = page.getByRole('row', { name: /Database upgrade/ });
    await row.getByText('Monitor: Service 101').waitFor();

    await form.getByLabel('Name', { exact: true }).fill('Cron host reboot');
    await form.getByLabel('Applies to').selectOption({ label: 'One heartbeat' });
    await pickIn(form, 'Heartbeat', 'job 002', 'Job 002');
    await form.getByRole('button', { name: 'Create window' }).click();
    await page
      .getByRole('row', { name: /Cron host reboot/ })
      .getByText('Heartbeat: Job 002')
      .waitFor();
    const windows = await call('GET', '/maintenance-windows');
    expect(windows.data.map((w: { name: string; scope_id: string }) => [w.name, w.scope_id]).sort()).toEqual([
      ['Cron host reboot', ids.get('Job 002')],
      ['Database upgrade', ids.get('Service 101')],
    ]);
    await page.setViewportSize({ width: 390, height: 844 });
    await form.getByLabel('Applies to').selectOption({ label: 'One monitor' });
    await form.getByRole('searchbox', { name: 'Search' }).fill('host-15');
    await expect
      .poll(async () => (await options(form.getByLabel('Monitor', { exact: true }))).length)
      .toBe(11);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: '/tmp/h8-picker-maintenance-390.png', fullPage: true });
    await context.close();
  });
});
