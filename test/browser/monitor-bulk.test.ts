import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * Bulk actions on the monitors page in chromium against a real control plane: row checkboxes, the
 * action bar, the confirmation that names the count, the list refreshed after. Screenshots to
 * /tmp/bulk-*.png (SCREENSHOTS=dir keeps them somewhere else).
 */
const shots = process.env.SCREENSHOTS ?? tmpdir();
const MANY = 130;
const pad = (i: number) => String(i).padStart(3, '0');

let lookout: Lookout;
let browser: Browser;

const call = async (method: string, path: string, json?: unknown) => {
  const r = await lookout.api('demo', path, { 'x-api-key': lookout.apiKey }, { method, json });
  expect(r.status, r.body.slice(0, 300)).toBeLessThan(300);
  return r.body ? JSON.parse(r.body) : undefined;
};
const admin = () => ({ email: lookout.adminEmail, password: lookout.password });
const monitor = (name: string) => ({
  display_name: name,
  monitor_type: 'tcp',
  url: `${name.toLowerCase().replace(/\W+/g, '-')}.example`,
  port: 5432,
  check_interval_seconds: 60,
  check_locations: ['eu-west'],
});
const statusOf = async (name: string) =>
  (await call('GET', `/monitors?q=${encodeURIComponent(name)}`)).data[0]?.status as string | undefined;
const list = (page: Page) => page.getByRole('region', { name: /monitors$/i });

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  lookout = await startLookout({ LOOKOUT_LOCAL_AGENTS: '' });
  browser = await launchBrowser();
  await call('POST', '/monitors/batch', {
    monitors: Array.from({ length: MANY }, (_, i) => monitor(`Service ${pad(i + 1)}`)),
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

describe('bulk actions on the monitors page', () => {
  it('pauses the rows picked after a confirmation naming the count, then shows them paused', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin());
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByLabel('Search').fill('Service 00');
    await expect.poll(() => page.getByRole('checkbox', { name: /^Select Service/ }).count()).toBe(9);
    await page.getByRole('checkbox', { name: 'Select Service 001' }).check();
    await page.getByRole('checkbox', { name: 'Select Service 002' }).check();
    const bar = page.getByRole('region', { name: 'Selected monitors' });
    await bar.getByText('2 selected.').waitFor();
    await page.screenshot({ path: join(shots, 'bulk-selected-1280.png'), fullPage: true });
    await bar.getByRole('button', { name: 'Pause' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pause 2 monitors?' });
    await dialog.waitFor();
    await page.screenshot({ path: join(shots, 'bulk-confirm-1280.png') });
    // Cancel changes nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await statusOf('Service 001')).not.toBe('paused');
    await bar.getByRole('button', { name: 'Pause' }).click();
    await dialog.getByRole('button', { name: 'Pause 2 monitors' }).click();
    await page.getByRole('status').getByText('Paused 2 monitors.').waitFor();
    expect(await statusOf('Service 001')).toBe('paused');
    expect(await statusOf('Service 002')).toBe('paused');
    expect(await statusOf('Service 003')).not.toBe('paused');
    // The list shows it without a reload, and the selection is gone.
    await list(page)
      .getByRole('row', { name: /Service 001/ })
      .getByText('Paused')
      .waitFor();
    expect(await page.getByRole('checkbox', { name: 'Select Service 001' }).isChecked()).toBe(false);
    await context.close();
  });

  it('sets the escalation policy of every row shown, and deletes with a danger confirmation; at 390 px too', async () => {
    const adminId = (await call('GET', '/users')).data[0].id;
    const policy = await call('POST', '/escalation-policies', {
      name: 'Database on-call',
      steps: [{ wait_minutes: 0, notify_user_ids: [adminId] }],
    });
    const { context, page } = await signedInAt(browser, lookout, admin());
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Search').fill('Service 01');
    await expect.poll(() => page.getByRole('checkbox', { name: /^Select Service/ }).count()).toBe(10);
    await page.getByRole('checkbox', { name: 'Select all shown' }).check();
    const bar = page.getByRole('region', { name: 'Selected monitors' });
    await bar.getByText('10 selected.').waitFor();
    await page.screenshot({ path: join(shots, 'bulk-selected-390.png'), fullPage: true });
    {
      await bar.getByRole('button', { name: 'Set policy' }).click();
      const dialog = page.getByRole('dialog', { name: 'Set the escalation policy of 10 monitors?' });
      await dialog.getByLabel('Escalation policy').selectOption({ label: 'Database on-call' });
      await page.screenshot({ path: join(shots, 'bulk-policy-390.png') });
      await dialog.getByRole('button', { name: 'Set policy' }).click();
      await page.getByRole('status').getByText('Set the escalation policy of 10 monitors.').waitFor();
      const m = (await call('GET', '/monitors?q=Service%20015')).data[0];
      expect(m.escalation_policy_id).toBe(policy.id);
      await page.getByRole('checkbox', { name: 'Select all shown' }).check();
    }
    await bar.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete 10 monitors?' });
    await dialog.getByText('This cannot be undone.').waitFor();
    await page.screenshot({ path: join(shots, 'bulk-delete-390.png') });
    await dialog.getByRole('button', { name: 'Delete 10 monitors' }).click();
    await page.getByRole('status').getByText('Deleted 10 monitors.').waitFor();
    await page.getByText('No monitor matches “Service 01”.').waitFor();
    expect((await call('GET', '/monitors?q=Service%2001')).data).toEqual([]);
    await context.close();
  });

  it('sets the group and adds tags; a bad tag is named and nothing changes', async () => {
    const group = await call('POST', '/groups', { name: 'Databases' });
    const { context, page } = await signedInAt(browser, lookout, admin());
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByLabel('Search').fill('Service 02');
    await expect.poll(() => page.getByRole('checkbox', { name: /^Select Service/ }).count()).toBe(10);
    for (const i of [1, 2, 3]) await page.getByRole('checkbox', { name: `Select Service 02${i}` }).check();
    const bar = page.getByRole('region', { name: 'Selected monitors' });
    await bar.getByRole('button', { name: 'Set group' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set the group of 3 monitors?' });
    await dialog.getByLabel('Group').selectOption({ label: 'Databases' });
    await dialog.getByRole('button', { name: 'Set group' }).click();
    await page.getByRole('status').getByText('Set the group of 3 monitors.').waitFor();
    expect((await call('GET', '/monitors?q=Service%20022')).data[0].group_id).toBe(group.id);

    for (const i of [1, 2, 3]) await page.getByRole('checkbox', { name: `Select Service 02${i}` }).check();
    await bar.getByRole('button', { name: 'Add tags' }).click();
    const tags = page.getByRole('dialog', { name: 'Add tags to 3 monitors?' });
    await tags.getByLabel('Tags').fill('env:prod, Team DB');
    await tags.getByRole('button', { name: 'Add tags' }).click();
    await tags.getByRole('alert').getByText('“Team”: must be key or key:value', { exact: false }).waitFor();
    await page.screenshot({ path: join(shots, 'bulk-tags-error-1280.png') });
    expect((await call('GET', '/monitors?q=Service%20021')).data[0].tags).toEqual([]);
    await tags.getByLabel('Tags').fill('env:prod team-db');
    await tags.getByRole('button', { name: 'Add tags' }).click();
    await page.getByRole('status').getByText('Added tags to 3 monitors.').waitFor();
    expect((await call('GET', '/monitors?q=Service%20021')).data[0].tags).toEqual(['env:prod', 'team-db']);
    await context.close();
  });

  it('offers no selection to a viewer', async () => {
    const r = await lookout.cli([
      'user',
      'create',
      '--workspace',
      'demo',
      '--email',
      'vera@demo.localhost',
      '--role',
      'viewer',
    ]);
    const { context, page } = await signedInAt(browser, lookout, {
      email: r.user.email,
      password: r.user.password,
    });
    // The list is by status, then name: some service heads it, whichever the earlier cases paused.
    await list(page)
      .getByRole('link', { name: /^Service \d+$/ })
      .first()
      .waitFor();
    expect(await page.getByRole('checkbox').count()).toBe(0);
    await context.close();
  });

  it('selects all the filter matches beyond the page, and the confirmation names their count', async () => {
    const left = (await call('GET', '/monitors/counts?q=Service')).total as number;
    expect(left).toBeGreaterThan(100);
    // A search shows one list (the workspace has a group by now, which would show sections).
    const { context, page } = await signedInAt(browser, lookout, admin());
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByLabel('Search').fill('Service');
    await expect.poll(() => page.getByRole('checkbox', { name: /^Select Service/ }).count()).toBe(100);
    await page.getByRole('checkbox', { name: 'Select all shown' }).check();
    const bar = page.getByRole('region', { name: 'Selected monitors' });
    await bar.getByRole('button', { name: `Select all ${left} matching` }).click();
    await bar.getByText(`All ${left} matching monitors selected.`).waitFor();
    await page.screenshot({ path: join(shots, 'bulk-all-matching-1280.png') });
    await bar.getByRole('button', { name: 'Pause' }).click();
    await page
      .getByRole('dialog', { name: `Pause ${left} monitors?` })
      .getByRole('button', { name: `Pause ${left} monitors` })
      .click();
    await page
      .getByRole('status')
      .getByText(/^Paused \d+ monitors\.$/)
      .waitFor();
    expect((await call('GET', '/monitors/counts')).paused).toBe(left);
    await context.close();
  });
});
