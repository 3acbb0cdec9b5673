import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, startLookout } from './support.js';

/**
 * Opening Lookout at the obvious address (`http://localhost:8080`, `http://127.0.0.1:8080`, a
 * mistyped subdomain) on a fresh `npm start`, which has one workspace: the page says at once that no
 * workspace is there and links to the one that is.
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

describe('a host without a workspace, in chromium', () => {
  it('localhost, 127.0.0.1 and an unknown subdomain say so before anyone types, and link to the workspace', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const demo = lookout.url('demo', '/');
    for (const url of [
      `http://localhost:${lookout.port}/`,
      `http://127.0.0.1:${lookout.port}/`,
      `http://nope.localhost:${lookout.port}/sign-in`,
    ]) {
      await page.goto(url);
      await page.getByRole('heading', { name: 'No workspace at this address.', level: 1 }).waitFor();
      expect(await page.getByLabel('Email').count(), url).toBe(0);
      expect(await page.getByRole('link', { name: demo }).getAttribute('href'), url).toBe(demo);
    }
    await page.goto(`http://127.0.0.1:${lookout.port}/`);
    for (const [name, width, height] of [
      ['desktop', 1280, 800],
      ['phone', 390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: `/tmp/h7-no-workspace-${name}.png` });
    }
    await page.getByRole('link', { name: demo }).click();
    await page.waitForURL(lookout.url('demo', '/sign-in'));
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await context.close();
  });
});
