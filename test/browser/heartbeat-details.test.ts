import { request } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, startLookout } from './support.js';

/**
 * A heartbeat's details in Chromium: the time zone is chosen from the IANA names (searchable, still
 * checked by the server), the ping log says the second of each ping, and the ready lines come in the
 * slug form too. Screenshots to /tmp/h8-heartbeat-*.png.
 */
let lookout: Lookout;
let browser: Browser;
let member: { email: string; password: string };
let hb: { id: string; ping_url: string };

const call = async (method: string, path: string, json?: unknown) => {
  const r = await lookout.api('demo', path, { 'x-api-key': lookout.apiKey }, { method, json });
  expect(r.status, r.body).toBeLessThan(300);
  return JSON.parse(r.body);
};
/** A ping as a job sends it, from outside the browser. */
const ping = (url: string) =>
  new Promise<number>((resolve, reject) => {
    const u = new URL(url);
    const req = request(
      { host: '127.0.0.1', port: u.port, path: u.pathname, headers: { host: u.host } },
      (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)),
    );
    req.on('error', reject);
    req.end();
  });

const signedIn = async (who: { email: string; password: string }, path: string, width = 1280) => {
  const context = await browser.newContext({
    locale: 'en-US',
    timezoneId: 'UTC',
    viewport: { width, height: width > 500 ? 900 : 844 },
  });
  const page = await context.newPage();
  await page.goto(lookout.url('demo', path));
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(lookout.url('demo', path));
  return { context, page };
};
const admin = () => ({ email: lookout.adminEmail, password: lookout.password });

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
  const m = await lookout.cli([
    'user',
    'create',
    '--workspace',
    'demo',
    '--email',
    'mo@demo.localhost',
    '--role',
    'member',
  ]);
  member = { email: m.user.email, password: m.user.password };
  hb = await call('POST', '/heartbeats', {
    display_name: 'Nightly sync',
    schedule: '30 5 * * *',
    timezone: 'Europe/Berlin',
    slug: 'nightly-sync',
  });
  // Three pings a little over a second apart: the same minute, different seconds.
  for (let i = 0; i < 3; i++) {
    if (i) await new Promise((done) => setTimeout(done, 1100));
    expect(await ping(hb.ping_url)).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

describe('heartbeat details', () => {
  it('the time zone is a searchable list of the IANA names, and the server still refuses an unknown one', async () => {
    const { context, page } = await signedIn(admin(), '/heartbeats');
    await page.getByRole('button', { name: 'New heartbeat' }).click();
    const form = page.getByRole('form', { name: 'Create heartbeat' });
    await form.getByLabel('Name').fill('Report');
    await form.getByLabel('Expect pings').selectOption({ label: 'On a cron schedule' });
    const zone = form.getByRole('combobox', { name: 'Time zone' });
    // Its suggestions: every zone the browser knows, UTC first.
    const listId = await zone.getAttribute('list');
    const offered = await page
      .locator(`datalist[id="${listId}"] option`)
      .evaluateAll((os) => os.map((o) => o.getAttribute('value') ?? ''));
    expect(offered.length).toBeGreaterThan(300);
    expect(offered[0]).toBe('UTC');
    expect(offered).toEqual(expect.arrayContaining(['Europe/Berlin', 'America/New_York', 'Asia/Tokyo']));
    // Every suggestion is a zone the server takes.
    const probe = await call('POST', '/heartbeats', { display_name: 'zone probe', schedule: '@daily' });
    const refused: string[] = [];
    for (const timezone of offered) {
      const r = await lookout.api(
        'demo',
        `/heartbeats/${probe.id}`,
        { 'x-api-key': lookout.apiKey },
        { method: 'PATCH', json: { timezone } },
      );
      if (r.status !== 200) refused.push(timezone);
    }
    expect(refused).toEqual([]);
    await zone.fill('Mars/Olympus_Mons');
    await form.getByRole('button', { name: 'Create heartbeat' }).click();
    await expect.poll(() => zone.getAttribute('aria-invalid')).toBe('true');
    await form.getByText('is not a known IANA time zone').waitFor();
    await zone.fill('Asia/Tokyo');
    await page.screenshot({ path: '/tmp/h8-heartbeat-form-1280.png', fullPage: true });
    await form.getByRole('button', { name: 'Create heartbeat' }).click();
    await page.getByRole('heading', { name: 'Report', level: 1 }).waitFor();
    await page
      .getByText(/Asia\/Tokyo/)
      .first()
      .waitFor();
    await context.close();
  });

  it('the ping log gives each ping its second', async () => {
    const { context, page } = await signedIn(admin(), `/heartbeats/${hb.id}`);
    const log = page.getByRole('table', { name: 'Ping log' });
    const when = log.getByRole('rowheader');
    await expect.poll(() => when.count()).toBe(3);
    const texts = await when.allTextContents();
    for (const t of texts) expect(t).toMatch(/\b\d{1,2}:\d{2}:\d{2}\s?[AP]M$/);
    expect(new Set(texts).size).toBe(3);
    await context.close();
  });

  it('the ready lines come in the slug form (by default) and the uuid form; a member gets PING_KEY in place of the key', async () => {
    const { context, page } = await signedIn(admin(), `/heartbeats/${hb.id}`);
    const slugUrl = await page.getByRole('textbox', { name: 'Slug URL' }).inputValue();
    expect(slugUrl).toMatch(/\/hb\/ping\/[A-Za-z0-9_-]{22}\/nightly-sync$/);
    const lines = page.getByRole('region', { name: 'Send pings' });
    const bySlug = lines.getByRole('radio', { name: 'By slug (nightly-sync)' });
    expect(await bySlug.isChecked()).toBe(true);
    const figure = (name: string) => lines.getByRole('figure', { name }).textContent();
    expect(await figure('When the job succeeds')).toContain(`-o /dev/null ${slugUrl}`);
    expect(await figure('crontab')).toContain(`${slugUrl}/start;`);
    expect(await figure('crontab')).not.toContain(hb.ping_url);
    expect(await figure('Kubernetes CronJob')).toContain(slugUrl);
    // The slug form works as printed.
    expect(await ping(slugUrl)).toBe(200);
    await page.screenshot({ path: '/tmp/h8-heartbeat-page-1280.png', fullPage: true });

    await lines.getByRole('radio', { name: 'By the heartbeat’s own URL' }).check();
    expect(await figure('crontab')).toContain(`${hb.ping_url}/start;`);
    expect(await figure('When the job succeeds')).not.toContain(slugUrl);
    await context.close();

    const phone = await signedIn(member, `/heartbeats/${hb.id}`, 390);
    const memberLines = phone.page.getByRole('region', { name: 'Send pings' });
    await memberLines.getByRole('radio', { name: 'By slug (nightly-sync)' }).waitFor();
    const placeholder = hb.ping_url.replace(/\/hb\/ping\/.*$/, '/hb/ping/PING_KEY/nightly-sync');
    expect(await memberLines.getByRole('figure', { name: 'crontab' }).textContent()).toContain(
      `${placeholder}/start;`,
    );
    await memberLines.getByText('Put the workspace’s ping key in place of PING_KEY').waitFor();
    expect(await phone.page.getByRole('textbox', { name: 'Slug URL' }).count()).toBe(0);
    expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await phone.page.screenshot({ path: '/tmp/h8-heartbeat-page-390.png', fullPage: true });
    await phone.context.close();
  });

  it('on a phone the time zone field fits', async () => {
    const { context, page } = await signedIn(admin(), '/heartbeats', 390);
    await page.getByRole('button', { name: 'New heartbeat' }).click();
    const form = page.getByRole('form', { name: 'Create heartbeat' });
    await form.getByLabel('Expect pings').selectOption({ label: 'On a cron schedule' });
    await form.getByRole('combobox', { name: 'Time zone' }).fill('America/New_York');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: '/tmp/h8-heartbeat-form-390.png', fullPage: true });
    await context.close();
  });
});
