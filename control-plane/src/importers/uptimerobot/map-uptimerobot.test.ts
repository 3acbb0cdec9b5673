import { describe, expect, it } from 'vitest';
import { isSecretField } from '../../config-as-code/kinds/index.js';
import { readConfigSource } from '../../config-as-code/yaml-source.js';
import { envRef } from '../import-source.js';
import { renderImport } from '../render-import.js';
import { mapUptimeRobot } from './map-uptimerobot.js';
import { parseCsv, readMonitorsCsv } from './monitors-csv.js';
import type { UrContact, UrMonitor, UrMWindow } from './uptimerobot-shapes.js';

const NOW = new Date('2026-12-08T00:00:00Z');
let nextId = 1;
const mon = (over: Partial<UrMonitor> = {}): UrMonitor => ({
  id: nextId++,
  friendly_name: 'Shop',
  url: 'https://shop.example.com/',
  type: 1,
  interval: 300,
  timeout: 30,
  status: 2,
  http_method: 2,
  ...over,
});
const map = (monitors: UrMonitor[], contacts: UrContact[] | null = [], mwindows: UrMWindow[] | null = []) =>
  mapUptimeRobot({ monitors, contacts, mwindows, from: 'api' }, NOW);
const monitors = (o: ReturnType<typeof map>) => o.file.monitors ?? [];
const why = (o: ReturnType<typeof map>, setting: string) =>
  o.unmapped.find((u) => u.setting.startsWith(setting))?.reason;

describe('UptimeRobot monitors', () => {
  it('HTTP(s): interval, timeout, method, paused; basic auth and credential headers as $NAME', () => {
    const o = map([
      mon({
        status: 0,
        http_method: 1,
        http_username: 'bot',
        http_password: 'hunter2-SECRET',
        custom_http_headers: { Authorization: 'Bearer tok-SECRET', 'X-Env': 'prod', 'bad header': 'x' },
      }),
    ]);
    expect(monitors(o)).toEqual([
      {
        display_name: 'Shop',
        monitor_type: 'http',
        url: 'https://shop.example.com/',
        check_interval_seconds: 300,
        timeout_seconds: 30,
        http_method: 'HEAD',
        expected_status_code: 200,
        auth: {
          type: 'basic',
          username: 'bot',
          password: envRef('LOOKOUT_IMPORT_MONITOR_SHOP_AUTH_PASSWORD'),
        },
        request_headers: {
          Authorization: envRef('LOOKOUT_IMPORT_MONITOR_SHOP_REQUEST_HEADERS_AUTHORIZATION'),
          'X-Env': 'prod',
        },
        paused: true,
      },
    ]);
    expect(JSON.stringify(o)).not.toContain('SECRET');
    expect(why(o, 'custom_http_headers: bad header')).toBe('not a valid header name');
  });

  it('keyword: down when present → not_contains assertion; down when absent → required_keyword', () => {
    const o = map([
      mon({ type: 2, keyword_type: 1, keyword_value: 'Error', keyword_case_type: 1 }),
      mon({ type: 2, keyword_type: 2, keyword_value: 'OK' }),
    ]);
    expect(monitors(o)[0]?.assertions).toEqual([
      { source: 'text_body', comparison: 'not_contains', target: 'Error' },
    ]);
    expect(monitors(o)[1]?.required_keyword).toBe('OK');
    expect(why(o, 'keyword_case_type')).toBe('Lookout compares the keyword case-sensitively');
  });

  it('POST with a body is an api monitor; one up status is the expected code; the rest is listed', () => {
    const o = map([
      mon({ http_method: 3, post_type: 1, post_value: { a: 1 }, custom_http_statuses: '404:1_500:0' }),
      mon({ custom_http_statuses: '401:1' }),
      mon({ http_username: 'u', http_password: 'p', http_auth_type: 2, ignore_ssl_errors: 1 }),
    ]);
    expect(monitors(o)[0]).toMatchObject({
      monitor_type: 'api',
      http_method: 'POST',
      request_body: '{"a":1}',
      expected_status_code: 404,
    });
    expect(monitors(o)[1]?.expected_status_code).toBe(401);
    expect(monitors(o)[2]).not.toHaveProperty('auth');
    expect(why(o, 'post_type')).toBe('Lookout sends the body as written (raw)');
    expect(why(o, 'custom_http_statuses')).toMatch(/one status code/);
    expect(why(o, 'http_auth_type')).toMatch(/basic auth or a bearer token only/);
    expect(why(o, 'ignore_ssl_errors')).toMatch(/always verifies/);
  });

  it('ping, port (sub-types and custom), heartbeat; a target Lookout refuses is not imported', () => {
    const o = map([
      mon({ type: 3, url: 'https://db.example.com/', friendly_name: 'DB' }),
      mon({ type: 4, sub_type: 4, url: 'mail.example.com', friendly_name: 'SMTP' }),
      mon({ type: 4, sub_type: 99, port: '5432', url: 'pg.example.com', friendly_name: 'PG' }),
      mon({ type: 5, interval: 30, friendly_name: 'Cron', url: 'https://heartbeat.uptimerobot.com/x' }),
      mon({ type: 1, url: 'not a url', friendly_name: 'Bad' }),
      mon({ type: 7, friendly_name: 'Odd' }),
    ]);
    expect(monitors(o).map((m) => [m.monitor_type, m.url, m.port ?? null])).toEqual([
      ['ping', 'db.example.com', null],
      ['tcp', 'mail.example.com', 25],
      ['tcp', 'pg.example.com', 5432],
    ]);
    expect(o.file.heartbeats).toEqual([{ display_name: 'Cron', period_seconds: 60 }]);
    expect(why(o, 'interval: 30')).toMatch(/at least 60 s/);
    expect(why(o, 'url: not a url')).toMatch(/^not imported: /);
    expect(why(o, 'type: 7')).toBe('not imported: a monitor type Lookout does not know');
  });
});

describe('UptimeRobot alert contacts', () => {
  const contacts: UrContact[] = [
    { id: '1', friendly_name: 'ops@example.com', type: 2, value: 'ops@example.com' },
    { id: '2', friendly_name: 'Slack', type: 11, value: 'https://hooks.slack.com/services/SECRET' },
    { id: '3', friendly_name: 'SMS', type: 1, value: '+15555550100' },
    { id: '4', friendly_name: 'Discord', type: 23, value: 'https://discord.com/api/webhooks/1/SECRET' },
    { id: '5', friendly_name: 'Mystery', type: 99, value: 'someone' },
    { id: '6', friendly_name: 'Push', type: 9, value: 'uSECRET' },
  ];

  it('e-mail keeps its address; hook URLs and keys become $NAME; the rest is listed with the reason', () => {
    const o = map([mon({ alert_contacts: [{ id: '1' }, { id: '2' }, { id: '3', threshold: 5 }] })], contacts);
    expect(o.file.channels?.map((c) => [c.name, c.type])).toEqual([
      ['ops@example.com', 'email'],
      ['Slack', 'slack'],
      ['Discord', 'discord'],
      ['Push', 'pushover'],
    ]);
    expect(o.file.channels?.[0]?.config).toEqual({ addresses: ['ops@example.com'] });
    expect(JSON.stringify(o.file)).not.toContain('SECRET');
    expect(why(o, 'type: 1')).toMatch(/twilio_sms/);
    expect(why(o, 'type: 99')).toMatch(/cannot tell/);
    expect(why(o, 'app_token')).toMatch(/Pushover application/);
    expect(monitors(o)[0]?.escalation_policy).toBe('UptimeRobot: Slack, ops@example.com');
    expect(why(o, 'alert_contacts threshold')).toMatch(/policy’s steps/);
  });
});

describe('UptimeRobot maintenance windows', () => {
  const w = (over: Partial<UrMWindow>): UrMWindow => ({
    id: 1,
    friendly_name: 'Window',
    type: 2,
    start_time: '02:00',
    duration: 60,
    value: '',
    status: 1,
    ...over,
  });
  const covered = (ids: number[]) => ids.map((id) => ({ id }));

  it('once, daily, weekly, monthly; one monitor → its scope, several → a tag given to each', () => {
    const o = map(
      [
        mon({ friendly_name: 'A', mwindows: covered([1, 2, 3, 4]) }),
        mon({ friendly_name: 'B', mwindows: covered([2, 3]) }),
      ],
      [],
      [
        w({ id: 1, friendly_name: 'Upgrade', type: 1, start_time: 1811894400, duration: 90 }),
        w({ id: 2, friendly_name: 'Nightly', type: 2 }),
        w({ id: 3, friendly_name: 'Patch', type: 3, start_time: '03:30', value: '1-7' }),
        w({ id: 4, friendly_name: 'Monthly', type: 4, value: '1-15', duration: 240 }),
      ],
    );
    expect(o.file.maintenance_windows).toEqual([
      {
        name: 'Upgrade',
        scope_type: 'monitor',
        scope: 'A',
        starts_at: '2027-06-02T00:00:00.000Z',
        ends_at: '2027-06-02T01:30:00.000Z',
      },
      {
        name: 'Nightly',
        scope_type: 'tag',
        scope: 'maintenance:nightly',
        schedule: '0 2 * * *',
        timezone: 'UTC',
        duration_seconds: 3600,
      },
      {
        name: 'Patch',
        scope_type: 'tag',
        scope: 'maintenance:patch',
        schedule: '30 3 * * 0,1',
        timezone: 'UTC',
        duration_seconds: 3600,
      },
      {
        name: 'Monthly',
        scope_type: 'monitor',
        scope: 'A',
        schedule: '0 2 1,15 * *',
        timezone: 'UTC',
        duration_seconds: 14400,
      },
    ]);
    expect(monitors(o).map((m) => m.tags)).toEqual([
      ['maintenance:nightly', 'maintenance:patch'],
      ['maintenance:nightly', 'maintenance:patch'],
    ]);
    expect(why(o, 'time zone')).toMatch(/read in UTC/);
  });

  it('ended, paused, last-day, too long and unused windows are listed, not imported', () => {
    const o = map(
      [mon({ mwindows: covered([1, 2, 3, 4]) })],
      [],
      [
        w({ id: 1, friendly_name: 'Past', type: 1, start_time: 1600000000 }),
        w({ id: 2, friendly_name: 'Paused', status: 0 }),
        w({ id: 3, friendly_name: 'Month end', type: 4, value: '-1' }),
        w({ id: 4, friendly_name: 'Long', type: 2, duration: 1500 }),
        w({ id: 5, friendly_name: 'Unused' }),
      ],
    );
    expect(o.file.maintenance_windows).toBeUndefined();
    const said = (name: string) => o.unmapped.find((u) => u.source.includes(`"${name}"`))?.reason;
    expect(said('Past')).toBe('not imported: it has ended');
    expect(said('Paused')).toBe('not imported: the window is paused');
    expect(said('Month end')).toMatch(/no "last day"/);
    expect(said('Long')).toMatch(/longer than the time between/);
    expect(said('Unused')).toBe('not imported: no imported monitor is in it');
  });
});

describe('the CSV export', () => {
  it('parses quoted fields, finds columns by name and maps the types', () => {
    expect(parseCsv('a,"b,c","d ""e"""\r\n\r\n1,2,3\n')).toEqual([
      ['a', 'b,c', 'd "e"'],
      ['1', '2', '3'],
    ]);
    const rows = readMonitorsCsv(
      'Status,Type,URL,Friendly Name,Port,Keyword Type,Keyword Value,Interval\n' +
        'Paused,Keyword,https://a.example.com,"A, the site",,exists,Error,5 min\n' +
        'Up,Port,db.example.com,DB,5432,,,60\n',
      'm.csv',
    );
    expect(
      rows.map((r) => [r.friendly_name, r.type, r.status, r.interval, r.keyword_type, r.port ?? null]),
    ).toEqual([
      ['A, the site', 2, 0, 300, 1, null],
      ['DB', 4, 1, 60, 2, '5432'],
    ]);
    expect(() => readMonitorsCsv('name,address\nx,y\n', 'm.csv')).toThrow(/Friendly Name, URL and Type/);
  });
});

const KEY_REF = envRef('LOOKOUT_API_KEY');
describe('hostile values', () => {
  it('a $NAME reference in a name, URL or header of the source stays text: plan never fills it from the environment', () => {
    const o = map([
      mon({
        friendly_name: `Shop ${KEY_REF}`,
        url: `https://shop.example.com/?k=${KEY_REF}`,
        custom_http_headers: { 'X-Trace': KEY_REF },
      }),
    ]);
    const rendered = renderImport(o, { source: 'UptimeRobot', now: NOW });
    expect(rendered.problems).toEqual([]);
    const read = readConfigSource(
      'f.yaml',
      rendered.text,
      { LOOKOUT_API_KEY: 'the-real-key' },
      isSecretField,
    );
    expect(read.problems).toEqual([]);
    expect(JSON.stringify(read.data)).not.toContain('the-real-key');
    const [m] = (read.data as { monitors: Record<string, unknown>[] }).monitors;
    expect(m?.url).toBe(`https://shop.example.com/?k=${KEY_REF}`);
    expect(m?.request_headers).toEqual({ 'X-Trace': KEY_REF });
  });
});

describe('values Lookout refuses', () => {
  it('an optional field it refuses is left out and listed; a refused address leaves the channel out', () => {
    const o = map(
      [
        mon({
          custom_http_headers: { 'X-Big': 'x'.repeat(5000) },
          url: `https://shop.example.com/${'p'.repeat(2100)}`,
        }),
        mon({ friendly_name: 'Ok', custom_http_headers: { 'X-Big': 'x'.repeat(5000) } }),
      ],
      [{ id: '1', friendly_name: 'Odd mail', type: 2, value: 'a@b' }],
    );
    expect(monitors(o).map((m) => m.display_name)).toEqual(['Ok']);
    expect(monitors(o)[0]).not.toHaveProperty('request_headers');
    expect(why(o, 'request_headers')).toMatch(/^left out: Lookout refuses it/);
    expect(why(o, 'url')).toMatch(/^not imported: /);
    expect(o.file.channels).toBeUndefined();
    expect(why(o, 'config')).toMatch(/^not imported: /);
  });
});
