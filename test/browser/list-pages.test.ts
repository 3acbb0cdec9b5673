import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * The list pages read through the one list hook (web/src/kit/paging.tsx `useList`): more than a page
 * of heartbeats and of monitors, "Show more", and the polled modes — the heartbeat list stands still
 * once more is shown ('until-more'), the monitor list keeps re-reading its first page ('keep-more').
 * Screenshots to /tmp/w1-list-*.png.
 */
const MANY = 105;
const pad = (i: number) => String(i).padStart(3, '0');
const WEB_SRC = new URL('../../control-plane/web/src/', import.meta.url).pathname;

let lookout: Lookout;
let browser: Browser;

const call = async (method: string, path: string, json?: unknown) => {
  const r = await lookout.api('demo', path, { 'x-api-key': lookout.apiKey }, { method, json });
  expect(r.status, r.body.slice(0, 300)).toBeLessThan(300);
  return JSON.parse(r.body);
};
const admin = () => ({ email: lookout.adminEmail, password: lookout.password });
const monitor = (name: string) => ({
  display_name: name,
  monitor_type: 'tcp',
  url: 'db.internal.example',
  port: 5432,
  check_interval_seconds: 60,
  check_locations: ['eu-west'],
  paused: true,
});
/** The rows of a list's table, its header row aside. */
const rows = (page: Page, list: string) =>
  page
    .getByRole('region', { name: list })
    .getByRole('row')
    .count()
    .then((n) => n - 1);

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
  await call('POST', '/monitors/batch', {
    monitors: Array.from({ length: MANY }, (_, i) => monitor(`Service ${pad(i + 1)}`)),
  });
  for (let i = 0; i < MANY; i++) await call('POST', '/heartbeats', { display_name: `Job ${pad(i + 1)}` });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

describe('list pages', () => {
  it('no page or kit module reads a cursor, or times a re-read, by hand', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => {
        const p = join(dir, n);
        return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(n) ? [p] : [];
      });
    const offenders = files(WEB_SRC)
      .filter((f) => !f.endsWith('kit/paging.tsx') && !f.endsWith('poll.ts'))
      .filter((f) => /\.next_cursor\b|setInterval\(/.test(readFileSync(f, 'utf8')))
      .map((f) => f.slice(WEB_SRC.length));
    expect(offenders).toEqual([]);
  });

  it('heartbeats: a page, then Show more; live until more is shown', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), '/heartbeats');
    await page.setViewportSize({ width: 1280, height: 900 });
    const list = 'All heartbeats';
    await expect.poll(() => rows(page, list)).toBe(100);
    await page.getByText('100+', { exact: true }).waitFor();
    // Live: one made elsewhere shows up without a reload.
    await call('POST', '/heartbeats', { display_name: 'Job made while watching' });
    await page
      .getByRole('region', { name: list })
      .getByRole('link', { name: 'Job made while watching' })
      .waitFor({ timeout: 20_000 });
    await page.screenshot({ path: '/tmp/w1-list-heartbeats-1280.png', fullPage: false });
    await page.getByRole('button', { name: 'Show more' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/w1-list-heartbeats-more-1280.png', fullPage: false });
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => rows(page, list)).toBe(MANY + 1);
    await page.getByText(`${MANY + 1}`, { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Show more' }).count()).toBe(0);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: '/tmp/w1-list-heartbeats-390.png', fullPage: false });
    await context.close();
  });

  it('monitors: after Show more the first page is still re-read, the rows below it kept', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), '/monitors');
    await page.setViewportSize({ width: 1280, height: 900 });
    const list = 'All monitors';
    await expect.poll(() => rows(page, list)).toBe(100);
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => rows(page, list)).toBe(MANY);
    // Sorted by status, then name: a new (pending) monitor named first lands on the first page.
    await call('POST', '/monitors/batch', { monitors: [monitor('A service made while watching')] });
    await page
      .getByRole('region', { name: list })
      .getByRole('link', { name: 'A service made while watching' })
      .waitFor({ timeout: 20_000 });
    expect(await rows(page, list)).toBe(MANY + 1);
    await page.screenshot({ path: '/tmp/w1-list-monitors-1280.png', fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: '/tmp/w1-list-monitors-390.png', fullPage: false });
    await context.close();
  });
});
