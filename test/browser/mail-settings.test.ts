import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * Mail settings in a real browser against a real control plane started without any SMTP server
 * (as `npm start` runs it): admins see a banner that links to Settings → Mail, fill in a real SMTP
 * server on loopback (which wants a login), save, and send a test that arrives. Members see neither.
 * Everything is found by role and accessible name.
 */
let lookout: Lookout;
let browser: Browser;
let member: { email: string; password: string };
let smtp: SMTPServer;
let smtpPort: number;
const mails: (ParsedMail & { rcpt: string[]; user: unknown })[] = [];
/** Screenshots to look at (SCREENSHOTS=dir keeps them somewhere else). */
const shots = process.env.SCREENSHOTS ?? join(tmpdir(), 'lookout-mail-shots');

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  smtp = new SMTPServer({
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === 'alerts' && auth.password === 'correct horse battery')
        return cb(null, { user: auth.username });
      cb(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
    },
    onData(stream, session, cb) {
      simpleParser(stream)
        .then((m) => {
          mails.push(
            Object.assign(m, { rcpt: session.envelope.rcptTo.map((r) => r.address), user: session.user }),
          );
          cb();
        })
        .catch(cb);
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  lookout = await startLookout();
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
  await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
});

const banner = (page: Page) => page.getByRole('region', { name: 'Mail not set up' });

describe('mail settings in chromium', () => {
  it('admins see the banner, follow it to Mail settings, save a server and send a test that arrives', async () => {
    const admin = { email: lookout.adminEmail, password: lookout.password };
    const { context, page } = await signedInAt(browser, lookout, admin);
    await banner(page).waitFor();
    expect(await banner(page).textContent()).toContain('Alert email cannot be sent');
    await page.screenshot({ path: join(shots, 'banner-desktop.png'), fullPage: true });
    await banner(page).getByRole('link', { name: 'Set up mail' }).click();
    await page.waitForURL(lookout.url('demo', '/settings/mail'));
    await page.getByRole('heading', { name: 'Mail settings', level: 1 }).waitFor();
    expect(await banner(page).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Mail', exact: true }).getAttribute('aria-current')).toBe(
      'page',
    );
    await page.getByRole('status').filter({ hasText: 'no SMTP server is set' }).waitFor();

    // Bad input: the server names every bad field, shown at its field.
    await page.getByLabel('SMTP host').fill('smtp://mail.example.com');
    await page.getByLabel('Port').fill('99999');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('must be a host name or an IP address').waitFor();
    expect(await page.getByLabel('SMTP host').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Port').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('From address').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('SMTP host').fill('127.0.0.1');
    await page.getByLabel('TLS').selectOption({ label: 'None (a relay on a private network)' });
    expect(await page.getByLabel('Port').inputValue()).toBe('99999');
    await page.getByLabel('Port').fill(String(smtpPort));
    await page.getByLabel('Username').fill('alerts');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByLabel('From address').fill('Demo Alerts <alerts@demo.localhost>');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Mail settings saved.' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'through this workspace’s SMTP server' }).waitFor();
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    await page.getByText('A password is stored. Leave empty to keep it.').waitFor();

    await page.getByRole('button', { name: 'Send test' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Test email sent to ${lookout.adminEmail}.` })
      .waitFor();
    const mail = mails.find((m) => m.rcpt.includes(lookout.adminEmail))!;
    expect(mail.subject).toBe('[Lookout demo] Test email');
    expect(mail.from?.value[0]).toMatchObject({ name: 'Demo Alerts', address: 'alerts@demo.localhost' });
    expect(mail.user).toBe('alerts');
    await page.screenshot({ path: join(shots, 'mail-settings-desktop.png'), fullPage: true });

    // Unsaved changes are not what a test sends with.
    await page.getByLabel('Username').fill('someone-else');
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByRole('alert').filter({ hasText: 'Save your changes first' }).waitFor();

    // Elsewhere, the banner is gone now.
    const asked = page.waitForResponse((r) => r.url().endsWith('/api/v1/settings/mail'));
    await page.getByRole('link', { name: 'Monitors' }).click();
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    expect((await (await asked).json()).transport).toBe('workspace');
    expect(await banner(page).count()).toBe(0);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(lookout.url('demo', '/settings/mail'));
    await page.getByRole('status').filter({ hasText: 'through this workspace’s SMTP server' }).waitFor();
    await page.screenshot({ path: join(shots, 'mail-settings-phone.png'), fullPage: true });
    await context.close();
  });

  it('with the settings removed admins see the banner again; members see no banner, no Mail entry, no controls', async () => {
    const removed = await lookout.api(
      'demo',
      '/settings/mail',
      { 'x-api-key': lookout.apiKey },
      { method: 'DELETE' },
    );
    expect(removed.status).toBe(204);
    const admin = await signedInAt(browser, lookout, {
      email: lookout.adminEmail,
      password: lookout.password,
    });
    await admin.page.setViewportSize({ width: 390, height: 844 });
    await banner(admin.page).getByRole('link', { name: 'Set up mail' }).waitFor();
    await admin.page.screenshot({ path: join(shots, 'banner-phone.png') });
    await admin.context.close();

    const { context, page } = await signedInAt(browser, lookout, member);
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Mail', exact: true }).count()).toBe(0);
    await page.goto(lookout.url('demo', '/settings/mail'));
    await page.getByText('Only admins of the workspace manage mail settings.').waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await banner(page).count()).toBe(0);
    await context.close();
  });
});
