import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, startLookout } from './support.js';

/**
 * Failed sign-ins in a real browser: the browser keeps the device cookie the server sets, so a user's
 * own browser still signs in while guesses from elsewhere hold their account shut to unknown browsers;
 * the user sees the failures on the password page and admins on the Users page.
 */
let lookout: Lookout;
let browser: Browser;
let mia: { email: string; password: string };

beforeAll(async () => {
  // Three failures an hour shut the account to unknown browsers; no per-pair backoff, so the test's
  // wrong passwords (all from 127.0.0.1) are answered at once.
  lookout = await startLookout({
    LOOKOUT_SIGN_IN_FAILURES_PER_ACCOUNT_PER_HOUR: '3',
    LOOKOUT_SIGN_IN_BACKOFF_AFTER_FAILURES: '0',
  });
  const m = await lookout.cli([
    'user',
    'create',
    '--workspace',
    'demo',
    '--email',
    'mia@demo.localhost',
    '--role',
    'member',
  ]);
  mia = { email: m.user.email, password: m.user.password };
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

const shots = process.env.LOOKOUT_SHOTS_DIR;

describe('failed sign-ins in the web app', () => {
  it('guesses shut the account to unknown browsers but not to the owner’s; the owner and admins see the failures', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const signIn = async (who: { email: string; password: string }) => {
      await page.getByLabel('Email').fill(who.email);
      await page.getByLabel('Password').fill(who.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    };
    await page.goto(lookout.url('demo', '/settings/password'));
    await signIn(mia);
    await page.getByRole('heading', { name: 'Sign-in activity' }).waitFor();
    expect(await page.getByRole('definition').first().textContent()).toBe('None');
    expect((await context.cookies()).find((c) => c.name === 'lookout_device')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
    });

    // Someone else guesses Mia's password until the account is shut to browsers it does not know.
    const guess = () =>
      lookout.api(
        'demo',
        '/session',
        {},
        { method: 'POST', json: { email: mia.email, password: 'hunter2' } },
      );
    for (let i = 0; i < 3; i++) expect((await guess()).status).toBe(401);
    expect((await guess()).status).toBe(429);

    // Mia sees them on her password page.
    await page.reload();
    await page.getByRole('heading', { name: 'Sign-in activity' }).waitFor();
    const facts = await page.getByRole('definition').allTextContents();
    expect(facts[0]).toMatch(/^3 since your sign-in of /);
    expect(facts[1]).toMatch(/from 127\.0\.0\.1$/);
    await page.getByText(/Not you\? Someone may be guessing your password/).waitFor();
    if (shots) await page.screenshot({ path: `${shots}/password-sign-ins.png`, fullPage: true });

    // Her browser signs in again despite the lockout; a fresh one is held back with a clear reason.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(mia);
    await page.getByRole('heading', { name: 'Sign-in activity' }).waitFor();
    const stranger = await browser.newContext();
    const other = await stranger.newPage();
    await other.goto(lookout.url('demo', '/sign-in'));
    await other.getByLabel('Email').fill(mia.email);
    await other.getByLabel('Password').fill(mia.password);
    await other.getByRole('button', { name: 'Sign in', exact: true }).click();
    await other
      .getByRole('alert')
      .filter({ hasText: /Too many failed sign-ins for this account.*signed in with before/ })
      .waitFor();

    // The admin sees them in the Users list.
    const admin = await browser.newContext();
    const adminPage = await admin.newPage();
    await adminPage.goto(lookout.url('demo', '/settings/users'));
    await adminPage.getByLabel('Email').fill(lookout.adminEmail);
    await adminPage.getByLabel('Password').fill(lookout.password);
    await adminPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    const row = adminPage.getByRole('row', { name: /mia@demo\.localhost/ });
    await row.getByText('3 failed sign-ins').waitFor();
    expect(await row.getByRole('cell').filter({ hasText: '3 failed sign-ins' }).textContent()).toMatch(
      /last .* from 127\.0\.0\.1signed in just now/,
    );
    if (shots) await adminPage.screenshot({ path: `${shots}/users-sign-ins.png`, fullPage: true });
    for (const c of [context, stranger, admin]) await c.close();
  });
});
