import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * Support hours in a real browser against a real control plane: the escalation policy editor takes
 * them (a bad time zone is named beside its field), the policies table says them, and a warning alert
 * raised outside them shows, on the alerts list and its own page, that it waits for them. Screenshots
 * at 1280 and 390 px wide go to /tmp/notify-*.png.
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

const key = () => ({ 'x-api-key': lookout.apiKey });
const hh = (h: number) => `${String((h + 24) % 24).padStart(2, '0')}:00`;

describe('support hours in the web app', () => {
  it('the policy editor sets them; a warning alert outside them shows it is waiting', async () => {
    const { context, page } = await signedInAt(
      browser,
      lookout,
      { email: lookout.adminEmail, password: lookout.password },
      '/routing/escalation-policies',
    );
    const row = page.getByRole('row', { name: /Default/ });
    await row.getByRole('button', { name: /^Edit / }).click();
    const form = page.getByRole('form', { name: /^Edit / });
    await form.getByLabel('Warning alerts notify only during support hours').check();
    await form.getByLabel('Time zone').fill('Mars/Olympus');
    await form.getByRole('button', { name: 'Save policy' }).click();
    await expect
      .poll(() => form.getByText('is not an IANA time zone', { exact: false }).count())
      .toBeGreaterThan(0);

    // A range that does not hold now: it starts two hours from now (UTC) and lasts one hour, every day.
    const now = new Date().getUTCHours();
    await form.getByLabel('Time zone').fill('UTC');
    await form.getByLabel('From').fill(hh(now + 2));
    await form.getByLabel('Until').fill(hh(now + 3));
    for (const d of ['Sat', 'Sun']) await form.getByRole('group', { name: 'Days' }).getByLabel(d).check();
    await page.setViewportSize({ width: 1280, height: 900 });
    await form.screenshot({ path: '/tmp/notify-policy-editor-1280.png' });
    await page.setViewportSize({ width: 390, height: 900 });
    await form.screenshot({ path: '/tmp/notify-policy-editor-390.png' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await form.getByRole('button', { name: 'Save policy' }).click();
    await expect
      .poll(() => row.textContent())
      .toContain(`warnings Mon, Tue, Wed, Thu, Fri, Sat, Sun ${hh(now + 2)}–${hh(now + 3)} UTC`);
    const stored = JSON.parse((await lookout.api('demo', '/escalation-policies', key())).body).data[0];
    expect(stored.support_hours).toEqual({
      timezone: 'UTC',
      days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      start: hh(now + 2),
      end: hh(now + 3),
    });

    // A warning alert from an inbound webhook, and a critical one.
    const integration = JSON.parse(
      (
        await lookout.api('demo', '/integrations', key(), {
          method: 'POST',
          json: { name: 'Queue watcher', kind: 'webhook' },
        })
      ).body,
    );
    const send = (title: string, severity: string) =>
      lookout.api(
        'demo',
        '/integrations/webhook/events',
        { authorization: `Bearer ${integration.service_key}` },
        { method: 'POST', json: { title, severity } },
      );
    expect((await send('Queue backlog growing', 'warning')).status).toBeLessThan(300);
    expect((await send('Payments down', 'critical')).status).toBeLessThan(300);

    await page.getByRole('link', { name: 'Alerts' }).first().click();
    const warning = page.getByRole('row', { name: /Queue backlog growing/ });
    await expect.poll(() => warning.textContent(), { timeout: 15_000 }).toMatch(/Waits for support hours/);
    expect(await page.getByRole('row', { name: /Payments down/ }).textContent()).not.toMatch(/Waits/);
    await page.screenshot({ path: '/tmp/notify-alerts-1280.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 900 });
    await page.screenshot({ path: '/tmp/notify-alerts-390.png', fullPage: true });
    await warning.getByRole('link', { name: 'Queue backlog growing' }).click();
    await expect
      .poll(() => page.getByText(/waiting for support hours: notifies no one until/).count())
      .toBe(1);
    await page.screenshot({ path: '/tmp/notify-alert-detail-390.png', fullPage: true });
    await context.close();
  });
});
