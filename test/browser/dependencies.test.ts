import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout, testAgent } from './support.js';

/**
 * Dependencies in Chromium: a monitor's form chooses what it depends on (monitors and heartbeats,
 * searched on the server), a cycle is named in the form, and the detail pages show what holds an
 * alert back, the dependency timeline, and the dependency's held-back count. Results come from a
 * test agent through the real ingestion path. Screenshots to /tmp/deps-*.png at 1280 and 390 px.
 */
let lookout: Lookout;
let browser: Browser;

const call = async (method: string, path: string, json?: unknown) => {
  const r = await lookout.api('demo', path, { 'x-api-key': lookout.apiKey }, { method, json });
  expect(r.status, r.body.slice(0, 300)).toBeLessThan(300);
  return JSON.parse(r.body);
};
const admin = () => ({ email: lookout.adminEmail, password: lookout.password });
const options = (select: Locator) => select.locator('option').allTextContents();
const tcp = (name: string, depends_on: string[] = []) =>
  call('POST', '/monitors/create', {
    display_name: name,
    monitor_type: 'tcp',
    url: `${name.toLowerCase().replace(/\W+/g, '-')}.internal.example`,
    port: 22,
    check_interval_seconds: 60,
    failure_threshold: 1,
    check_locations: ['eu-west'],
    depends_on,
  });

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

describe('dependencies in the web app', () => {
  it('chosen in the form, a cycle named, and the storm held back on the detail pages', async () => {
    const parent = await tcp('Core switch');
    const first = await tcp('Web 1', [parent.id]);
    const second = await tcp('Web 2');
    const backup = await call('POST', '/heartbeats', { display_name: 'Nightly backup' });
    const rack = await call('POST', '/groups', { name: 'Rack 4' });

    const { page } = await signedInAt(browser, lookout, admin(), `/monitors/${second.id}/edit`);
    await page.setViewportSize({ width: 1280, height: 900 });
    const form = page.getByRole('form', { name: 'Edit monitor' });
    const deps = form.getByRole('group', { name: 'Depends on' });
    await deps.getByText('Nothing: its failures always alert.').waitFor();
    // A monitor, found by searching on the server.
    await deps.getByRole('searchbox', { name: 'Search' }).fill('core');
    const monitor = deps.getByLabel('Dependency monitor', { exact: true });
    await expect.poll(() => options(monitor)).toEqual(['Choose…', 'Core switch']);
    await monitor.selectOption({ label: 'Core switch' });
    await deps.getByRole('button', { name: 'Add dependency' }).click();
    // A heartbeat.
    await deps.getByLabel('Kind of dependency').selectOption({ label: 'Heartbeat' });
    const heartbeat = deps.getByLabel('Dependency heartbeat', { exact: true });
    await expect.poll(() => options(heartbeat)).toContain('Nightly backup');
    await heartbeat.selectOption({ label: 'Nightly backup' });
    await deps.getByRole('button', { name: 'Add dependency' }).click();
    await deps.getByRole('button', { name: 'Remove Nightly backup' }).waitFor();
    // A group.
    await deps.getByLabel('Kind of dependency').selectOption({ label: 'Group' });
    const group = deps.getByLabel('Dependency group', { exact: true });
    await expect.poll(() => options(group)).toContain('Rack 4');
    await group.selectOption({ label: 'Rack 4' });
    await deps.getByRole('button', { name: 'Add dependency' }).click();
    await deps.getByRole('button', { name: 'Remove Rack 4' }).waitFor();
    await page.screenshot({ path: '/tmp/deps-form-1280.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: '/tmp/deps-form-390.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(lookout.url('demo', `/monitors/${second.id}`));
    expect((await call('GET', `/monitors/${second.id}`)).depends_on).toEqual([parent.id, backup.id, rack.id]);

    // Removing one keeps the other.
    await page.goto(lookout.url('demo', `/monitors/${second.id}/edit`));
    const again = page.getByRole('form', { name: 'Edit monitor' }).getByRole('group', { name: 'Depends on' });
    await again.getByRole('button', { name: 'Remove Nightly backup' }).click();
    await again.getByRole('button', { name: 'Remove Rack 4' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(lookout.url('demo', `/monitors/${second.id}`));
    expect((await call('GET', `/monitors/${second.id}`)).depends_on).toEqual([parent.id]);

    // A cycle: the core switch cannot depend on a server behind it; the form says the path.
    await page.goto(lookout.url('demo', `/monitors/${parent.id}/edit`));
    const core = page.getByRole('form', { name: 'Edit monitor' }).getByRole('group', { name: 'Depends on' });
    await core.getByRole('searchbox', { name: 'Search' }).fill('web 1');
    const pick = core.getByLabel('Dependency monitor', { exact: true });
    await expect.poll(() => options(pick)).toContain('Web 1');
    await pick.selectOption({ label: 'Web 1' });
    await core.getByRole('button', { name: 'Add dependency' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await core.getByText('Would make a cycle: Core switch → Web 1 → Core switch.').waitFor();
    await page.screenshot({ path: '/tmp/deps-cycle-1280.png', fullPage: true });

    // The storm: the servers' failures arrive before the switch's.
    const agent = await testAgent(lookout, 'eu-west');
    const now = new Date();
    await agent.report([
      { monitorId: parent.id, at: new Date(now.getTime() - 60_000), ok: true },
      { monitorId: first.id, at: new Date(now.getTime() - 60_000), ok: true },
      { monitorId: second.id, at: new Date(now.getTime() - 60_000), ok: true },
    ]);
    await agent.report([
      { monitorId: first.id, at: now, ok: false, error: 'connection refused' },
      { monitorId: second.id, at: now, ok: false, error: 'connection refused' },
    ]);
    await agent.report([{ monitorId: parent.id, at: new Date(), ok: false, error: 'timeout' }]);
    await expect
      .poll(async () => (await call('GET', `/monitors/${first.id}`)).suppressed_by, { timeout: 15_000 })
      .toBe(parent.id);
    await expect
      .poll(async () => (await call('GET', `/monitors/${second.id}`)).suppressed_by, { timeout: 15_000 })
      .toBe(parent.id);
    const open = (await call('GET', '/alerts?status=open')).data;
    expect(open.map((a: { source_id: string }) => a.source_id)).toEqual([parent.id]);

    await page.goto(lookout.url('demo', `/monitors/${first.id}`));
    const panel = page.getByRole('region', { name: 'Dependencies' });
    await panel.getByText('Held back by').waitFor();
    await panel.getByRole('link', { name: 'Core switch' }).first().waitFor();
    await panel.getByText('Suppressed').waitFor();
    await panel.getByText('Kept 30 days, newest first.').waitFor();
    await page.screenshot({ path: '/tmp/deps-detail-1280.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: '/tmp/deps-detail-390.png', fullPage: true });

    await page.goto(lookout.url('demo', `/alerts/${open[0].id}`));
    await page.getByText('Holding back 2 dependents').waitFor();
    await page.screenshot({ path: '/tmp/deps-alert-390.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: '/tmp/deps-alert-1280.png', fullPage: true });

    // A heartbeat's page: what it depends on, chosen in its own form.
    await page.goto(lookout.url('demo', `/heartbeats/${backup.id}`));
    await page.getByRole('button', { name: 'Edit' }).click();
    const hbDeps = page.getByRole('group', { name: 'Depends on' });
    await hbDeps.getByRole('searchbox', { name: 'Search' }).fill('core');
    const hbPick = hbDeps.getByLabel('Dependency monitor', { exact: true });
    await expect.poll(() => options(hbPick)).toContain('Core switch');
    await hbPick.selectOption({ label: 'Core switch' });
    await hbDeps.getByRole('button', { name: 'Add dependency' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await call('GET', `/heartbeats/${backup.id}`)).depends_on)
      .toEqual([parent.id]);
    await page
      .getByRole('region', { name: 'Dependencies' })
      .getByRole('link', { name: 'Core switch' })
      .waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: '/tmp/deps-heartbeat-390.png', fullPage: true });
  }, 120_000);
});
