/**
 * `npm run screenshots`: the sign-in, Monitors (list, detail, new), Alerts (list, detail), API keys, Users,
 * Heartbeats, Routing, Security, Audit log and SLA report pages at desktop and phone widths,
 * into docs/ (shown in the README). Runs the real control plane on a fresh data dir, like the browser
 * tests, with its two local agents, so the monitors (TCP checks of the control plane's own port, and
 * of a closed one) show real statuses.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ROOT } from '../support/processes.js';
import { launchBrowser, startLookout } from './support.js';

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
  { name: 'phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 },
];

const lookout = await startLookout({
  LOOKOUT_LOCAL_AGENTS: 'eu-west,us-east',
  // A 2 s interval for one monitor, so its chart has points within seconds.
  LOOKOUT_PLANS: JSON.stringify({
    free: { max_monitors: 10, min_interval_seconds: 180 },
    business: { max_monitors: 1000, min_interval_seconds: 2 },
  }),
});
const browser = await launchBrowser();
const asAdmin = { 'x-api-key': lookout.apiKey };
const post = (path: string, json?: unknown) =>
  lookout.api('demo', path, asAdmin, { method: 'POST', ...(json === undefined ? {} : { json }) });
const tcp = (display_name: string, port: number, over: Record<string, unknown> = {}) =>
  post('/monitors/create', {
    display_name,
    monitor_type: 'tcp',
    url: '127.0.0.1',
    port,
    check_interval_seconds: 10,
    failure_threshold: 1,
    ...over,
  }).then((r) => JSON.parse(r.body) as { id: string });
/** Until every monitor has its first verdict (or the wait is long enough to say something is wrong). */
const settled = async () => {
  for (let i = 0; i < 120; i++) {
    const r = await lookout.api('demo', '/monitors?status=pending', asAdmin);
    if (JSON.parse(r.body).data.length === 0) return;
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error('monitors stayed pending: are the local agents running?');
};
try {
  await lookout.cli([
    'user',
    'create',
    '--workspace',
    'demo',
    '--email',
    'mia@demo.localhost',
    '--role',
    'member',
  ]);
  // Monitors in every status: up (the control plane's port), down (a closed port), paused, in maintenance,
  // and one created last that has no verdict yet.
  await tcp('Status page', lookout.port, { check_locations: ['eu-west'] });
  const maint = await tcp('Search cluster', lookout.port);
  await tcp('Payments gateway', 1);
  const checkout = await tcp('Checkout API', lookout.port, { check_interval_seconds: 2 });
  const paused = await tcp('Nightly export host', lookout.port);
  await settled();
  await post(`/monitors/${paused.id}/pause`);
  const now = Date.now();
  await post('/maintenance-windows', {
    name: 'Reindexing',
    scope_type: 'monitor',
    scope_id: maint.id,
    starts_at: new Date(now).toISOString(),
    ends_at: new Date(now + 3_600_000).toISOString(),
  });
  await tcp('Billing service', lookout.port, { check_interval_seconds: 3600 });
  // Heartbeats: one up (a measured run), one down (a failed run with its output), one paused, one new.
  const hb = (
    display_name: string,
    period_seconds: number,
    grace_seconds: number,
    paused = false,
    cron: { schedule: string; timezone: string; slug: string } | null = null,
  ) =>
    post(
      '/heartbeats',
      cron
        ? { display_name, ...cron, grace_seconds, paused }
        : { display_name, period_seconds, grace_seconds, paused },
    ).then((r) => JSON.parse(r.body) as { id: string; ping_url: string });
  const ping = (url: string, body?: string) =>
    new Promise<void>((done, fail) => {
      const u = new URL(url);
      const req = request(
        {
          host: '127.0.0.1',
          port: u.port,
          method: body === undefined ? 'GET' : 'POST',
          path: u.pathname + u.search,
          headers: { host: u.host, ...(body === undefined ? {} : { 'content-type': 'text/plain' }) },
        },
        (res) => res.resume().on('end', done),
      );
      req.on('error', fail);
      req.end(body);
    });
  const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
  const backup = await hb('Nightly backup', 86_400, 3600, false, {
    schedule: '30 2 * * *',
    timezone: 'Europe/Berlin',
    slug: 'nightly-backup',
  });
  for (const rid of ['r-0611', 'r-0612']) {
    await ping(`${backup.ping_url}/start?rid=${rid}`);
    await pause(350);
    await ping(`${backup.ping_url}?rid=${rid}`, 'backup ok: 14.2 GB in 3 files');
  }
  const invoices = await hb('Hourly invoice export', 3600, 600, false, {
    schedule: '5 8-18 * * 1-5',
    timezone: 'America/New_York',
    slug: 'invoice-export',
  });
  await ping(`${invoices.ping_url}/start?rid=inv-41`);
  await ping(`${invoices.ping_url}?rid=inv-41`);
  await ping(`${invoices.ping_url}/start?rid=inv-42`);
  await pause(800);
  await ping(
    `${invoices.ping_url}/1?rid=inv-42`,
    'Error: connect ECONNREFUSED 10.0.4.12:5432\nexport aborted',
  );
  await hb('Weekly report mail', 7 * 86_400, 3600, true);
  await hb('Log rotation', 86_400, 1800);
  // Routing: channels (one webhook to a real receiver, so Send test succeeds), a two-step policy,
  // integrations, maintenance windows (one planned, one ended early).
  const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end('ok')));
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const channel = (json: unknown) =>
    post('/channels', json).then((r) => JSON.parse(r.body) as { id: string });
  const email = await channel({
    name: 'Ops mailing list',
    type: 'email',
    config: { addresses: ['ops@demo.localhost', 'dba@demo.localhost'] },
  });
  const hook = await channel({
    name: 'Incident bot',
    type: 'webhook',
    config: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/lookout` },
  });
  await channel({
    name: 'Slack #ops',
    type: 'slack',
    config: { url: 'https://hooks.slack.com/services/T0000/B0000/abcdefghijkl' },
  });
  // Created only (never sent to): their services' public addresses stay untouched.
  await channel({
    name: 'On-call Telegram',
    type: 'telegram',
    config: { bot_token: '123456:ABCdefGHIjklMNOpqrSTUvwx', chat_id: '-1001234567890' },
  });
  await channel({
    name: 'PagerDuty database',
    type: 'pagerduty',
    config: { routing_key: 'R0UT1NGKEY0123456789abcdefABCDEF' },
  });
  const users = JSON.parse((await lookout.api('demo', '/users', asAdmin)).body).data as {
    id: string;
    email: string;
  }[];
  await post('/escalation-policies', {
    name: 'Database on-call',
    repeat: 2,
    steps: [
      { wait_minutes: 0, notify_user_ids: [users.find((u) => u.email === 'mia@demo.localhost')!.id] },
      {
        wait_minutes: 15,
        notify_user_ids: [users.find((u) => u.email === lookout.adminEmail)!.id],
        notify_channel_ids: [hook.id],
      },
      { wait_minutes: 30, notify_channel_ids: [email.id] },
    ],
  });
  await post('/integrations', { name: 'Prod Alertmanager', kind: 'alertmanager' });
  await post('/integrations', { name: 'Grafana Cloud', kind: 'grafana' });
  const day = 86_400_000;
  await post('/maintenance-windows', {
    name: 'Database upgrade',
    scope_type: 'workspace',
    starts_at: new Date(now + 2 * day).toISOString(),
    ends_at: new Date(now + 2 * day + 2 * 3_600_000).toISOString(),
  });
  const ended = JSON.parse(
    (
      await post('/maintenance-windows', {
        name: 'Backup host reboot',
        scope_type: 'heartbeat',
        scope_id: backup.id,
        starts_at: new Date(now).toISOString(),
        ends_at: new Date(now + 3_600_000).toISOString(),
      })
    ).body,
  ) as { id: string };
  await post(`/maintenance-windows/${ended.id}/end`);
  // Users: a member who joined, a viewer, and an invitation not yet accepted.
  await lookout.cli([
    'user',
    'create',
    '--workspace',
    'demo',
    '--email',
    'vic@demo.localhost',
    '--role',
    'viewer',
  ]);
  await post('/users', { email: 'noor@demo.localhost', role: 'member' });
  // Alerts: the down monitor raised one; a connected tool sends two more, one acknowledged.
  const runner = JSON.parse((await post('/integrations', { name: 'Job runner', kind: 'webhook' })).body);
  const event = (title: string, severity: string) =>
    lookout.api(
      'demo',
      '/integrations/webhook/events',
      { 'x-lookout-service-key': runner.service_key },
      { method: 'POST', json: { title, severity, dedup_key: title } },
    );
  await event('Nightly export queue backed up', 'warning');
  const disk = JSON.parse((await event('Disk 91% full on db-2', 'critical')).body);
  await post('/alerts/acknowledge', { UUIDs: [disk.events[0].alert_id] });
  // Enough checks of Checkout API for its chart.
  for (let i = 0; i < 120; i++) {
    const r = await lookout.api('demo', `/monitors/${checkout.id}/results?limit=20`, asAdmin);
    if (JSON.parse(r.body).data.length >= 20) break;
    await new Promise((done) => setTimeout(done, 500));
  }

  // The workspace's own mail server (Settings → Mail), as a team that has set one up: no banner.
  const mail = await lookout.api('demo', '/settings/mail', asAdmin, {
    method: 'PUT',
    json: {
      host: 'smtp.mail.example',
      port: 587,
      tls: 'starttls',
      username: 'alerts@demo.localhost',
      password: 'an-smtp-password',
      from_address: 'Lookout <alerts@demo.localhost>',
    },
  });
  if (mail.status !== 200) throw new Error(`mail settings: ${mail.status} ${mail.body}`);

  for (const size of SIZES) {
    const context = await browser.newContext({
      viewport: size.viewport,
      deviceScaleFactor: size.deviceScaleFactor,
      locale: 'en-GB',
      timezoneId: 'UTC',
    });
    const page = await context.newPage();
    const shot = (what: string, fullPage = true) =>
      page.screenshot({
        path: join(ROOT, 'docs', 'screenshots', `${what}-${size.name}.png`),
        fullPage,
      });
    await page.goto(lookout.url('demo', '/sign-in'));
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await shot('sign-in');
    await page.getByLabel('Email').fill(lookout.adminEmail);
    await page.getByLabel('Password').fill(lookout.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    await page.getByRole('row', { name: /Billing service/ }).waitFor();
    await shot('monitors');
    await page.getByRole('link', { name: 'Checkout API' }).click();
    await page.getByRole('heading', { name: 'Checkout API', level: 1 }).waitFor();
    await page
      .getByRole('img', { name: /Response time of the last/ })
      .locator('canvas')
      .waitFor();
    await shot('monitor-detail');
    await page.getByRole('link', { name: 'Monitors' }).click();
    await page.getByRole('link', { name: 'New monitor' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Marketing site');
    await page.getByLabel('URL', { exact: true }).fill('www.example.com');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByText('Must be a full URL').waitFor();
    await shot('monitor-new');
    await page.getByRole('link', { name: 'Alerts' }).click();
    await page.getByRole('row', { name: /Payments gateway is down/ }).waitFor();
    await page.getByRole('row', { name: /Nightly export queue/ }).waitFor();
    await page.getByRole('checkbox', { name: 'Select Nightly export queue backed up' }).check();
    await shot('alerts');
    await page.getByRole('link', { name: 'Disk 91% full on db-2' }).click();
    await page.getByText(/^Acknowledged by/).waitFor();
    await shot('alert-detail');
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    if (size.name === 'desktop') {
      // A few keys, one used, one revoked, so the list shows what it shows in real life.
      for (const [name, expiry] of [
        ['GitHub Actions deploy', '90 days'],
        ['Grafana dashboards', 'No expiry'],
        ['Old backup job', '30 days'],
      ]) {
        await page.getByLabel('Name').fill(name!);
        await page.getByLabel('Expiry', { exact: true }).selectOption({ label: expiry! });
        await page.getByRole('button', { name: 'Create key' }).click();
        const value = await page.getByRole('textbox', { name: 'New API key value' }).inputValue();
        if (name === 'Grafana dashboards') await lookout.api('demo', '/monitors', { 'x-api-key': value });
        await page.getByRole('button', { name: 'Done' }).click();
      }
      await page.getByRole('button', { name: 'Revoke Old backup job' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await page
        .getByRole('row', { name: /Old backup job/ })
        .getByText('Revoked')
        .waitFor();
      await page.reload();
    }
    await page.getByRole('row', { name: /Grafana dashboards/ }).waitFor();
    await shot('api-keys');
    await page.getByLabel('Name').fill(size.name === 'desktop' ? 'Staging smoke tests' : 'Nightly export');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await shot('api-keys-new-key');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Revoke GitHub Actions deploy' }).click();
    await page.getByRole('dialog').waitFor();
    await shot('api-keys-revoke', false);
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('row', { name: /noor@demo\.localhost/ }).waitFor();
    await shot('users');
    await page
      .getByLabel('Email')
      .fill(size.name === 'desktop' ? 'sam@demo.localhost' : 'kai@demo.localhost');
    await page.getByRole('button', { name: 'Invite user' }).click();
    await page.getByRole('textbox', { name: 'Invitation link' }).waitFor();
    await shot('users-invited');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Remove vic@demo.localhost' }).click();
    await page.getByRole('dialog').waitFor();
    await shot('users-remove', false);
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: 'Heartbeats', exact: true }).click();
    await page.getByRole('row', { name: /Log rotation/ }).waitFor();
    await shot('heartbeats');
    await page.getByRole('link', { name: 'Hourly invoice export' }).click();
    await page.getByRole('table', { name: 'Ping log' }).waitFor();
    await shot('heartbeat');
    await page.getByRole('link', { name: 'Escalation policies' }).click();
    await page.getByRole('row', { name: /Database on-call/ }).waitFor();
    await shot('escalation-policies');
    await page.getByRole('button', { name: 'Edit Database on-call' }).click();
    await page.getByRole('group', { name: 'Step 3' }).waitFor();
    await shot('escalation-policies-edit');
    await page.getByRole('link', { name: 'Channels' }).click();
    await page.getByRole('button', { name: 'Send test to Incident bot' }).click();
    await page.getByRole('status').filter({ hasText: 'Test sent to Incident bot' }).waitFor();
    await shot('channels');
    await page.getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('row', { name: /Grafana Cloud/ }).waitFor();
    await page
      .getByLabel('Name')
      .fill(size.name === 'desktop' ? 'Staging Alertmanager' : 'Edge Alertmanager');
    await page.getByRole('button', { name: 'Create integration' }).click();
    await page.getByRole('textbox', { name: 'Service key' }).waitFor();
    await shot('integrations-new-key');
    await page.getByRole('button', { name: 'Done' }).click();
    await shot('integrations');
    await page.getByRole('link', { name: 'Maintenance' }).click();
    await page.getByRole('row', { name: /Backup host reboot/ }).waitFor();
    await shot('maintenance');
    await page.getByRole('link', { name: 'Mail' }).click();
    await page.getByRole('button', { name: 'Send test' }).waitFor();
    await shot('mail-settings');
    await page.getByRole('link', { name: 'Security', exact: true }).click();
    await page.getByRole('button', { name: 'Set up authenticator app' }).waitFor();
    await shot('security');
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await page.getByRole('rowheader', { name: 'session.sign_in', exact: true }).first().waitFor();
    await shot('audit-log');
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'SLA report', level: 1 }).waitFor();
    await page.getByRole('img', { name: /^Uptime by day/ }).waitFor();
    await shot('reports');
    await context.close();
  }
  receiver.close();
  process.stdout.write('Screenshots written to docs/screenshots/\n');
} finally {
  await browser.close();
  await lookout.stop();
}
