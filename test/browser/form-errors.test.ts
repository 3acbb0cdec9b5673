import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * A failed submit on every form of the web app moves the focus to the form's error summary (the
 * GOV.UK pattern: role="alert", a heading, one link per bad field whose target is the field's id), in
 * view wherever the page was scrolled; each link is named by its field and focuses it.
 */
let lookout: Lookout;
let browser: Browser;
let page: Page;
let statusPageId: string;
const admin = () => ({ email: lookout.adminEmail, password: lookout.password });

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
  const created = await lookout.api(
    'demo',
    '/status-pages',
    { 'x-api-key': lookout.apiKey },
    { method: 'POST', json: { name: 'Acme', slug: 'acme', components: [{ name: 'Website' }] } },
  );
  statusPageId = JSON.parse(created.body).id;
  ({ page } = await signedInAt(browser, lookout, admin()));
});
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

const open = async (path: string, heading: string) => {
  await page.goto(lookout.url('demo', path));
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
};

/** Scrolls to the bottom, presses the submit button, and checks the summary as the brief says. */
const submitAndCheck = async (form: Locator, submit: string, fields: string[]) => {
  await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
  await form.getByRole('button', { name: submit, exact: true }).click();
  const summary = form.getByRole('alert', { name: 'There is a problem' });
  await summary.waitFor();
  await expect.poll(() => summary.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  // In view: the top of the summary is on screen.
  const box = await summary.evaluate((el) => ({
    top: el.getBoundingClientRect().top,
    height: el.ownerDocument.defaultView!.innerHeight,
  }));
  expect(box.top).toBeGreaterThanOrEqual(0);
  expect(box.top).toBeLessThan(box.height);
  const named = await summary.getByRole('link').allTextContents();
  expect(named).toEqual(expect.arrayContaining(fields));
  for (const field of fields) {
    const link = summary.getByRole('link', { name: field, exact: true });
    const target = (await link.getAttribute('href'))!.replace(/^#/, '');
    await link.click();
    const focused = await page.evaluate(`(() => {
      const el = document.activeElement;
      return { id: el.id, label: el.labels?.[0]?.textContent?.trim(), invalid: el.getAttribute('aria-invalid') };
    })()`);
    expect(focused).toEqual({ id: target, label: field, invalid: 'true' });
    // The link is described by the field's problem, which a screen reader reads with it.
    const problem = await link.evaluate(
      (a) => a.ownerDocument.getElementById(a.getAttribute('aria-describedby') ?? '')?.textContent ?? '',
    );
    expect(problem.length, field).toBeGreaterThan(3);
  }
  return summary;
};

describe('form errors in chromium', () => {
  it('monitor form: the summary takes the focus at the top and links to each bad field (screenshots 1280 and 390)', async () => {
    for (const [name, width, height] of [
      ['desktop', 1280, 800],
      ['phone', 390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await open('/monitors/new', 'New monitor');
      const form = page.getByRole('form', { name: 'New monitor' });
      await submitAndCheck(form, 'Create monitor', ['Name', 'URL']);
      await form.getByRole('alert', { name: 'There is a problem' }).focus();
      await page.screenshot({ path: `/tmp/h7-form-errors-monitor-${name}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('heartbeat, status page, escalation policy, channel, maintenance window, integration', async () => {
    await open('/heartbeats', 'Heartbeats');
    await submitAndCheck(page.getByRole('form', { name: 'Create heartbeat' }), 'Create heartbeat', ['Name']);

    await open('/status-pages/new', 'New status page');
    const sp = page.getByRole('form', { name: 'New status page' });
    await sp.getByLabel('Slug').fill('Not A Slug');
    await submitAndCheck(sp, 'Save', ['Name', 'Slug']);

    await open('/routing/escalation-policies', 'Escalation policies');
    await page.getByRole('button', { name: 'New policy' }).click();
    await submitAndCheck(page.getByRole('form', { name: 'New policy' }), 'Create policy', ['Name']);

    // A form that lays its fields out in a row: the summary takes a row of its own (screenshots).
    for (const [name, width, height] of [
      ['desktop', 1280, 800],
      ['phone', 390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await open('/routing/channels', 'Channels');
      await submitAndCheck(page.getByRole('form', { name: 'New channel' }), 'Create channel', ['Name']);
      await page.screenshot({ path: `/tmp/h7-form-errors-channel-${name}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    await open('/routing/maintenance', 'Maintenance windows');
    await submitAndCheck(page.getByRole('form', { name: 'New window' }), 'Create window', ['Name']);

    await open('/routing/integrations', 'Integrations');
    await submitAndCheck(page.getByRole('form', { name: 'New integration' }), 'Create integration', ['Name']);
  });

  it('incident report, contact method, user invitation, API key, mail settings, password', async () => {
    await open(`/status-pages/${statusPageId}`, 'Acme');
    await page.getByRole('button', { name: 'Report incident' }).click();
    await submitAndCheck(page.getByRole('form', { name: 'Report incident' }), 'Report incident', [
      'Title',
      'Message',
    ]);

    await open('/settings/notifications', 'Notification settings');
    const add = page.getByRole('form', { name: 'Add a contact method' });
    await add.getByLabel('Email address').fill('not an address');
    await submitAndCheck(add, 'Add', ['Email address']);

    await open('/settings/users', 'Users');
    const invite = page.locator('form').filter({ has: page.getByRole('button', { name: 'Invite user' }) });
    await submitAndCheck(invite, 'Invite user', ['Email']);

    await open('/settings/api-keys', 'API keys');
    const key = page.locator('form').filter({ has: page.getByRole('button', { name: 'Create key' }) });
    await submitAndCheck(key, 'Create key', ['Name']);

    await open('/settings/mail', 'Mail');
    const mail = page.getByRole('form', { name: 'SMTP server' });
    await mail.getByLabel('Port').fill('99999');
    await submitAndCheck(mail, 'Save', ['Port']);

    await open('/settings/password', 'Password');
    const pw = page.locator('form').filter({ has: page.getByRole('button', { name: 'Change password' }) });
    await submitAndCheck(pw, 'Change password', ['Current password', 'New password']);
  });

  it('sign-in: a wrong password puts the focus on the summary with the reason', async () => {
    const context = await browser.newContext();
    const signIn = await context.newPage();
    await signIn.goto(lookout.url('demo', '/sign-in'));
    await signIn.getByLabel('Email').fill(lookout.adminEmail);
    await signIn.getByLabel('Password').fill('wrong password');
    await signIn.getByRole('button', { name: 'Sign in', exact: true }).click();
    const summary = signIn.getByRole('alert', { name: 'There is a problem' });
    await summary.waitFor();
    await expect.poll(() => summary.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(await summary.textContent()).toMatch(/email or password/i);
    await context.close();
  });
});
