import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * Two-factor sign-in in Chromium: an admin sets up an authenticator app on Settings → Security (the
 * test computes each code from the secret the page shows, with otpauth), signs out, signs in with
 * password and code, then with a recovery code; with "Require two-factor for everyone" on, a new user
 * is led to the security page. Screenshots (LOOKOUT_SHOTS_DIR) at 1280 and 390 px.
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

const shots = process.env.LOOKOUT_SHOTS_DIR;
const shoot = async (page: Page, name: string) => {
  if (!shots) return;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${shots}/totp-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
};
/**
 * A code the server accepts now and has not seen: the current time step or the next (the window is ±1),
 * later than every step used before for that secret (a used step is refused), waiting for the clock when
 * both are used.
 */
const usedSteps = new Map<string, number>();
const nextCode = async (secret: string) => {
  const now = Math.floor(Date.now() / 30_000);
  const step = Math.max(now, (usedSteps.get(secret) ?? 0) + 1);
  if (step > now + 1) await new Promise((r) => setTimeout(r, (step - 1) * 30_000 - Date.now() + 500));
  usedSteps.set(secret, step);
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: step * 30_000 });
};

const signInWithPassword = async (page: Page, email: string, password: string) => {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
};

describe('two-factor sign-in in the web app', () => {
  it('sets up an authenticator app, then signs in with password and code, and with a recovery code', async () => {
    const admin = { email: lookout.adminEmail, password: lookout.password };
    const { context, page } = await signedInAt(browser, lookout, admin, '/settings/security');
    await page.getByRole('heading', { name: 'Passkeys' }).waitFor();
    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    await page.getByRole('img', { name: 'QR code of the authenticator secret' }).waitFor();
    const secret = (await page.getByText(/^[A-Z2-7]{32}$/).textContent())!;
    await shoot(page, 'setup');
    await page.getByLabel('Code from the app').fill('000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page
      .getByText(/The code is not correct/)
      .first()
      .waitFor();
    await page.getByLabel('Code from the app').fill(await nextCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    // allTextContents does not wait: wait for the list to be shown first.
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
    const codes = await page
      .getByRole('list', { name: 'Recovery codes' })
      .getByRole('listitem')
      .allTextContents();
    expect(codes).toHaveLength(10);
    await shoot(page, 'recovery-codes');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText(/Recovery codes left: 10/).waitFor();
    await shoot(page, 'on');

    // Sign out, then in with password and a code.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInWithPassword(page, admin.email, admin.password);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await shoot(page, 'code-step');
    await page.getByLabel('Authentication code').fill('123456');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(/That code is not correct/).waitFor();
    await page.getByLabel('Authentication code').fill(await nextCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    // Signed in, back on the page signing out left.
    await page.getByRole('heading', { name: 'Security' }).waitFor();

    // And with a recovery code, which then works no more.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInWithPassword(page, admin.email, admin.password);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await shoot(page, 'recovery-step');
    await page.getByRole('button', { name: 'Verify' }).click();
    // Signed in, back on the page signing out left.
    await page.getByRole('heading', { name: 'Security' }).waitFor();
    await page.goto(lookout.url('demo', '/settings/security'));
    await page.getByText(/Recovery codes left: 9/).waitFor();

    // The admin requires two-factor for everyone.
    await page.getByRole('checkbox', { name: 'Require two-factor for everyone' }).check();
    await expect
      .poll(async () => (await lookout.api('demo', '/security', { 'x-api-key': lookout.apiKey })).body)
      .toBe('{"require_2fa":true}');
    await context.close();
  });

  it('with two-factor required, a new user is led to the security page until they set it up', async () => {
    const r = await lookout.cli([
      'user',
      'create',
      '--workspace',
      'demo',
      '--email',
      'noa@demo.localhost',
      '--role',
      'member',
    ]);
    const noa = { email: r.user.email as string, password: r.user.password as string };
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(lookout.url('demo', '/monitors'));
    await signInWithPassword(page, noa.email, noa.password);
    await page.waitForURL(lookout.url('demo', '/settings/security'));
    await page.getByRole('alert').filter({ hasText: 'Your workspace requires two-factor sign-in' }).waitFor();
    await shoot(page, 'required');
    // Other pages lead back here; the API refuses the session meanwhile.
    await page.getByRole('link', { name: 'Monitors' }).first().click();
    await page.waitForURL(lookout.url('demo', '/settings/security'));
    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    const secret = (await page.getByText(/^[A-Z2-7]{32}$/).textContent())!;
    await page.getByLabel('Code from the app').fill(await nextCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText(/Recovery codes left: 10/).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('link', { name: 'Monitors' }).first().click();
    await page.waitForURL(lookout.url('demo', '/monitors'));
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    await context.close();
  });
});
