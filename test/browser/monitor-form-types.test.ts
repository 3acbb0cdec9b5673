import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lookout, launchBrowser, signedInAt, startLookout, testAgent } from './support.js';

/**
 * The monitor form generated per check type from GET /check-types, in chromium against a real control
 * plane: the type picker lists every type, each type's own fields come from their JSON Schemas, the
 * assertion editor adds and removes rows, a database's connection URL is a password input shown
 * afterwards only as its hint, an edit keeps it, and a 422 marks the very fields it names. Screenshots
 * at 1280 and 390 px, light and dark, in /tmp/form-*.png.
 */
let lookout: Lookout;
let browser: Browser;
const admin = () => ({ email: lookout.adminEmail, password: lookout.password });
const asAdmin = () => ({ 'x-api-key': lookout.apiKey });
const monitor = async (id: string) =>
  JSON.parse((await lookout.api('demo', `/monitors/${id}`, asAdmin())).body);

beforeAll(async () => {
  lookout = await startLookout();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await lookout?.stop();
});

const newMonitor = async (page: Page, type: string, name: string) => {
  await page.goto(lookout.url('demo', '/monitors/new'));
  await page.getByRole('heading', { name: 'New monitor', level: 1 }).waitFor();
  const picker = page.getByLabel('Type');
  await picker.getByRole('option', { name: type }).waitFor({ state: 'attached' });
  await picker.selectOption({ label: type });
  await page.getByLabel('Name', { exact: true }).fill(name);
};
const create = async (page: Page, name: string) => {
  await page.getByRole('button', { name: 'Create monitor' }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
  return page.url().split('/').pop()!;
};

describe('monitor form per check type', () => {
  it('lists every type; creates ping (with assertions), grpc and postgres monitors; edits one', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), '/monitors/new');
    const picker = page.getByLabel('Type');
    await picker.getByRole('option', { name: 'Redis' }).waitFor({ state: 'attached' });
    expect(await picker.getByRole('option').allTextContents()).toEqual([
      'HTTP(S)',
      'API',
      'DNS',
      'TCP port',
      'Domain expiry',
      'Ping (ICMP)',
      'gRPC health',
      'WebSocket',
      'SMTP',
      'PostgreSQL',
      'MySQL / MariaDB',
      'Redis',
      'Multi-step API',
      'Browser',
    ]);

    // ping: its packet count from the schema (default 3), and two assertions, one removed again.
    await newMonitor(page, 'Ping (ICMP)', 'Gateway ping');
    await page.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    const packets = page.getByRole('spinbutton', { name: 'Packet count' });
    expect(await packets.inputValue()).toBe('3');
    await packets.fill('5');
    const assertions = page.getByRole('group', { name: 'Assertions' });
    await assertions.getByRole('button', { name: 'Add assertion' }).click();
    await assertions.getByRole('button', { name: 'Add assertion' }).click();
    await assertions
      .getByRole('combobox', { name: 'Assertion 1 source' })
      .selectOption({ label: 'packet loss (%)' });
    const comparison = assertions.getByRole('combobox', { name: 'Assertion 1 comparison' });
    // A comparison without a target hides the target.
    await comparison.selectOption({ label: 'is empty' });
    expect(await assertions.getByRole('textbox', { name: 'Assertion 1 target' }).count()).toBe(0);
    await comparison.selectOption({ label: 'less than' });
    await assertions.getByRole('textbox', { name: 'Assertion 1 target' }).fill('50');
    await assertions.getByRole('button', { name: 'Remove assertion 2' }).click();
    expect(await assertions.getByRole('listitem').count()).toBe(1);
    const ping = await monitor(await create(page, 'Gateway ping'));
    expect(ping).toMatchObject({
      monitor_type: 'ping',
      url: '127.0.0.1',
      packet_count: 5,
      assertions: [{ source: 'packet_loss', comparison: 'less_than', target: 50 }],
    });

    // grpc: host and port, the service name and the TLS box from the schema.
    await newMonitor(page, 'gRPC health', 'Orders gRPC');
    const hostPort = page.getByLabel('Host and port');
    expect(await hostPort.getAttribute('placeholder')).toBe('grpc.example.com:443');
    await hostPort.fill('127.0.0.1:50051');
    await page.getByRole('textbox', { name: 'gRPC service' }).fill('orders.v1.Orders');
    await page.getByRole('checkbox', { name: 'gRPC TLS' }).check();
    const grpc = await monitor(await create(page, 'Orders gRPC'));
    expect(grpc).toMatchObject({ url: '127.0.0.1:50051', grpc_service: 'orders.v1.Orders', grpc_tls: true });

    // postgres: the connection URL is a password input; afterwards only its hint is shown.
    const secretUrl = 'postgres://monitor:hunter2-Sekret@127.0.0.1:5432/appdb';
    await newMonitor(page, 'PostgreSQL', 'App database');
    const url = page.getByLabel('Connection URL');
    expect(await url.getAttribute('type')).toBe('password');
    await url.fill(secretUrl);
    const query = page.getByRole('textbox', { name: 'Query' });
    expect(await query.inputValue()).toBe('SELECT 1');
    const id = await create(page, 'App database');
    const pg = await monitor(id);
    expect(pg.url).not.toContain('hunter2');
    expect(pg.url).toContain('127.0.0.1:5432');
    await page.getByText(pg.url).first().waitFor();
    expect(await page.content()).not.toContain('hunter2');

    // Edit: the URL input starts empty with the hint, is kept when left empty; the query changes.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit App database', level: 1 }).waitFor();
    const editUrl = page.getByLabel('Connection URL');
    expect(await editUrl.inputValue()).toBe('');
    await page.getByText(`Now ${pg.url}; leave empty to keep it.`).waitFor();
    await page.getByRole('textbox', { name: 'Query' }).fill('SELECT count(*) FROM pg_stat_activity');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'App database', level: 1 }).waitFor();
    await expect.poll(async () => (await monitor(id)).query).toBe('SELECT count(*) FROM pg_stat_activity');
    expect((await monitor(id)).url).toBe(pg.url);
    await context.close();
  });

  it('a 422 marks the fields it names: a generated field and an assertion row', async () => {
    const { context, page } = await signedInAt(browser, lookout, admin(), '/monitors/new');
    await newMonitor(page, 'Ping (ICMP)', 'Bad ping');
    await page.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await page.getByRole('spinbutton', { name: 'Packet count' }).fill('50');
    const assertions = page.getByRole('group', { name: 'Assertions' });
    // A ping check reads packet loss and response time: its row starts on packet loss, offers no JSON body.
    await assertions.getByRole('button', { name: 'Add assertion' }).click();
    const sources = assertions.getByRole('combobox', { name: 'Assertion 1 source' });
    expect(await sources.getByRole('option').allTextContents()).toEqual([
      'packet loss (%)',
      'response time (ms)',
    ]);
    await page.getByRole('button', { name: 'Create monitor' }).click();
    const summary = page.getByRole('alert', { name: 'There is a problem' });
    await summary.waitFor();
    const packets = page.getByRole('spinbutton', { name: 'Packet count' });
    expect(await packets.getAttribute('aria-invalid')).toBe('true');
    const target = assertions.getByRole('textbox', { name: 'Assertion 1 target' });
    expect(await target.getAttribute('aria-invalid')).toBe('true');
    const links = await summary.getByRole('link').allTextContents();
    expect(links).toEqual(expect.arrayContaining(['Packet count', 'Assertion 1 target']));
    await context.close();
  });

  it('shows a failed assertion on the detail page; screenshots at 1280 and 390, light and dark', async () => {
    const created = await lookout.api('demo', '/monitors/create', asAdmin(), {
      method: 'POST',
      json: {
        display_name: 'Health JSON',
        monitor_type: 'http',
        url: 'https://example.com/health',
        http_method: 'GET',
        expected_status_code: 200,
        check_locations: ['eu-west'],
        assertions: [{ source: 'json_body', property: '$.status', comparison: 'equals', target: 'ok' }],
      },
    });
    expect(created.status, created.body).toBe(201);
    const id = JSON.parse(created.body).id as string;
    const agent = await testAgent(lookout, 'eu-west');
    const message = '$.status was "degraded", expected equals "ok"';
    await agent.report([
      {
        monitorId: id,
        at: new Date(),
        ok: false,
        statusCode: 200,
        errorKind: 'assertion_failed',
        error: message,
      },
    ]);
    for (const colorScheme of ['light', 'dark'] as const)
      for (const [width, height] of [
        [1280, 900],
        [390, 844],
      ] as const) {
        const context = await browser.newContext({ viewport: { width, height }, colorScheme });
        const page = await context.newPage();
        await page.goto(lookout.url('demo', `/monitors/${id}`));
        await page.getByLabel('Email').fill(lookout.adminEmail);
        await page.getByLabel('Password').fill(lookout.password);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('heading', { name: 'Health JSON', level: 1 }).waitFor();
        await page.getByText(`Assertion failed: ${message}`).waitFor();
        // What the check verifies: the expected status code as the assertion it is, then the monitor's own.
        const checks = page.getByRole('region', { name: 'What each check verifies' });
        await expect
          .poll(() => checks.getByRole('listitem').allTextContents())
          .toEqual(['status code equals 200', '$.status equals "ok"']);
        await page.screenshot({ path: `/tmp/form-detail-head-${width}-${colorScheme}.png` });
        const results = page.getByRole('region', { name: 'Recent results' });
        await results.screenshot({ path: `/tmp/form-detail-${width}-${colorScheme}.png` });
        for (const type of ['Ping (ICMP)', 'gRPC health', 'SMTP', 'PostgreSQL']) {
          await newMonitor(page, type, `A ${type} monitor`);
          if (type === 'Ping (ICMP)') {
            const assertions = page.getByRole('group', { name: 'Assertions' });
            await assertions.getByRole('button', { name: 'Add assertion' }).click();
            await assertions.getByRole('button', { name: 'Add assertion' }).click();
            await assertions
              .getByRole('combobox', { name: 'Assertion 2 comparison' })
              .selectOption({ label: 'not empty' });
          }
          const slug = type.split(' ')[0]!.toLowerCase();
          await page.screenshot({ path: `/tmp/form-${slug}-${width}-${colorScheme}.png`, fullPage: true });
        }
        await page.getByRole('button', { name: 'Create monitor' }).click();
        await page.getByRole('alert', { name: 'There is a problem' }).waitFor();
        await page.screenshot({ path: `/tmp/form-error-${width}-${colorScheme}.png`, fullPage: true });
        await context.close();
      }
  });
});
