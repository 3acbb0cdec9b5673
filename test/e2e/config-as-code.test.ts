import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPlans } from '../../control-plane/src/domain/tenancy/plans.js';
import { type Harness, startHarness } from '../support/harness.js';
import { runCli } from '../support/processes.js';

/**
 * `npx lookout export | plan | apply` as users run it: the real CLI process, against a real control
 * plane on a loopback port (HTTP API only, with an API key), on a real SQLite file.
 */
let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness({
    plans: { ...defaultPlans, bulk: { max_monitors: 100_000, min_interval_seconds: 30 } },
  });
  dir = mkdtempSync(join(tmpdir(), 'lookout-config-'));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

type Workspace = Awaited<ReturnType<Harness['workspace']>>;

const cli = (w: Workspace, key: string, args: string[], env: Record<string, string> = {}) =>
  runCli(args, {
    LOOKOUT_API_URL: `http://${w.host}:${h.cp.port}`,
    LOOKOUT_API_KEY: key,
    ...env,
  });

/** `${NAME}`, as the file writes a secret. */
const ref = (name: string) => `\${${name}}`;

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const SECRETS = {
  MONITOR_CHECKOUT_AUTH_PASSWORD: 's3cret',
  MONITOR_ORDERS_API_REQUEST_HEADERS_X_API_KEY: 'k-123',
  CHANNEL_PAGER_HOOK_CONFIG_URL: 'https://hooks.example.com/lookout?token=hook-url-token',
  CHANNEL_PAGER_HOOK_CONFIG_HEADERS_AUTHORIZATION: 'Bearer hook-token',
  CHANNEL_PAGER_HOOK_CONFIG_HEADERS_X_TEAM: 'sre',
  CHANNEL_TEAM_CHAT_CONFIG_BOT_TOKEN: '123456:ABCdefGhIjk',
  STATUS_PAGE_STATUS_PASSWORD: 'a long enough password',
};

/** A workspace with one of each kind, secrets included. */
const fill = async (w: Workspace) => {
  const mail = await w.api('POST', '/channels', {
    json: { name: 'Ops mail', type: 'email', config: { addresses: ['ops@example.com'] } },
  });
  await w.api('POST', '/channels', {
    json: {
      name: 'Pager hook',
      type: 'webhook',
      config: {
        url: 'https://hooks.example.com/lookout?token=hook-url-token',
        headers: { Authorization: 'Bearer hook-token', 'X-Team': 'sre' },
      },
    },
  });
  const telegram = await w.api('POST', '/channels', {
    json: {
      name: 'Team chat',
      type: 'telegram',
      config: { bot_token: '123456:ABCdefGhIjk', chat_id: '-100200300' },
    },
  });
  expect(telegram.status, telegram.text).toBe(201);
  const night = await w.api('POST', '/escalation-policies', {
    json: {
      name: 'Night shift',
      repeat: 1,
      steps: [{ wait_minutes: 5, notify_channel_ids: [mail.body.id] }],
      support_hours: { timezone: 'Europe/Berlin', days: ['mon', 'tue'], start: '22:00', end: '06:00' },
    },
  });
  await w.api('POST', '/monitors/create', {
    json: {
      display_name: 'Checkout',
      monitor_type: 'http',
      url: 'https://shop.example.com/checkout',
      http_method: 'GET',
      expected_status_code: 200,
      check_interval_seconds: 120,
      auth: { type: 'basic', username: 'probe', password: 's3cret' },
      escalation_policy_id: night.body.id,
    },
  });
  const db = await w.api('POST', '/monitors/create', {
    json: { display_name: 'Database', monitor_type: 'tcp', url: 'db.example.com', port: 5432 },
  });
  // One of each other type, with its own fields.
  for (const json of [
    {
      display_name: 'Orders API',
      monitor_type: 'api',
      url: 'https://api.example.com/orders',
      http_method: 'POST',
      expected_status_code: 201,
      request_headers: { 'X-Api-Key': 'k-123', Accept: 'application/json' },
      request_body: '{"probe": true}',
      required_keyword: 'id',
    },
    {
      display_name: 'MX records',
      monitor_type: 'dns',
      url: 'example.com',
      dns_record_type: 'MX',
      dns_expected_values: ['mx.example.com'],
      dns_resolver: '9.9.9.9',
    },
    {
      display_name: 'Registration',
      monitor_type: 'domain',
      url: 'example.com',
      domain_expiry_alert_days: 45,
    },
  ]) {
    const r = await w.api('POST', '/monitors/create', { json });
    expect(r.status, r.text).toBe(201);
  }
  await w.api('POST', '/heartbeats', { json: { display_name: 'Nightly backup', period_seconds: 86_400 } });
  // A cron heartbeat with a slug: its record has no period (null), a period one no schedule or slug.
  const cron = await w.api('POST', '/heartbeats', {
    json: {
      display_name: 'Weekday import',
      schedule: '0 3 * * 1-5',
      timezone: 'Europe/Berlin',
      slug: 'import',
    },
  });
  expect(cron.status, cron.text).toBe(201);
  const backup = await w.api('POST', '/heartbeats', {
    json: { display_name: 'Weekly report', period_seconds: 604_800 },
  });
  const page = await w.api('POST', '/status-pages', {
    json: {
      name: 'Acme status',
      slug: 'status',
      visibility: 'password',
      password: 'a long enough password',
      components: [
        { name: 'Database', group: 'Core', monitor_id: db.body.id },
        { name: 'Reports', heartbeat_id: backup.body.id, description: 'Weekly' },
        { name: 'Support desk' },
      ],
    },
  });
  expect(page.status, page.text).toBe(201);
  await w.api('POST', '/integrations', {
    json: { name: 'Prometheus', kind: 'alertmanager', escalation_policy_id: night.body.id },
  });
  await w.api('POST', '/maintenance-windows', {
    json: {
      name: 'DB upgrade',
      scope_type: 'monitor',
      scope_id: db.body.id,
      starts_at: '2030-01-01T00:00:00Z',
      ends_at: '2030-01-01T02:00:00Z',
    },
  });
  await w.api('POST', '/maintenance-windows', {
    json: {
      name: 'Sunday backups',
      scope_type: 'tag',
      scope_id: 'env:prod',
      schedule: '0 2 * * 0',
      timezone: 'Europe/Berlin',
      duration_seconds: 7200,
    },
  });
};

const count = async (w: Workspace, path: string) =>
  (await w.api('GET', `${path}?limit=100`)).body.data.length;
const counts = async (w: Workspace) =>
  Object.fromEntries(
    await Promise.all(
      [
        '/monitors',
        '/heartbeats',
        '/channels',
        '/escalation-policies',
        '/integrations',
        '/maintenance-windows',
      ].map(async (p) => [p, await count(w, p)] as const),
    ),
  );
/** An export without its first line (the schema's address names the workspace's host). */
const body = (text: string) => text.split('\n').slice(1).join('\n');

describe('lookout export, plan, apply', () => {
  it('export then apply on an empty workspace reproduces it; apply twice changes nothing', async () => {
    const source = await h.workspace('cac-source');
    await fill(source);
    const exported = await cli(source, source.adminKey, ['export']);
    expect(exported.code, exported.stderr).toBe(0);
    const text = exported.stdout;
    expect(text.split('\n')[0]).toBe(
      `# yaml-language-server: $schema=http://cac-source.localhost:${h.cp.port}/api/v1/lookout-config.schema.json`,
    );
    // References by name, secrets as ${ENV} (the API never shows the password; the header is a credential).
    expect(text).toContain('escalation_policy: Night shift');
    expect(text).toMatch(
      /support_hours:\n\s+timezone: Europe\/Berlin\n\s+days:\n\s+- mon\n\s+- tue\n\s+start: "?22:00"?\n\s+end: "?06:00"?/,
    );
    expect(text).toContain('- Ops mail');
    expect(text).toContain(`password: ${ref('MONITOR_CHECKOUT_AUTH_PASSWORD')}`);
    expect(text).toContain(`Authorization: ${ref('CHANNEL_PAGER_HOOK_CONFIG_HEADERS_AUTHORIZATION')}`);
    // A webhook's URL and header values are write-only like every kind's secrets.
    expect(text).toContain(`url: ${ref('CHANNEL_PAGER_HOOK_CONFIG_URL')}`);
    expect(text).toContain(`X-Team: ${ref('CHANNEL_PAGER_HOOK_CONFIG_HEADERS_X_TEAM')}`);
    expect(text).not.toContain('s3cret');
    expect(text).not.toContain('hook-token');
    expect(text).not.toContain('hook-url-token');
    expect(text).not.toContain('k-123');
    // A channel kind's secret (write-only in the API) too; compared by the hint the API shows.
    expect(text).toContain(`bot_token: ${ref('CHANNEL_TEAM_CHAT_CONFIG_BOT_TOKEN')}`);
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(exported.stderr).toContain('MONITOR_CHECKOUT_AUTH_PASSWORD');

    // The target: a new workspace, where the source's admin (whom the default policy notifies) is a user too.
    const target = await h.workspace('cac-target');
    await target.userWithKey('member', 'admin@cac-source.test');
    const path = file('export.yaml', text);
    const missing = await cli(target, target.adminKey, ['plan', '-f', path]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('MONITOR_CHECKOUT_AUTH_PASSWORD, which is not set');

    const applied = await cli(target, target.adminKey, ['apply', '-f', path], SECRETS);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('created 5 monitors (5 of 5)');
    expect(await counts(target)).toEqual(await counts(source));
    const again = await cli(target, target.adminKey, ['export']);
    expect(body(again.stdout)).toBe(body(text));
    // The secrets went through: the monitor's endpoint password is the one from the environment.
    const checkout = (await h.store.listMonitors(target.workspace.id, { limit: 10 })).data.find(
      (m) => m.display_name === 'Checkout',
    );
    expect(checkout?.auth).toEqual({ type: 'basic', username: 'probe', password: 's3cret' });

    const twice = await cli(target, target.adminKey, ['apply', '-f', path], SECRETS);
    expect(twice.code, twice.stderr).toBe(0);
    expect(twice.stdout).toContain('Plan: 0 to create, 0 to change, 0 to delete.');
    expect(twice.stdout).toContain('Nothing to change.');
    const plan = await cli(target, target.adminKey, ['plan', '-f', path], SECRETS);
    expect(plan.code).toBe(0);
  });

  it('the later check types by their own fields; a database URL is a secret of the file, compared by its hint', async () => {
    const w = await h.workspace('cac-types');
    const text = `monitors:
  - display_name: Gateway ping
    monitor_type: ping
    url: gw.example.com
    packet_count: 5
    assertions:
      - { source: packet_loss, comparison: less_than, target: 20 }
  - display_name: Cart health
    monitor_type: grpc
    url: cart.example.com:443
    grpc_service: shop.Cart
    grpc_tls: true
  - display_name: Live feed
    monitor_type: websocket
    url: wss://feed.example.com/socket
    ws_message: ping
  - display_name: Mail relay
    monitor_type: smtp
    url: mail.example.com
    port: 587
    smtp_security: starttls
    ssl_cert_monitoring: true
  - display_name: Orders DB
    monitor_type: postgres
    url: \${ORDERS_DB_URL}
    query: SELECT count(*) FROM orders
`;
    const path = file('types.yaml', text);
    const env = { ORDERS_DB_URL: 'postgres://monitor:pg-s3cret@db.example.com:5432/orders' };
    const applied = await cli(w, w.adminKey, ['apply', '-f', path], env);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('created 5 monitors (5 of 5)');
    const live = (await w.api('GET', '/monitors?sort=name')).body.data;
    expect(live.find((m: { monitor_type: string }) => m.monitor_type === 'ping')).toMatchObject({
      packet_count: 5,
      assertions: [{ source: 'packet_loss', comparison: 'less_than', target: 20 }],
    });
    expect(live.find((m: { monitor_type: string }) => m.monitor_type === 'postgres')).toMatchObject({
      url: 'postgres://db.example.com:5432/…ders',
      query: 'SELECT count(*) FROM orders',
    });
    const plan = await cli(w, w.adminKey, ['plan', '-f', path], env);
    expect(plan.code, plan.stdout).toBe(0);
    // Another database behind the same name: the hint differs, so the plan changes it.
    const moved = await cli(w, w.adminKey, ['plan', '-f', path], {
      ORDERS_DB_URL: 'postgres://monitor:pg-s3cret@db2.example.com:5432/orders',
    });
    expect(moved.code).toBe(2);
    const exported = await cli(w, w.adminKey, ['export']);
    expect(exported.stdout).toContain(`url: ${ref('MONITOR_ORDERS_DB_URL')}`);
    expect(exported.stdout).toContain('grpc_service: shop.Cart');
    expect(exported.stdout).not.toContain('pg-s3cret');
  });

  it('a plan of an edited file names exactly what changed and exits 2; apply changes records in place', async () => {
    const w = await h.workspace('cac-edit');
    await fill(w);
    const text = (await cli(w, w.adminKey, ['export'])).stdout;
    const before = (await w.api('GET', '/monitors?limit=100')).body.data.find(
      (m: { display_name: string }) => m.display_name === 'Database',
    );
    const edited = text
      .replace(/(display_name: Database\n(?:.*\n)*?\s+check_interval_seconds:) 60/, '$1 300')
      .replace('- ops@example.com', '- oncall@example.com')
      .replace(/heartbeats:\n/, 'heartbeats:\n  - display_name: Hourly export\n    period_seconds: 3600\n')
      .replace(/integrations:\n(?:.*\n)*?maintenance_windows:/, 'maintenance_windows:');
    expect(edited).not.toBe(text);
    const path = file('edited.yaml', edited);
    const plan = await cli(w, w.adminKey, ['plan', '-f', path], SECRETS);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout.trim().split('\n')).toEqual([
      '~ channel "Ops mail"',
      '    config: {"addresses":["ops@example.com"]} → {"addresses":["oncall@example.com"]}',
      '~ monitor "Database"',
      '    check_interval_seconds: 60 → 300',
      '+ heartbeat "Hourly export" (create)',
      'Plan: 1 to create, 2 to change, 0 to delete.',
    ]);
    // The integrations key left out of the file: not a kind the file manages, nothing deleted.
    const pruned = await cli(w, w.adminKey, ['plan', '-f', path, '--prune'], SECRETS);
    expect(pruned.code).toBe(2);
    expect(pruned.stdout).toContain('Plan: 1 to create, 2 to change, 0 to delete.');
    // An emptied list with --prune deletes what it held, unless something the file keeps names it.
    const noHeartbeats = edited.replace(/heartbeats:\n(?: {2}.*\n)*/, 'heartbeats: []\n');
    const stillNamed = await cli(
      w,
      w.adminKey,
      ['plan', '-f', file('named.yaml', noHeartbeats), '--prune'],
      SECRETS,
    );
    expect(stillNamed.code).toBe(1);
    expect(stillNamed.stderr).toContain(
      'status_pages[0].components[1].heartbeat names heartbeat "Weekly report", which --prune would delete (the file lists heartbeats without it)',
    );
    const noPages = file(
      'no-heartbeats.yaml',
      noHeartbeats.replace(/status_pages:\n(?: {2}.*\n)*/, 'status_pages: []\n'),
    );
    const deletes = await cli(w, w.adminKey, ['plan', '-f', noPages, '--prune'], SECRETS);
    expect(deletes.code, deletes.stderr).toBe(2);
    expect(deletes.stdout).toContain('- heartbeat "Nightly backup" (delete)');
    expect(deletes.stdout).toContain('- status page "status" (delete)');
    const kept = await cli(w, w.adminKey, ['plan', '-f', noPages], SECRETS);
    expect(kept.stdout).toMatch(
      /^4 records of the workspace are not in the file and stay \(--prune deletes them\): /m,
    );
    expect(kept.stdout).toContain('heartbeat "Nightly backup"');

    const applied = await cli(w, w.adminKey, ['apply', '-f', path], SECRETS);
    expect(applied.code, applied.stderr).toBe(0);
    const after = (await w.api('GET', `/monitors/${before.id}`)).body;
    expect(after.check_interval_seconds).toBe(300);
    expect(after.version).toBe(before.version + 1);
    expect((await cli(w, w.adminKey, ['plan', '-f', path], SECRETS)).code).toBe(0);
    // The default policy cannot go unless another becomes the default: said before anything changes.
    const noDefault = file(
      'no-default.yaml',
      edited.replace(/ {2}- name: Default\n(?: {4}.*\n| {6}.*\n| {8}.*\n)*/, ''),
    );
    const refused = await cli(w, w.adminKey, ['apply', '-f', noDefault, '--prune'], SECRETS);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'escalation_policies --prune cannot delete escalation policy "Default": it is the workspace’s default policy',
    );
    expect(await count(w, '/escalation-policies')).toBe(2);
    const prune = await cli(w, w.adminKey, ['apply', '-f', noPages, '--prune'], SECRETS);
    expect(prune.code, prune.stderr).toBe(0);
    expect(await count(w, '/heartbeats')).toBe(0);
    expect(await count(w, '/status-pages')).toBe(0);
    expect(await count(w, '/integrations')).toBe(1);
  });

  it('an unset variable keeps the workspace’s secret: plan says so, and apply changes only what else changed', async () => {
    const w = await h.workspace('cac-keep');
    await fill(w);
    const text = (await cli(w, w.adminKey, ['export'])).stdout;
    const edited = text.replace(
      /(display_name: Database\n(?:.*\n)*?\s+check_interval_seconds:) 60/,
      '$1 300',
    );
    expect(edited).not.toBe(text);
    const path = file('keep.yaml', edited);
    // No secret variable set at all: only the monitor's interval changes.
    const plan = await cli(w, w.adminKey, ['plan', '-f', path]);
    expect(plan.code, plan.stderr + plan.stdout).toBe(2);
    const lines = plan.stdout.trim().split('\n');
    expect(lines).toContain('~ monitor "Database"');
    expect(lines).toContain('    check_interval_seconds: 60 → 300');
    expect(lines).toContain(
      '= monitor "Checkout" auth.password: kept as it is in the workspace (MONITOR_CHECKOUT_AUTH_PASSWORD is not set)',
    );
    expect(lines, plan.stdout).toContain(
      '= status page "status" password: kept as it is in the workspace (STATUS_PAGE_STATUS_PASSWORD is not set)',
    );
    expect(lines.at(-1)).toBe('Plan: 0 to create, 1 to change, 0 to delete.');
    const applied = await cli(w, w.adminKey, ['apply', '-f', path]);
    expect(applied.code, applied.stderr).toBe(0);
    const monitors = (await h.store.listMonitors(w.workspace.id, { limit: 10 })).data;
    expect(monitors.find((m) => m.display_name === 'Checkout')?.auth).toEqual({
      type: 'basic',
      username: 'probe',
      password: 's3cret',
    });
    expect(monitors.find((m) => m.display_name === 'Database')?.check_interval_seconds).toBe(300);
    expect(monitors.find((m) => m.display_name === 'Orders API')?.request_headers).toMatchObject({
      'X-Api-Key': 'k-123',
    });
    // A changed field whose secret the plan cannot know (the endpoint's user, without its password) is refused.
    const user = file('user.yaml', edited.replace('username: probe', 'username: robot'));
    const refused = await cli(w, w.adminKey, ['plan', '-f', user]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /monitors\[\d+\]\.auth\.password needs the environment variable MONITOR_CHECKOUT_AUTH_PASSWORD, which is not set: auth changes/,
    );
  });

  it('a variable outside a secret field is refused and never expanded, so plan cannot print a variable', async () => {
    const w = await h.workspace('cac-leak');
    const path = file(
      'leak.yaml',
      [
        'monitors:',
        `  - display_name: leak ${ref('LOOKOUT_API_KEY')}`,
        '    monitor_type: tcp',
        '    url: db.example.com',
        '    port: 5432',
        '',
      ].join('\n'),
    );
    const r = await cli(w, w.adminKey, ['plan', '-f', path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `monitors[0].display_name takes no ${ref('LOOKOUT_API_KEY')}: only secret fields (passwords, tokens, credential headers) are read from the environment`,
    );
    expect(r.stdout + r.stderr).not.toContain(w.adminKey);
    expect((await w.api('GET', '/monitors')).body.data).toEqual([]);
  });

  it('a viewer’s key exports what it may read and is refused at apply, which changes nothing', async () => {
    const w = await h.workspace('cac-viewer');
    await fill(w);
    const viewer = await w.userWithKey('viewer');
    const exported = await cli(w, viewer.key, ['export']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('display_name: Checkout');
    // Channels (and users) are for admins: left out and said so; references to them stay as ids.
    expect(exported.stderr).toContain('left out channels');
    const edited = exported.stdout.replace('period_seconds: 86400', 'period_seconds: 7200');
    const path = file('viewer.yaml', edited.replace(/escalation_policies:\n(?: {2}.*\n)*/, ''));
    const before = await counts(w);
    // What a viewer sees masked is exported as ${NAME} too; the variables export names are set.
    const named = exported.stderr.match(/keeps the workspace's value\): (.*)/)?.[1]?.split(', ') ?? [];
    expect(named).toContain('MONITOR_ORDERS_API_REQUEST_BODY');
    const env = Object.fromEntries(named.map((n) => [n, 'a placeholder value']));
    const applied = await cli(w, viewer.key, ['apply', '-f', path], env);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('apply refused: this key acts as a viewer, and the API refuses (403)');
    expect(applied.stderr).toContain('nothing was changed');
    expect(await counts(w)).toEqual(before);
    const nightly = (await w.api('GET', '/heartbeats')).body.data.find(
      (x: { display_name: string }) => x.display_name === 'Nightly backup',
    );
    expect(nightly.period_seconds).toBe(86_400);
  });

  it('a bad file changes nothing and names every bad field with its path and line', async () => {
    const w = await h.workspace('cac-bad');
    const before = await counts(w);
    const text = [
      'version: 1', // 1
      'monitors:', // 2
      '  - display_name: Fine', // 3
      '    monitor_type: http', // 4
      '    url: https://example.com/', // 5
      '    http_method: GET', // 6
      '    expected_status_code: 200', // 7
      '  - display_name: Typo', // 8
      '    monitor_type: htp', // 9
      '    url: https://example.com/', // 10
      '    colour: red', // 11
      '  - display_name: Fine', // 12
      '    monitor_type: tcp', // 13
      '    url: db.example.com', // 14
      '    port: 5432', // 15
      '  - display_name: Orphan', // 16
      '    monitor_type: tcp', // 17
      '    url: db.example.com', // 18
      '    port: 5432', // 19
      '    escalation_policy: Nobody', // 20
      'heartbeats:', // 21
      '  - display_name: Job', // 22
      '    period_seconds: 10', // 23
      `    grace_seconds: ${ref('NOT_SET_ANYWHERE')}`, // 24
      '',
    ].join('\n');
    const r = await cli(w, w.adminKey, ['apply', '-f', file('bad.yaml', text)]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    const bad = join(dir, 'bad.yaml');
    expect(lines).toEqual([
      `${bad}:24: heartbeats[0].grace_seconds takes no ${ref('NOT_SET_ANYWHERE')}: only secret fields (passwords, tokens, credential headers) are read from the environment; write $\${ for a literal \${`,
      `${bad}:9: monitors[1].monitor_type must be one of: http, api, dns, tcp, domain, ping, grpc, websocket, smtp, postgres, mysql, redis, multistep, browser`,
      `${bad}:11: monitors[1].colour is not a known field`,
      `${bad}:23: heartbeats[0].period_seconds must be at least 60`,
      `${bad}: 4 problems; nothing was changed`,
    ]);
    // Once the shape is right, names and references are checked, then the API's own rules for every new item.
    const shaped = text
      .replace('monitor_type: htp', 'monitor_type: http')
      .replace('    colour: red\n', '')
      .replace('period_seconds: 10', 'period_seconds: 600')
      .replace(ref('NOT_SET_ANYWHERE'), '60');
    const second = await cli(w, w.adminKey, ['apply', '-f', file('shaped.yaml', shaped)]);
    expect(second.code).toBe(1);
    const shapedPath = join(dir, 'shaped.yaml');
    expect(second.stderr.trim().split('\n')).toEqual([
      `${shapedPath}:11: monitors[2].display_name repeats the name of monitors[0]; names are unique per kind`,
      `${shapedPath}: 1 problem; nothing was changed`,
    ]);
    const third = await cli(w, w.adminKey, [
      'apply',
      '-f',
      file(
        'third.yaml',
        shaped
          .replace(
            '  - display_name: Fine\n    monitor_type: tcp',
            '  - display_name: Store\n    monitor_type: tcp',
          )
          .replace(
            'url: db.example.com\n    port: 5432\n  - display_name: Orphan',
            'url: https://db.example.com/\n    port: 5432\n  - display_name: Orphan',
          ),
      ),
    ]);
    const thirdPath = join(dir, 'third.yaml');
    expect(third.code).toBe(1);
    expect(third.stderr.trim().split('\n')).toEqual([
      `${thirdPath}:19: monitors[3].escalation_policy names no escalation policy "Nobody" in the file or the workspace`,
      `${thirdPath}: 1 problem; nothing was changed`,
    ]);
    const fourth = await cli(w, w.adminKey, [
      'apply',
      '-f',
      file('fourth.yaml', readFileSync(thirdPath, 'utf8').replace('    escalation_policy: Nobody\n', '')),
    ]);
    expect(fourth.code).toBe(1);
    // The API's rules for every new item (POST /monitors/batch/check), each mapped back to the file.
    expect(fourth.stderr.trim().split('\n')).toEqual([
      `${join(dir, 'fourth.yaml')}:8: monitors[1].http_method is required for http monitors`,
      `${join(dir, 'fourth.yaml')}:8: monitors[1].expected_status_code is required for http monitors`,
      `${join(dir, 'fourth.yaml')}:13: monitors[2].url must be a host name for tcp monitors, not a URL`,
      `${join(dir, 'fourth.yaml')}: 3 problems; nothing was changed`,
    ]);
    expect(await counts(w)).toEqual(before);
  });

  it('applies 2,500 monitors on an empty workspace through the batch endpoint', async () => {
    const w = await h.workspace('cac-bulk', 'bulk');
    const monitors = Array.from(
      { length: 2500 },
      (_, i) =>
        `  - display_name: svc ${i}\n    monitor_type: http\n    url: https://svc-${i}.example.com/health\n    http_method: GET\n    expected_status_code: 200\n`,
    ).join('');
    const path = file('bulk.yaml', `version: 1\nmonitors:\n${monitors}`);
    const r = await cli(w, w.adminKey, ['apply', '-f', path]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('+ … and 2450 more monitors (create)');
    expect(r.stdout.match(/^created \d+ monitors .*$/gm)).toEqual([
      'created 1000 monitors (1000 of 2500)',
      'created 1000 monitors (2000 of 2500)',
      'created 500 monitors (2500 of 2500)',
    ]);
    expect(await h.store.countMonitors(w.workspace.id)).toBe(2500);
    expect((await cli(w, w.adminKey, ['plan', '-f', path])).code).toBe(0);
    // The export of all of them reaches its end (more than a pipe holds).
    const exported = await cli(w, w.adminKey, ['export']);
    expect(exported.code).toBe(0);
    expect(exported.stdout.match(/^ {2}- display_name: /gm)?.length).toBe(2500);
  });

  it('the file’s JSON Schema is served beside the API, as published in docs/', async () => {
    const r = await h.request('GET', '/api/v1/lookout-config.schema.json', { host: 'cac-source.localhost' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(
      JSON.parse(
        readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'lookout-config.schema.json'), 'utf8'),
      ),
    );
  });
});
