import { describe, expect, it } from 'vitest';
import type { Unmapped } from '../import-outcome.js';
import { envRef } from '../import-source.js';
import type { HcChannel } from './map-channels.js';
import { type HcCheck, mapHealthchecks } from './map-healthchecks.js';
import { parseHealthchecks } from './read-healthchecks.js';

const check = (over: Partial<HcCheck> = {}): HcCheck => ({
  name: 'Backup',
  slug: 'backup',
  tags: '',
  desc: '',
  grace: 600,
  status: 'up',
  manual_resume: false,
  methods: '',
  timeout: 3600,
  channels: '',
  uuid: '31365bce-8da9-4729-8ff3-aaa71d56b712',
  ...over,
});
const map = (checks: HcCheck[], channels: HcChannel[] | null = []) => mapHealthchecks({ checks, channels });
const heartbeats = (o: ReturnType<typeof map>) => o.file.heartbeats ?? [];
const reasons = (o: ReturnType<typeof map>, source?: string) =>
  o.unmapped
    .filter((u) => !source || u.source.includes(source))
    .map((u: Unmapped) => `${u.setting}: ${u.reason}`);

describe('Healthchecks checks → heartbeats', () => {
  it('a simple check keeps its period, grace, slug, tags and pause', () => {
    const o = map([check({ tags: 'prod team:ops', status: 'paused' })]);
    expect(heartbeats(o)).toEqual([
      {
        display_name: 'Backup',
        period_seconds: 3600,
        grace_seconds: 600,
        slug: 'backup',
        tags: ['prod', 'team:ops'],
        paused: true,
      },
    ]);
  });

  it('a cron check keeps its schedule and time zone; an OnCalendar one is not imported, with the reason', () => {
    const o = map([
      check({ timeout: undefined, schedule: '15 5 * * *', tz: 'Europe/Berlin' }),
      check({ name: 'Calendar', slug: 'cal', timeout: undefined, schedule: 'Mon..Fri 09:00', tz: 'UTC' }),
      check({ name: 'Zone', slug: 'zone', timeout: undefined, schedule: '0 3 * * *', tz: 'Mars/Olympus' }),
    ]);
    expect(heartbeats(o)).toHaveLength(1);
    expect(heartbeats(o)[0]).toMatchObject({ schedule: '15 5 * * *', timezone: 'Europe/Berlin' });
    expect(heartbeats(o)[0]).not.toHaveProperty('period_seconds');
    expect(reasons(o, 'Calendar')[0]).toMatch(
      /^schedule: Mon\.\.Fri 09:00: not imported: Lookout reads five-field cron/,
    );
    expect(reasons(o, 'Zone')).toEqual(['tz: Mars/Olympus: not imported: not a known IANA time zone']);
  });

  it('settings Lookout lacks are listed against the heartbeat they came from', () => {
    const o = map([
      check({
        desc: 'Runs nightly',
        manual_resume: true,
        methods: 'POST',
        success_kw: 'OK',
        filter_body: true,
      }),
    ]);
    const mine = o.unmapped.filter((u) => u.item);
    expect(mine.map((u) => u.setting)).toEqual([
      'desc',
      'manual_resume',
      'methods',
      'start_kw, success_kw, failure_kw, filter_*',
    ]);
    expect(mine.every((u) => u.item?.kind === 'heartbeats' && u.item.index === 0)).toBe(true);
    expect(reasons(o)).toContain(
      'pings, flips, badges: history and badges are not configuration: Lookout starts them afresh',
    );
  });

  it('slugs: _ becomes -, a repeated slug is dropped; names are made unique; tags are made Lookout tags', () => {
    const o = map([
      check({ slug: 'cert_renewal', tags: 'Billing prod' }),
      check({ slug: 'cert-renewal' }),
      check({ name: '', slug: '' }),
    ]);
    expect(heartbeats(o).map((h) => [h.display_name, h.slug ?? null, h.tags ?? null])).toEqual([
      ['Backup', 'cert-renewal', ['billing', 'prod']],
      ['Backup (2)', null, null],
      ['Unnamed check', null, null],
    ]);
    expect(reasons(o)).toEqual(
      expect.arrayContaining([
        'slug: cert_renewal: Lookout slugs have no _: cert-renewal',
        'slug: cert-renewal: another check has this slug; slugs are unique in a Lookout workspace',
        'tags: Billing → billing: Lookout tags are lower-case a-z, 0-9, - and _',
      ]),
    );
  });

  it('a period outside Lookout’s range is brought into it, and said', () => {
    const o = map([check({ timeout: 40_000_000 })]);
    expect(heartbeats(o)[0]?.period_seconds).toBe(31_536_000);
    expect(reasons(o)[0]).toMatch(/^timeout: 40000000: Lookout periods are 60 s to one year/);
  });
});

describe('Healthchecks integrations → channels and policies', () => {
  const channels: HcChannel[] = [
    { id: 'c1', name: 'Ops Slack', kind: 'slack' },
    { id: 'c2', name: '', kind: 'pd' },
    { id: 'c3', name: 'Alice', kind: 'email' },
    { id: 'c4', name: 'Board', kind: 'trello' },
    { id: 'c5', name: 'Hook', kind: 'webhook' },
  ];

  it('kinds whose settings are all secrets become channels with $NAME references, listed to set', () => {
    const o = map([], channels);
    expect(o.file.channels).toEqual([
      {
        name: 'Ops Slack',
        type: 'slack',
        config: { url: envRef('LOOKOUT_IMPORT_CHANNEL_OPS_SLACK_CONFIG_URL') },
      },
      {
        name: 'PagerDuty c2',
        type: 'pagerduty',
        config: { routing_key: envRef('LOOKOUT_IMPORT_CHANNEL_PAGERDUTY_C2_CONFIG_ROUTING_KEY') },
      },
      { name: 'Hook', type: 'webhook', config: { url: envRef('LOOKOUT_IMPORT_CHANNEL_HOOK_CONFIG_URL') } },
    ]);
    expect(o.secrets.map((s) => s.env)).toEqual([
      'LOOKOUT_IMPORT_CHANNEL_OPS_SLACK_CONFIG_URL',
      'LOOKOUT_IMPORT_CHANNEL_PAGERDUTY_C2_CONFIG_ROUTING_KEY',
      'LOOKOUT_IMPORT_CHANNEL_HOOK_CONFIG_URL',
    ]);
    expect(reasons(o, 'Alice')).toEqual([
      'kind: email: not imported: the API does not show the address it mails; add an email channel with it',
    ]);
    expect(reasons(o, 'Board')).toEqual(['kind: trello: not imported: Lookout has no trello channel']);
    expect(o.unmapped.find((u) => u.source.includes('Hook'))?.item).toEqual({ kind: 'channels', index: 2 });
  });

  it('a check names one policy per distinct set of its channels; unmapped channels are left out of it', () => {
    const o = map(
      [
        check({ channels: 'c1,c2' }),
        check({ name: 'B', slug: 'b', channels: 'c2,c1,c3' }),
        check({ name: 'C', slug: 'c', channels: 'c3' }),
      ],
      channels,
    );
    expect(o.file.escalation_policies).toEqual([
      {
        name: 'Healthchecks: Ops Slack, PagerDuty c2',
        steps: [{ wait_minutes: 0, notify_channels: ['Ops Slack', 'PagerDuty c2'] }],
      },
    ]);
    expect(heartbeats(o).map((h) => h.escalation_policy ?? null)).toEqual([
      'Healthchecks: Ops Slack, PagerDuty c2',
      'Healthchecks: Ops Slack, PagerDuty c2',
      null,
    ]);
  });

  it('read with a read-only key (no channels field, unique_key instead of uuid) the loss is listed once', () => {
    const { channels: _c, uuid: _u, ...ro } = check();
    const o = map([{ ...ro, unique_key: 'a6c7b0a8a66bed0df66abfdab3c77736861703ee' }], null);
    expect(heartbeats(o)).toHaveLength(1);
    expect(reasons(o, 'every check')[0]).toMatch(/^channels: read with a read-only API key/);
  });
});

describe('parseHealthchecks', () => {
  it('refuses what is not the API’s list', () => {
    expect(() => parseHealthchecks({ monitors: [] })).toThrow(/expected \{"checks": \[\.\.\.\]\}/);
    expect(() => parseHealthchecks({ checks: [{ name: 'x' }] })).toThrow(/lack a name or a grace/);
  });
});
