import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, startLookout } from './support.js';

/**
 * The web app in a real browser (Debian's chromium through playwright-core) against a real control
 * plane started like `npm start`. Everything is found by role and accessible name.
 */
let lookout: Lookout;
let browser: Browser;
let member: { email: string; password: string };
let viewer: { email: string; password: string };
let acme: { email: string; password: string };

beforeAll(async () => {
  lookout = await startLookout();
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
  member = { email: m.user.email, password: m.user.password };
  const v = await lookout.cli([
    'user',
    'create',
    '--workspace',
    'demo',
    '--email',
    'vic@demo.localhost',
    '--role',
    'viewer',
  ]);
  viewer = { email: v.user.email, password: v.user.password };
  const a = await lookout.cli([
    'workspace',
    'create',
    '--subdomain',
    'acme',
    '--admin-email',
    'admin@acme.test',
  ]);
  acme = { email: a.admin.email, password: a.admin.password };
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

const contextFor = async (subdomain = 'demo') => {
  const context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: lookout.url(subdomain, ''),
  });
  return context;
};

const signIn = async (page: Page, email: string, password: string) => {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
};

const sessionCookie = async (context: BrowserContext) =>
  (await context.cookies()).find((c) => c.name === 'lookout_session');

const signedIn = async (email: string, password: string, subdomain = 'demo') => {
  const context = await contextFor(subdomain);
  const page = await context.newPage();
  await page.goto(lookout.url(subdomain, '/settings/api-keys'));
  await signIn(page, email, password);
  await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
  return { context, page };
};

describe('web app in chromium', () => {
  it('signs in with the password the first start printed, from the keyboard alone', async () => {
    const context = await contextFor();
    const page = await context.newPage();
    await page.goto(lookout.url('demo', '/'));
    await page.waitForURL(/\/sign-in$/);
    await page.getByLabel('Email').focus();
    await page.keyboard.type(lookout.adminEmail);
    await page.keyboard.press('Tab');
    await page.keyboard.type(lookout.password);
    await page.keyboard.press('Enter');
    // Signing in lands on the Monitors page.
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    expect(page.url()).toBe(lookout.url('demo', '/monitors'));
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    const cookie = await sessionCookie(context);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', domain: 'demo.localhost', path: '/' });
    await context.close();
  });

  it('the sign-in page logs nothing to the console: a signed-out visit asks the server nothing that fails', async () => {
    const context = await contextFor();
    const page = await context.newPage();
    const logged: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') logged.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => logged.push(`pageerror: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 400) logged.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(lookout.url('demo', '/'));
    await page.waitForURL(/\/sign-in$/);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(logged).toEqual([]);
    // Signed in, a new page load knows the session; signed out again, the sign-in page is quiet again.
    await signIn(page, lookout.adminEmail, lookout.password);
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    await page.reload();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(logged).toEqual([]);
    await context.close();
  });

  it('an unknown path shows the app’s not-found page (status 404), not the API’s JSON', async () => {
    const { context, page } = await signedIn(lookout.adminEmail, lookout.password);
    for (const path of ['/settings/billing', '/status']) {
      const response = await page.goto(lookout.url('demo', path));
      expect(response?.status(), path).toBe(404);
      await page.getByRole('heading', { name: 'Page not found', level: 1 }).waitFor();
      await page.getByText(`There is no page at ${path}.`).waitFor();
      // The title follows the session's answer, which may land just after the heading.
      await expect.poll(() => page.title()).toBe('Page not found · Lookout');
    }
    await page.getByRole('link', { name: 'Go to Monitors' }).click();
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    await context.close();
  });

  it('the password page gives its hint once, under New password, and a problem replaces it there', async () => {
    const { context, page } = await signedIn(member.email, member.password);
    await page.getByRole('link', { name: 'Password' }).click();
    await page.getByRole('heading', { name: 'Password', level: 1 }).waitFor();
    const hint = page.getByText(/at least 12 characters/i);
    const described = async (label: string) =>
      page.getByLabel(label, { exact: true }).evaluate((el) =>
        (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .filter(Boolean)
          .map((id: string) => el.ownerDocument.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
    expect(await hint.count()).toBe(1);
    expect(await described('New password')).toBe(
      'At least 12 characters. A passphrase of a few words works well.',
    );
    expect(await described('Repeat new password')).toBe('');
    // Under New password: below its input and above the next field's label.
    const hintBox = (await hint.boundingBox())!;
    const next = (await page.getByLabel('New password', { exact: true }).boundingBox())!;
    const repeat = (await page.getByText('Repeat new password', { exact: true }).boundingBox())!;
    expect(hintBox.y).toBeGreaterThanOrEqual(next.y + next.height);
    expect(hintBox.y + hintBox.height).toBeLessThanOrEqual(repeat.y);

    await page.getByLabel('Current password').fill(member.password);
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Use at least 12 characters.').waitFor();
    expect(await described('New password')).toBe('Use at least 12 characters.');
    expect(await hint.count()).toBe(1);
    await context.close();
  });

  it('a wrong password gets a clear message', async () => {
    const context = await contextFor();
    const page = await context.newPage();
    await page.goto(lookout.url('demo', '/sign-in'));
    await signIn(page, lookout.adminEmail, 'not-the-password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    // The form's error summary: its heading, then the reason.
    expect(await alert.textContent()).toBe('There is a problemEmail or password is incorrect.');
    expect(await sessionCookie(context)).toBeUndefined();
    await context.close();
  });

  it('creates a key, copies its value, uses it, and revokes it from the list', async () => {
    const { context, page } = await signedIn(lookout.adminEmail, lookout.password);
    await page.getByLabel('Name').fill('ci-deploy');
    await page.getByLabel('Expiry', { exact: true }).selectOption({ label: '7 days' });
    expect(await page.getByLabel('Expiry', { exact: true }).locator('option').allTextContents()).toEqual([
      'No expiry',
      '1 day',
      '7 days',
      '30 days',
      '90 days',
      'Custom date',
    ]);
    await page.getByRole('button', { name: 'Create key' }).click();

    const value = page.getByRole('textbox', { name: 'New API key value' });
    await value.waitFor();
    const key = await value.inputValue();
    expect(key).toMatch(/^ak\.[\w-]{43}$/);
    expect(await page.getByText('this key will not be shown again').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);

    expect((await lookout.api('demo', '/monitors', { 'x-api-key': key })).status).toBe(200);

    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row', { name: /ci-deploy/ });
    expect(await row.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining([`…${key.slice(-4)}`, 'Active', 'admin@demo.localhost']),
    );
    await row.getByRole('button', { name: 'Revoke ci-deploy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “ci-deploy”?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/Revocation is permanent and cannot be undone/);
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('Revoked').waitFor();
    expect(await row.getByRole('button', { name: /Revoke/ }).count()).toBe(0);

    const after = await lookout.api('demo', '/monitors', { 'x-api-key': key });
    expect(after.status).toBe(401);
    expect(JSON.parse(after.body).error.message).toBe('API key has been revoked.');
    await context.close();
  });

  it('a member sees only their own keys; the admin sees everyone’s', async () => {
    const { context, page } = await signedIn(member.email, member.password);
    await page.getByLabel('Name').fill('mia-laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'Your keys' }).waitFor();
    const names = await page.getByRole('table').getByRole('rowheader').allTextContents();
    expect(names).toEqual(['mia-laptop']);
    await context.close();

    const admin = await signedIn(lookout.adminEmail, lookout.password);
    await admin.page.getByRole('heading', { name: 'Keys in this workspace' }).waitFor();
    const row = admin.page.getByRole('row', { name: /mia-laptop/ });
    // The heading shows at once; the list arrives after it.
    await row.waitFor();
    expect(await row.getByRole('cell', { name: 'mia@demo.localhost' }).count()).toBe(1);
    await admin.context.close();
  });

  it('a viewer may hold a key but cannot create a monitor (the API with the viewer’s session)', async () => {
    const { context, page } = await signedIn(viewer.email, viewer.password);
    // In the page, as the app would call it: the session's cookie and its CSRF token.
    const status: { status: number; body: { error: { message: string } } } =
      await page.evaluate(`(async () => {
      const { csrf_token } = await (await fetch('/api/v1/session')).json();
      const r = await fetch('/api/v1/monitors/create', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf_token },
        body: JSON.stringify({ display_name: 'x', monitor_type: 'tcp', url: 'example.com', port: 22 }),
      });
      return { status: r.status, body: await r.json() };
    })()`);
    expect(status.status).toBe(403);
    expect(status.body.error.message).toBe('This needs the member role; you are a viewer.');
    await context.close();
  });

  it('a session of one workspace is refused on another', async () => {
    const { context, page } = await signedIn(lookout.adminEmail, lookout.password);
    // The browser never sends demo's cookie to acme (host-only) …
    await page.goto(lookout.url('acme', '/settings/api-keys'));
    await page.waitForURL(/acme\.localhost:\d+\/sign-in$/);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    // … and the server refuses it there even when it is sent.
    const cookie = (await sessionCookie(context))!;
    const r = await lookout.api('acme', '/api-keys', { cookie: `lookout_session=${cookie.value}` });
    expect(r.status).toBe(401);
    expect(JSON.parse(r.body).error.message).toBe('This session belongs to another workspace; sign in here.');
    // acme's own admin signs in there.
    await signIn(page, acme.email, acme.password);
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await context.close();
  });

  it('signing out ends the session', async () => {
    const { context, page } = await signedIn(lookout.adminEmail, lookout.password);
    const cookie = (await sessionCookie(context))!;
    const headers = { cookie: `lookout_session=${cookie.value}` };
    expect((await lookout.api('demo', '/session', headers)).status).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    expect(await sessionCookie(context)).toBeUndefined();
    expect((await lookout.api('demo', '/session', headers)).status).toBe(401);
    await page.goto(lookout.url('demo', '/settings/api-keys'));
    await page.waitForURL(/\/sign-in$/);
    await context.close();
  });

  it('an admin invites a user; the invitee sets a password from the link, is signed in, and signs in again with it', async () => {
    const admin = await signedIn(lookout.adminEmail, lookout.password);
    await admin.page.getByRole('link', { name: 'Users' }).click();
    await admin.page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await admin.page.getByLabel('Email').fill('ines@demo.localhost');
    await admin.page.getByLabel('Role', { exact: true }).selectOption({ label: 'Member' });
    await admin.page.getByRole('button', { name: 'Invite user' }).click();
    const link = await admin.page.getByRole('textbox', { name: 'Invitation link' }).inputValue();
    expect(link).toMatch(/^http:\/\/demo\.localhost:\d+\/accept-invite#token=li\./);
    expect(await admin.page.getByText('it will not be shown again').isVisible()).toBe(true);
    await admin.page.getByRole('button', { name: 'Copy' }).click();
    await admin.page.getByText('Copied to the clipboard.').waitFor();
    expect(await admin.page.evaluate('navigator.clipboard.readText()')).toBe(link);
    await admin.page.getByRole('button', { name: 'Done' }).click();
    const row = admin.page.getByRole('row', { name: /ines@demo\.localhost/ });
    await row.getByText('Invited').waitFor();

    const invitee = await contextFor();
    const page = await invitee.newPage();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Join demo' }).waitFor();
    await page.getByLabel('New password').fill('correct horse battery staple');
    await page.getByLabel('Repeat password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    expect(page.url()).toBe(lookout.url('demo', '/monitors'));
    expect(await page.getByText('ines@demo.localhost').isVisible()).toBe(true);
    // A member sees no Users page in the navigation.
    expect(await page.getByRole('link', { name: 'Users' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    await signIn(page, 'ines@demo.localhost', 'correct horse battery staple');
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    // The link worked once.
    await page.goto(link);
    await page.getByLabel('New password').fill('another long password');
    await page.getByLabel('Repeat password').fill('another long password');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(/already been used/);
    await invitee.close();

    await admin.page.reload();
    await row.getByText('Active').waitFor();
    await admin.context.close();
  });

  it('an admin changes a user’s role', async () => {
    const admin = await signedIn(lookout.adminEmail, lookout.password);
    await admin.page.goto(lookout.url('demo', '/settings/users'));
    const row = admin.page.getByRole('row', { name: /vic@demo\.localhost/ });
    await row.getByRole('combobox', { name: 'Role of vic@demo.localhost' }).selectOption({ label: 'Member' });
    await row.getByRole('button', { name: 'Save role of vic@demo.localhost' }).click();
    await admin.page.getByRole('status').filter({ hasText: 'vic@demo.localhost is now member.' }).waitFor();
    const users = await lookout.api('demo', '/users', { 'x-api-key': lookout.apiKey });
    const vic = JSON.parse(users.body).data.find((u: { email: string }) => u.email === 'vic@demo.localhost');
    expect(vic.role).toBe('member');
    // The list reloads after the message; until then the row still holds the old role.
    await expect
      .poll(() => row.getByRole('button', { name: 'Save role of vic@demo.localhost' }).count())
      .toBe(0);
    // And back, so the viewer test finds a viewer.
    await row.getByRole('combobox', { name: 'Role of vic@demo.localhost' }).selectOption({ label: 'Viewer' });
    await row.getByRole('button', { name: 'Save role of vic@demo.localhost' }).click();
    await admin.page.getByRole('status').filter({ hasText: 'vic@demo.localhost is now viewer.' }).waitFor();
    // Your own role is not a control: the last admin cannot demote themselves by accident. (Counted once
    // the list has reloaded after the change: vic's Save is gone and the own row is there.)
    await expect
      .poll(() => row.getByRole('button', { name: 'Save role of vic@demo.localhost' }).count())
      .toBe(0);
    const me = admin.page.getByRole('row', { name: /admin@demo\.localhost/ });
    await me.waitFor();
    expect(await me.getByRole('combobox').count()).toBe(0);
    expect(await me.getByRole('button').count()).toBe(0);
    await admin.context.close();
  });

  it('an admin removes a user: their session ends and their next page action lands on sign-in', async () => {
    const created = await lookout.cli([
      'user',
      'create',
      '--workspace',
      'demo',
      '--email',
      'leo@demo.localhost',
      '--role',
      'member',
    ]);
    const leo = await signedIn(created.user.email, created.user.password);
    const admin = await signedIn(lookout.adminEmail, lookout.password);
    await admin.page.goto(lookout.url('demo', '/settings/users'));
    await admin.page.getByRole('button', { name: 'Remove leo@demo.localhost' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Remove leo@demo.localhost?' });
    expect(await dialog.textContent()).toMatch(
      /signed out everywhere and their API keys are revoked at once/,
    );
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await admin.page.getByRole('status').filter({ hasText: 'leo@demo.localhost was removed.' }).waitFor();
    // The list reloads after the message: wait for the row to go rather than count once.
    await expect.poll(() => admin.page.getByRole('row', { name: /leo@demo\.localhost/ }).count()).toBe(0);

    await leo.page.getByRole('link', { name: 'Monitors' }).click();
    await leo.page.waitForURL(/\/sign-in$/);
    await leo.page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await leo.context.close();
    await admin.context.close();
  });

  it('the Monitors page shows each monitor’s status and filters on it', async () => {
    const { context, page } = await signedIn(lookout.adminEmail, lookout.password);
    const created: string[] = await page.evaluate(`(async () => {
      const { csrf_token } = await (await fetch('/api/v1/session')).json();
      const headers = { 'content-type': 'application/json', 'x-csrf-token': csrf_token };
      const ids = [];
      for (const name of ['Checkout API', 'Status page']) {
        const r = await fetch('/api/v1/monitors/create', {
          method: 'POST',
          headers,
          body: JSON.stringify({ display_name: name, monitor_type: 'tcp', url: 'example.com', port: 443 }),
        });
        ids.push((await r.json()).id);
      }
      await fetch('/api/v1/monitors/' + ids[1] + '/pause', { method: 'POST', headers });
      return ids;
    })()`);
    expect(created).toHaveLength(2);
    await page.getByRole('link', { name: 'Monitors' }).click();
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    const checkout = page.getByRole('row', { name: /Checkout API/ });
    await checkout.waitFor();
    expect(await checkout.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['Pending', 'Not yet']),
    );
    expect(await checkout.getByRole('rowheader').textContent()).toContain('example.com:443');
    expect(
      await page
        .getByRole('row', { name: /Status page/ })
        .getByRole('cell')
        .allTextContents(),
    ).toContain('Paused');
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Paused' });
    await page.getByRole('heading', { name: 'Paused monitors' }).waitFor();
    await page.getByRole('row', { name: /Checkout API/ }).waitFor({ state: 'detached' });
    // The filtered list replaces the table when it arrives: wait for it rather than read once.
    await expect
      .poll(() => page.getByRole('table').getByRole('rowheader').allTextContents())
      .toEqual([expect.stringMatching(/^Status page/)]);
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Down' });
    await page.getByText('No monitor is down.').waitFor();
    await context.close();
  });

  it('a viewer sees no Users page and no controls to invite, change or remove', async () => {
    const { context, page } = await signedIn(viewer.email, viewer.password);
    expect(await page.getByRole('link', { name: 'Users' }).count()).toBe(0);
    await page.goto(lookout.url('demo', '/settings/users'));
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByText('Only admins of the workspace manage its users.').waitFor();
    expect(await page.getByRole('button', { name: 'Invite user' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    expect(await page.getByRole('combobox').count()).toBe(0);
    await page.goto(lookout.url('demo', '/monitors'));
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    // (The counts per status are filter buttons: "1 Paused" filters, it does not pause.)
    expect(await page.getByRole('button', { name: /^(create|edit|pause|delete)/i }).count()).toBe(0);
    await context.close();
  });
});
