import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * The monitor form's steps editor (multi-step API) and script editor (browser) in chromium against a
 * real control plane: a monitor made of three steps, one extracting a variable and one asserting, is
 * saved as the API's `steps`; a 422 on `steps[1].url` lands on step 2's URL input; a browser monitor is
 * created from the script editor (Tab indents). Screenshots at 1280 px light and 390 px dark in
 * /tmp/webscript-*.png.
 */
let lookout: Lookout;
let browser: Browser;
const admin = () => ({ email: lookout.adminEmail, password: lookout.password });
const monitor = async (id: string) =>
  JSON.parse((await lookout.api('demo', `/monitors/${id}`, { 'x-api-key': lookout.apiKey })).body);

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

const newMonitor = async (page: Page, type: string, name: string, url: string) => {
  await page.goto(lookout.url('demo', '/monitors/new'));
  await page.getByRole('heading', { name: 'New monitor', level: 1 }).waitFor();
  const picker = page.getByLabel('Type');
  await picker.getByRole('option', { name: type }).waitFor({ state: 'attached' });
  await picker.selectOption({ label: type });
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('URL', { exact: true }).fill(url);
};

/** The whole page at 1280 px light; at 390 px dark, the parts named (a phone's page is too long to read). */
const shoot = async (page: Page, what: string, parts: Locator[] = []) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: `/tmp/webscript-${what}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `/tmp/webscript-${what}-390-dark.png`, fullPage: true });
  for (const [i, part] of parts.entries())
    await part.screenshot({ path: `/tmp/webscript-${what}-390-dark-${i + 1}.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
};

describe('scripted checks in the monitor form', () => {
  it('creates a multi-step monitor of three steps; a 422 lands on the step’s URL input', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), '/monitors/new');
    await newMonitor(page, 'Multi-step API', 'Checkout journey', 'https://shop.example.com');
    const steps = page.getByRole('group', { name: 'Steps' });
    // A new monitor starts with one step on the monitor's URL.
    const step1 = steps.getByRole('group', { name: 'Step 1' });
    expect(await step1.getByRole('textbox', { name: 'Step 1 URL' }).inputValue()).toBe('{{url}}');
    await step1.getByRole('textbox', { name: 'Step 1 Name' }).fill('Sign in');
    await step1.getByRole('combobox', { name: 'Step 1 Method' }).selectOption('POST');
    await step1.getByRole('textbox', { name: 'Step 1 URL' }).fill('{{url}}/login');
    await step1
      .getByRole('textbox', { name: 'Step 1 Body' })
      .fill('{"password": "{{secrets.SHOP_PASSWORD}}"}');
    await step1.getByRole('button', { name: 'Add variable to step 1' }).click();
    await step1.getByRole('textbox', { name: 'Step 1 variable 1 name' }).fill('token');
    await step1.getByRole('textbox', { name: 'Step 1 variable 1 JSONPath' }).fill('$.token');

    await steps.getByRole('button', { name: 'Add step' }).click();
    await steps.getByRole('button', { name: 'Add step' }).click();
    // Made in the wrong order, then moved: "Read it back" goes last.
    const s2 = steps.getByRole('group', { name: 'Step 2' });
    await s2.getByRole('textbox', { name: 'Step 2 Name' }).fill('Read it back');
    await s2.getByRole('textbox', { name: 'Step 2 URL' }).fill('{{url}}/orders/latest');
    const s3 = steps.getByRole('group', { name: 'Step 3' });
    await s3.getByRole('textbox', { name: 'Step 3 Name' }).fill('Create an order');
    await s3.getByRole('combobox', { name: 'Step 3 Method' }).selectOption('POST');
    await s3.getByRole('textbox', { name: 'Step 3 URL' }).fill('{{url}}/orders');
    await s3.getByRole('button', { name: 'Add header to step 3' }).click();
    await s3.getByRole('textbox', { name: 'Step 3 header 1 name' }).fill('Authorization');
    await s3.getByRole('textbox', { name: 'Step 3 header 1 value' }).fill('Bearer {{token}}');
    await s3.getByRole('spinbutton', { name: 'Step 3 Timeout (seconds)' }).fill('5');
    await s3.getByRole('button', { name: 'Add assertion to step 3' }).click();
    await s3
      .getByRole('combobox', { name: 'Step 3 assertion 1 source' })
      .selectOption({ label: 'status code' });
    await s3
      .getByRole('combobox', { name: 'Step 3 assertion 1 comparison' })
      .selectOption({ label: 'equals' });
    await s3.getByRole('textbox', { name: 'Step 3 assertion 1 target' }).fill('201');
    await steps.getByRole('button', { name: 'Move step 3 up' }).click();
    expect(await steps.getByRole('textbox', { name: 'Step 2 Name' }).inputValue()).toBe('Create an order');
    expect(await steps.getByRole('textbox', { name: 'Step 3 Name' }).inputValue()).toBe('Read it back');
    // The hint says where secrets are set.
    expect(await steps.getByRole('link', { name: 'Settings → Secrets' }).getAttribute('href')).toBe(
      '/settings/secrets',
    );
    await shoot(page, 'steps-editor', [step1, s2]);

    // A URL the API refuses, then a secret not set in the workspace: each problem stands beside its
    // step's input, and the summary links to it.
    await steps.getByRole('textbox', { name: 'Step 2 URL' }).fill('x'.repeat(4097));
    await page.getByRole('button', { name: 'Create monitor' }).click();
    const summary = page.getByRole('alert', { name: 'There is a problem' });
    const noteOf = (field: Locator) =>
      field.evaluate(
        (el) =>
          el.ownerDocument.getElementById(el.getAttribute('aria-describedby')!.split(' ')[0]!)!.textContent,
      );
    await summary.getByRole('link', { name: 'Step 2 URL' }).click();
    const url2 = steps.getByRole('textbox', { name: 'Step 2 URL' });
    expect(await url2.getAttribute('aria-invalid')).toBe('true');
    expect(await url2.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(await noteOf(url2)).toMatch(/4096/);
    // The secret is checked once the steps are well formed.
    await url2.fill('{{url}}/orders');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await summary.getByRole('link', { name: 'Step 1 Body' }).click();
    const body1 = steps.getByRole('textbox', { name: 'Step 1 Body' });
    expect(await body1.getAttribute('aria-invalid')).toBe('true');
    expect(await noteOf(body1)).toMatch(/^Names secret SHOP_PASSWORD, which is not set in this workspace/);
    await shoot(page, 'steps-editor-422', [summary, steps.getByRole('group', { name: 'Step 1' })]);

    const set = await lookout.api(
      'demo',
      '/secrets/SHOP_PASSWORD',
      { 'x-api-key': lookout.apiKey },
      { method: 'PUT', json: { value: 'correct horse' } },
    );
    expect(set.status, set.body).toBe(201);
    // A variable no earlier step extracts: named on step 3's URL.
    const url3 = steps.getByRole('textbox', { name: 'Step 3 URL' });
    await url3.fill('{{url}}/orders/{{order_id}}');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await summary.getByRole('link', { name: 'Step 3 URL' }).click();
    expect(await noteOf(url3)).toMatch(/order_id/);
    await url3.fill('{{url}}/orders/latest');
    await url2.fill('{{url}}/orders');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('heading', { name: 'Checkout journey', level: 1 }).waitFor();
    const saved = await monitor(page.url().split('/').pop()!);
    expect(saved.steps).toEqual([
      {
        name: 'Sign in',
        method: 'POST',
        url: '{{url}}/login',
        body: '{"password": "{{secrets.SHOP_PASSWORD}}"}',
        extract: [{ name: 'token', source: 'json_body', property: '$.token' }],
      },
      {
        name: 'Create an order',
        method: 'POST',
        url: '{{url}}/orders',
        headers: { Authorization: 'Bearer {{token}}' },
        timeout_seconds: 5,
        assertions: [{ source: 'status_code', comparison: 'equals', target: 201 }],
      },
      { name: 'Read it back', method: 'GET', url: '{{url}}/orders/latest' },
    ]);

    // The edit form reads them back as they were saved.
    await page.getByRole('link', { name: 'Edit' }).click();
    const again = page.getByRole('group', { name: 'Steps' });
    await again.getByRole('textbox', { name: 'Step 2 header 1 value' }).waitFor();
    expect(await again.getByRole('textbox', { name: 'Step 2 header 1 value' }).inputValue()).toBe(
      'Bearer {{token}}',
    );
    expect(await again.getByRole('textbox', { name: 'Step 1 variable 1 JSONPath' }).inputValue()).toBe(
      '$.token',
    );
    await context.close();
  });

  it('creates a browser monitor from the script editor', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), '/monitors/new');
    await newMonitor(page, 'Browser', 'Shop sign-in', 'https://shop.example.com');
    const editor = page.getByRole('textbox', { name: 'Script', exact: true });
    // Prefilled with a working example.
    expect(await editor.inputValue()).toContain('await page.goto(url);');
    expect(await editor.getAttribute('spellcheck')).toBe('false');
    await editor.fill("await test.step('Open the shop', async () => {\nawait page.goto(url);\n});\n");
    // Tab indents the line the caret is on rather than leaving the editor.
    await editor.evaluate((el) => {
      const ta = el as unknown as { value: string; setSelectionRange(a: number, b: number): void };
      const at = ta.value.indexOf('await page');
      ta.setSelectionRange(at, at);
    });
    await editor.press('Tab');
    expect(await editor.inputValue()).toContain('\n  await page.goto(url);\n');
    expect(await editor.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.getByText('4 lines', { exact: false }).waitFor();
    await shoot(page, 'script-editor', [page.getByRole('group', { name: 'Browser script' })]);

    // An empty script: the API's problem lands on the editor.
    await editor.fill('');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page
      .getByRole('alert', { name: 'There is a problem' })
      .getByRole('link', { name: 'Script' })
      .waitFor();
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    // A secret not set in the workspace: named on the editor too.
    await editor.fill("await page.goto(url);\nawait page.getByLabel('Token').fill(secrets.SHOP_TOKEN);\n");
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByText(/^Names secret SHOP_TOKEN, which is not set in this workspace/).waitFor();
    expect(await editor.getAttribute('aria-invalid')).toBe('true');

    const script =
      "await test.step('Open the shop', async () => {\n  await page.goto(url);\n  await expect(page).toHaveTitle(/Shop/);\n});\n";
    await editor.fill(script);
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('heading', { name: 'Shop sign-in', level: 1 }).waitFor();
    const saved = await monitor(page.url().split('/').pop()!);
    expect(saved.monitor_type).toBe('browser');
    expect(saved.script).toBe(script);
    await context.close();
  });
});
