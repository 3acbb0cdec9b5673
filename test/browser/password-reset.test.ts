import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtp } from '../support/receivers.js';
import { waitFor } from '../support/wait.js';
import { type Lookout, launchBrowser, startLookout } from './support.js';

/**
 * Password reset in a real browser against a real control plane whose mail goes to a real SMTP server
 * on loopback (the deployment's LOOKOUT_SMTP_*): Forgot password? on the sign-in page, the mail caught
 * by the server, its link opened, a new password set twice, then signing in with it. Everything is
 * found by role and accessible name. Screenshots at 1280 and 390 px wide in /tmp/reset-*.png.
 */
let lookout: Lookout;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let member: { email: string; password: string };

beforeAll(async () => {
  smtp = await startSmtp();
  lookout = await startLookout({
    LOOKOUT_SMTP_HOST: '127.0.0.1',
    LOOKOUT_SMTP_PORT: String(smtp.port),
    LOOKOUT_SMTP_FROM: 'Lookout <lookout@demo.localhost>',
  });
  const m = await lookout.cli([
    'user',
    'create',
    '--workspace',
    'demo',
    '--email',
    'rae@demo.localhost',
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

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `/tmp/reset-${name}.png`, fullPage: true });

/** The link of the `n`th reset mail to `address`. */
const linkIn = async (address: string, n: number) => {
  const mails = await waitFor(
    async () => smtp.mails.filter((m) => m.rcpt.includes(address)),
    (m) => m.length >= n,
    { what: `reset mail ${n}` },
  );
  return /(http:\/\/\S+\/reset-password\?token=\S+)/.exec(mails[n - 1]!.text ?? '')![1]!;
};

describe('password reset in chromium', () => {
  it('Forgot password? → the mail → its link → a new password → signing in with it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(lookout.url('demo', '/sign-in'));
    await page.getByRole('link', { name: 'Forgot password?' }).waitFor();
    await shot(page, 'sign-in-1280');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(lookout.url('demo', '/forgot-password'));
    await page.getByRole('button', { name: 'Send reset link' }).click();
    // Nothing typed: the problem is shown at the field.
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Email').fill(member.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const status = page.getByRole('status');
    await status.waitFor();
    expect(await status.textContent()).toContain('If an account exists for that address, we sent a link');
    await shot(page, 'sent-1280');

    const link = await linkIn(member.email, 1);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    // The token leaves the address bar at once.
    expect(page.url()).toBe(lookout.url('demo', '/reset-password'));
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Set new password' }).click();
    expect(await page.getByLabel('New password', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('New password', { exact: true }).fill('a long new passphrase');
    await page.getByLabel('Repeat new password').fill('a long new passphrase!');
    await page.getByRole('button', { name: 'Set new password' }).click();
    expect(await page.getByLabel('Repeat new password').getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'form-errors-1280');
    await page.getByLabel('Repeat new password').fill('a long new passphrase');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL(lookout.url('demo', '/sign-in?reset=done'));
    await page.getByRole('status').waitFor();
    expect(await page.getByRole('status').textContent()).toContain('Your password has been changed');
    await shot(page, 'signed-out-1280');

    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill('a long new passphrase');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(lookout.url('demo', '/monitors'));

    // The link again: refused, with a way to ask for a new one.
    const again = await context.newPage();
    await again.goto(link);
    await again.getByLabel('New password', { exact: true }).fill('another long passphrase');
    await again.getByLabel('Repeat new password').fill('another long passphrase');
    await again.getByRole('button', { name: 'Set new password' }).click();
    await again.getByText('This reset link is not valid').first().waitFor();
    await again.getByRole('link', { name: 'Ask for a new link' }).waitFor();
    await shot(again, 'used-link-1280');
    await context.close();
  });

  it('reads at 390 px wide', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 }, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(lookout.url('demo', '/sign-in'));
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill(member.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').waitFor();
    await shot(page, 'sent-390');
    const link = await linkIn(member.email, 2);
    await page.goto(link);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await shot(page, 'form-errors-390');
    await page.getByLabel('New password', { exact: true }).fill('the third passphrase');
    await page.getByLabel('Repeat new password').fill('the third passphrase');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('status').waitFor();
    await shot(page, 'signed-out-390');
    await context.close();
  });
});
