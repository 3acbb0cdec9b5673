import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/processes.js';
import { waitFor } from '../support/wait.js';
import { type Lookout, launchBrowser, signedInAt, startLookout } from './support.js';

/**
 * The monitors and alerts pages in chromium against a real control plane with its two local agents
 * (as `npm start` runs them), checking real targets on loopback. Waits are on what the page shows.
 */
const SHOWS = { timeout: 45_000 };
let lookout: Lookout;
let browser: Browser;
let member: { email: string; password: string };
let viewer: { email: string; password: string };

const user = async (email: string, role: string) => {
  const r = await lookout.cli(['user', 'create', '--workspace', 'demo', '--email', email, '--role', role]);
  return { email: r.user.email as string, password: r.user.password as string };
};
const asAdmin = () => ({ 'x-api-key': lookout.apiKey });
const post = async (path: string, json: unknown) => {
  const r = await lookout.api('demo', path, asAdmin(), { method: 'POST', json });
  if (r.status >= 300) throw new Error(`${path}: ${r.status} ${r.body}`);
  return JSON.parse(r.body);
};

/** A target we control: answers 200 while healthy, 503 while not. */
const target = async () => {
  const state = { healthy: true };
  const server: Server = createServer((_req, res) => {
    res.statusCode = state.healthy ? 200 : 503;
    res.end(state.healthy ? 'ok' : 'down');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { state, server, port: (server.address() as AddressInfo).port };
};

beforeAll(async () => {
  lookout = await startLookout({
    LOOKOUT_LOCAL_AGENTS: 'eu-west,us-east',
    // Checks every second are allowed on this plan, so an outage shows within seconds.
    LOOKOUT_PLANS: JSON.stringify({
      free: { max_monitors: 10, min_interval_seconds: 180 },
      business: { max_monitors: 100, min_interval_seconds: 1 },
    }),
  });
  member = await user('mia@demo.localhost', 'member');
  viewer = await user('vic@demo.localhost', 'viewer');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

describe('monitors pages', () => {
  it('creates a monitor of each kind of fields, showing the API’s problem next to the field until fixed', async () => {
    const { context, page } = await signedInAt(browser, lookout, member);
    await page.getByRole('link', { name: 'New monitor' }).click();
    await page.getByRole('heading', { name: 'New monitor', level: 1 }).waitFor();
    // HTTP (the default type): a URL without its scheme is refused by the API, field by field.
    await page.getByLabel('Name', { exact: true }).fill('Shop front');
    await page.getByLabel('URL', { exact: true }).fill('shop.example.com/health');
    expect(await page.getByLabel('Expected status code').inputValue()).toBe('200');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    const url = page.getByRole('textbox', { name: 'URL', exact: true });
    await page.getByText('Must be a full URL such as https://example.com/health.').waitFor();
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    expect(await url.getAttribute('aria-describedby')).toContain('mf-url-problem');
    // TCP: the per-type field appears; leaving it empty is the API's next complaint.
    await page.getByLabel('Type').selectOption({ label: 'TCP port' });
    expect(await page.getByLabel('Expected status code').count()).toBe(0);
    await url.waitFor({ state: 'detached' });
    await page.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByText('Is required for tcp monitors.').waitFor();
    expect(await page.getByLabel('Port').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Port').fill(String(lookout.port));
    await page.getByLabel('Check interval (seconds)').fill('5');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('heading', { name: 'Shop front', level: 1 }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Shop front was created.' }).waitFor();
    // Its own checks arrive without a reload, and the chart (loaded on this page only) draws them.
    await page.getByText('Up', { exact: true }).waitFor(SHOWS);
    await page.getByRole('img', { name: /Response time of the last \d+ checks by region/ }).waitFor(SHOWS);

    // Edit, then pause and resume, then delete behind a confirmation.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Shop front (db)');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Shop front (db)', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('Paused', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    await page.getByText('No monitors yet.').or(page.getByRole('table')).first().waitFor();
    expect(await page.getByRole('link', { name: 'Shop front (db)' }).count()).toBe(0);
    await context.close();
  });

  it('offers the workspace’s escalation policies and the regions that exist as choices', async () => {
    const users = JSON.parse((await lookout.api('demo', '/users', asAdmin())).body).data as {
      id: string;
      email: string;
    }[];
    const policy = await post('/escalation-policies', {
      name: 'Database on-call',
      steps: [{ wait_minutes: 0, notify_user_ids: [users.find((u) => u.email === member.email)!.id] }],
    });
    const { context, page } = await signedInAt(browser, lookout, member, '/monitors/new');
    await page.getByRole('heading', { name: 'New monitor', level: 1 }).waitFor();
    const locations = page.getByRole('group', { name: 'Check locations' });
    const box = (region: string) => locations.getByRole('checkbox', { name: region });
    await box('us-east').waitFor();
    // Every region there is, ticked on a new monitor (the API's default: all of them).
    expect(await locations.getByRole('checkbox').count()).toBe(2);
    expect(await box('eu-west').isChecked()).toBe(true);
    expect(await box('us-east').isChecked()).toBe(true);
    const choice = page.getByLabel('Escalation policy');
    await choice.getByRole('option', { name: 'Database on-call' }).waitFor({ state: 'attached' });
    expect(await choice.getByRole('option').allTextContents()).toEqual([
      'Workspace default',
      'Database on-call',
      'Default (default)',
    ]);

    await page.getByLabel('Name', { exact: true }).fill('Replica lag');
    await page.getByLabel('Type').selectOption({ label: 'TCP port' });
    await page.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await page.getByLabel('Port').fill(String(lookout.port));
    // No region at all is the API's problem, shown at the choices.
    await box('eu-west').uncheck();
    await box('us-east').uncheck();
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await locations.getByText('Must have at least 1 item.').waitFor();
    expect(await locations.getAttribute('aria-invalid')).toBe('true');
    await box('eu-west').check();
    await choice.selectOption({ label: 'Database on-call' });
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('heading', { name: 'Replica lag', level: 1 }).waitFor();
    const id = page.url().split('/').pop()!;
    const saved = JSON.parse((await lookout.api('demo', `/monitors/${id}`, asAdmin())).body);
    expect(saved.check_locations).toEqual(['eu-west']);
    expect(saved.escalation_policy_id).toBe(policy.id);

    // Editing shows what it holds, and changes it.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Replica lag', level: 1 }).waitFor();
    await box('us-east').waitFor();
    expect(await box('eu-west').isChecked()).toBe(true);
    expect(await box('us-east').isChecked()).toBe(false);
    await expect.poll(() => choice.inputValue()).toBe(policy.id);
    await box('us-east').check();
    await choice.selectOption({ label: 'Default (default)' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('every 1 min from eu-west, us-east').waitFor();
    const edited = JSON.parse((await lookout.api('demo', `/monitors/${id}`, asAdmin())).body);
    expect(edited.check_locations).toEqual(['eu-west', 'us-east']);
    expect(edited.escalation_policy_id).not.toBe(policy.id);
    await context.close();
  });

  it('sets the retry interval after a failure: one longer than the interval is refused at the field', async () => {
    const { context, page } = await signedInAt(browser, lookout, member, '/monitors/new');
    await page.getByRole('heading', { name: 'New monitor', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Queue port');
    await page.getByLabel('Type').selectOption({ label: 'TCP port' });
    await page.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await page.getByLabel('Port').fill(String(lookout.port));
    await page.getByLabel('Check interval (seconds)').fill('30');
    const retry = page.getByLabel('Retry interval (seconds)');
    // Empty: the API's default (15 s).
    expect(await retry.inputValue()).toBe('');
    await retry.fill('45');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByText('Must not be longer than check_interval_seconds (30 s).').waitFor();
    expect(await retry.getAttribute('aria-invalid')).toBe('true');
    await retry.fill('10');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('heading', { name: 'Queue port', level: 1 }).waitFor();
    const id = page.url().split('/').pop()!;
    const saved = JSON.parse((await lookout.api('demo', `/monitors/${id}`, asAdmin())).body);
    expect(saved).toMatchObject({ check_interval_seconds: 30, retry_interval_seconds: 10 });
    // Editing shows it; a shorter interval left alone takes it down with it.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Queue port', level: 1 }).waitFor();
    await expect.poll(() => retry.inputValue()).toBe('10');
    await page.getByLabel('Check interval (seconds)').fill('8');
    await page.getByLabel('Timeout (seconds)').fill('5');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Queue port', level: 1, exact: true }).waitFor();
    await expect
      .poll(async () => JSON.parse((await lookout.api('demo', `/monitors/${id}`, asAdmin())).body))
      .toMatchObject({ check_interval_seconds: 8, retry_interval_seconds: 8 });
    await context.close();
  });

  it('shows the plan’s warning when it raises a short interval', async () => {
    const acme = await lookout.cli([
      'workspace',
      'create',
      '--subdomain',
      'acme',
      '--admin-email',
      'ops@acme.test',
    ]);
    const { context, page } = await signedInAt(
      browser,
      lookout,
      { email: acme.admin.email, password: acme.admin.password },
      '/monitors/new',
      'acme',
    );
    await page.getByLabel('Name', { exact: true }).fill('Database');
    await page.getByLabel('Type').selectOption({ label: 'TCP port' });
    await page.getByLabel('Host', { exact: true }).fill('db.acme.test');
    await page.getByLabel('Port').fill('5432');
    await page.getByLabel('Check interval (seconds)').fill('30');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: "30 s is below the free plan's minimum; the monitor checks every 180 s." })
      .waitFor();
    await page.getByText('every 3 min').waitFor();
    await context.close();
  });

  it('a viewer sees monitors and alerts but no controls to change them', async () => {
    const m = await post('/monitors/create', {
      display_name: 'Read-only view',
      monitor_type: 'tcp',
      url: '127.0.0.1',
      port: lookout.port,
      check_interval_seconds: 60,
    });
    const { context, page } = await signedInAt(browser, lookout, viewer);
    await page.getByRole('link', { name: 'Read-only view' }).click();
    await page.getByRole('heading', { name: 'Read-only view', level: 1 }).waitFor();
    expect(page.url()).toBe(lookout.url('demo', `/monitors/${m.id}`));
    expect(
      await page
        .getByRole('button')
        .filter({ hasText: /Check now|Pause|Delete/ })
        .count(),
    ).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Monitors' }).click();
    // The list page has loaded (its heading and this monitor's row) before its absent controls are counted.
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    await page.getByRole('row', { name: /Read-only view/ }).waitFor();
    expect(await page.getByRole('link', { name: 'New monitor' }).count()).toBe(0);
    await context.close();
  });
});

describe('alerts pages', () => {
  it('acknowledges one, resolves one after the warning, and handles several at once', async () => {
    const hook = await post('/integrations', { name: 'Jobs', kind: 'webhook' });
    for (const title of ['Queue backed up', 'Disk nearly full', 'Backup missed', 'Cache cold'])
      await lookout.api(
        'demo',
        '/integrations/webhook/events',
        { 'x-lookout-service-key': hook.service_key },
        { method: 'POST', json: { title, dedup_key: title } },
      );
    const { context, page } = await signedInAt(browser, lookout, member, '/alerts');
    await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
    const row = (title: string) => page.getByRole('row', { name: new RegExp(title) });
    await row('Cache cold').waitFor();
    expect(await row('Queue backed up').getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['Open', 'Integration · webhook', 'just now']),
    );

    await row('Queue backed up').getByRole('button', { name: 'Acknowledge', exact: true }).click();
    await row('Queue backed up').getByText('Acknowledged', { exact: true }).waitFor();
    expect(
      await row('Queue backed up').getByRole('button', { name: 'Acknowledge', exact: true }).count(),
    ).toBe(0);

    await row('Disk nearly full').getByRole('button', { name: 'Resolve', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Resolve “Disk nearly full”?' });
    expect(await dialog.textContent()).toMatch(/Resolving is final: a resolved alert is never reopened/);
    await dialog.getByRole('button', { name: 'Resolve' }).click();
    await row('Disk nearly full').waitFor({ state: 'detached' });

    // Several at once: select two, acknowledge them, then resolve the rest together.
    await page.getByRole('checkbox', { name: 'Select Backup missed' }).check();
    await page.getByRole('checkbox', { name: 'Select Cache cold' }).check();
    await page.getByText('2 selected').waitFor();
    await page.getByRole('button', { name: 'Acknowledge selected' }).click();
    await page.getByRole('status').filter({ hasText: '2 alerts were acknowledged' }).waitFor();
    await row('Cache cold').getByText('Acknowledged', { exact: true }).waitFor();
    await page.getByRole('checkbox', { name: 'Select all unresolved alerts' }).check();
    await page.getByText('3 selected').waitFor();
    await page.getByRole('button', { name: 'Resolve selected' }).click();
    await page
      .getByRole('dialog', { name: 'Resolve 3 alerts?' })
      .getByRole('button', { name: 'Resolve' })
      .click();
    await page.getByText('Nothing unresolved. All quiet.').waitFor();

    await page.getByLabel('Show').selectOption({ label: 'Resolved' });
    await row('Disk nearly full').click();
    await page.getByRole('link', { name: 'Disk nearly full' }).click();
    await page.getByRole('heading', { name: 'Disk nearly full', level: 1 }).waitFor();
    await page.getByText(`Resolved by you (${member.email})`).waitFor();
    expect(await page.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
    await context.close();
  });
});

describe('an outage, end to end', () => {
  it('the open page shows the target down and its alert without a reload; acknowledged; resolved on recovery', async () => {
    const t = await target();
    try {
      await post('/monitors/create', {
        display_name: 'Outage target',
        monitor_type: 'http',
        url: `http://127.0.0.1:${t.port}/`,
        http_method: 'GET',
        expected_status_code: 200,
        check_interval_seconds: 1,
        timeout_seconds: 1,
        failure_threshold: 1,
      });
      const { context, page } = await signedInAt(browser, lookout, member);
      await page.evaluate('window.stillTheSamePage = true');
      const monitorRow = page.getByRole('row', { name: /Outage target/ });
      await monitorRow.getByText('Up', { exact: true }).waitFor(SHOWS);

      t.state.healthy = false;
      await monitorRow.getByText('Down', { exact: true }).waitFor(SHOWS);
      await page.getByRole('link', { name: 'Alerts' }).click();
      const alertRow = page.getByRole('row', { name: /Outage target is down/ });
      await alertRow.waitFor(SHOWS);
      await alertRow.getByRole('button', { name: 'Acknowledge', exact: true }).click();
      await alertRow.getByText('Acknowledged', { exact: true }).waitFor();
      await alertRow.getByRole('link', { name: 'Outage target is down' }).click();
      await page.getByRole('heading', { name: 'Outage target is down', level: 1 }).waitFor();
      await page.getByText(`Acknowledged by you (${member.email})`).waitFor();

      t.state.healthy = true;
      await page.getByText('Resolved by Lookout (the check recovered)').waitFor(SHOWS);
      await page.getByText('Resolved', { exact: true }).waitFor();
      expect(await page.evaluate('window.stillTheSamePage')).toBe(true);
      await context.close();
    } finally {
      t.server.close();
    }
  });
});

// Last: the monitor here ends down with an open alert, which the alerts pages above would list.
describe('monitor status', () => {
  it('a monitor against a closed port shows Pending while its checks fail, then Down: never Up, listed or on its page', async () => {
    const NAME = 'Closed port';
    const closed = await freePort();
    // Two regions, a check every 2 s, down after 8 failures in both: the failures show for seconds
    // before the threshold decides.
    const m = await post('/monitors/create', {
      display_name: NAME,
      monitor_type: 'http',
      url: `http://127.0.0.1:${closed}/`,
      http_method: 'GET',
      expected_status_code: 200,
      check_interval_seconds: 2,
      timeout_seconds: 1,
      failure_threshold: 8,
      check_locations: ['eu-west', 'us-east'],
    });
    expect(m.status).toBe('pending');
    const { context, page } = await signedInAt(browser, lookout, member);
    const detail = await context.newPage();
    await detail.goto(lookout.url('demo', `/monitors/${m.id}`));
    await detail.getByRole('heading', { name: NAME, level: 1 }).waitFor();
    // Every status either page ever renders for this monitor (on the list: with the number of failed
    // checks its row shows), recorded in the page on every change of the document.
    const record = (p: typeof page) =>
      p.evaluate(`(() => {
        const name = ${JSON.stringify(NAME)};
        window.shown = [];
        const scan = () => {
          let now = null;
          for (const row of document.querySelectorAll('tr')) {
            if (row.querySelector('th a')?.textContent !== name) continue;
            const failed = [...row.querySelectorAll('li')].filter((li) => li.textContent.startsWith('Down from'));
            now = row.querySelector('td[data-label="Status"]').textContent.trim() + ' ' + failed.length;
          }
          const h1 = document.querySelector('h1');
          if (h1?.textContent === name) now = h1.nextElementSibling.textContent.trim();
          if (now !== null && window.shown.at(-1) !== now) window.shown.push(now);
        };
        scan();
        new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, characterData: true });
      })()`);
    await record(page);
    await record(detail);
    const shown = (p: typeof page) => p.evaluate('window.shown') as Promise<string[]>;

    // The row shows failed checks, and the monitor is Pending: its checks have not decided yet.
    await waitFor(
      () => shown(page),
      (seen) => seen.some((s) => /^Pending [1-9]/.test(s)),
      { timeoutMs: SHOWS.timeout, what: 'Pending next to failed checks' },
    );
    await page.screenshot({ path: join(tmpdir(), 'lookout-closed-port-list.png'), fullPage: true });
    await detail.screenshot({ path: join(tmpdir(), 'lookout-closed-port-detail.png'), fullPage: true });
    const monitorRow = page.getByRole('row', { name: new RegExp(NAME) });
    await monitorRow.getByText('Down', { exact: true }).waitFor(SHOWS);
    await detail.getByText('Down', { exact: true }).waitFor(SHOWS);
    const onList = await shown(page);
    const onPage = await shown(detail);
    expect(
      onList.every((s) => /^(Pending|Down) /.test(s)),
      onList.join(', '),
    ).toBe(true);
    expect(
      onPage.every((s) => s === 'Pending' || s === 'Down'),
      onPage.join(', '),
    ).toBe(true);
    expect(onPage).toContain('Pending');
    await context.close();
  });
});
