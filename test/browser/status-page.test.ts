import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, startLookout, type TestResult, testAgent } from './support.js';

/**
 * The public status page in Chromium, with JavaScript on and off, at desktop and phone width, light
 * and dark: complete without script, no request to anyone else, every day's bar named and reachable
 * by keyboard, nothing wider than the screen. Screenshots go to SCREENSHOTS (default a temp dir).
 */
const shots = process.env.SCREENSHOTS ?? join(tmpdir(), 'lookout-status-shots');
const DAY = 86_400_000;

let lookout: Lookout;
let browser: Browser;
let url: string;
let incidentTitle: string;

const post = async (path: string, json: unknown) => {
  const r = await lookout.api('demo', path, { 'x-api-key': lookout.apiKey }, { method: 'POST', json });
  expect(r.status, r.body).toBeLessThan(300);
  return JSON.parse(r.body);
};

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  lookout = await startLookout();
  browser = await launchBrowser();
  const tcp = (display_name: string) =>
    post('/monitors/create', {
      display_name,
      monitor_type: 'tcp',
      url: 'db-7.internal.example',
      port: 5432,
      check_interval_seconds: 60,
      failure_threshold: 1,
      check_locations: ['eu-west'],
    });
  const api = await tcp('api-gateway-prod-internal');
  const web = await tcp('web-frontend');
  const pay = await tcp('payments-internal');
  // 90 days of hourly checks: the API had a bad day 12 days ago, payments a rough week, and is down now.
  const now = Date.now();
  const results: TestResult[] = [];
  let n = 0;
  for (let t = now - 89 * DAY; t < now - 60_000; t += 3_600_000, n++) {
    const daysAgo = Math.floor((now - t) / DAY);
    results.push({
      monitorId: api.id,
      at: new Date(t),
      ok: !(daysAgo === 12 && n % 3 === 0) && daysAgo !== 40,
    });
    results.push({ monitorId: web.id, at: new Date(t), ok: true });
    results.push({ monitorId: pay.id, at: new Date(t), ok: !(daysAgo >= 20 && daysAgo < 24 && n % 9 === 0) });
  }
  results.push({ monitorId: api.id, at: new Date(now - 30_000), ok: true });
  results.push({ monitorId: web.id, at: new Date(now - 30_000), ok: true });
  results.push({ monitorId: pay.id, at: new Date(now - 30_000), ok: false });
  await (await testAgent(lookout, 'eu-west')).report(results);

  const page = await post('/status-pages', {
    name: 'Acme Cloud',
    slug: 'acme',
    accent_color: '#6d28d9',
    components: [
      { name: 'API', group: 'Platform', monitor_id: api.id, description: 'REST and GraphQL' },
      { name: 'Dashboard', group: 'Platform', monitor_id: web.id },
      { name: 'Payments', group: 'Billing', monitor_id: pay.id },
      { name: 'Support desk', status: 'operational' },
    ],
  });
  url = lookout.url('demo', '/status/acme');
  incidentTitle = 'Card payments failing';
  const incident = await post(`/status-pages/${page.id}/incidents`, {
    title: incidentTitle,
    status: 'investigating',
    message: 'Card payments fail for some customers. We are looking into it.',
    components: { [page.components[2].id]: 'major_outage' },
  });
  await post(`/status-pages/${page.id}/incidents/${incident.id}/updates`, {
    status: 'identified',
    message: 'A certificate expired at our card processor; a new one is being deployed.',
  });
  const old = await post(`/status-pages/${page.id}/incidents`, {
    title: 'Slow dashboard',
    status: 'investigating',
    message: 'The dashboard loads slowly.',
    components: { [page.components[1].id]: 'degraded_performance' },
  });
  await post(`/status-pages/${page.id}/incidents/${old.id}/updates`, {
    status: 'resolved',
    message: 'Back to normal.',
  });
  const r = await lookout.api(
    'demo',
    `/status-pages/${page.id}/incidents/${old.id}`,
    { 'x-api-key': lookout.apiKey },
    {
      method: 'PATCH',
      json: {
        postmortem:
          '## What happened\n\nA slow **database query** after a deploy.\n\n<script>alert(1)</script>',
      },
    },
  );
  expect(r.status, r.body).toBe(200);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

const SIZES: { name: string; options: BrowserContextOptions }[] = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 900 } } },
  {
    name: 'phone',
    options: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  },
];

describe('the public status page', () => {
  for (const size of SIZES)
    for (const js of [true, false])
      it(`${size.name}, JavaScript ${js ? 'on' : 'off'}: complete, self-contained, keyboard-readable bars`, async () => {
        const context = await browser.newContext({
          ...size.options,
          javaScriptEnabled: js,
          colorScheme: 'light',
        });
        const page = await context.newPage();
        const elsewhere: string[] = [];
        page.on('request', (req) => {
          if (!req.url().startsWith(lookout.url('demo', '/'))) elsewhere.push(req.url());
        });
        const response = await page.goto(url);
        expect(response!.status()).toBe(200);
        await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme Cloud');
        expect(await page.getByRole('status').textContent()).toContain('Partial System Outage');
        expect(await page.getByRole('heading', { name: 'Active incidents' }).count()).toBe(1);
        expect(await page.getByRole('heading', { name: incidentTitle }).count()).toBe(1);
        expect(await page.getByRole('heading', { name: 'Platform' }).count()).toBe(1);
        expect(await page.getByRole('heading', { name: 'Billing' }).count()).toBe(1);
        expect(await page.getByText('Major outage').count()).toBe(1);
        // Never the monitors' own names or addresses.
        const text = await page.locator('body').innerText();
        expect(text).not.toMatch(/internal|db-7|5432|api-gateway/);
        // The post-mortem is Markdown made safe: the heading renders, the script is text.
        await page.getByText('Post-mortem').click();
        expect(await page.getByRole('heading', { name: 'What happened' }).count()).toBe(1);
        expect(await page.locator('.md script').count()).toBe(0);

        // Every day's bar is a list item named by its date and uptime; the keyboard reaches it.
        const bars = page.getByRole('list', { name: 'API: uptime by day' }).getByRole('listitem');
        // A phone shows the last 30 days (the others are hidden, from readers too).
        const shown = size.name === 'phone' ? 30 : 90;
        expect(await bars.count()).toBe(shown);
        const labels = await bars.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
        for (const l of labels) expect(l).toMatch(/^\d+ \w+ \d{4}: ((100|\d+\.\d\d)% uptime|no data)$/);
        // The bad days (a whole day down, 40 days ago; a third of a day's checks failing, 12 days ago) stand out.
        const low = labels.filter((l) => Number(/: ([\d.]+)%/.exec(l)?.[1] ?? 100) < 95);
        expect(low.length).toBeGreaterThanOrEqual(size.name === 'phone' ? 1 : 2);
        const last = bars.last();
        await last.focus();
        expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toMatch(
          /^\d+ \w+ \d{4}: (100|\d+\.\d\d)% uptime$/,
        );
        // Focus moves from bar to bar with Tab.
        await bars.nth(shown - 2).focus();
        await page.keyboard.press('Tab');
        expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe(
          await last.getAttribute('aria-label'),
        );
        await page.screenshot({
          path: join(shots, `status-${size.name}-js-${js ? 'on' : 'off'}.png`),
          fullPage: true,
        });

        // Nothing wider than the screen; nothing loaded from anywhere else.
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          size.options.viewport!.width,
        );
        expect(elsewhere).toEqual([]);
        await context.close();
      });

  it('a reader subscribes by email with JavaScript off, on a phone', async () => {
    const context = await browser.newContext({ ...SIZES[1]!.options, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole('heading', { name: 'Get updates by email' }).scrollIntoViewIfNeeded();
    await page.getByRole('textbox', { name: 'Email' }).fill('reader@example.test');
    await page.screenshot({ path: join(shots, 'status-subscribe-phone.png') });
    await page.getByRole('button', { name: 'Subscribe' }).click();
    expect(await page.getByRole('heading', { name: 'Check your inbox' }).count()).toBe(1);
    await page.screenshot({ path: join(shots, 'status-subscribed-phone.png') });
    await context.close();
  });

  it('dark when the reader’s system is, with a tooltip on a focused bar', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(url);
    const bg = (await page.evaluate('getComputedStyle(document.body).backgroundColor')) as string;
    const [r, g, b] = bg.match(/\d+/g)!.map(Number);
    expect(r! + g! + b!).toBeLessThan(120);
    const bar = page.getByRole('list', { name: 'Payments: uptime by day' }).getByRole('listitem').nth(67);
    await bar.focus();
    const tip = await page.evaluate("getComputedStyle(document.activeElement, '::after').content");
    expect(tip).toBe(`"${await bar.getAttribute('aria-label')}"`);
    await page.screenshot({ path: join(shots, 'status-desktop-dark.png'), fullPage: true });
    await context.close();
  });
});

describe('honest before any data, and what each width says', () => {
  it('a monitor never checked and a heartbeat never pinged say "No data yet", never "Operational", at desktop and phone width', async () => {
    const never = await post('/monitors/create', {
      display_name: 'closed-port',
      monitor_type: 'tcp',
      url: '127.0.0.1',
      port: 9,
      check_interval_seconds: 60,
      failure_threshold: 3,
      check_locations: ['eu-west'],
    });
    const beat = await post('/heartbeats', {
      display_name: 'nightly-backup',
      period_seconds: 86_400,
      grace_seconds: 3600,
    });
    await post('/status-pages', {
      name: 'Acme status',
      slug: 'fresh',
      components: [
        { name: 'Database', monitor_id: never.id },
        { name: 'Backups', heartbeat_id: beat.id },
      ],
    });
    for (const size of SIZES) {
      const context = await browser.newContext({ ...size.options, javaScriptEnabled: false });
      const page = await context.newPage();
      expect((await page.goto(lookout.url('demo', '/status/fresh')))!.status()).toBe(200);
      const banner = page.getByRole('status');
      expect(await banner.textContent()).toContain('No Data Yet');
      // Grey, not the green of "all is well".
      expect(
        await page.evaluate("getComputedStyle(document.querySelector('[role=status]')).backgroundColor"),
      ).toBe('rgb(91, 100, 112)');
      expect(await page.getByText('No data yet', { exact: true }).count()).toBe(2);
      expect(await page.locator('body').innerText()).not.toMatch(/operational/i);
      // Named "Acme status", titled so (not "Acme status status").
      expect(await page.title()).toBe('Acme status');
      await page.screenshot({ path: join(shots, `status-no-data-${size.name}.png`), fullPage: true });
      await context.close();
    }
  });

  it('the uptime beside the bars is over the days they show: 90 on a wide screen, 30 on a phone', async () => {
    for (const [size, days, other] of [
      [SIZES[0]!, 90, 30],
      [SIZES[1]!, 30, 90],
    ] as const) {
      const context = await browser.newContext(size.options);
      const page = await context.newPage();
      await page.goto(url);
      const bars = page.getByRole('list', { name: 'API: uptime by day' });
      const axis = page.locator('li.comp', { has: bars }).locator('.axis');
      const said = await axis.innerText();
      expect(said).toContain(`${days} days ago`);
      expect(said).toMatch(new RegExp(`(100|\\d+\\.\\d\\d)% uptime over ${days} days`));
      expect(said).not.toContain(`${other} days`);
      expect(await bars.getByRole('listitem').count()).toBe(days);
      await context.close();
    }
  });

  it('an address with no page shows a page to a browser, not JSON', async () => {
    const context = await browser.newContext(SIZES[1]!.options);
    const page = await context.newPage();
    const r = await page.goto(lookout.url('demo', '/status/no-such-page'));
    expect(r!.status()).toBe(404);
    expect(r!.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(await page.getByRole('heading', { level: 1, name: 'Status page not found' }).count()).toBe(1);
    await context.close();
  });
});
