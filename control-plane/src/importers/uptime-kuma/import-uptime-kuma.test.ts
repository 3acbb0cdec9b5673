import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { standInSecrets } from '../../../../test/fixtures/import/stand-ins.js';
import { buildKumaDb, KUMA_SECRETS } from '../../../../test/fixtures/import/uptime-kuma/kuma-fixture.js';
import { configFileSchema } from '../../config-as-code/config-file.js';
import { isSecretField } from '../../config-as-code/kinds/index.js';
import { readConfigSource } from '../../config-as-code/yaml-source.js';
import type { ImportOutcome } from '../import-outcome.js';
import { importUptimeKuma, readUptimeKuma } from './import-uptime-kuma.js';
import { fromBackup, type KumaData, type KumaMaintenance, monitorOf, notificationOf } from './kuma-data.js';
import { zonedTime } from './map-maintenance.js';

/** `${NAME}` as the file holds it. */
const ref = (name: string) => `\${${name}}`;
const NOW = new Date('2026-12-08T00:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'kuma-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixtures = join(import.meta.dirname, '../../../../test/fixtures/import/uptime-kuma');

const data = (more: Partial<KumaData>): KumaData => ({
  version: '1.23',
  from: 'database',
  monitors: [],
  notifications: [],
  maintenances: [],
  statusPages: [],
  ...more,
});
/** One Kuma monitor row (snake_case, as in kuma.db) through the importer. */
const one = (row: Record<string, unknown>, notify: number[] = []) =>
  importUptimeKuma(
    data({ monitors: [monitorOf({ id: 1, name: 'M', interval: 60, ...row }, notify, [])] }),
    NOW,
  );
/** The file's lists by kind (its type names only `version`: the kinds come from a table). */
const lists = (o: ImportOutcome) => o.file as Record<string, Record<string, unknown>[] | undefined>;
const reasons = (o: ImportOutcome) => o.unmapped.map((u) => `${u.setting} → ${u.reason}`);
const monitor = (o: ImportOutcome) => (lists(o).monitors as Record<string, unknown>[] | undefined)?.[0];

describe('monitors', () => {
  it('maps an http monitor: method, status, redirects, retries, timeout, certificate', () => {
    const o = one({
      type: 'http',
      url: 'https://a.example/',
      maxretries: 2,
      retry_interval: 20,
      timeout: 30,
      maxredirects: 3,
      accepted_statuscodes_json: '["301"]',
      expiry_notification: 1,
    });
    expect(monitor(o)).toEqual({
      display_name: 'M',
      monitor_type: 'http',
      url: 'https://a.example/',
      http_method: 'GET',
      expected_status_code: 301,
      follow_redirects: true,
      max_redirects: 3,
      ssl_cert_monitoring: true,
      check_interval_seconds: 60,
      failure_threshold: 3,
      timeout_seconds: 30,
      retry_interval_seconds: 20,
    });
    expect(o.unmapped).toEqual([]);
  });

  it('maps a body to an api monitor, headers with credentials and basic auth to variables', () => {
    const o = one({
      type: 'http',
      url: 'https://a.example/',
      method: 'post',
      body: '{}',
      headers: '{"X-Api-Key":"k-secret","Accept":"json"}',
      auth_method: 'basic',
      basic_auth_user: 'u',
      basic_auth_pass: 'p-secret',
    });
    expect(monitor(o)).toMatchObject({
      monitor_type: 'api',
      http_method: 'POST',
      request_body: '{}',
      request_headers: { 'X-Api-Key': ref('LOOKOUT_IMPORT_MONITOR_M_HEADER_X_API_KEY'), Accept: 'json' },
      auth: { type: 'basic', username: 'u', password: ref('LOOKOUT_IMPORT_MONITOR_M_PASSWORD') },
    });
    expect(o.secrets.map((s) => s.env)).toEqual([
      'LOOKOUT_IMPORT_MONITOR_M_PASSWORD',
      'LOOKOUT_IMPORT_MONITOR_M_HEADER_X_API_KEY',
    ]);
    expect(JSON.stringify(o.file)).not.toMatch(/secret/);
  });

  it('maps keywords (inverted: an assertion) and JSON queries with their operator', () => {
    expect(
      monitor(one({ type: 'keyword', url: 'https://a.example/', keyword: 'OK' }))?.required_keyword,
    ).toBe('OK');
    expect(
      monitor(one({ type: 'keyword', url: 'https://a.example/', keyword: 'Error', invert_keyword: 1 }))
        ?.assertions,
    ).toEqual([{ source: 'text_body', comparison: 'not_contains', target: 'Error' }]);
    expect(
      monitor(
        one({ type: 'json-query', url: 'https://a.example/', json_path: 'data.ok', expected_value: 'true' }),
      )?.assertions,
    ).toEqual([{ source: 'json_body', property: '$.data.ok', comparison: 'equals', target: 'true' }]);
    expect(
      monitor(
        one({
          type: 'json-query',
          url: 'https://a.example/',
          json_path: '$.ms',
          json_path_operator: '<',
          expected_value: '9',
        }),
      )?.assertions,
    ).toEqual([{ source: 'json_body', property: '$.ms', comparison: 'less_than', target: '9' }]);
  });

  it('maps port, ping, dns, databases, websocket and smtp monitors', () => {
    expect(monitor(one({ type: 'port', hostname: 'h.example', port: 22 }))).toMatchObject({
      monitor_type: 'tcp',
      url: 'h.example',
      port: 22,
    });
    expect(monitor(one({ type: 'ping', hostname: '192.0.2.1', ping_count: 3 }))).toMatchObject({
      monitor_type: 'ping',
      url: '192.0.2.1',
      packet_count: 3,
    });
    expect(
      monitor(
        one({
          type: 'dns',
          hostname: 'e.example',
          dns_resolve_type: 'MX',
          dns_resolve_server: '9.9.9.9,1.1.1.1',
          port: 53,
        }),
      ),
    ).toMatchObject({
      monitor_type: 'dns',
      dns_record_type: 'MX',
      dns_resolver: '9.9.9.9',
    });
    const db = one({
      type: 'postgres',
      database_connection_string: 'postgres://u:pw-secret@h/db',
      database_query: 'SELECT 2',
    });
    expect(monitor(db)).toMatchObject({
      monitor_type: 'postgres',
      url: ref('LOOKOUT_IMPORT_MONITOR_M_URL'),
      query: 'SELECT 2',
    });
    expect(monitor(one({ type: 'websocket-upgrade', url: 'wss://w.example/s' }))).toMatchObject({
      monitor_type: 'websocket',
    });
    expect(
      monitor(one({ type: 'smtp', hostname: 'mx.example', port: 587, smtp_security: 'starttls' })),
    ).toMatchObject({
      monitor_type: 'smtp',
      port: 587,
      smtp_security: 'starttls',
    });
    expect(
      monitor(one({ type: 'http', url: 'https://a.example/', auth_method: 'bearer', bearer_token: 't' }))
        ?.auth,
    ).toEqual({
      type: 'bearer',
      token: ref('LOOKOUT_IMPORT_MONITOR_M_TOKEN'),
    });
  });

  it('lists every setting it cannot keep, with the reason', () => {
    const o = one({
      type: 'http',
      url: 'https://a.example/',
      ignore_tls: 1,
      upside_down: 1,
      resend_interval: 5,
      proxy_id: 2,
      auth_method: 'ntlm',
      basic_auth_user: 'u',
      accepted_statuscodes_json: '["200-299","404"]',
      maxredirects: 50,
      description: 'd',
      tls_cert: 'PEM',
    });
    expect(reasons(o)).toEqual([
      'upsideDown → Lookout has no upside-down mode (down when the check passes)',
      'resendInterval: 5 → Lookout repeats notifications through its escalation policy',
      'description → Lookout monitors have no description',
      'proxy → Lookout checks from its own locations, through no proxy',
      'accepted_statuscodes: 200-299, 404 → Lookout expects one status code; 200 is expected',
      'authMethod: ntlm → Lookout has no NTLM sign-in',
      'maxredirects: 50 → Lookout follows at most 20 redirects',
      'ignoreTls → Lookout always verifies TLS certificates',
      'tlsCert → Lookout sends no client certificate (mTLS)',
    ]);
    expect(reasons(one({ type: 'http', url: 'https://a.example/', auth_method: 'oauth2-cc' }))).toEqual([
      'authMethod: oauth2-cc → Lookout has no OAuth client-credentials sign-in; set a bearer token by hand',
    ]);
    expect(reasons(one({ type: 'json-query', url: 'https://a.example/', json_path: '$sum(a)' }))[0]).toMatch(
      /not a JSONPath/,
    );
    expect(
      reasons(
        one({ type: 'json-query', url: 'https://a.example/', json_path: '$.a', json_path_operator: '>=' }),
      )[0],
    ).toMatch(/compares with/);
    expect(reasons(one({ type: 'ping', hostname: 'h', packet_size: 100 }))).toEqual([
      'packetSize: 100 → Lookout sends echoes of the default size',
    ]);
    expect(
      reasons(
        one({
          type: 'dns',
          hostname: 'h.example',
          dns_resolve_type: 'A',
          port: 5353,
          conditions: '[{"a":1}]',
        }),
      ),
    ).toEqual([
      'conditions → Lookout has no check conditions of this form; add assertions by hand',
      'port: 5353 → Lookout asks resolvers on port 53',
    ]);
  });

  it('leaves out monitors of types Lookout has no check for, each with its reason', () => {
    for (const type of [
      'docker',
      'steam',
      'gamedig',
      'mqtt',
      'radius',
      'real-browser',
      'grpc-keyword',
      'kafka-producer',
      'sqlserver',
      'mongodb',
      'tailscale-ping',
      'snmp',
      'rabbitmq',
      'manual',
      'something-new',
    ]) {
      const o = one({ type, url: 'https://a.example/' });
      expect(lists(o).monitors).toBeUndefined();
      expect(o.unmapped).toEqual([
        { source: 'monitor "M" (id 1)', setting: `type: ${type}`, reason: expect.stringMatching(/^Lookout/) },
      ]);
    }
    expect(reasons(one({ type: 'dns', hostname: 'h.example', dns_resolve_type: 'SRV' }))).toEqual([
      ' → Lookout checks A, AAAA, CNAME, MX, TXT, NS records, not SRV',
    ]);
    expect(reasons(one({ type: 'http', url: 'ftp://x' }))).toEqual([' → its URL is not an http(s) address']);
  });

  it('maps push monitors to heartbeats, groups to groups, tags and notifications to a policy', () => {
    const o = importUptimeKuma(
      data({
        notifications: [
          notificationOf({
            id: 7,
            name: 'Hook',
            config: '{"type":"discord","discordWebhookUrl":"https://discord.com/api/webhooks/x-secret"}',
          }),
        ],
        monitors: [
          monitorOf({ id: 1, name: 'Jobs', type: 'group' }, [7], [{ name: 'team', value: 'ops' }]),
          monitorOf(
            {
              id: 2,
              name: 'Backup',
              type: 'push',
              interval: 3600,
              retry_interval: 60,
              maxretries: 2,
              parent: 1,
              active: 0,
            },
            [7],
            [
              { name: 'Env', value: 'Prod EU' },
              { name: 'critical', value: '' },
            ],
          ),
        ],
      }),
      NOW,
    );
    expect(lists(o).groups).toEqual([{ name: 'Jobs' }]);
    expect(lists(o).heartbeats).toEqual([
      {
        display_name: 'Backup',
        period_seconds: 3600,
        grace_seconds: 120,
        paused: true,
        tags: ['env:prod-eu', 'critical'],
        group: 'Jobs',
        escalation_policy: 'Uptime Kuma: Hook',
      },
    ]);
    expect(lists(o).escalation_policies).toEqual([
      { name: 'Uptime Kuma: Hook', repeat: 0, steps: [{ wait_minutes: 0, notify_channels: ['Hook'] }] },
    ]);
    expect(lists(o).channels).toEqual([
      {
        name: 'Hook',
        type: 'discord',
        config: { webhook_url: ref('LOOKOUT_IMPORT_CHANNEL_HOOK_WEBHOOK_URL') },
      },
    ]);
    expect(reasons(o)).toEqual([
      'notifications → Lookout groups do not alert on their own: their monitors do',
      'tags → Lookout groups carry no tags: their monitors do',
      'pushToken → the heartbeat gets a new ping URL (apply prints it): point your jobs at it',
    ]);
  });

  it('names monitors of one name apart', () => {
    const o = importUptimeKuma(
      data({
        monitors: [1, 2].map((id) =>
          monitorOf({ id, name: 'API', type: 'port', hostname: 'h.example', port: 1 }, [], []),
        ),
      }),
      NOW,
    );
    expect((lists(o).monitors as { display_name: string }[]).map((m) => m.display_name)).toEqual([
      'API',
      'API (2)',
    ]);
  });
});

describe('notifications', () => {
  it('refuses providers Lookout has no kind for, and values its kind would refuse', () => {
    const o = importUptimeKuma(
      data({
        notifications: [
          notificationOf({ id: 1, name: 'Sig', config: '{"type":"signal"}' }),
          notificationOf({
            id: 2,
            name: 'TG',
            config: '{"type":"telegram","telegramBotToken":"t","telegramChatID":"not a chat"}',
          }),
          notificationOf({
            id: 3,
            name: 'N',
            config:
              '{"type":"ntfy","ntfyserverurl":"https://n.example","ntfytopic":"t","ntfyAuthenticationMethod":"usernamePassword","ntfyusername":"u","ntfypassword":"p"}',
          }),
        ],
      }),
      NOW,
    );
    expect(reasons(o)).toEqual([
      'type: signal → Lookout has no signal channel kind',
      ' → not imported: chat_id must be a numeric chat id or @channelusername',
      'ntfyusername / ntfypassword → Lookout signs in to ntfy with an access token only',
    ]);
    expect(o.secrets).toEqual([]);
    expect(lists(o).channels).toEqual([
      { name: 'N', type: 'ntfy', config: { server_url: 'https://n.example', topic: 't' } },
    ]);
  });
  it('maps every provider Lookout has a kind for, and notes a default or switched-off one', () => {
    const o = importUptimeKuma(
      data({
        notifications: [
          notificationOf({
            id: 1,
            name: 'D',
            is_default: 1,
            active: 0,
            config: '{"type":"smtp","smtpTo":"a@example.com","smtpCC":"b@example.com"}',
          }),
          notificationOf({
            id: 2,
            name: 'O',
            config: '{"type":"Opsgenie","opsgenieApiKey":"k","opsgenieRegion":"eu"}',
          }),
          notificationOf({
            id: 3,
            name: 'T',
            config:
              '{"type":"twilio","twilioAccountSID":"AC1","twilioAuthToken":"t","twilioFromNumber":"+15550001111","twilioToNumber":"+15550002222, +15550003333"}',
          }),
        ],
      }),
      NOW,
    );
    expect(lists(o).channels).toEqual([
      { name: 'D', type: 'email', config: { addresses: ['a@example.com', 'b@example.com'] } },
      {
        name: 'O',
        type: 'opsgenie',
        config: { api_key: ref('LOOKOUT_IMPORT_CHANNEL_O_API_KEY'), api_url: 'https://api.eu.opsgenie.com' },
      },
    ]);
    expect(reasons(o)).toEqual([
      'isDefault: true → Lookout notifies new monitors through the default escalation policy: make it notify this channel there',
      'active: false → Lookout channels have no off switch; imported as an active channel',
      ' → not imported: account_sid must be an account SID (AC…)',
    ]);
    expect(o.unmapped[0]?.item).toEqual({ kind: 'channels', index: 0 });
  });
});

describe('maintenance', () => {
  const w = (more: Partial<KumaMaintenance>): KumaMaintenance => ({
    id: 1,
    title: 'W',
    description: '',
    active: true,
    strategy: 'cron',
    startDate: null,
    endDate: null,
    startTime: null,
    endTime: null,
    weekdays: [],
    daysOfMonth: [],
    intervalDay: null,
    cron: null,
    duration: null,
    timezone: 'UTC',
    monitorIds: [1],
    statusPageIds: [],
    ...more,
  });
  const run = (...windows: KumaMaintenance[]) =>
    importUptimeKuma(
      data({
        monitors: [monitorOf({ id: 1, name: 'M', type: 'port', hostname: 'h.example', port: 1 }, [], [])],
        maintenances: windows,
      }),
      NOW,
    );

  it('reads local times in the window’s zone', () => {
    expect(zonedTime('2099-07-01 02:00:00', 'Europe/Berlin')?.toISOString()).toBe('2099-07-01T00:00:00.000Z');
    expect(zonedTime('2099-01-01 02:00', 'America/New_York')?.toISOString()).toBe('2099-01-01T07:00:00.000Z');
  });

  it('maps single, cron and recurring strategies (from Kuma’s cron, or rebuilt from the days)', () => {
    const o = run(
      w({
        strategy: 'single',
        startDate: '2099-01-01 00:00:00',
        endDate: '2099-01-01 01:00:00',
        timezone: 'Asia/Tokyo',
      }),
      w({ id: 2, title: 'C', cron: '0 3 * * 1', duration: 600, timezone: 'Europe/Paris' }),
      w({
        id: 3,
        title: 'D',
        strategy: 'recurring-day-of-month',
        startTime: '01:30',
        endTime: '02:00',
        daysOfMonth: [1, 15],
      }),
      w({
        id: 4,
        title: 'E',
        strategy: 'recurring-weekday',
        startTime: '23:00',
        endTime: '01:00',
        weekdays: [1, 3],
      }),
    );
    expect(lists(o).maintenance_windows).toEqual([
      {
        name: 'W',
        scope_type: 'monitor',
        scope: 'M',
        starts_at: '2098-12-31T15:00:00.000Z',
        ends_at: '2098-12-31T16:00:00.000Z',
      },
      {
        name: 'C',
        scope_type: 'monitor',
        scope: 'M',
        schedule: '0 3 * * 1',
        timezone: 'Europe/Paris',
        duration_seconds: 600,
      },
      {
        name: 'D',
        scope_type: 'monitor',
        scope: 'M',
        schedule: '30 1 1,15 * *',
        timezone: 'UTC',
        duration_seconds: 1800,
      },
      {
        name: 'E',
        scope_type: 'monitor',
        scope: 'M',
        schedule: '0 23 * * 1,3',
        timezone: 'UTC',
        duration_seconds: 7200,
      },
    ]);
  });

  it('lists manual, ended, paused, too long and overlapping windows with the reason', () => {
    const o = run(
      w({ strategy: 'manual' }),
      w({ id: 2, strategy: 'single', startDate: '2020-01-01 00:00', endDate: '2020-01-02 00:00' }),
      w({ id: 3, active: false }),
      w({ id: 4, strategy: 'single', startDate: '2099-01-01 00:00', endDate: '2099-03-01 00:00' }),
      w({ id: 5, cron: '0 * * * *', duration: 7200 }),
      w({ id: 6, cron: '0 1 * * *', duration: 60, monitorIds: [99] }),
      w({ id: 7, cron: '0 1 * * *', duration: 60, timezone: 'SAME_AS_SERVER' }),
    );
    expect(reasons(o)).toEqual([
      'strategy: manual → Lookout has no maintenance switched on and off by hand: windows have times (add one when you need it)',
      'strategy: single → it has ended: past maintenance is history, not configuration',
      'active: false → it is paused in Kuma; Lookout windows cannot be paused (add it when you need it)',
      'strategy: single → Lookout one-off windows last at most 31 days',
      'strategy: cron → each occurrence (7200 s) lasts past the next one; Lookout windows do not overlap themselves',
      ' → it covers no monitor that was imported',
      'timezone: SAME_AS_SERVER → read as UTC: the Kuma server’s own zone is not in its data',
    ]);
    expect(lists(o).maintenance_windows).toHaveLength(1);
  });
});

describe('the three inputs', () => {
  const inputs = {
    'backup 1.x': () => readUptimeKuma(join(fixtures, 'backup-1.x.json')),
    'kuma.db 1.23': () => {
      buildKumaDb(join(dir, 'kuma-1.23.db'), '1.23');
      return readUptimeKuma(join(dir, 'kuma-1.23.db'));
    },
    'kuma.db 2.x': () => {
      buildKumaDb(join(dir, 'kuma-2.0.db'), '2.0');
      return readUptimeKuma(join(dir, 'kuma-2.0.db'));
    },
  };
  for (const [name, read] of Object.entries(inputs))
    it(`${name}: 50+ objects become a valid file with no secret in it`, async () => {
      const kuma = await read();
      const o = importUptimeKuma(kuma, NOW);
      const objects =
        kuma.monitors.length +
        kuma.notifications.length +
        kuma.maintenances.length +
        kuma.statusPages.length +
        new Set(kuma.monitors.flatMap((m) => m.tags.map((t) => t.name))).size;
      expect(objects).toBeGreaterThanOrEqual(50);
      // As plan reads it: `${ENV}` only in secret fields, each set, and every value as the API takes it.
      const source = readConfigSource('kuma.yaml', stringify(o.file), standInSecrets(o.file), isSecretField);
      expect(source.problems).toEqual([]);
      expect(source.unsetSecrets).toEqual([]);
      expect(configFileSchema.safeParse(source.data).error).toBeUndefined();
      const text = JSON.stringify(o.file);
      for (const secret of KUMA_SECRETS) expect(text).not.toContain(secret);
      expect(lists(o).monitors?.length).toBeGreaterThanOrEqual(25);
      expect(lists(o).channels).toHaveLength(15);
      if (name !== 'backup 1.x') {
        expect(lists(o).maintenance_windows?.length).toBeGreaterThanOrEqual(6);
        expect(lists(o).status_pages).toHaveLength(3);
      }
    });

  it('tells 2.x from 1.23 and reads the 2.x types', async () => {
    buildKumaDb(join(dir, 'v2.db'), '2.0');
    const kuma = await readUptimeKuma(join(dir, 'v2.db'));
    expect(kuma.version).toBe('2.x');
    const types = lists(importUptimeKuma(kuma, NOW)).monitors?.map(
      (m) => (m as { monitor_type: string }).monitor_type,
    );
    expect(types).toContain('smtp');
    expect(types).toContain('websocket');
    // Its SAME_AS_SERVER window is read in the server's zone setting.
    const daily = lists(importUptimeKuma(kuma, NOW)).maintenance_windows?.find(
      (w) => w.name === 'Daily restart',
    );
    expect(daily).toMatchObject({
      schedule: '0 4 */1 * *',
      timezone: 'Europe/Amsterdam',
      duration_seconds: 900,
    });
  });

  it('refuses a file that is neither', async () => {
    expect(() => fromBackup({ foo: 1 })).toThrow(/not an Uptime Kuma backup/);
    const bad = join(dir, 'bad.json');
    await import('node:fs/promises').then((fs) => fs.writeFile(bad, 'nope'));
    await expect(readUptimeKuma(bad)).rejects.toThrow(/neither a kuma.db SQLite database nor a JSON backup/);
    expect(readFileSync(join(fixtures, 'backup-1.x.json'), 'utf8')).toContain('"monitorList"');
  });
});
