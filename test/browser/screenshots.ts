/**
 * `npm run screenshots`: the sign-in and API keys pages at desktop and phone widths, into docs/
 * (shown in the README). Runs the real control plane on a fresh data dir, like the browser tests.
 */
import { join } from 'node:path';
import { ROOT } from '../support/processes.js';
import { launchBrowser, startLookout } from './support.js';

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
  { name: 'phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 },
];

const lookout = await startLookout();
const browser = await launchBrowser();
try {
  await lookout.cli([
    'user',
    'create',
    '--workspace',
    'demo',
    '--email',
    'mia@demo.localhost',
    '--role',
    'member',
  ]);
  for (const size of SIZES) {
    const context = await browser.newContext({
      viewport: size.viewport,
      deviceScaleFactor: size.deviceScaleFactor,
      locale: 'en-GB',
      timezoneId: 'UTC',
    });
    const page = await context.newPage();
    const shot = (what: string, fullPage = true) =>
      page.screenshot({
        path: join(ROOT, 'docs', 'screenshots', `${what}-${size.name}.png`),
        fullPage,
      });
    await page.goto(lookout.url('demo', '/sign-in'));
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await shot('sign-in');
    await page.getByLabel('Email').fill(lookout.adminEmail);
    await page.getByLabel('Password').fill(lookout.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    if (size.name === 'desktop') {
      // A few keys, one used, one revoked, so the list shows what it shows in real life.
      for (const [name, expiry] of [
        ['GitHub Actions deploy', '90 days'],
        ['Grafana dashboards', 'No expiry'],
        ['Old backup job', '30 days'],
      ]) {
        await page.getByLabel('Name').fill(name!);
        await page.getByLabel('Expiry', { exact: true }).selectOption({ label: expiry! });
        await page.getByRole('button', { name: 'Create key' }).click();
        const value = await page.getByRole('textbox', { name: 'New API key value' }).inputValue();
        if (name === 'Grafana dashboards') await lookout.api('demo', '/monitors', { 'x-api-key': value });
        await page.getByRole('button', { name: 'Done' }).click();
      }
      await page.getByRole('button', { name: 'Revoke Old backup job' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await page
        .getByRole('row', { name: /Old backup job/ })
        .getByText('Revoked')
        .waitFor();
      await page.reload();
    }
    await page.getByRole('row', { name: /Grafana dashboards/ }).waitFor();
    await shot('api-keys');
    await page.getByLabel('Name').fill(size.name === 'desktop' ? 'Staging smoke tests' : 'Nightly export');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await shot('api-keys-new-key');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Revoke GitHub Actions deploy' }).click();
    await page.getByRole('dialog').waitFor();
    await shot('api-keys-revoke', false);
    await context.close();
  }
  process.stdout.write('Screenshots written to docs/screenshots/\n');
} finally {
  await browser.close();
  await lookout.stop();
}
