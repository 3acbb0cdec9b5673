import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSamlIdp } from '../support/saml-idp.js';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * SAML sign-in in a real browser: an admin pastes the IdP's metadata under Settings → Single sign-on
 * (metadata without a signing certificate is named at its field first); then someone new clicks
 * **Sign in with SSO**, the test IdP (samlify, signing its assertions) auto-posts its signed response
 * to the ACS, and they land signed in. Posting the same response again lands on the sign-in page with
 * its reason. Screenshots at 1280 and 390 px go to /tmp/saml-*.png.
 */
let lookout: Lookout;
let browser: Browser;
let idp: Awaited<ReturnType<typeof startSamlIdp>>;

const SIZES = [
  { name: '1280', viewport: { width: 1280, height: 900 } },
  { name: '390', viewport: { width: 390, height: 844 } },
];

const shoot = async (page: Page, name: string) => {
  for (const s of SIZES) {
    await page.setViewportSize(s.viewport);
    await page.screenshot({ path: `/tmp/saml-${name}-${s.name}.png`, fullPage: true });
  }
  await page.setViewportSize(SIZES[0]!.viewport);
};

beforeAll(async () => {
  lookout = await startLookout();
  // The control plane runs on the system clock here; so does the IdP.
  idp = await startSamlIdp({ now: () => Date.now() });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await idp?.close();
  await lookout?.stop();
});

describe('SAML sign-in in chromium', () => {
  it('an admin pastes the IdP metadata; a new person signs in with SSO through the IdP', async () => {
    const admin = { email: lookout.adminEmail, password: lookout.password };
    const { context, page } = await signedInAt(browser, lookout, admin, '/settings/sso');
    await page.getByRole('heading', { name: 'Single sign-on', level: 1 }).waitFor();
    await page.getByRole('checkbox', { name: 'Sign in with SAML' }).check();
    await page.getByLabel('Identity provider metadata').selectOption('xml');
    const noCert = idp.metadata.replace(/<(md:)?KeyDescriptor[\s\S]*?<\/(md:)?KeyDescriptor>/g, '');
    await page.getByLabel('Metadata XML').fill(noCert);
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByText(/has no signing certificate/)
      .first()
      .waitFor();
    expect(await page.getByLabel('Metadata XML').getAttribute('aria-invalid')).toBe('true');
    await shoot(page, 'settings-refused');
    await page.getByLabel('Metadata XML').fill(idp.metadata);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByText(lookout.url('demo', '/auth/saml/metadata')).first().waitFor();
    await shoot(page, 'settings');
    // Groups to roles, set through the API, survive a save from the page (which has no fields for them).
    const put = await lookout.api(
      'demo',
      '/sso',
      { 'x-api-key': lookout.apiKey },
      {
        method: 'PUT',
        json: {
          saml: {
            idp_metadata_xml: idp.metadata,
            default_role: 'viewer',
            group_roles: [{ group: 'sre', role: 'member' }],
          },
        },
      },
    );
    expect(put.status, put.body).toBe(200);
    await page.reload();
    await page.getByLabel('Metadata XML').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await context.close();

    idp.signInAs({ email: 'sam@example.com', groups: ['sre'] });
    const fresh = await browser.newContext();
    const visitor = await fresh.newPage();
    await visitor.goto(lookout.url('demo', '/sign-in'));
    const sso = visitor.getByRole('link', { name: 'Sign in with SSO' });
    await sso.waitFor();
    expect(await sso.getAttribute('href')).toBe('/auth/saml/start');
    // Through the IdP (its page posts the signed response back) to the app, signed in.
    const posted = visitor.waitForRequest((r) => r.url() === lookout.url('demo', '/auth/saml/acs'));
    await sso.click();
    const acs = await posted;
    expect(acs.method()).toBe('POST');
    expect(acs.headers().origin).toBe(idp.base);
    await visitor.getByText('sam@example.com').waitFor();
    expect(new URL(visitor.url()).origin).toBe(new URL(lookout.url('demo')).origin);
    expect(await visitor.locator('.role').first().textContent()).toBe('member');
    await shoot(visitor, 'signed-in');

    // The same response posted again from another browser (a captured answer) is refused, with its reason.
    const form = new URLSearchParams(acs.postData() ?? '');
    const other = await browser.newContext();
    const again = await other.newPage();
    await again.goto(`${idp.base}/`);
    await again.setContent(
      `<form method="post" action="${lookout.url('demo', '/auth/saml/acs')}">
        <input type="hidden" name="SAMLResponse" value="${form.get('SAMLResponse')}">
        <input type="hidden" name="RelayState" value="${form.get('RelayState')}">
        <button>Post again</button></form>`,
    );
    await again.getByRole('button', { name: 'Post again' }).click();
    await again.waitForURL(/\/sign-in\?error=/);
    // No sign-in was started in that browser: the answer belongs to no pending sign-in there.
    await again
      .getByText('No sign-in was started in this browser, or it took too long.', { exact: false })
      .waitFor();
    expect(await again.getByLabel('Email').isVisible()).toBe(true);
    await shoot(again, 'replay-refused');
    await other.close();
    await fresh.close();
  });
});
