// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the file format's ${NAME} references are the subject
import { describe, expect, it } from 'vitest';
import { ImportInputError } from '../import-source.js';
import { parseGatus } from './index.js';
import { mapGatus } from './map-gatus.js';

type Rec = Record<string, unknown>;
const one = (endpoint: Rec, rest: Rec = {}) =>
  mapGatus({ endpoints: [{ name: 'ep', ...endpoint }], ...rest });
const monitor = (endpoint: Rec, rest: Rec = {}) => one(endpoint, rest).file.monitors?.[0] as Rec;
const lost = (endpoint: Rec, rest: Rec = {}) =>
  one(endpoint, rest).unmapped.map((u) => `${u.setting} — ${u.reason}`);

describe('Gatus endpoints → monitors', () => {
  it('an https endpoint: status, interval, timeout, redirects, group', () => {
    const o = one({
      url: 'https://a.example.com/x',
      group: 'core',
      interval: '2m',
      client: { timeout: '5s' },
      conditions: ['[STATUS] == 201'],
    });
    expect(o.file.groups).toEqual([{ name: 'core' }]);
    expect(o.file.monitors).toEqual([
      {
        display_name: 'ep',
        url: 'https://a.example.com/x',
        http_method: 'GET',
        follow_redirects: true,
        monitor_type: 'http',
        check_interval_seconds: 120,
        timeout_seconds: 5,
        expected_status_code: 201,
        group: 'core',
      },
    ]);
    expect(o.unmapped).toEqual([]);
  });

  it('a body or graphql makes an api monitor; headers with credentials and URL credentials become ${…}', () => {
    const m = monitor({
      url: 'https://u:pw@a.example.com/graphql?token=abc',
      method: 'POST',
      graphql: true,
      body: '{ me { id } }',
      headers: { Authorization: 'Bearer t', Accept: 'application/json', 'X-Env': '$DEPLOY_ENV' },
      conditions: ['[STATUS] == 200'],
    });
    expect(m.monitor_type).toBe('api');
    expect(m.request_body).toBe('{"query":"{ me { id } }"}');
    expect(m.auth).toEqual({
      type: 'basic',
      username: 'u',
      password: '${LOOKOUT_IMPORT_MONITOR_EP_AUTH_PASSWORD}',
    });
    expect(m.url).toBe('${LOOKOUT_IMPORT_MONITOR_EP_URL}');
    expect(m.request_headers).toEqual({
      Authorization: '${LOOKOUT_IMPORT_MONITOR_EP_REQUEST_HEADERS_AUTHORIZATION}',
      Accept: 'application/json',
      'X-Env': '${DEPLOY_ENV}',
      'Content-Type': 'application/json',
    });
    const o = one({ url: 'https://a.example.com', headers: { 'X-Env': '${DEPLOY_ENV}' } });
    expect(o.secrets).toEqual([{ env: 'DEPLOY_ENV', where: 'monitors "ep" request_headers.X-Env' }]);
  });

  it('each scheme: tcp, icmp, dns, starttls, tls, grpc(s), ws', () => {
    expect(monitor({ url: 'tcp://db:5432' })).toMatchObject({ monitor_type: 'tcp', url: 'db', port: 5432 });
    expect(monitor({ url: 'icmp://10.0.0.1' })).toMatchObject({ monitor_type: 'ping', url: '10.0.0.1' });
    expect(
      monitor({
        url: '9.9.9.9',
        dns: { 'query-name': 'example.com', 'query-type': 'MX' },
        conditions: ['[BODY] == mx.example.com'],
      }),
    ).toMatchObject({
      monitor_type: 'dns',
      url: 'example.com',
      dns_record_type: 'MX',
      dns_resolver: '9.9.9.9',
      dns_expected_values: ['mx.example.com'],
    });
    expect(
      monitor({ url: 'starttls://smtp.example.com:587', conditions: ['[CERTIFICATE_EXPIRATION] > 48h'] }),
    ).toMatchObject({
      monitor_type: 'smtp',
      port: 587,
      smtp_security: 'starttls',
      ssl_cert_monitoring: true,
      ssl_cert_expiry_alert_days: 2,
    });
    expect(monitor({ url: 'tls://ldap.example.com:636' })).toMatchObject({ monitor_type: 'tcp', port: 636 });
    expect(lost({ url: 'tls://ldap.example.com:636' })[0]).toMatch(/^url — tls:\/\/ on port 636/);
    expect(monitor({ url: 'grpcs://g.example.com:443' })).toMatchObject({
      monitor_type: 'grpc',
      url: 'g.example.com:443',
      grpc_tls: true,
    });
    expect(monitor({ url: 'wss://w.example.com/s', body: 'ping' })).toMatchObject({
      monitor_type: 'websocket',
      ws_message: 'ping',
    });
  });

  it('schemes and records Lookout has no check for are left out, with the reason', () => {
    for (const [url, why] of [
      ['udp://h:514', 'Lookout has no UDP check'],
      ['sctp://h:38412', 'Lookout has no SCTP check'],
      ['ssh://h:22', 'Lookout has no SSH check'],
    ]) {
      const o = one({ url });
      expect(o.file.monitors).toBeUndefined();
      expect(o.unmapped).toEqual([
        { source: 'endpoint "ep"', setting: `url: ${url}`, reason: `${why}; not imported` },
      ]);
    }
    expect(
      lost({ url: '8.8.8.8', dns: { 'query-name': 'x.example.com', 'query-type': 'SRV' } })[0],
    ).toContain('not SRV');
  });

  it('client settings, enabled, labels and ui', () => {
    const o = one({
      url: 'https://a.example.com',
      enabled: false,
      interval: '10s',
      client: { insecure: true, 'ignore-redirect': true, timeout: '30s', 'proxy-url': 'http://p:3128' },
      'extra-labels': { env: 'prod', 'Bad Key': 'x' },
      ui: { 'hide-url': true },
    });
    const m = o.file.monitors![0]!;
    expect(m).toMatchObject({
      paused: true,
      follow_redirects: false,
      check_interval_seconds: 10,
      timeout_seconds: 10,
      tags: ['env:prod'],
    });
    const settings = o.unmapped.map((u) => u.setting);
    expect(settings).toEqual(
      expect.arrayContaining([
        'client.timeout',
        'client.insecure',
        'client.proxy-url',
        'extra-labels.Bad Key',
        'ui',
        'conditions',
      ]),
    );
    expect(o.unmapped.every((u) => u.item?.kind === 'monitors' && u.item.index === 0)).toBe(true);
  });

  it('[DOMAIN_EXPIRATION] adds a domain monitor beside the endpoint', () => {
    const o = one({
      url: 'https://www.example.org/',
      conditions: ['[STATUS] == 200', '[DOMAIN_EXPIRATION] > 720h'],
    });
    expect(o.file.monitors![1]).toEqual({
      display_name: 'ep (domain)',
      monitor_type: 'domain',
      url: 'www.example.org',
      domain_expiry_alert_days: 30,
    });
  });

  it('the same name in two groups takes its group', () => {
    const o = mapGatus({
      endpoints: [
        { name: 'web', group: 'prod', url: 'https://a.example.com' },
        { name: 'web', group: 'staging', url: 'https://b.example.com' },
      ],
    });
    expect(o.file.monitors!.map((m) => m.display_name)).toEqual(['web (prod)', 'web (staging)']);
  });
});

describe('Gatus alerting, alerts, external endpoints, maintenance', () => {
  it('providers become channels with secrets as ${…}; alerts become a shared policy and the threshold', () => {
    const o = mapGatus({
      alerting: {
        slack: {
          'webhook-url': 'https://hooks.slack.com/services/T/B/secret',
          title: 'x',
          'default-alert': { 'failure-threshold': 4 },
        },
        telegram: { token: '1:abc', id: '-100' },
        email: { to: 'a@example.com, b@example.com', host: 'smtp', password: 'pw' },
        opsgenie: { 'api-key': '$OG_KEY' },
        custom: {
          url: 'https://h.example.com/x',
          method: 'PUT',
          headers: { 'X-Team': 'sre', Authorization: 'k' },
        },
        discord: {},
        signal: { url: 'x' },
      },
      endpoints: [
        {
          name: 'a',
          url: 'https://a.example.com',
          alerts: [{ type: 'slack' }, { type: 'telegram', 'failure-threshold': 2 }],
        },
        {
          name: 'b',
          url: 'https://b.example.com',
          alerts: [{ type: 'telegram' }, { type: 'slack' }, { type: 'signal' }],
        },
      ],
    });
    expect(o.file.channels).toEqual([
      { name: 'Slack', type: 'slack', config: { url: '${LOOKOUT_IMPORT_CHANNEL_SLACK_CONFIG_URL}' } },
      {
        name: 'Telegram',
        type: 'telegram',
        config: { bot_token: '${LOOKOUT_IMPORT_CHANNEL_TELEGRAM_CONFIG_BOT_TOKEN}', chat_id: '-100' },
      },
      { name: 'Email', type: 'email', config: { addresses: ['a@example.com', 'b@example.com'] } },
      { name: 'Opsgenie', type: 'opsgenie', config: { api_key: '${OG_KEY}' } },
      {
        name: 'Custom webhook',
        type: 'webhook',
        config: {
          url: '${LOOKOUT_IMPORT_CHANNEL_CUSTOM_WEBHOOK_CONFIG_URL}',
          headers: {
            'X-Team': 'sre',
            Authorization: '${LOOKOUT_IMPORT_CHANNEL_CUSTOM_WEBHOOK_CONFIG_HEADERS_AUTHORIZATION}',
          },
        },
      },
    ]);
    expect(JSON.stringify(o.file)).not.toMatch(/secret|1:abc|"pw"|"k"/);
    expect(o.file.escalation_policies).toEqual([
      {
        name: 'Gatus alerts: Slack, Telegram',
        repeat: 0,
        steps: [{ wait_minutes: 0, notify_channels: ['Slack', 'Telegram'] }],
      },
    ]);
    expect(o.file.monitors!.map((m) => [m.escalation_policy, m.failure_threshold])).toEqual([
      ['Gatus alerts: Slack, Telegram', 2],
      ['Gatus alerts: Slack, Telegram', 3],
    ]);
    const why = o.unmapped.map((u) => `${u.source}: ${u.setting}`);
    expect(why).toEqual(
      expect.arrayContaining([
        'alerting.slack: title',
        'alerting.email: host',
        'alerting.email: password',
        'alerting.custom: method',
        'alerting.discord: webhook-url',
        'alerting.signal: ',
        'endpoint "b": alerts[2] (signal)',
        'endpoint "a": alerts[].failure-threshold',
      ]),
    );
  });

  it('external endpoints become heartbeats; maintenance becomes recurring windows', () => {
    const o = mapGatus({
      'external-endpoints': [
        { name: 'backup job', group: 'jobs', token: 't', heartbeat: { interval: '25h' } },
        { name: 'push', token: 't' },
      ],
      endpoints: [
        {
          name: 'e',
          url: 'https://e.example.com',
          'maintenance-windows': [{ start: '07:30', duration: '40m', timezone: 'Europe/Berlin' }],
        },
      ],
      maintenance: {
        start: '23:00',
        duration: '1h',
        timezone: 'Europe/Amsterdam',
        every: ['Monday', 'Thursday'],
      },
      storage: { type: 'sqlite' },
    });
    expect(o.file.heartbeats).toEqual([
      { display_name: 'backup job', period_seconds: 90_000, slug: 'jobs-backup-job', group: 'jobs' },
      { display_name: 'push', period_seconds: 3600, slug: 'push' },
    ]);
    expect(o.file.maintenance_windows).toEqual([
      {
        name: 'Maintenance of e',
        scope_type: 'monitor',
        scope: 'e',
        schedule: '30 7 * * *',
        timezone: 'Europe/Berlin',
        duration_seconds: 2400,
      },
      {
        name: 'Maintenance',
        scope_type: 'workspace',
        schedule: '0 23 * * 1,4',
        timezone: 'Europe/Amsterdam',
        duration_seconds: 3600,
      },
    ]);
    expect(o.unmapped.map((u) => `${u.source}: ${u.setting}`)).toEqual(
      expect.arrayContaining([
        'external endpoint "push": heartbeat.interval',
        'external endpoint "push": token',
        'storage: ',
      ]),
    );
  });

  it('a window Lookout would refuse is left out with its reason', () => {
    const o = mapGatus({
      endpoints: [],
      maintenance: { start: '23:00', duration: '25h', timezone: 'Mars/Olympus' },
    });
    expect(o.file.maintenance_windows).toBeUndefined();
    expect(o.unmapped).toEqual([
      {
        source: 'maintenance',
        setting: '',
        reason: expect.stringContaining('timezone is not a known IANA time zone'),
      },
    ]);
    const long = mapGatus({ endpoints: [], maintenance: { start: '23:00', duration: '25h' } });
    expect(long.unmapped[0]!.reason).toContain('duration_seconds must be at most 86400');
  });

  it('refuses what is not a Gatus configuration', () => {
    expect(() => parseGatus('a: [')).toThrow(ImportInputError);
    expect(() => parseGatus('monitors: []')).toThrow(/no endpoints or external-endpoints/);
  });
});
