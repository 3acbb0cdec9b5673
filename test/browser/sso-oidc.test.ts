import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcIdp } from '../support/oidc-idp.js';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * Single sign-on in a real browser: an admin sets up OpenID Connect under Settings → Single sign-on
 * (bad input named at its field first), then someone new clicks **Sign in with SSO**, signs in on a
 * real OpenID provider's own form (oidc-provider in its own process) and lands signed in, created
 * just in time with the role their group maps to. A refused sign-in comes back with its reason shown.
 * Screenshots at 1280 and 390 px go to /tmp/oidc-*.png.
 */
let lookout: Lookout;
let browser: Browser;
let idp: Awaited<ReturnType<typeof startOidcIdp>>;

const SIZES = [
  { name: '1280', viewport: { width: 1280, height: 900 } },
  { name: '390', viewport: { width: 390, height: 844 } },
];

const shoot = async (page: Page, name: string) => {
  for (const s of SIZES) {
    await page.setViewportSize(s.viewport);
    await page.screenshot({ path: `/tmp/oidc-${name}-${s.name}.png`, fullPage: true });
  }
  await page.setViewportSize(SIZES[0]!.viewport);
};

beforeAll(async () => {
  lookout = await startLookout();
  idp = await startOidcIdp({
    redirectUri: lookout.url('demo', '/auth/oidc/callback'),
    accounts: {
      kim: { email: 'kim@example.com', email_verified: true, groups: ['lookout-admins'] },
      rex: { email: 'rex@elsewhere.test', email_verified: true, groups: [] },
    },
  });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await idp?.stop();
  await lookout?.stop();
});

describe('single sign-on in chromium', () => {
  it('an admin sets up OpenID Connect; a new person signs in with SSO through the IdP’s form', async () => {
    const admin = { email: lookout.adminEmail, password: lookout.password };
    const { context, page } = await signedInAt(browser, lookout, admin, '/settings/sso');
    await page.getByRole('heading', { name: 'Single sign-on', level: 1 }).waitFor();
    await page.getByRole('checkbox', { name: 'Sign in with OpenID Connect' }).check();
    await page.getByLabel('Issuer').fill('http://idp.example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('must be an https URL (http only on localhost)').waitFor();
    expect(await page.getByLabel('Issuer').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Client ID').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Issuer').fill(idp.issuer);
    await page.getByLabel('Client ID').fill('lookout');
    await page.getByLabel('Client secret').fill(idp.clientSecret);
    await page.getByLabel('Allowed email domains').fill('example.com');
    await page.getByLabel('Group claim').fill('groups');
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByRole('textbox', { name: 'Group 1' }).fill('lookout-admins');
    await page.getByRole('combobox', { name: 'Role of group 1' }).selectOption('admin');
    await page.getByRole('checkbox', { name: lookout.adminEmail }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByText('A secret is stored. Leave empty to keep it.').waitFor();
    await page.getByText(lookout.url('demo', '/auth/oidc/callback')).waitFor();
    await shoot(page, 'sso-settings');
    await context.close();

    const fresh = await browser.newContext();
    const visitor = await fresh.newPage();
    await visitor.goto(lookout.url('demo', '/sign-in'));
    const sso = visitor.getByRole('link', { name: 'Sign in with SSO' });
    await sso.waitFor();
    await shoot(visitor, 'sign-in');
    await sso.click();
    await visitor.getByRole('heading', { name: 'Test identity provider' }).waitFor();
    expect(new URL(visitor.url()).origin).toBe(idp.issuer);
    await visitor.getByLabel('Username').fill('kim');
    await visitor.getByLabel('Password').fill('anything');
    await visitor.getByRole('button', { name: 'Sign in', exact: true }).click();
    await visitor.getByText('kim@example.com').waitFor();
    expect(new URL(visitor.url()).origin).toBe(new URL(lookout.url('demo')).origin);
    expect(await visitor.locator('.role').first().textContent()).toBe('admin');
    await fresh.close();
  });

  it('a refused sign-in comes back to the sign-in page with its reason', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(lookout.url('demo', '/sign-in'));
    await page.getByRole('link', { name: 'Sign in with SSO' }).click();
    await page.getByLabel('Username').fill('rex');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(lookout.url('demo', '/sign-in?error=sso_domain_not_allowed'));
    await page.getByText('Your email domain is not allowed to sign in to this workspace.').waitFor();
    expect(await page.getByLabel('Email').isVisible()).toBe(true);
    await shoot(page, 'sign-in-refused');
    await context.close();
  });

  it('while SSO is enforced the password form is one click away, and only break-glass admins get through it', async () => {
    const asAdmin = { 'x-api-key': lookout.apiKey };
    const current = JSON.parse((await lookout.api('demo', '/sso', asAdmin)).body);
    const { client_secret_set: _, ...oidc } = current.oidc;
    const put = await lookout.api('demo', '/sso', asAdmin, {
      method: 'PUT',
      json: { oidc, enforced: true, break_glass_user_ids: current.break_glass_user_ids },
    });
    expect(put.status, put.body).toBe(200);
    const member = await lookout.cli([
      'user',
      'create',
      '--workspace',
      'demo',
      '--email',
      'mo@demo.localhost',
      '--role',
      'member',
    ]);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(lookout.url('demo', '/sign-in'));
    await page.getByRole('link', { name: 'Sign in with SSO' }).waitFor();
    expect(await page.getByLabel('Email').isVisible()).toBe(false);
    await shoot(page, 'sign-in-enforced');
    await page.getByRole('button', { name: 'Sign in with a password (break-glass admins)' }).click();
    await page.getByLabel('Email').fill(member.user.email);
    await page.getByLabel('Password').fill(member.user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('This workspace requires single sign-on').waitFor();
    await page.getByLabel('Email').fill(lookout.adminEmail);
    await page.getByLabel('Password').fill(lookout.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText(lookout.adminEmail).waitFor();
    await context.close();
  });
});
