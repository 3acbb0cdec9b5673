import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, startLookout } from './support.js';

/**
 * Cron heartbeats in a real browser against a real control plane (as `npm start` runs it): the form's
 * cron schedule and zone, the schedule in words and the next expected time, the ready lines, a measured
 * run, and the admin's ping key whose ?create=1 line creates a heartbeat. Found by role and name;
 * screenshots in the temp dir for a person to look at.
 */
const SHOTS = join(tmpdir(), 'lookout-cron-heartbeats');
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

const signedIn = async (path: string, viewport = { width: 1280, height: 900 }) => {
  const context = await browser.newContext({ timezoneId: 'Europe/Berlin', locale: 'en-GB', viewport });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: lookout.url('demo', '') });
  const page = await context.newPage();
  await page.goto(lookout.url('demo', path));
  await page.getByLabel('Email').fill(lookout.adminEmail);
  await page.getByLabel('Password').fill(lookout.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  return { context, page };
};

/** A ping as a job sends it, from outside the browser. */
const ping = (url: string) =>
  new Promise<number>((resolve, reject) => {
    const u = new URL(url);
    const req = request(
      { host: '127.0.0.1', port: u.port, path: u.pathname + u.search, headers: { host: u.host } },
      (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)),
    );
    req.on('error', reject);
    req.end();
  });

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

describe('cron heartbeats in chromium', () => {
  it('creates a weekday heartbeat in Berlin time, shows its schedule in words, next run, ready lines and a measured run', async () => {
    const { context, page } = await signedIn('/heartbeats');
    await page.getByRole('heading', { name: 'Heartbeats', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('Nightly report');
    await page.getByLabel('Expect pings').selectOption({ label: 'On a cron schedule' });
    // A bad schedule is named next to its field.
    await page.getByLabel('Cron schedule').fill('0 25 * * 1-5');
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByLabel('Slug').fill('nightly-report');
    await page.getByRole('button', { name: 'Create heartbeat' }).click();
    await page.getByText(/is not a valid cron expression/).waitFor();
    await page.getByLabel('Cron schedule').fill('0 3 * * 1-5');
    await page.getByRole('button', { name: 'Create heartbeat' }).click();
    await page.getByRole('heading', { name: 'Nightly report', level: 1 }).waitFor();
    await page.getByText('At 03:00, Monday through Friday, Europe/Berlin').waitFor();
    const pingUrl = await page.getByRole('textbox', { name: 'Ping URL' }).inputValue();
    // An admin also sees the slug form, with the workspace's ping key.
    const slugUrl = await page.getByRole('textbox', { name: 'Slug URL' }).inputValue();
    expect(slugUrl).toMatch(/\/hb\/ping\/[A-Za-z0-9_-]{22}\/nightly-report$/);

    // The ready lines: crontab in the heartbeat's zone, systemd with its calendar, Kubernetes.
    const lines = page.getByRole('region', { name: 'Send pings' });
    const crontab = await lines.getByRole('figure', { name: 'crontab' }).textContent();
    expect(crontab).toContain('CRON_TZ=Europe/Berlin');
    // In the slug form, as the heartbeat has a slug (its own URL is one choice away).
    expect(crontab).toContain(`0 3 * * 1-5 curl -fsS -m 10 --retry 5 -o /dev/null ${slugUrl}/start;`);
    expect(crontab).toContain(`${slugUrl}/$?`);
    expect(await lines.getByRole('figure', { name: 'systemd service and timer' }).textContent()).toContain(
      'OnCalendar=Mon..Fri *-*-* 03:00:00 Europe/Berlin',
    );
    expect(await lines.getByRole('figure', { name: 'Kubernetes CronJob' }).textContent()).toContain(
      'timeZone: "Europe/Berlin"',
    );

    // A real run: /start, then exit status 0; the page shows the run's duration and the next run.
    expect(await ping(`${pingUrl}/start`)).toBe(200);
    await new Promise((done) => setTimeout(done, 1200));
    expect(await ping(`${pingUrl}/0`)).toBe(200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('status', { name: 'State' }).getByText('Up').waitFor();
    const facts = page.locator('dl.facts');
    await facts.getByText(/^\d\.\d s$/).waitFor();
    expect(await facts.textContent()).toMatch(/Next expected.*03:00/);
    const log = page.getByRole('table', { name: 'Ping log' });
    expect(await log.getByRole('cell', { name: /^\d\.\d s$/ }).count()).toBe(1);
    await shot(page, 'heartbeat-cron-desktop');

    // The list says the schedule in words.
    await page.getByRole('link', { name: 'Heartbeats', exact: true }).click();
    const row = page.getByRole('row', { name: /Nightly report/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toContain(
      'At 03:00, Monday through Friday, Europe/Berlin',
    );
    await context.close();
  });

  it('an admin sees the ping key; its ?create=1 line creates the heartbeat on the first run; regenerating replaces it', async () => {
    const { context, page } = await signedIn('/heartbeats');
    const panel = page.getByRole('region', { name: 'Ping key' });
    const key = await panel.getByRole('textbox', { name: 'Ping key' }).inputValue();
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const line = (await panel.getByRole('figure').textContent()) ?? '';
    const url = /"(http[^"]+)\/start\?create=1"/.exec(line)![1]!;
    expect(url).toBe(lookout.url('demo', `/hb/ping/${key}/nightly-backup`));
    expect(await ping(`${url}/start?create=1`)).toBe(200);
    expect(await ping(`${url}/0`)).toBe(200);
    await page.reload();
    await page.getByRole('row', { name: /nightly-backup/ }).waitFor();
    await shot(page, 'heartbeats-ping-key-desktop');

    await panel.getByRole('button', { name: 'Regenerate ping key' }).click();
    await page
      .getByRole('dialog', { name: 'Regenerate the ping key?' })
      .getByRole('button', { name: 'Regenerate' })
      .click();
    // The new key replaces the old one in the page.
    await expect
      .poll(() => panel.getByRole('textbox', { name: 'Ping key' }).inputValue(), { timeout: 10_000 })
      .not.toBe(key);
    await context.close();
  });

  it('on a phone the heartbeat page keeps to the screen’s width', async () => {
    const { context, page } = await signedIn('/heartbeats', { width: 390, height: 844 });
    await page.getByRole('link', { name: 'Nightly report' }).click();
    await page.getByRole('heading', { name: 'Nightly report', level: 1 }).waitFor();
    await page.getByText('At 03:00, Monday through Friday, Europe/Berlin').waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot(page, 'heartbeat-cron-phone');
    // The list too, with a schedule whose words are longer than the screen is wide.
    const long = await lookout.api(
      'demo',
      '/heartbeats',
      { 'x-api-key': lookout.apiKey },
      {
        method: 'POST',
        json: {
          display_name: 'Office hours export',
          schedule: '5 8-18 * * 1-5',
          timezone: 'America/New_York',
        },
      },
    );
    expect(long.status).toBe(201);
    await page.getByRole('link', { name: 'Heartbeats', exact: true }).click();
    const words = page.getByRole('cell', { name: /At 5 minutes past the hour, between 08:00 and 18:59/ });
    await words.waitFor();
    // The words wrap inside their cell: none of them is cut off at the screen's edge.
    expect(
      await words.evaluate(
        (el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth - el.clientWidth,
      ),
    ).toBeLessThanOrEqual(0);
    const box = (await words.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await shot(page, 'heartbeats-cron-phone');
    await context.close();
  });
});
