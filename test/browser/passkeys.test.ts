import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * Passkeys in Chromium with its virtual authenticator (CDP WebAuthn: CTAP2, built in, resident keys,
 * user verification that passes): a passkey added on Settings → Security, then, signed out, a sign-in
 * with **Sign in with a passkey** alone; and after a password, the passkey as the second step. The
 * relying party is the workspace's host (demo.localhost: a secure context in Chromium over http).
 * Screenshots (LOOKOUT_SHOTS_DIR) at 1280 and 390 px.
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
    await page.screenshot({ path: `${shots}/passkeys-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
};

/** A virtual authenticator in this page, as a laptop's fingerprint reader would be. */
const virtualAuthenticator = async (context: BrowserContext, page: Page) => {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  const credentials = async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return { credentials };
};

const signOut = async (page: Page) => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
};

describe('passkeys in the web app', () => {
  it('adds a passkey on the security page, then signs in with it alone, and as the second step after a password', async () => {
    const admin = { email: lookout.adminEmail, password: lookout.password };
    const { context, page } = await signedInAt(browser, lookout, admin, '/settings/security');
    const authenticator = await virtualAuthenticator(context, page);
    await page.getByRole('heading', { name: 'Passkeys' }).waitFor();
    await page.getByText('No passkeys yet.').waitFor();
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByLabel('Passkey name').fill('This laptop');
    await shoot(page, 'add');
    await page.getByRole('button', { name: 'Create passkey' }).click();
    const row = page.getByRole('row', { name: /This laptop/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([expect.any(String), 'Never', 'Remove']);
    const stored = await authenticator.credentials();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ rpId: 'demo.localhost', isResidentCredential: true });
    await shoot(page, 'list');

    // Signed out, the passkey alone signs in: the browser picks the resident passkey for demo.localhost.
    await signOut(page);
    await shoot(page, 'sign-in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect((await authenticator.credentials())[0]!.signCount).toBeGreaterThan(0);

    // After a password, the passkey is the second step.
    await signOut(page);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await shoot(page, 'second-step');
    await page.getByRole('button', { name: 'Use your passkey' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();

    // Its last use shows; removing it leaves none.
    await page.goto(lookout.url('demo', '/settings/security'));
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).not.toBe('Never');
    await page.getByRole('button', { name: 'Remove This laptop' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove passkey' }).click();
    await page.getByText('No passkeys yet.').waitFor();
    await context.close();
  });

  it('a browser without the passkey is told so and stays on the sign-in page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await virtualAuthenticator(context, page);
    await page.goto(lookout.url('demo', '/sign-in'));
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/No passkey was used|not accepted/);
    await shoot(page, 'no-passkey');
    await context.close();
  });
});
