import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../support/service-double.js';
import { type Lookout, launchBrowser, startLookout } from './support.js';

/**
 * A webhook channel's URL token and credential header in the web app, in a real browser against a
 * real control plane: after creation the page shows that they are set (their hints), never their
 * values; editing the channel without retyping them keeps them, and the receiver still gets them.
 */
let lookout: Lookout;
let browser: Browser;
let svc: Awaited<ReturnType<typeof startService>>;
/** Screenshots to look at (SCREENSHOTS=dir keeps them somewhere else). */
const shots = process.env.SCREENSHOTS ?? '/tmp';

beforeAll(async () => {
  lookout = await startLookout();
  svc = await startService(() => ({ status: 200, body: { ok: true } }));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
  await svc?.close();
});

const URL_TOKEN = 'urltoken-73b1c9e0';
const BEARER = 'Bearer hdrtoken-5d28aa41';

describe('webhook secrets in the web app', () => {
  it('are shown as set, never as their value, and kept when the channel is saved without them', async () => {
    const context = await browser.newContext({ timezoneId: 'Europe/Berlin', locale: 'en-GB' });
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(lookout.url('demo', '/routing/channels'));
    await page.getByLabel('Email').fill(lookout.adminEmail);
    await page.getByLabel('Password').fill(lookout.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Channels', level: 1 }).waitFor();

    const form = page.getByRole('form', { name: 'New channel' });
    await form.getByLabel('Name').fill('Ops hook');
    await form.getByLabel('Type').selectOption({ label: 'Webhook' });
    await form.getByLabel('URL', { exact: true }).fill(svc.url(`/hook?token=${URL_TOKEN}`));
    await form.getByLabel('Extra headers').fill(`Authorization: ${BEARER}\nX-Team: sre`);
    await form.getByRole('button', { name: 'Create channel' }).click();
    const row = page.getByRole('row', { name: /Ops hook/ });
    await row.waitFor();
    expect(await page.content()).not.toContain(URL_TOKEN);

    await page.getByRole('button', { name: 'Edit Ops hook' }).click();
    const edit = page.getByRole('form', { name: 'Edit Ops hook' });
    const url = edit.getByLabel('URL', { exact: true });
    expect(await url.inputValue()).toBe('');
    expect(await url.getAttribute('type')).toBe('password');
    expect(await url.getAttribute('placeholder')).toBe(`${new URL(svc.base).origin}/…${URL_TOKEN.slice(-4)}`);
    const headers = edit.getByLabel('Extra headers');
    expect(await headers.inputValue()).toBe(`Authorization: ••••${BEARER.slice(-4)}\nX-Team: ••••`);
    // Nothing on the page, shown or hidden, carries a secret.
    const html = await page.content();
    expect(html).not.toContain(URL_TOKEN);
    expect(html).not.toContain('hdrtoken');
    await page.screenshot({ path: `${shots}/h4-webhook-edit-desktop.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/h4-webhook-edit-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Saved with one header changed and nothing retyped, the channel still sends the secrets.
    await headers.fill(`Authorization: ••••${BEARER.slice(-4)}\nX-Team: platform`);
    await edit.getByRole('button', { name: 'Save channel' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Send test to Ops hook' }).click();
    await page.getByRole('status').filter({ hasText: 'Test sent to Ops hook (HTTP 200).' }).waitFor();
    const last = svc.requests.at(-1)!;
    expect(last.path).toBe(`/hook?token=${URL_TOKEN}`);
    expect(last.headers.authorization).toBe(BEARER);
    expect(last.headers['x-team']).toBe('platform');
    await context.close();
  });
});
