import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout, testAgent } from './support.js';

/**
 * The web app's Status pages section in Chromium against a real control plane: a newcomer makes a
 * page from two monitors, opens it logged out, reports an incident, updates and resolves it; a viewer
 * reads everything and gets no controls; a phone's width fits. Found by role and accessible name.
 * Screenshots go to SCREENSHOTS (default a temp dir; `docs/screenshots` for the README).
 */
const shots = process.env.SCREENSHOTS ?? join(tmpdir(), 'lookout-status-pages-ui');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

let lookout: Lookout;
let browser: Browser;
let viewer: { email: string; password: string };
/** Where the editor's Save landed: the page's screen in the web app. */
let screenUrl = '';
let publicUrl = '';

const post = async (path: string, json: unknown) => {
  const r = await lookout.api('demo', path, { 'x-api-key': lookout.apiKey }, { method: 'POST', json });
  expect(r.status, r.body).toBeLessThan(300);
  return JSON.parse(r.body);
};
const admin = () => ({ email: lookout.adminEmail, password: lookout.password });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
/** Nothing on the page is wider than the screen. */
const fits = async (page: Page, width: number) =>
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  lookout = await startLookout();
  browser = await launchBrowser();
  const tcp = (display_name: string) =>
    post('/monitors/create', {
      display_name,
      monitor_type: 'tcp',
      url: 'db-7.internal.example',
      port: 5432,
      check_interval_seconds: 60,
      failure_threshold: 1,
      check_locations: ['eu-west'],
    });
  const api = await tcp('api-gateway-prod');
  const web = await tcp('web-frontend');
  // One check each through the real ingestion path: the API is down, the website up.
  const agent = await testAgent(lookout, 'eu-west');
  await agent.report([
    { monitorId: api.id, at: new Date(Date.now() - 5_000), ok: false, error: 'connection refused' },
    { monitorId: web.id, at: new Date(Date.now() - 5_000), ok: true, responseTimeMs: 12 },
  ]);
  const v = await lookout.cli([
    'user',
    'create',
    '--workspace',
    'demo',
    '--email',
    'vic@demo.localhost',
    '--role',
    'viewer',
  ]);
  viewer = { email: v.user.email, password: v.user.password };
  // The workspace's own mail server, as a team that has set one up: no banner over the pages.
  const mail = await lookout.api(
    'demo',
    '/settings/mail',
    { 'x-api-key': lookout.apiKey },
    {
      method: 'PUT',
      json: {
        host: 'smtp.mail.example',
        port: 587,
        tls: 'starttls',
        from_address: 'Lookout <alerts@demo.localhost>',
      },
    },
  );
  expect(mail.status, mail.body).toBe(200);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

describe('Status pages in the web app', () => {
  it('creates a page from two monitors: every bad field at its field, components ordered by keyboard', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), '/monitors');
    await page.setViewportSize(DESKTOP);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Status pages' }).click();
    await page.getByRole('heading', { name: 'Status pages', level: 1 }).waitFor();
    await page.getByText('No status pages yet.').waitFor();
    await page.getByRole('button', { name: 'New status page' }).click();
    await page.getByRole('heading', { name: 'New status page', level: 1 }).waitFor();

    const form = page.getByRole('form', { name: 'New status page' });
    const pageGroup = form.getByRole('group', { name: 'Page' });
    await pageGroup.getByLabel('Name', { exact: true }).fill('Acme Cloud');
    // The slug follows the name until typed.
    expect(await pageGroup.getByLabel('Slug').inputValue()).toBe('acme-cloud');
    await pageGroup.getByLabel('Slug').fill('Not A Slug');
    await pageGroup.getByLabel('Accent colour').fill('purple');
    await form.getByRole('button', { name: 'Add component' }).click();
    const first = form.getByRole('group', { name: 'Component 1' });
    // Added: the keyboard is in its Name.
    expect(await page.evaluate('document.activeElement?.id')).toBe('spc-0-name');
    await form.getByRole('button', { name: 'Add component' }).click();
    const second = form.getByRole('group', { name: 'Component 2' });
    await second.getByLabel('Name').fill('Website');
    await first.getByLabel('Monitor').selectOption({ label: 'api-gateway-prod' });
    await form.getByRole('button', { name: 'Save' }).click();

    // One 422 naming every bad field; each shown at its field, tied to it for assistive technology.
    const slug = pageGroup.getByLabel('Slug');
    await expect.poll(() => slug.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('must be lower-case letters, digits and dashes').count()).toBe(1);
    expect(await pageGroup.getByLabel('Accent colour').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('must be a colour as #rrggbb').count()).toBe(1);
    expect(await first.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    // No monitor chosen: named too (never saved as a component set by hand).
    expect(await second.getByLabel('Monitor').getAttribute('aria-invalid')).toBe('true');
    expect(await second.getByText('Choose a monitor.').count()).toBe(1);
    expect(page.url()).toBe(lookout.url('demo', '/status-pages/new'));

    await slug.fill('acme');
    await pageGroup.getByLabel('Accent colour').fill('#6d28d9');
    await first.getByLabel('Name').fill('API');
    await first.getByLabel('Group').fill('Platform');
    await second.getByLabel('Monitor').selectOption({ label: 'web-frontend' });
    // A third, set by hand, then removed.
    await form.getByRole('button', { name: 'Add component' }).click();
    await form.getByRole('group', { name: 'Component 3' }).getByLabel('Name').fill('Support desk');
    await form.getByRole('button', { name: 'Remove Support desk' }).click();
    expect(await form.getByRole('group', { name: /^Component \d$/ }).count()).toBe(2);

    // Reorder by keyboard: Website up; the focus follows it (now first, so onto its Down button).
    await form.getByRole('button', { name: 'Move Website up' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate("document.activeElement?.getAttribute('aria-label')"))
      .toBe('Move Website down');
    expect(await form.getByRole('group', { name: 'Component 1' }).getByLabel('Name').inputValue()).toBe(
      'Website',
    );
    expect(await form.getByRole('button', { name: 'Move Website up' }).isDisabled()).toBe(true);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate("document.activeElement?.getAttribute('aria-label')"))
      .toBe('Move Website up');
    expect(await form.getByRole('group', { name: 'Component 1' }).getByLabel('Name').inputValue()).toBe(
      'API',
    );

    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Acme Cloud', level: 1 }).waitFor();
    screenUrl = page.url();
    expect(screenUrl).toMatch(/\/status-pages\/[\w-]+$/);
    // The components in the page's order, each with its live status from its monitor.
    const rows = page.getByRole('table').getByRole('row');
    await expect.poll(() => rows.count()).toBe(3);
    await expect
      .poll(() => rows.nth(1).textContent())
      .toMatch(/^API.*Monitor: api-gateway-prod.*Major outage$/);
    await expect
      .poll(() => rows.nth(2).textContent())
      .toMatch(/^Website.*Monitor: web-frontend.*Operational$/);
    publicUrl = (await page.getByRole('link', { name: 'Open public page' }).getAttribute('href'))!;
    expect(publicUrl).toBe(lookout.url('demo', '/status/acme'));
    if (process.env.SCREENSHOTS) {
      await page.getByRole('link', { name: 'Edit' }).click();
      await page.getByRole('group', { name: 'Component 2' }).waitFor();
      await shot(page, 'status-pages-editor-desktop');
      await page.getByRole('link', { name: 'Cancel' }).click();
    }

    // The list shows it with its slug, public link, visibility and subscriber count (none yet).
    await page.getByRole('link', { name: '← Status pages' }).click();
    const row = page.getByRole('row', { name: /Acme Cloud/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Public');
    const headers = await page.getByRole('columnheader').allTextContents();
    const cells = await row.getByRole('cell').allTextContents();
    // The name is the row's header cell; the other columns line up with the cells.
    expect(cells[headers.indexOf('Subscribers') - 1]).toBe('0');
    expect(await row.getByRole('link', { name: 'Acme Cloud public page' }).getAttribute('href')).toBe(
      publicUrl,
    );
    await context.close();
  });

  it('the public page, logged out, shows both components', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    expect((await page.goto(publicUrl))!.status()).toBe(200);
    await page.getByRole('heading', { name: 'Acme Cloud', level: 1 }).waitFor();
    expect(await page.getByRole('list', { name: 'API: uptime by day' }).count()).toBe(1);
    expect(await page.getByRole('list', { name: 'Website: uptime by day' }).count()).toBe(1);
    expect(await page.locator('body').innerText()).not.toMatch(/api-gateway-prod|web-frontend/);
    await context.close();
  });

  it('reports an incident, posts an update, resolves it and writes its post-mortem; the public page follows', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), new URL(screenUrl).pathname);
    await page.setViewportSize(DESKTOP);
    /** A reader's first visit (a fresh browser: its own cache would rightly keep the page for 5 s). */
    let reader: Page | undefined;
    const publicText = async () => {
      await reader?.context().close();
      reader = await (await browser.newContext()).newPage();
      await reader.goto(publicUrl);
      return reader.locator('body').innerText();
    };

    await page.getByRole('button', { name: 'Report incident' }).click();
    const report = page.getByRole('form', { name: 'Report incident' });
    // Nothing typed: the API names the title and the message.
    await report.getByRole('button', { name: 'Report incident' }).click();
    await expect.poll(() => report.getByLabel('Title').getAttribute('aria-invalid')).toBe('true');
    expect(await report.getByLabel('Message').getAttribute('aria-invalid')).toBe('true');
    await report.getByLabel('Title').fill('Checkout errors');
    await report.getByLabel('Message').fill('Some checkouts fail. We are looking into it.');
    await report.getByLabel('Status').selectOption({ label: 'Identified' });
    await report.getByRole('group', { name: 'Affected components' }).getByLabel('Website').selectOption({
      label: 'Partial outage',
    });
    await report.getByRole('button', { name: 'Report incident' }).click();
    const incident = page.getByRole('article', { name: 'Checkout errors' });
    await incident.waitFor();
    expect(await incident.textContent()).toContain('Affects: Website (partial outage)');
    // The incident's statement makes the component worse on the page's screen too.
    await expect
      .poll(() => page.getByRole('row', { name: /^Website/ }).textContent())
      .toMatch(/Partial outage$/);
    await expect.poll(publicText).toContain('Checkout errors');
    expect(await reader!.locator('body').innerText()).toContain('Some checkouts fail.');

    const update = incident.getByRole('form', { name: 'Update Checkout errors' });
    await update.getByLabel('Message').fill('A fix is deployed; we are watching the error rate.');
    await update.getByLabel('Status').selectOption({ label: 'Monitoring' });
    await update.getByRole('button', { name: 'Post update' }).click();
    const updates = incident.getByRole('list', { name: 'Updates of Checkout errors' }).getByRole('listitem');
    await expect.poll(() => updates.count()).toBe(2);
    expect(await updates.first().textContent()).toMatch(/^Monitoring.*A fix is deployed/);
    expect(await update.getByLabel('Message').inputValue()).toBe('');
    await expect.poll(publicText).toContain('A fix is deployed');
    if (process.env.SCREENSHOTS) await shot(page, 'status-pages-incident-desktop');

    await update.getByLabel('Message').fill('Checkouts work again for everyone.');
    await update.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => updates.count()).toBe(3);
    expect(await updates.first().textContent()).toMatch(/^Resolved.*Checkouts work again/);
    expect(await incident.getByRole('form', { name: 'Update Checkout errors' }).count()).toBe(0);
    await expect
      .poll(() => page.getByRole('row', { name: /^Website/ }).textContent())
      .toMatch(/Operational$/);

    const postmortem = incident.getByRole('form', { name: 'Post-mortem of Checkout errors' });
    await postmortem.getByLabel('Post-mortem (Markdown)').fill('## What happened\n\nA bad **deploy**.');
    await postmortem.getByRole('button', { name: 'Save post-mortem' }).click();
    await postmortem.getByRole('status').filter({ hasText: 'Post-mortem saved.' }).waitFor();
    await expect.poll(publicText).toContain('Checkouts work again for everyone.');
    await reader!.getByText('Post-mortem').click();
    expect(await reader!.getByRole('heading', { name: 'What happened' }).count()).toBe(1);

    // A draft: shown to nobody until published.
    await page.getByRole('button', { name: 'Report incident' }).click();
    await report.getByLabel('Title').fill('Slow search');
    await report.getByLabel('Message').fill('Search is slow.');
    await report.getByRole('checkbox', { name: /Keep it a draft/ }).check();
    await report.getByRole('button', { name: 'Report incident' }).click();
    const draft = page.getByRole('article', { name: 'Slow search' });
    await draft.getByText('Draft', { exact: true }).waitFor();
    expect(await publicText()).not.toContain('Slow search');
    await draft.getByRole('button', { name: 'Publish Slow search' }).click();
    await expect.poll(() => draft.getByText('Draft', { exact: true }).count()).toBe(0);
    await expect.poll(publicText).toContain('Slow search');
    await reader?.context().close();
    await context.close();
  });

  it('protects the page with a password: required when switching, then readers are asked for it', async () => {
    const { context, page } = await signedInAt(
      browser,
      lookout,
      admin(),
      `${new URL(screenUrl).pathname}/edit`,
    );
    const form = page.getByRole('form', { name: 'Edit Acme Cloud' });
    await form.getByLabel('Visibility').selectOption({ label: 'Protected by a password' });
    await form.getByRole('button', { name: 'Save' }).click();
    const password = form.getByLabel('Password', { exact: true });
    await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
    await form.getByText('is required for a page protected by a password').waitFor();
    await password.fill('correct horse battery');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Password protected').waitFor();

    const reader = await browser.newContext();
    const pub = await reader.newPage();
    await pub.goto(publicUrl);
    await pub.getByLabel('Password').fill('correct horse battery');
    await pub.getByRole('button', { name: 'View status' }).click();
    await pub.getByRole('list', { name: 'API: uptime by day' }).waitFor();
    await reader.close();

    // Back to public, as the other tests read it.
    await page.getByRole('link', { name: 'Edit' }).click();
    await form.getByLabel('Visibility').selectOption({ label: 'Public: anyone with the address' });
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Public', { exact: true }).waitFor();
    await context.close();
  });

  it('a viewer reads everything and gets no write controls', async () => {
    const { context, page } = await signedInAt(browser, lookout, viewer, '/status-pages');
    await page.getByRole('row', { name: /Acme Cloud/ }).waitFor();
    expect(await page.getByRole('button', { name: 'New status page' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Acme Cloud', exact: true }).click();
    await page.getByRole('heading', { name: 'Acme Cloud', level: 1 }).waitFor();
    await page.getByRole('article', { name: 'Checkout errors' }).waitFor();
    expect(await page.getByRole('link', { name: 'Open public page' }).count()).toBe(1);
    // The post-mortem is read, not edited.
    expect(
      await page.getByRole('region', { name: 'Post-mortem of Checkout errors' }).textContent(),
    ).toContain('A bad **deploy**.');
    // Nothing to change anything with: no buttons but the navigation's, no fields, no Edit link.
    const buttons = await page.getByRole('main').getByRole('button').count();
    expect(buttons).toBe(0);
    expect(await page.getByRole('main').getByRole('textbox').count()).toBe(0);
    expect(await page.getByRole('main').getByRole('combobox').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    await page.goto(`${screenUrl}/edit`);
    await page.getByText('Viewers read status pages').waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await context.close();
  });

  it('a component whose heartbeat was never pinged reads "No data yet" in the web app, and the page saves unchanged', async () => {
    const beat = await post('/heartbeats', {
      display_name: 'weekly-report',
      period_seconds: 604_800,
      grace_seconds: 3600,
    });
    const created = await post('/status-pages', {
      name: 'Reports',
      slug: 'reports',
      components: [{ name: 'Weekly report', heartbeat_id: beat.id }],
    });
    const { context, page } = await signedInAt(browser, lookout, admin(), `/status-pages/${created.id}`);
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await expect
      .poll(() => page.getByRole('row', { name: /^Weekly report/ }).textContent())
      .toMatch(/No data yet$/);
    await shot(page, 'status-pages-no-data-desktop');
    // The editor shows a linked component, never the live word, and saves it as it was.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('group', { name: 'Component 1' }).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await expect
      .poll(() => page.getByRole('row', { name: /^Weekly report/ }).textContent())
      .toMatch(/No data yet$/);
    await context.close();
  });

  it('works at a phone’s width', async () => {
    const context = await browser.newContext({
      viewport: PHONE,
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await page.goto(lookout.url('demo', '/status-pages'));
    await page.getByLabel('Email').fill(lookout.adminEmail);
    await page.getByLabel('Password').fill(lookout.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('row', { name: /Acme Cloud/ }).waitFor();
    await fits(page, PHONE.width);
    if (process.env.SCREENSHOTS) await shot(page, 'status-pages-list-phone');
    await page.getByRole('link', { name: 'Acme Cloud', exact: true }).click();
    await page.getByRole('article', { name: 'Checkout errors' }).waitFor();
    await fits(page, PHONE.width);
    await page.getByRole('button', { name: 'Report incident' }).click();
    await page.getByRole('form', { name: 'Report incident' }).getByLabel('Title').waitFor();
    await fits(page, PHONE.width);
    if (process.env.SCREENSHOTS) await shot(page, 'status-pages-screen-phone');
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('group', { name: 'Component 2' }).waitFor();
    await fits(page, PHONE.width);
    if (process.env.SCREENSHOTS) await shot(page, 'status-pages-editor-phone');
    await context.close();
  });
});
