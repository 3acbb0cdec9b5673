import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, startLookout } from './support.js';

/**
 * The heartbeats and routing pages in a real browser against a real control plane (as `npm start` runs
 * it). Everything is found by role and accessible name.
 */
let lookout: Lookout;
let browser: Browser;
let member: { email: string; password: string };
/** A real webhook receiver on loopback: what it was sent. */
let receiver: Server;
const received: { headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  lookout = await startLookout();
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
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
  await new Promise((done) => receiver?.close(done));
});

const signedIn = async (email: string, password: string, path: string) => {
  const context = await browser.newContext({ timezoneId: 'Europe/Berlin', locale: 'en-GB' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: lookout.url('demo', '') });
  const page = await context.newPage();
  await page.goto(lookout.url('demo', path));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  return { context, page };
};

/** A ping as a job sends it: a plain HTTP request to the URL the page showed, from outside the browser. */
const ping = (url: string, body?: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const u = new URL(url);
    const req = request(
      {
        host: '127.0.0.1',
        port: u.port,
        method: body === undefined ? 'GET' : 'POST',
        path: u.pathname + u.search,
        headers: { host: u.host, ...(body === undefined ? {} : { 'content-type': 'text/plain' }) },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });

const clipboard = (page: Page) => page.evaluate('navigator.clipboard.readText()') as Promise<string>;

describe('heartbeats and routing pages in chromium', () => {
  it('creates a heartbeat, copies its ping URL, and shows a real ping in the ping log', async () => {
    const { context, page } = await signedIn(member.email, member.password, '/heartbeats');
    await page.getByRole('heading', { name: 'Heartbeats', level: 1 }).waitFor();
    // The API's field errors show next to their fields.
    await page.getByLabel('Name').fill('Nightly backup');
    await page.getByLabel('Period (minutes)').fill('0');
    await page.getByRole('button', { name: 'Create heartbeat' }).click();
    // (the API counts seconds, the form minutes: so does the message)
    const periodProblem = page.getByText('must be at least 1 minute');
    await periodProblem.waitFor();
    // The field is described by its problem and, still shown under it, its hint (one rule for every field).
    const period = page.getByLabel('Period (minutes)');
    expect(await period.getAttribute('aria-invalid')).toBe('true');
    expect(
      await period.evaluate((el) =>
        (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id: string) => el.ownerDocument.getElementById(id)?.textContent)
          .join(' | '),
      ),
    ).toBe('must be at least 1 minute | How often the job runs.');

    await page.getByLabel('Period (minutes)').fill('1440');
    await page.getByLabel('Grace (minutes)').fill('30');
    await page.getByRole('button', { name: 'Create heartbeat' }).click();
    // Creating opens the detail page.
    await page.getByRole('heading', { name: 'Nightly backup', level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/heartbeats\/[0-9a-f-]{36}$/);
    const uuid = page.url().split('/').pop()!;
    const pingUrl = await page.getByRole('textbox', { name: 'Ping URL' }).inputValue();
    expect(pingUrl).toBe(lookout.url('demo', `/hb/ping/${uuid}`));
    await page.getByRole('button', { name: 'Copy ping URL' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await clipboard(page)).toBe(pingUrl);
    // Ready snippets: success, /start, /fail, exit status, and a crontab line.
    const snippets = await page.getByRole('region', { name: 'Send pings' }).textContent();
    expect(snippets).toContain(`curl -fsS -m 10 --retry 5 -o /dev/null ${pingUrl}`);
    expect(snippets).toContain(`${pingUrl}/start`);
    expect(snippets).toContain(`${pingUrl}/fail`);
    expect(snippets).toContain(`${pingUrl}/$?`);
    // The crontab line on the heartbeat's own schedule (a day: @daily), with /start and the exit status.
    expect(snippets).toContain(
      `@daily curl -fsS -m 10 --retry 5 -o /dev/null ${pingUrl}/start; /path/to/my-job; curl -fsS -m 10 --retry 5 -o /dev/null ${pingUrl}/$?`,
    );
    await page.getByText('No pings yet.').waitFor();

    // A real job: start, then finish with exit status 3 and its output.
    expect((await ping(`${pingUrl}/start?rid=run-1`)).status).toBe(200);
    const done = await ping(`${pingUrl}/3?rid=run-1`, 'disk full');
    expect(done).toEqual({ status: 200, body: JSON.stringify({ message: 'Ping recorded.', status: 'ok' }) });

    await page.getByRole('button', { name: 'Refresh' }).click();
    const log = page.getByRole('table', { name: 'Ping log' });
    const finish = log.getByRole('row', { name: /disk full/ });
    await finish.waitFor();
    const cells = await finish.getByRole('cell').allTextContents();
    expect(cells).toEqual(expect.arrayContaining(['Failure', '3', 'disk full', 'run-1']));
    // The run's duration: the finish is paired with its start by the run id.
    expect(cells.some((c) => /^\d+ ms$|^\d+\.\d s$/.test(c))).toBe(true);
    expect(await log.getByRole('cell', { name: 'Start', exact: true }).count()).toBe(1);
    // The state follows: a failure takes it down.
    await page.getByRole('status', { name: 'State' }).getByText('Down').waitFor();

    // Edit, then the list shows the change with its state, period and grace.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Name').fill('Nightly backup (db)');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Nightly backup (db)', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Heartbeats', exact: true }).click();
    const row = page.getByRole('row', { name: /Nightly backup \(db\)/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['Down', 'Every day', '30 min']),
    );

    // Pause, then delete (with a confirmation).
    await row.getByRole('link', { name: 'Nightly backup (db)' }).click();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('status', { name: 'State' }).getByText('Paused').waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete “Nightly backup (db)”?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByRole('heading', { name: 'Heartbeats', level: 1 }).waitFor();
    await page.getByText('No heartbeats yet.').waitFor();
    expect((await ping(pingUrl)).status).toBe(404);
    await context.close();
  });

  it('an admin routes alerts: a channel that tests green, a two-step policy, an integration key shown once, a maintenance window ended early', async () => {
    const { context, page } = await signedIn(lookout.adminEmail, lookout.password, '/monitors');
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();

    // Channels: a webhook to a real receiver; "Send test" reaches it and says so.
    await page.getByRole('link', { name: 'Channels' }).click();
    await page.getByRole('heading', { name: 'Channels', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('Ops webhook');
    await page.getByLabel('Type').selectOption({ label: 'Webhook' });
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await page.getByLabel('URL').fill(hook);
    await page.getByRole('button', { name: 'Create channel' }).click();
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret.length).toBeGreaterThan(20);
    await page.getByRole('button', { name: 'Done' }).click();
    const channel = page.getByRole('row', { name: /Ops webhook/ });
    await channel.getByRole('button', { name: 'Send test to Ops webhook' }).click();
    await page.getByRole('status').filter({ hasText: 'Test sent to Ops webhook (HTTP 204).' }).waitFor();
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ event: 'test', channel: { name: 'Ops webhook' } });
    expect(received[0]!.headers['x-lookout-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    // A channel whose receiver refuses shows the reason.
    await page.getByLabel('Name').fill('Broken hook');
    await page.getByLabel('Type').selectOption({ label: 'Webhook' });
    await page.getByLabel('URL').fill('http://127.0.0.1:1/nothing');
    await page.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Send test to Broken hook' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Test to Broken hook failed: / })
      .waitFor();

    // Escalation policies: two steps, the second notifying the channel after 10 minutes.
    await page.getByRole('link', { name: 'Escalation policies' }).click();
    await page.getByRole('heading', { name: 'Escalation policies', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New policy' }).click();
    const form = page.getByRole('form', { name: 'New policy' });
    await form.getByLabel('Name').fill('Database on-call');
    await form.getByRole('group', { name: 'Step 1' }).getByLabel('admin@demo.localhost').check();
    await form.getByRole('button', { name: 'Add step' }).click();
    const second = form.getByRole('group', { name: 'Step 2' });
    await second.getByLabel('Wait (minutes)').fill('10');
    await second.getByLabel('Ops webhook').check();
    await form.getByRole('button', { name: 'Create policy' }).click();
    const policy = page.getByRole('row', { name: /Database on-call/ });
    await policy.waitFor();
    expect(await policy.textContent()).toMatch(/2 steps/);
    const stored = JSON.parse(
      (await lookout.api('demo', '/escalation-policies', { 'x-api-key': lookout.apiKey })).body,
    ).data.find((p: { name: string }) => p.name === 'Database on-call');
    expect(stored.steps).toHaveLength(2);
    expect(stored.steps[1]).toMatchObject({ wait_minutes: 10, notify_user_ids: [] });
    expect(stored.steps[1].notify_channel_ids).toHaveLength(1);
    // The default cannot be deleted: the API's message is shown.
    const def = page.getByRole('row', { name: /Default/ });
    await def.getByRole('button', { name: /^Delete / }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog')
      .getByRole('alert')
      .filter({ hasText: /default/i })
      .waitFor();
    await page.keyboard.press('Escape');

    // Integrations: the key once, with the endpoint and the Alertmanager snippet.
    await page.getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('Prod Alertmanager');
    await page.getByLabel('Kind').selectOption({ label: 'Prometheus Alertmanager' });
    await page.getByRole('button', { name: 'Create integration' }).click();
    const key = await page.getByRole('textbox', { name: 'Service key' }).inputValue();
    expect(key).toMatch(/^lsk\./);
    expect(await page.getByText('this key will not be shown again').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Copy service key' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await clipboard(page)).toBe(key);
    const snippet = await page.getByRole('region', { name: 'Configuration' }).textContent();
    expect(snippet).toContain(lookout.url('demo', '/api/v1/integrations/alertmanager/events'));
    expect(snippet).toContain(`credentials: ${key}`);
    expect(snippet).toContain('max_alerts: 1000');
    // The key works as shown.
    const sent = await lookout.api(
      'demo',
      '/integrations/alertmanager/events',
      { authorization: `Bearer ${key}` },
      {
        method: 'POST',
        json: {
          version: '4',
          status: 'firing',
          alerts: [{ status: 'firing', labels: { alertname: 'DiskFull' }, fingerprint: 'fp-1' }],
        },
      },
    );
    expect(sent.status).toBe(202);
    expect(JSON.parse(sent.body).events[0].outcome).toBe('created');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByRole('textbox', { name: 'Service key' }).count()).toBe(0);
    const integration = page.getByRole('row', { name: /Prod Alertmanager/ });
    expect(await integration.textContent()).toContain(`…${key.slice(-4)}`);

    // Maintenance: a workspace window from now for two hours, shown in the browser's zone, ended early.
    await page.getByRole('link', { name: 'Maintenance' }).click();
    await page.getByRole('heading', { name: 'Maintenance windows', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('Database upgrade');
    await page.getByRole('button', { name: 'Create window' }).click();
    const win = page.getByRole('row', { name: /Database upgrade/ });
    await win.getByText('Active').waitFor();
    const windows = JSON.parse(
      (await lookout.api('demo', '/maintenance-windows', { 'x-api-key': lookout.apiKey })).body,
    ).data;
    expect(windows).toHaveLength(1);
    const { starts_at, ends_at } = windows[0];
    expect(new Date(ends_at).getTime() - new Date(starts_at).getTime()).toBe(2 * 3_600_000);
    // Shown in the browser's zone (Berlin: never UTC's wall-clock time).
    const berlin = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    expect(await win.textContent()).toContain(berlin.format(new Date(ends_at)));
    await win.getByRole('button', { name: 'End Database upgrade now' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'End now' }).click();
    await win.getByText('Ended').waitFor();
    await context.close();
  });

  it('a member sees no routing navigation or controls', async () => {
    const { context, page } = await signedIn(member.email, member.password, '/monitors');
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Heartbeats' }).count()).toBe(1);
    for (const name of ['Escalation policies', 'Channels', 'Integrations', 'Maintenance'])
      expect(await page.getByRole('link', { name }).count()).toBe(0);
    await page.goto(lookout.url('demo', '/routing/channels'));
    await page.getByText('Only admins of the workspace manage routing.').waitFor();
    expect(await page.getByRole('button').filter({ hasNotText: 'Sign out' }).count()).toBe(0);
    expect(await page.getByRole('textbox').count()).toBe(0);
    await context.close();
  });
});
