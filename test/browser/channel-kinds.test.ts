import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedAnswer, kindOfPath } from '../support/kind-samples.js';
import { startService } from '../support/service-double.js';
import { type Lookout, launchBrowser, startLookout } from './support.js';

/**
 * The channel form generated from each kind's schema, in a real browser against a real control plane:
 * an admin adds Discord, Telegram, PagerDuty and ntfy channels, sends a test through each (the
 * service's answer is shown), edits one without retyping its token, and reads a channel's delivery
 * log. The services are local doubles on loopback; everything is found by role and accessible name.
 */
let lookout: Lookout;
let browser: Browser;
let svc: Awaited<ReturnType<typeof startService>>;
/** Screenshots to look at (SCREENSHOTS=dir keeps them somewhere else). */
const shots = process.env.SCREENSHOTS ?? join(tmpdir(), 'lookout-channel-shots');

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  lookout = await startLookout();
  svc = await startService((r) => acceptedAnswer(kindOfPath(r.path), r.json));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
  await svc?.close();
});

describe('channels of every kind in the web app', () => {
  it('an admin adds Discord, Telegram, PagerDuty and ntfy channels, tests each, keeps a token on edit, reads the log', async () => {
    const context = await browser.newContext({ timezoneId: 'Europe/Berlin', locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(lookout.url('demo', '/routing/channels'));
    await page.getByLabel('Email').fill(lookout.adminEmail);
    await page.getByLabel('Password').fill(lookout.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Channels', level: 1 }).waitFor();

    const add = async (name: string, type: string, fields: Record<string, string>) => {
      const form = page.getByRole('form', { name: 'New channel' });
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('Type').selectOption({ label: type });
      for (const [label, value] of Object.entries(fields))
        await form.getByLabel(label, { exact: true }).fill(value);
      await form.getByRole('button', { name: 'Create channel' }).click();
      await page.getByRole('row', { name: new RegExp(name) }).waitFor();
    };
    await add('Ops Discord', 'Discord', { 'Webhook URL': svc.url('/discord/api/webhooks/1/t0ken') });
    // Telegram's form: its own fields, the token a password input.
    const form = page.getByRole('form', { name: 'New channel' });
    await form.getByLabel('Type').selectOption({ label: 'Telegram' });
    expect(await form.getByLabel('Bot token').getAttribute('type')).toBe('password');
    expect(await form.getByLabel('API URL').getAttribute('placeholder')).toBe('https://api.telegram.org');
    await add('On-call Telegram', 'Telegram', {
      'Bot token': '123456:ABCDEFsecretTOKEN',
      'Chat ID': '-1001234',
      'API URL': svc.url('/telegram'),
    });
    await add('PagerDuty', 'PagerDuty', {
      'Routing key': 'R0UT1NGKEY0123456789abcdefABCDEF',
      'API URL': svc.url('/pagerduty'),
    });
    await add('Phones', 'ntfy', { 'Server URL': svc.url('/ntfy'), Topic: 'lookout-alerts' });

    // A bad field is named in the form.
    await form.getByLabel('Name').fill('Bad');
    await form.getByLabel('Type').selectOption({ label: 'Telegram' });
    await form.getByLabel('Bot token').fill('x');
    await form.getByLabel('Chat ID').fill('not a chat');
    await form.getByRole('button', { name: 'Create channel' }).click();
    await form.getByText('must be a numeric chat id or @channelusername').waitFor();
    await form.getByLabel('Name').fill('');

    // Send test through each: the service's answer is shown.
    for (const [name, answer] of [
      ['Ops Discord', /Test sent to Ops Discord \(HTTP 200\)\. Discord answered: .*"id":"1100"/],
      [
        'On-call Telegram',
        /Test sent to On-call Telegram \(HTTP 200\)\. Telegram answered: .*"message_id":501/,
      ],
      ['PagerDuty', /Test sent to PagerDuty \(HTTP 202\)\. PagerDuty answered: .*"status":"success"/],
      ['Phones', /Test sent to Phones \(HTTP 200\)\. ntfy answered: /],
    ] as const) {
      await page.getByRole('button', { name: `Send test to ${name}` }).click();
      await page.getByRole('status').filter({ hasText: answer }).waitFor();
    }
    expect(svc.requests.map((r) => kindOfPath(r.path))).toEqual([
      'discord',
      'telegram',
      'pagerduty',
      'pagerduty',
      'ntfy',
    ]);
    await page.screenshot({ path: join(shots, 'channels-kinds-desktop.png'), fullPage: true });

    // Edit Telegram: the token shows as its last four; saved without retyping it, it still works.
    await page.getByRole('button', { name: 'Edit On-call Telegram' }).click();
    const edit = page.getByRole('form', { name: 'Edit On-call Telegram' });
    const token = edit.getByLabel('Bot token');
    expect(await token.inputValue()).toBe('');
    expect(await token.getAttribute('placeholder')).toBe('••••OKEN');
    await edit.getByLabel('Chat ID').fill('@lookout_ops');
    await page.screenshot({ path: join(shots, 'channels-kinds-edit.png'), fullPage: true });
    await edit.getByRole('button', { name: 'Save channel' }).click();
    await page
      .getByRole('row', { name: /On-call Telegram/ })
      .getByText('@lookout_ops')
      .waitFor();
    await page.getByRole('button', { name: 'Send test to On-call Telegram' }).click();
    await page.getByRole('status').filter({ hasText: 'Test sent to On-call Telegram (HTTP 200).' }).waitFor();
    const last = svc.requests.at(-1)!;
    expect(last.path).toBe('/telegram/bot123456:ABCDEFsecretTOKEN/sendMessage');
    expect(last.json.chat_id).toBe('@lookout_ops');

    // The delivery log of the channel: both tests, newest first.
    await page.getByRole('button', { name: 'Deliveries of On-call Telegram' }).click();
    const log = page.getByRole('region', { name: 'Deliveries of On-call Telegram' });
    await log.getByRole('row').nth(2).waitFor();
    expect(await log.getByRole('row').count()).toBe(3);
    await log.getByRole('cell', { name: 'HTTP 200' }).first().waitFor();
    await page.screenshot({ path: join(shots, 'channels-kinds-log.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(shots, 'channels-kinds-phone.png'), fullPage: true });
    await context.close();
  });
});
