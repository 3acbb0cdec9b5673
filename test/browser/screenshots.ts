/**
 * `npm run screenshots`: the sign-in, Monitors (list, detail, new), Alerts (list, detail), API keys and Users pages at desktop and phone widths,
 * into docs/ (shown in the README). Runs the real control plane on a fresh data dir, like the browser
 * tests, with its two local agents, so the monitors (TCP checks of the control plane's own port, and
 * of a closed one) show real statuses.
 */
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
  const hook = JSON.parse((await post('/integrations', { name: 'Job runner', kind: 'webhook' })).body);
  const event = (title: string, severity: string) =>
    lookout.api(
      'demo',
      '/integrations/webhook/events',
      { 'x-lookout-service-key': hook.service_key },
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
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await shot('sign-in');
    await page.getByLabel('Email').fill(lookout.adminEmail);
    await page.getByLabel('Password').fill(lookout.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
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
    await context.close();
  }
  process.stdout.write('Screenshots written to docs/screenshots/\n');
} finally {
  await browser.close();
  await lookout.stop();
}
