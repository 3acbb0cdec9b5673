import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, startLookout, testAgent } from './support.js';

/**
 * The monitors page at scale in chromium, against a real control plane: the server's status order
 * across a page boundary, the counts per status (a count filters the list), sort, search and filters
 * kept in the URL through a reload, and the whole app in the system's dark mode; at 1280 and 390 px,
 * screenshots in /tmp/list-*.png.
 */
let lookout: Lookout;
let browser: Browser;
const DOWN = ['zeta-down', 'alpha-down', 'Mid-down'];
const UP = Array.from({ length: 110 }, (_, i) => `svc-${String(i).padStart(3, '0')}`);
const PENDING = ['queue-new', 'batch-new'];

const api = async (path: string, json?: unknown, method = json === undefined ? 'GET' : 'POST') => {
  const r = await lookout.api('demo', path, { 'x-api-key': lookout.apiKey }, { method, json });
  if (r.status >= 300) throw new Error(`${path}: ${r.status} ${r.body}`);
  return r.body ? JSON.parse(r.body) : null;
};

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
  const created: { id: string; display_name: string }[] = (
    await api('/monitors/batch', {
      monitors: [...DOWN, ...UP, ...PENDING, 'paused-one'].map((name) => ({
        display_name: name,
        monitor_type: 'tcp',
        url: `${name.toLowerCase()}.example.test`,
        port: 443,
        check_interval_seconds: 300,
        failure_threshold: 1,
        check_locations: ['eu-west'],
      })),
    })
  ).data;
  const id = (name: string) => created.find((m) => m.display_name === name)!.id;
  const agent = await testAgent(lookout, 'eu-west');
  const at = new Date();
  await agent.report([
    ...UP.map((n) => ({ monitorId: id(n), at, ok: true, responseTimeMs: 40, statusCode: 0 })),
    ...DOWN.map((n) => ({ monitorId: id(n), at, ok: false, error: 'connection refused' })),
  ]);
  await api(`/monitors/${id('paused-one')}/pause`, {});
});
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

const signedIn = async (
  viewport: { width: number; height: number },
  colorScheme: 'light' | 'dark' = 'light',
) => {
  const context = await browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  await page.goto(lookout.url('demo', '/monitors'));
  await page.getByLabel('Email').fill(lookout.adminEmail);
  await page.getByLabel('Password').fill(lookout.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
  return { context, page };
};

/** The names of the rows shown, in order. */
const rowNames = (page: Page) =>
  page.getByRole('table').getByRole('rowheader').getByRole('link').allInnerTexts();

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `/tmp/list-${name}.png`, fullPage: false });

describe('the monitors page at scale', () => {
  it('lists down first, then pending, paused and up, in name order across the page boundary; the counts filter the list', async () => {
    const { context, page } = await signedIn({ width: 1280, height: 900 });
    await expect.poll(() => rowNames(page)).toHaveLength(100);
    const first = await rowNames(page);
    expect(first.slice(0, 6)).toEqual([
      'alpha-down',
      'Mid-down',
      'zeta-down',
      'batch-new',
      'queue-new',
      'paused-one',
    ]);
    expect(first.at(-1)).toBe('svc-093');
    await shot(page, 'light-1280');
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => rowNames(page)).toHaveLength(116);
    expect((await rowNames(page)).slice(99, 102)).toEqual(['svc-093', 'svc-094', 'svc-095']);

    const counts = page.getByRole('list', { name: 'Monitor counts' });
    await expect.poll(() => counts.getByRole('button', { name: '3 Down' }).count()).toBe(1);
    expect((await counts.getByRole('button').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '))).toEqual([
      '116 All',
      '3 Down',
      '2 Pending',
      '0 Maintenance',
      '1 Paused',
      '110 Up',
    ]);
    await counts.getByRole('button', { name: '3 Down' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['alpha-down', 'Mid-down', 'zeta-down']);
    expect(await counts.getByRole('button', { name: '3 Down' }).getAttribute('aria-pressed')).toBe('true');
    expect(new URL(page.url()).search).toBe('?status=down');
    await context.close();
  });

  it('keeps sort, search and filters in the URL: a reload shows the same view', async () => {
    const { context, page } = await signedIn({ width: 1280, height: 900 });
    await page.getByLabel('Sort by').selectOption({ label: 'Name' });
    await page.getByLabel('Status').selectOption({ label: 'Up' });
    await page.getByLabel('Region').selectOption('eu-west');
    await page.getByLabel('Search').fill('SVC-01');
    await expect.poll(() => rowNames(page)).toEqual(Array.from({ length: 10 }, (_, i) => `svc-01${i}`));
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({
      sort: 'name',
      status: 'up',
      region: 'eu-west',
      q: 'SVC-01',
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Up monitors' }).waitFor();
    expect(await page.getByLabel('Sort by').inputValue()).toBe('name');
    expect(await page.getByLabel('Status').inputValue()).toBe('up');
    expect(await page.getByLabel('Search').inputValue()).toBe('SVC-01');
    await expect.poll(() => rowNames(page)).toHaveLength(10);
    const counts = page.getByRole('list', { name: 'Monitor counts' });
    await expect.poll(() => counts.getByRole('button', { name: '10 Up' }).count()).toBe(1);
    await context.close();
  });

  it('follows the system’s dark mode, at 1280 and 390 px', async () => {
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      const { context, page } = await signedIn({ width, height }, 'dark');
      await expect.poll(() => rowNames(page)).toHaveLength(100);
      const bg = await page.evaluate('getComputedStyle(document.documentElement).backgroundColor');
      expect(bg).toBe('rgb(15, 18, 22)');
      await shot(page, `dark-${width}`);
      // The rest of the app follows too: every colour is a variable the dark scheme redefines.
      for (const [path, heading] of [
        ['/alerts', 'Alerts'],
        ['/routing/maintenance', 'Maintenance windows'],
      ] as const) {
        await page.goto(lookout.url('demo', path));
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        expect(await page.evaluate('getComputedStyle(document.documentElement).backgroundColor')).toBe(
          'rgb(15, 18, 22)',
        );
        await shot(page, `dark-${width}${path.replaceAll('/', '-')}`);
      }
      await context.close();
    }
    const { context, page } = await signedIn({ width: 390, height: 844 });
    await expect.poll(() => rowNames(page)).toHaveLength(100);
    expect(await page.evaluate('getComputedStyle(document.documentElement).backgroundColor')).toBe(
      'rgb(246, 247, 249)',
    );
    await shot(page, 'light-390');
    await context.close();
  });

  it('shows groups as sections: worst status and counts in each header, open when something needs a look, collapsible', async () => {
    const id = async (name: string) => (await api(`/monitors?q=${name}`)).data[0].id as string;
    const edge = (await api('/groups', { name: 'Edge' })).id;
    const core = (await api('/groups', { name: 'Core' })).id;
    await api(`/monitors/${await id('zeta-down')}`, { group_id: edge }, 'PATCH');
    for (const n of ['svc-000', 'svc-001', 'svc-002'])
      await api(`/monitors/${await id(n)}`, { group_id: core }, 'PATCH');

    for (const [width, height, scheme] of [
      [1280, 900, 'light'],
      [390, 844, 'dark'],
    ] as const) {
      const { context, page } = await signedIn({ width, height }, scheme);
      const toggle = (name: string) => page.getByRole('button', { name, exact: true });
      await toggle('Edge').waitFor();
      // Edge has a down monitor: open; Core is all up: closed; the ungrouped hold the other down ones.
      await expect.poll(() => toggle('Edge').getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => toggle('Core').getAttribute('aria-expanded')).toBe('false');
      await expect.poll(() => toggle('Ungrouped').getAttribute('aria-expanded')).toBe('true');
      const section = (name: string) => page.getByRole('region', { name });
      expect(await section('Edge').getByText('1 down', { exact: true }).count()).toBe(1);
      expect(await section('Core').getByText('3 up', { exact: true }).count()).toBe(1);
      expect(await section('Core').getByRole('link').count()).toBe(0);
      await toggle('Core').click();
      await expect
        .poll(() => section('Core').getByRole('rowheader').getByRole('link').allInnerTexts())
        .toEqual(['svc-000', 'svc-001', 'svc-002']);
      await shot(page, `groups-${scheme}-${width}`);
      await toggle('Core').click();
      await expect.poll(() => section('Core').getByRole('link').count()).toBe(0);
      // One list is still a choice, kept in the URL.
      await page.getByLabel('Show').selectOption({ label: 'One list' });
      await expect.poll(() => new URL(page.url()).search).toBe('?layout=list');
      await expect.poll(() => rowNames(page)).toHaveLength(100);
      await context.close();
    }
  });
});
