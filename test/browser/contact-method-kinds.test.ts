import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_KINDS } from '../../control-plane/src/domain/contacts/kinds/index.js';
import type { ContactField } from '../../control-plane/src/domain/contacts/kinds/kind.js';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * The "Add a contact method" form renders from GET /contact-method-kinds: with every service set up,
 * it offers every kind in the registry (domain/contacts/kinds/), and each kind's fields appear by the
 * labels its file gives them. A kind added through the generated fields is listed.
 */
let lookout: Lookout;
let browser: Browser;
let member: { email: string; password: string };
const shots = process.env.SCREENSHOTS ?? join(tmpdir(), 'lookout-contact-kind-shots');

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  lookout = await startLookout({
    LOOKOUT_TELEGRAM_BOT_TOKEN: '7012345678:AAHk-test_bot_token',
    LOOKOUT_TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`,
    LOOKOUT_TWILIO_AUTH_TOKEN: 'twilio-auth-token-1234',
    LOOKOUT_TWILIO_FROM: '+14155550100',
    LOOKOUT_PUSHOVER_APP_TOKEN: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
  });
  const m = await lookout.cli([
    'user',
    'create',
    '--workspace',
    'demo',
    '--email',
    'kim@demo.localhost',
    '--role',
    'member',
  ]);
  member = { email: m.user.email, password: m.user.password };
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

describe('contact method kinds in chromium', () => {
  it('the add form offers every registered kind and renders each one’s fields from the kinds endpoint', async () => {
    const { context, page } = await signedInAt(browser, lookout, member, '/settings/notifications');
    await page.getByRole('heading', { name: 'Notification settings', level: 1 }).waitFor();
    const add = page.getByRole('form', { name: 'Add a contact method' });
    const options = add.getByLabel('Type').locator('option');
    await options.first().waitFor({ state: 'attached' });
    const kinds = Object.values(CONTACT_KINDS);
    expect(await options.allTextContents()).toEqual(kinds.map((k) => k.label));

    for (const k of kinds) {
      await add.getByLabel('Type').selectOption(k.type);
      const fields = Object.values(k.form as Record<string, ContactField>);
      for (const f of fields) await add.getByLabel(f.label, { exact: true }).waitFor();
      // Only this kind's fields: as many text inputs as it has fields.
      expect(await add.locator('input').count()).toBe(fields.length);
    }

    // A kind added through its generated fields: a phone typed with spaces, sent in E.164.
    await add.getByLabel('Type').selectOption('sms');
    await add.getByLabel('Phone number').fill('+1 415 555 0123');
    await add.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('listitem', { name: 'SMS +14155550123' }).waitFor();
    await add.getByLabel('Type').selectOption('pushover');
    await add.getByLabel('Pushover user key').fill('uQiRzpo4DXghDmr9QzzfQu27cmVRsG');
    await add.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('listitem', { name: 'Pushover Pushover user ••••VRsG' }).waitFor();
    await add.getByLabel('Type').selectOption('ntfy');
    await page.screenshot({ path: join(shots, 'contact-kinds-desktop.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(shots, 'contact-kinds-phone.png'), fullPage: true });
    await context.close();
  });
});
