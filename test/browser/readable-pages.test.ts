import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Lookout,
  launchBrowser,
  signedInAt,
  startLookout,
  type TestResult,
  testAgent,
} from './support.js';

/**
 * Pages with a real amount of data, at a desktop width (1280 px) and a phone's (390 px): full check
 * histories, reported by agents of both regions over the agent protocol (gRPC ReportResults), so the
 * real ingestion path fills the store. The layout is asserted by geometry; a screenshot of each page
 * goes to SHOTS (in the system's temporary directory) for people to look at.
 */
const SHOTS = join(tmpdir(), 'lookout-readable-pages');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let lookout: Lookout;
let browser: Browser;
const asAdmin = () => ({ 'x-api-key': lookout.apiKey });
const post = async (path: string, json?: unknown) => {
  const r = await lookout.api('demo', path, asAdmin(), {
    method: 'POST',
    ...(json === undefined ? {} : { json }),
  });
  if (r.status >= 300) throw new Error(`${path}: ${r.status} ${r.body}`);
  return JSON.parse(r.body);
};
/** A job's ping, as curl on the job's host sends it (the ping URL's host, connecting to loopback). */
const ping = (url: string, body: string) =>
  new Promise<number>((done, fail) => {
    const u = new URL(url);
    const req = request(
      { host: '127.0.0.1', port: u.port, method: 'POST', path: u.pathname, headers: { host: u.host } },
      (res) => res.resume().on('end', () => done(res.statusCode ?? 0)),
    );
    req.on('error', fail);
    req.end(body);
  });
const admin = () => ({ email: lookout.adminEmail, password: lookout.password });

/** What the monitors are: loopback and long public addresses, as people name them. */
const MONITORS = [
  { name: 'Checkout API', url: 'http://127.0.0.1:18939/', failingSince: null },
  {
    name: 'Customer portal sign-in (EU)',
    url: 'https://portal.example-company.com/login',
    failingSince: null,
  },
  { name: 'Payments gateway', url: 'http://127.0.0.1:18940/health', failingSince: 4 },
  { name: 'Search', url: 'https://search.example.com/', failingSince: null },
  // A long unbroken query: its one long part breaks where it must, the table stays in the window.
  {
    name: 'Reports export',
    url: `https://reports.example.com/export?token=${'a1b2c3d4e5'.repeat(8)}`,
    failingSince: null,
  },
];
const HISTORY = 40;
const ids = new Map<string, string>();

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
  const agents = [await testAgent(lookout, 'eu-west'), await testAgent(lookout, 'us-east')];
  const now = Date.now();
  for (const m of MONITORS) {
    const created = await post('/monitors/create', {
      display_name: m.name,
      monitor_type: 'http',
      url: m.url,
      http_method: 'GET',
      expected_status_code: 200,
      check_interval_seconds: 60,
      failure_threshold: 2,
    });
    ids.set(m.name, created.id);
    // A full history per region: one check a minute, oldest first; the failing one fails its newest few.
    for (const [i, agent] of agents.entries()) {
      const results: TestResult[] = [];
      for (let k = HISTORY; k >= 1; k--) {
        const failing = m.failingSince !== null && k <= m.failingSince;
        results.push({
          monitorId: created.id,
          at: new Date(now - k * 60_000 + i * 1000),
          ok: !failing,
          responseTimeMs: failing ? 0 : 40 + ((k * 7 + i * 13) % 50),
          statusCode: failing ? 503 : 200,
          ...(failing ? { error: 'expected status 200, got 503' } : {}),
        });
      }
      await agent.report(results);
    }
  }
});
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

/** How many lines an element's text takes (an inline element broken over lines has a box per line). */
const lines = (l: Locator) =>
  l.evaluate((el) => new Set([...el.getClientRects()].map((r) => Math.round(r.top))).size);

const box = async (l: Locator) => {
  const b = await l.boundingBox();
  if (!b) throw new Error('not visible');
  return b;
};

const monitorsAt = async (viewport: { width: number; height: number }) => {
  const { context, page } = await signedInAt(browser, lookout, admin());
  await page.setViewportSize(viewport);
  await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
  for (const m of MONITORS)
    await page
      .getByRole('list', { name: `Recent checks of ${m.name}` })
      .getByRole('listitem')
      .nth(29)
      .waitFor({ state: 'attached' });
  return { context, page };
};

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

describe('the monitors list with full histories', () => {
  it('at 1280 px each row keeps its address on its one line and the recent checks inside their column', async () => {
    const { context, page } = await monitorsAt(DESKTOP);
    await shot(page, 'monitors-desktop');
    const table = page.getByRole('table');
    const tableBox = await box(table);
    for (const m of MONITORS) {
      const row = page.getByRole('row', { name: new RegExp(m.name.replace(/[()]/g, '\\$&')) });
      const name = row.getByRole('rowheader');
      const address = name.getByText(m.url, { exact: true });
      // Dense rows: the address stays on the row's one line (cut at the cell's end, never broken after
      // its scheme): the whole address is not a line taller than one of its parts.
      const heights = await address.evaluate((el) => ({
        whole: el.getBoundingClientRect().height,
        part: el.querySelector('span')!.getBoundingClientRect().height,
      }));
      expect(heights.whole, m.url).toBeLessThan(heights.part * 1.5);
      // The address is all there (the monitor's page and a hover show it whole), in its parts.
      const parts = await address.evaluate((el) =>
        [...el.querySelectorAll('span')].map((p) => p.textContent),
      );
      expect(parts.join(''), m.url).toBe(m.url);
      // The name column keeps a readable width: the link fits its name on one line.
      expect(await lines(name.getByRole('link', { name: m.name })), m.name).toBe(1);
      const bar = await box(row.getByRole('list', { name: `Recent checks of ${m.name}` }));
      const cell = await box(row.getByRole('cell').filter({ has: page.getByRole('list') }));
      expect(bar.x).toBeGreaterThanOrEqual(cell.x);
      expect(bar.x + bar.width).toBeLessThanOrEqual(cell.x + cell.width + 0.5);
      const newest = await box(
        row
          .getByRole('list', { name: `Recent checks of ${m.name}` })
          .getByRole('listitem')
          .first(),
      );
      expect(newest.x + newest.width).toBeLessThanOrEqual(bar.x + bar.width);
    }
    // Nothing runs past the table: no sideways scrolling at this width.
    expect(tableBox.x + tableBox.width).toBeLessThanOrEqual(DESKTOP.width);
    expect(
      await page
        .locator('.table-wrap')
        .first()
        .evaluate((el) => el.scrollWidth - el.clientWidth),
    ).toBe(0);
    await context.close();
  });

  it('on a phone each card holds its recent checks and its address', async () => {
    const { context, page } = await monitorsAt(PHONE);
    await shot(page, 'monitors-phone');
    for (const m of MONITORS) {
      const row = page.getByRole('row', { name: new RegExp(m.name.replace(/[()]/g, '\\$&')) });
      const card = await box(row);
      const bar = await box(row.getByRole('list', { name: `Recent checks of ${m.name}` }));
      expect(bar.x).toBeGreaterThanOrEqual(card.x);
      expect(bar.x + bar.width, m.name).toBeLessThanOrEqual(card.x + card.width);
      // The newest check (first in the list, at the bar's right end) is in view.
      const newest = await box(
        row
          .getByRole('list', { name: `Recent checks of ${m.name}` })
          .getByRole('listitem')
          .first(),
      );
      expect(newest.x).toBeGreaterThanOrEqual(bar.x);
      expect(newest.x + newest.width).toBeLessThanOrEqual(bar.x + bar.width);
      const address = await box(row.getByRole('rowheader').getByText(m.url, { exact: true }));
      expect(address.x + address.width).toBeLessThanOrEqual(card.x + card.width);
    }
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await context.close();
  });
});

describe('a monitor’s page', () => {
  const open = async (name: string, viewport = DESKTOP) => {
    const { context, page } = await signedInAt(browser, lookout, admin(), `/monitors/${ids.get(name)}`);
    await page.setViewportSize(viewport);
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    const chart = page.getByRole('img', { name: /Response time of the last \d+ checks by region/ });
    await chart.locator('canvas').waitFor();
    return { context, page, chart };
  };
  /** A figure of the page's summary: the definition beside its term. */
  const figure = (page: Page, term: string) =>
    page.getByRole('term').filter({ hasText: term }).locator('xpath=following-sibling::dd[1]');

  it('a monitor whose newest checks failed says so, in its figures and in its chart’s legend', async () => {
    const { context, page, chart } = await open('Payments gateway');
    await shot(page, 'monitor-down-desktop');
    expect(await figure(page, 'Last response').textContent()).toBe('Failed');
    const legend = (await chart.textContent())!;
    expect(legend).toMatch(/eu-west\s*failed/);
    expect(legend).toMatch(/us-east\s*failed/);
    await context.close();
  });

  it('the chart’s legend shows each region’s newest response before any pointing, and the pointed check after', async () => {
    const { context, page, chart } = await open('Checkout API');
    await shot(page, 'monitor-up-desktop');
    expect(await figure(page, 'Last response').textContent()).toMatch(/^\d+ ms$/);
    const legend = (await chart.textContent())!;
    expect(legend).not.toMatch(/point at/);
    expect(legend).toMatch(/Time\s*newest \d/);
    expect(legend).toMatch(/eu-west\s*\d+ ms/);
    expect(legend).toMatch(/us-east\s*\d+ ms/);
    // Pointing at the chart's left edge shows the oldest check there instead of the newest.
    const plot = await box(chart.locator('canvas'));
    await page.mouse.move(plot.x + 70, plot.y + plot.height / 2);
    await expect.poll(() => chart.textContent()).not.toMatch(/newest/);
    await context.close();
  });
});

describe('heartbeats and integrations', () => {
  it('a heartbeat’s snippets show whole at 1280 px, and its Down state links to its alert', async () => {
    const hb = await post('/heartbeats', { display_name: 'Nightly invoice export', period_seconds: 86_400 });
    // The job reports a failure (exit status 1): the heartbeat is down and an alert is raised for it.
    expect(await ping(`${hb.ping_url}/1`, 'export aborted')).toBe(200);
    const { context, page } = await signedInAt(browser, lookout, admin(), `/heartbeats/${hb.id}`);
    await page.setViewportSize(DESKTOP);
    await page.getByRole('heading', { name: 'Nightly invoice export', level: 1 }).waitFor();
    const state = page.getByRole('status', { name: 'State' });
    await state.getByText('Down', { exact: true }).waitFor();
    const link = state.getByRole('link', { name: 'View alert' });
    await link.waitFor({ timeout: 45_000 });
    await shot(page, 'heartbeat-down-desktop');
    for (const title of [
      'When the job succeeds',
      'crontab',
      'systemd service and timer',
      'Kubernetes CronJob',
      'Start, then success or failure, paired by run id',
      'Failure with the job’s output',
    ]) {
      const code = page.getByRole('figure', { name: title }).locator('pre');
      // Nothing hidden past the right edge: the block is as wide as its content.
      expect(await code.evaluate((el) => el.scrollWidth - el.clientWidth), title).toBe(0);
    }
    await link.click();
    await page.getByRole('heading', { name: /Nightly invoice export/, level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/alerts\/[\w-]+$/);
    await context.close();
  });

  it('an integration’s endpoint breaks only after a slash, never inside a word', async () => {
    for (const [name, kind] of [
      ['Prod Alertmanager', 'alertmanager'],
      ['Job runner', 'webhook'],
      ['Grafana Cloud', 'grafana'],
    ])
      await post('/integrations', { name, kind });
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await signedInAt(browser, lookout, admin(), '/routing/integrations');
      await page.setViewportSize(viewport);
      await page.getByRole('row', { name: /Grafana Cloud/ }).waitFor();
      await shot(page, `integrations-${viewport.width}`);
      for (const name of ['Prod Alertmanager', 'Job runner', 'Grafana Cloud']) {
        const endpoint = page
          .getByRole('row', { name: new RegExp(name) })
          .getByRole('cell')
          .filter({ hasText: '/api/v1/integrations/' });
        const parts = await endpoint.evaluate((el) =>
          [...el.querySelectorAll('code span')].map((part) => ({
            text: part.textContent,
            lines: new Set([...part.getClientRects()].map((r) => Math.round(r.top))).size,
          })),
        );
        expect(parts.map((p) => p.text).join('')).toMatch(/^\/api\/v1\/integrations\/\w+\/events$/);
        for (const part of parts) expect(part.lines, `${name}: ${part.text}`).toBe(1);
      }
      await context.close();
    }
  });
});

describe('a long name and address on a phone', () => {
  it('a monitor’s page stays as wide as the screen: an overlong address segment and title break', async () => {
    const name = 'Customer portal sign-in for the European region, behind the new load balancer (EU-2)';
    const created = await post('/monitors/create', {
      display_name: name,
      monitor_type: 'http',
      url: 'https://portal.example-company.com/account/endpoint?with=query&parameters=lots&more=values&even=more',
      http_method: 'GET',
      expected_status_code: 200,
      check_interval_seconds: 60,
    });
    const { context, page } = await signedInAt(browser, lookout, admin(), `/monitors/${created.id}`);
    await page.setViewportSize(PHONE);
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    await shot(page, 'monitor-long-phone');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await page.goto(lookout.url('demo', '/monitors'));
    await page.getByRole('row', { name: /Customer portal sign-in for the European region/ }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await context.close();
  });
});
