import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, startSmtp } from '../support/receivers.js';
import { waitFor } from '../support/wait.js';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * Notification settings and one-click acknowledge in a real browser, against a real control plane
 * sending real mail to a real SMTP server: a member adds a contact method, sends themselves a code,
 * enters it, and removes another; an alert's email carries a link whose page acknowledges it with
 * one button, no sign-in. Everything is found by role and accessible name.
 */
let lookout: Lookout;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let member: { email: string; password: string };
const shots = process.env.SCREENSHOTS ?? join(tmpdir(), 'lookout-notification-shots');

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  smtp = await startSmtp();
  lookout = await startLookout({
    LOOKOUT_SMTP_HOST: '127.0.0.1',
    LOOKOUT_SMTP_PORT: String(smtp.port),
    LOOKOUT_ESCALATION_POLL_MS: '100',
  });
  const m = await lookout.cli([
    'user',
    'create',
    '--workspace',
    'demo',
    '--email',
    'mo@demo.localhost',
    '--role',
    'member',
  ]);
  member = { email: m.user.email, password: m.user.password };
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
  await smtp?.close();
});

const mailTo = async (to: string, subject: string) =>
  (await waitFor(
    async () => smtp.mails.filter((m) => m.rcpt.includes(to) && m.subject?.includes(subject)).at(-1),
    (m) => m !== undefined,
    { what: `mail "${subject}" to ${to}` },
  ))!;

describe('notification settings in chromium', () => {
  it('a member adds a contact method from the settings menu, verifies it with the mailed code, and removes another', async () => {
    const { context, page } = await signedInAt(browser, lookout, member);
    await page.getByRole('link', { name: 'Notification settings' }).click();
    await page.waitForURL(lookout.url('demo', '/settings/notifications'));
    await page.getByRole('heading', { name: 'Notification settings', level: 1 }).waitFor();

    const add = page.getByRole('form', { name: 'Add a contact method' });
    // Only the kinds this installation has set up are offered (the list arrives after the form).
    const kinds = add.getByLabel('Type').locator('option');
    await kinds.first().waitFor({ state: 'attached' });
    expect(await kinds.allTextContents()).toEqual(['Email', 'ntfy']);
    await add.getByLabel('Email address').fill('not an address');
    await add.getByRole('button', { name: 'Add' }).click();
    await add.getByText('Invalid email address').waitFor();
    await add.getByLabel('Email address').fill('mo-phone@demo.localhost');
    await add.getByRole('button', { name: 'Add' }).click();
    const mail = page.getByRole('listitem', { name: 'Email mo-phone@demo.localhost' });
    await mail.waitFor();
    await add.getByLabel('Type').selectOption('ntfy');
    await add.getByLabel('ntfy topic').fill('mo-alerts');
    await add.getByRole('button', { name: 'Add' }).click();

    const ntfy = page.getByRole('listitem', { name: 'ntfy https://ntfy.sh/mo-alerts' });
    await mail.getByText('Not verified').waitFor();
    await ntfy.waitFor();
    await page.screenshot({ path: join(shots, 'notification-settings-added.png'), fullPage: true });

    await mail.getByRole('button', { name: 'Send code' }).click();
    await mail.getByText('Code sent to mo-phone@demo.localhost').waitFor();
    const code = /verification code is (\d{6})/.exec(
      (await mailTo('mo-phone@demo.localhost', 'verification code')).text ?? '',
    )![1]!;
    await mail.getByLabel('Verification code').fill(code === '000000' ? '000001' : '000000');
    await mail.getByRole('button', { name: 'Verify' }).click();
    await mail.getByText('Code is not the code we sent').waitFor();
    await mail.getByLabel('Verification code').fill(code);
    await mail.getByRole('button', { name: 'Verify' }).click();
    await mail.getByText('Verified', { exact: true }).waitFor();

    await ntfy.getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove https://ntfy.sh/mo-alerts?' });
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await ntfy.waitFor({ state: 'detached' });
    await page.screenshot({ path: join(shots, 'notification-settings-verified.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(shots, 'notification-settings-phone.png'), fullPage: true });
    await context.close();
  });

  it('the acknowledge link in an alert email opens a page whose one button acknowledges the alert, signed out', async () => {
    const key = { 'x-api-key': lookout.apiKey };
    const created = await lookout.api('demo', '/integrations', key, {
      method: 'POST',
      json: { name: 'hook', kind: 'webhook' },
    });
    expect(created.status).toBe(201);
    const serviceKey = JSON.parse(created.body).service_key;
    const sent = await lookout.api(
      'demo',
      '/integrations/webhook/events',
      { 'x-lookout-service-key': serviceKey },
      {
        method: 'POST',
        json: { title: 'Checkout failing', dedup_key: 'checkout' },
      },
    );
    expect(sent.status).toBe(202);
    const mail = await mailTo(lookout.adminEmail, 'Checkout failing');
    const link = /Acknowledge: (\S+)/.exec(mail.text ?? '')![1]!;

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Acknowledge this alert?' }).waitFor();
    await page.screenshot({ path: join(shots, 'ack-page.png'), fullPage: true });
    const alerts = async () => JSON.parse((await lookout.api('demo', '/alerts', key)).body).data;
    expect((await alerts())[0].status).toBe('open');
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await page.getByRole('heading', { name: 'Acknowledged' }).waitFor();
    await page.screenshot({ path: join(shots, 'ack-done.png'), fullPage: true });
    const [alert] = await alerts();
    expect(alert.status).toBe('acknowledged');
    expect(alert.acknowledged_by).toMatchObject({
      type: 'link',
      via: 'email',
      recipient: lookout.adminEmail,
    });
    await page.goto(link);
    await page.getByRole('heading', { name: 'Already acknowledged' }).waitFor();
    await context.close();

    // The alert's timeline in the app says who, and how.
    const admin = await signedInAt(
      browser,
      lookout,
      { email: lookout.adminEmail, password: lookout.password },
      `/alerts/${alert.id}`,
    );
    await admin.page
      .getByText(`Acknowledged by ${lookout.adminEmail}, from the link in their email notification`)
      .waitFor();
    await admin.page.screenshot({ path: join(shots, 'alert-acknowledged-by-link.png'), fullPage: true });
    await admin.context.close();
  });

  it('the alert page names the channel it reached and says when it was told of the recovery', async () => {
    const key = { 'x-api-key': lookout.apiKey };
    const rx = await startReceiver();
    try {
      const post = async (path: string, json: unknown) => {
        const r = await lookout.api('demo', path, key, { method: 'POST', json });
        expect(r.status, r.body).toBeLessThan(300);
        return JSON.parse(r.body);
      };
      const hook = await post('/channels', {
        name: 'Ops hook',
        type: 'webhook',
        config: { url: rx.url('/ops') },
      });
      const policy = await post('/escalation-policies', {
        name: 'Ops',
        steps: [{ wait_minutes: 0, notify_channel_ids: [hook.id] }],
      });
      const integration = await post('/integrations', {
        name: 'deploys',
        kind: 'webhook',
        escalation_policy_id: policy.id,
      });
      const sent = await lookout.api(
        'demo',
        '/integrations/webhook/events',
        { 'x-lookout-service-key': integration.service_key },
        { method: 'POST', json: { title: 'Deploy stuck', dedup_key: 'deploy' } },
      );
      expect(sent.status).toBe(202);
      await waitFor(
        async () => rx.on('/ops').length,
        (n) => n === 1,
        { what: 'the webhook notified' },
      );
      const alertId: string = rx.on('/ops')[0]!.json.alert.id;
      await post('/alerts/resolve', { UUIDs: [alertId] });
      await waitFor(
        async () => rx.on('/ops').length,
        (n) => n === 2,
        { what: 'the webhook told of the resolve' },
      );
      expect(rx.on('/ops')[1]!.json).toMatchObject({ event: 'alert.resolved', alert: { id: alertId } });

      const admin = await signedInAt(
        browser,
        lookout,
        { email: lookout.adminEmail, password: lookout.password },
        `/alerts/${alertId}`,
      );
      await admin.page.getByText('Notified Ops hook by webhook: sent').waitFor();
      await admin.page.getByText('Told it was resolved: Ops hook by webhook: sent').waitFor();
      expect(await admin.page.getByText(/127\.0\.0\.1/).count()).toBe(0);
      await admin.page.screenshot({ path: join(shots, 'alert-timeline-names.png'), fullPage: true });
      if (process.env.SHOTS_TMP) {
        await admin.page.screenshot({ path: `${process.env.SHOTS_TMP}-1280.png`, fullPage: true });
        await admin.page.setViewportSize({ width: 390, height: 844 });
        await admin.page.screenshot({ path: `${process.env.SHOTS_TMP}-390.png`, fullPage: true });
      }
      await admin.context.close();
    } finally {
      await rx.close();
    }
  });
});
