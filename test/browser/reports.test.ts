import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pct } from '../../control-plane/web/src/pages/reports/report-format.js';
import { pdfText } from './pdf-text.js';
import {
  type Lookout,
  launchBrowser,
  signedInAt,
  startLookout,
  type TestResult,
  testAgent,
} from './support.js';

/**
 * The SLA report page (`/reports`) in Chromium against the real API (`GET /reports/sla`): the figures,
 * the chart and the tables show what the API answers; period and scope change the report and live in
 * the URL (a reload keeps them); Download CSV is the API's CSV; print media hides the navigation,
 * the buttons and the settings, and Chromium's PDF of the page carries its text; the monthly mail
 * form (admins) saves and reads back. Screenshots: /tmp/slaweb-*.png.
 */
const HOUR = 3_600_000;
const CSV_HEADER =
  'monitor_id,monitor_name,uptime_percent,uptime_percent_with_maintenance,checks,checks_in_maintenance,downtime_seconds,incidents,mtta_seconds,mttr_seconds,p50_ms,p95_ms,p99_ms,error_budget_seconds_left';

let lookout: Lookout;
let browser: Browser;
let member: { email: string; password: string };
const ids: Record<string, string> = {};
const admin = () => ({ email: lookout.adminEmail, password: lookout.password });
const key = () => ({ 'x-api-key': lookout.apiKey });
const call = async (method: string, path: string, json?: unknown) => {
  const r = await lookout.api('demo', path, key(), { method, json });
  expect(r.status, r.body.slice(0, 300)).toBeLessThan(300);
  return r.body ? JSON.parse(r.body) : null;
};
/** The API's report for a query, as the page asks for it. */
const apiReport = (q: Record<string, string>) => call('GET', `/reports/sla?${new URLSearchParams(q)}`);
const ymd = (t: number) => new Date(t).toISOString().slice(0, 10);
const now = Date.now();
const d = new Date(now);
const thisMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
const lastMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
const THIS_MONTH = { from: ymd(thisMonth), to: ymd(now) };
const LAST_MONTH = { from: ymd(lastMonth), to: ymd(thisMonth - 1) };

/** A figure card's value: the definition beside its term. */
const figure = (page: Page, term: string) =>
  page
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${term}$`) })
    .locator('xpath=following-sibling::dd[1]');
const settings = (page: Page) => page.getByRole('form', { name: 'Report settings' });

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
  const m = await lookout.cli([
    'user',
    'create',
    '--workspace',
    'demo',
    '--email',
    'mia@demo.localhost',
    '--role',
    'member',
  ]);
  member = { email: m.user.email, password: m.user.password };
  ids.group = (await call('POST', '/groups', { name: 'Payments' })).id;
  const tcp = async (display_name: string, extra: Record<string, unknown>) =>
    (
      await call('POST', '/monitors/create', {
        display_name,
        monitor_type: 'tcp',
        url: 'db-7.internal.example',
        port: 5432,
        check_interval_seconds: 60,
        failure_threshold: 1,
        check_locations: ['eu-west'],
        ...extra,
      })
    ).id as string;
  ids.checkout = await tcp('Checkout API', { tags: ['edge'], group_id: ids.group });
  ids.site = await tcp('Marketing site', { tags: ['edge'] });
  ids.search = await tcp('Search cluster', { tags: ['core'] });
  // Hourly checks since the start of last month: Checkout API failed 3 hours on the 10th of last month
  // and a few in a row this morning (an incident, resolved); Search cluster slow; the site always fine.
  const results: TestResult[] = [];
  const end = now - 10 * 60_000;
  for (let t = lastMonth; t < end; t += HOUR) {
    const day = new Date(t);
    const bad = t < thisMonth && day.getUTCDate() === 10 && day.getUTCHours() < 3;
    results.push({
      monitorId: ids.checkout,
      at: new Date(t),
      ok: !bad,
      responseTimeMs: 120 + ((t / HOUR) % 7),
    });
    results.push({ monitorId: ids.site, at: new Date(t), ok: true, responseTimeMs: 80 });
    results.push({ monitorId: ids.search, at: new Date(t), ok: true, responseTimeMs: 900 });
  }
  const agent = await testAgent(lookout, 'eu-west');
  await agent.report(results);
  // The incident this morning: down (its alert raised), then up again (resolved), each its own report
  // (a batch's newest result decides the monitor's status).
  await agent.report(
    [3, 2].map((ago) => ({ monitorId: ids.checkout!, at: new Date(now - ago * 60_000), ok: false })),
  );
  for (let i = 0; ; i++) {
    if ((await call('GET', `/alerts?source_id=${ids.checkout}`)).data.length > 0) break;
    if (i > 100) throw new Error('no alert for Checkout API');
    await new Promise((done) => setTimeout(done, 200));
  }
  await agent.report([{ monitorId: ids.checkout!, at: new Date(now - 60_000), ok: true }]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

describe('the SLA report page', () => {
  it('shows the figures, the chart and the tables the API gives for the workspace this month', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin());
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'SLA report', level: 1 }).waitFor();
    expect(await page.title()).toBe('SLA report · Lookout');
    const r = await apiReport(THIS_MONTH);
    await expect.poll(() => figure(page, 'Uptime').textContent()).toContain(pct(r.uptime_percent));
    expect(await figure(page, 'Uptime incl. maintenance').textContent()).toContain(
      pct(r.uptime_percent_with_maintenance),
    );
    expect(await figure(page, 'Incidents').textContent()).toBe(String(r.incident_count));
    expect(r.incident_count).toBeGreaterThan(0);
    const chart = page.getByRole('img', { name: /^Uptime by day/ });
    expect(await chart.locator('rect').count()).toBe(r.days.length);
    // Monitors: one row each, by name; incidents link to their alert.
    const monitors = page.getByRole('table', { name: 'Monitors' });
    expect(await monitors.getByRole('rowheader').allTextContents()).toEqual(
      r.monitors.map((m: { name: string }) => m.name),
    );
    const incident = r.incidents[0];
    const link = page
      .getByRole('table', { name: 'Incidents' })
      .getByRole('link', { name: incident.title })
      .first();
    expect(await link.getAttribute('href')).toBe(`/alerts/${incident.alert_id}`);
    await page.screenshot({ path: '/tmp/slaweb-1280-light.png', fullPage: true });
    await link.click();
    await page.waitForURL(lookout.url('demo', `/alerts/${incident.alert_id}`));
    await context.close();
  });

  it('switches period and scope, keeps both in the URL across a reload, and sorts monitors by uptime', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), '/reports');
    await settings(page).getByLabel('Period').selectOption({ label: 'Last month' });
    await page.waitForURL(/period=last_month/);
    const r = await apiReport(LAST_MONTH);
    expect(r.uptime_percent).toBeLessThan(100);
    await expect.poll(() => figure(page, 'Uptime').textContent()).toContain(pct(r.uptime_percent));
    // Worst first, then best first.
    const monitors = page.getByRole('table', { name: 'Monitors' });
    await monitors.getByRole('button', { name: 'Uptime' }).click();
    expect(await monitors.getByRole('columnheader', { name: 'Uptime' }).getAttribute('aria-sort')).toBe(
      'ascending',
    );
    expect((await monitors.getByRole('rowheader').allTextContents())[0]).toBe('Checkout API');
    await monitors.getByRole('button', { name: 'Uptime' }).click();
    expect(await monitors.getByRole('columnheader', { name: 'Uptime' }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    expect((await monitors.getByRole('rowheader').allTextContents()).at(-1)).toBe('Checkout API');

    await settings(page).getByLabel('Report on', { exact: true }).selectOption({ label: 'Monitor' });
    await settings(page).getByLabel('Monitor', { exact: true }).selectOption({ label: 'Checkout API' });
    await page.waitForURL(new RegExp(`monitor_id=${ids.checkout}`));
    const one = await apiReport({ ...LAST_MONTH, monitor_id: ids.checkout! });
    await expect.poll(() => figure(page, 'Uptime').textContent()).toContain(pct(one.uptime_percent));
    await expect.poll(() => monitors.getByRole('rowheader').allTextContents()).toEqual(['Checkout API']);
    await page.reload();
    await expect.poll(() => figure(page, 'Uptime').textContent()).toContain(pct(one.uptime_percent));
    expect(await settings(page).getByLabel('Period').inputValue()).toBe('last_month');
    expect(await settings(page).getByLabel('Report on', { exact: true }).inputValue()).toBe('monitor');

    // A tag; then custom days, typed.
    await settings(page).getByLabel('Report on', { exact: true }).selectOption({ label: 'Tag' });
    await settings(page).getByLabel('Tag').fill('edge');
    await settings(page).getByLabel('Tag').press('Enter');
    await page.waitForURL(/tag=edge/);
    await expect
      .poll(() => monitors.getByRole('rowheader').allTextContents())
      .toEqual(['Checkout API', 'Marketing site']);
    await settings(page).getByLabel('Period').selectOption({ label: 'Custom' });
    await settings(page)
      .getByLabel('From')
      .fill(`${LAST_MONTH.from.slice(0, 8)}10`);
    await settings(page)
      .getByLabel('To')
      .fill(`${LAST_MONTH.from.slice(0, 8)}10`);
    await settings(page).getByLabel('To').press('Enter');
    await page.waitForURL(/period=custom/);
    const day = await apiReport({
      tag: 'edge',
      from: `${LAST_MONTH.from.slice(0, 8)}10`,
      to: `${LAST_MONTH.from.slice(0, 8)}10`,
    });
    await expect.poll(() => figure(page, 'Uptime').textContent()).toContain(pct(day.uptime_percent));
    expect(
      await page
        .getByRole('img', { name: /^Uptime by day/ })
        .locator('rect')
        .count(),
    ).toBe(1);
    // The monthly mail's link: the API's names, days without a period.
    await page.goto(
      lookout.url('demo', `/reports?${new URLSearchParams({ tag: 'edge', ...LAST_MONTH, slo: '99.5' })}`),
    );
    await expect.poll(() => figure(page, 'Uptime').textContent()).toContain('SLO 99.5 %');
    expect(await settings(page).getByLabel('Period').inputValue()).toBe('custom');
    expect(await settings(page).getByLabel('From').inputValue()).toBe(LAST_MONTH.from);
    expect(await settings(page).getByLabel('Tag').inputValue()).toBe('edge');
    // A bad SLO: the API's problem beside the field, no report.
    await settings(page).getByLabel('SLO (%)').fill('100');
    await settings(page).getByLabel('SLO (%)').press('Enter');
    await expect.poll(() => settings(page).getByLabel('SLO (%)').getAttribute('aria-invalid')).toBe('true');
    await context.close();
  });

  it('downloads the API’s CSV of the report shown', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), '/reports?period=last_month');
    await figure(page, 'Uptime').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toBe(CSV_HEADER);
    expect(lines.at(-1)).toMatch(/^TOTAL,/);
    expect(lines).toHaveLength(1 + 3 + 1);
    const fromApi = await lookout.api('demo', `/reports/sla?${new URLSearchParams(LAST_MONTH)}`, {
      ...key(),
      accept: 'text/csv',
    });
    expect(csv).toBe(fromApi.body);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    await context.close();
  });

  it('prints the report alone: no navigation, buttons or settings; a PDF with its text', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), '/reports?period=last_month');
    await page.setViewportSize({ width: 1280, height: 900 });
    await figure(page, 'Uptime').waitFor();
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    expect(await page.getByRole('link', { name: 'Download CSV' }).isVisible()).toBe(false);
    expect(await settings(page).isVisible()).toBe(false);
    expect(await page.getByRole('heading', { name: 'Monthly report by mail' }).isVisible()).toBe(false);
    expect(await page.getByRole('img', { name: /^Uptime by day/ }).isVisible()).toBe(true);
    expect(await page.getByRole('table', { name: 'Monitors' }).isVisible()).toBe(true);
    expect(await page.getByText(/generated/).isVisible()).toBe(true);
    expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(255, 255, 255)');
    expect(await page.evaluate("getComputedStyle(document.querySelector('main')).color")).toBe(
      'rgb(0, 0, 0)',
    );
    await page.screenshot({ path: '/tmp/slaweb-print.png', fullPage: true });
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // Compared without white space: a table cell's words may sit on separate lines of the PDF.
    const text = pdfText(pdf).replace(/\s+/g, '');
    const squeezed = (t: string) => t.replace(/\s+/g, '');
    const r = await apiReport(LAST_MONTH);
    for (const s of [
      'SLA report',
      r.scope.name,
      pct(r.uptime_percent),
      'Checkout API',
      'Search cluster',
      'generated',
    ])
      expect(text).toContain(squeezed(s));
    expect(text).not.toContain(squeezed('Download CSV'));
    expect(text).not.toContain(squeezed('Monthly report by mail'));
    await context.close();
  });

  it('saves the monthly mail (admins) and reads it back after a reload; a member sees the report, not the form', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), '/reports');
    const form = page.getByRole('form', { name: 'Monthly report by mail' });
    const enabled = form.getByRole('checkbox', { name: /^Mail last month’s report/ });
    await enabled.waitFor();
    await enabled.check();
    await form.getByRole('searchbox', { name: 'Find a user' }).fill('mia');
    await form.getByRole('checkbox', { name: 'mia@demo.localhost' }).check();
    await form.getByLabel('Report on', { exact: true }).selectOption({ label: 'Group' });
    await form.getByLabel('Group', { exact: true }).selectOption({ label: 'Payments' });
    await form.getByLabel('SLO (%)').fill('99.5');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const users = (await call('GET', '/users')).data as { id: string; email: string }[];
    const mia = users.find((u) => u.email === 'mia@demo.localhost')!.id;
    const saved = await call('GET', '/reports/schedule');
    expect(saved).toMatchObject({
      enabled: true,
      recipient_user_ids: [mia],
      scope: { type: 'group', id: ids.group },
      slo: 99.5,
    });
    await page.reload();
    await enabled.waitFor();
    expect(await enabled.isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: 'mia@demo.localhost' }).isChecked()).toBe(true);
    expect(await form.getByLabel('Report on', { exact: true }).inputValue()).toBe('group');
    expect(await form.getByLabel('Group', { exact: true }).inputValue()).toBe(ids.group);
    expect(await form.getByLabel('SLO (%)').inputValue()).toBe('99.5');
    // Send now: the previous month's report, each recipient's outcome said (no mail server here).
    await form.getByRole('button', { name: 'Send now' }).click();
    await form.getByRole('status').filter({ hasText: 'mia@demo.localhost' }).waitFor();
    // A bad SLO: the API's problem beside the field, nothing saved.
    await form.getByLabel('SLO (%)').fill('100');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.getByLabel('SLO (%)').getAttribute('aria-invalid')).toBe('true');
    expect((await call('GET', '/reports/schedule')).slo).toBe(99.5);
    await context.close();

    const asMember = await signedInAt(browser, lookout, member, '/reports');
    await figure(asMember.page, 'Uptime').waitFor();
    expect(await asMember.page.getByRole('heading', { name: 'Monthly report by mail' }).count()).toBe(0);
    await asMember.context.close();
  });

  it('at 390 px in dark mode: nothing wider than the screen', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      colorScheme: 'dark',
    });
    const page = await context.newPage();
    await page.goto(lookout.url('demo', '/reports'));
    await page.getByLabel('Email').fill(lookout.adminEmail);
    await page.getByLabel('Password').fill(lookout.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await figure(page, 'Uptime').waitFor();
    await page.screenshot({ path: '/tmp/slaweb-390-dark.png', fullPage: true });
    // Nothing past the screen's edge but the navigation, one row that scrolls sideways on a phone.
    const wide = await page.evaluate(
      "[...document.querySelectorAll('body *')].filter((e) => !e.closest('nav') && e.getBoundingClientRect().right > 391).map((e) => e.tagName + '.' + e.className)",
    );
    expect(wide).toEqual([]);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await context.close();
  });
});
