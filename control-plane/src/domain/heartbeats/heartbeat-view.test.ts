import { describe, expect, it } from 'vitest';
import type { Heartbeat, Ping } from '../types.js';
import { nextExpectedAt, pingsTooOften, runStarts } from './heartbeat-view.js';
import { onCalendar, pingSnippets } from './ping-snippets.js';
import { describeSchedule } from './schedule-text.js';

const T0 = Date.parse('2026-06-01T00:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);

const hb = (over: Partial<Heartbeat> = {}): Heartbeat => ({
  id: 'h',
  workspace_id: 'w',
  display_name: 'backup',
  period_seconds: 86_400,
  schedule: null,
  timezone: 'UTC',
  slug: null,
  grace_seconds: 3600,
  state: 'up',
  last_ping_at: at(0),
  escalation_policy_id: 'p',
  depends_on: [],
  paused: false,
  group_id: null,
  tags: [],
  severity: 'critical',
  created_at: at(0),
  updated_at: at(0),
  version: 1,
  due_at: null,
  started_at: null,
  start_rid: null,
  alert_id: null,
  state_version: 1,
  rearmed_at: null,
  last_duration_ms: null,
  ...over,
});

let n = 0;
const ping = (s: number, kind: Ping['kind'] = 'success', rid: string | null = null): Ping => ({
  id: `p${n++}`,
  heartbeat_id: 'h',
  workspace_id: 'w',
  kind,
  at: at(s),
  received_at: at(s),
  source: null,
  rid,
  exit_status: null,
  body: null,
});

describe('next_expected_at', () => {
  it('after the last ping by period or schedule; before the first, only a schedule expects; none when paused', () => {
    expect(nextExpectedAt(hb(), at(10))).toEqual(at(86_400));
    expect(nextExpectedAt(hb({ schedule: '0 3 * * *' }), at(10))).toEqual(at(3 * 3600));
    expect(nextExpectedAt(hb({ state: 'new', last_ping_at: null }), at(10))).toBeNull();
    expect(nextExpectedAt(hb({ state: 'new', last_ping_at: null, schedule: '@hourly' }), at(10))).toEqual(
      at(3600),
    );
    expect(nextExpectedAt(hb({ paused: true, state: 'paused' }), at(10))).toBeNull();
  });
});

describe('pinging far too often (flagged, not alerted)', () => {
  const newestFirst = (times: number[]) => [...times].sort((a, b) => b - a).map((s) => ping(s));
  it('a daily job pinging every minute is flagged once ten pings show it', () => {
    const everyMinute = Array.from({ length: 10 }, (_, i) => i * 60);
    expect(pingsTooOften(hb(), newestFirst(everyMinute))).toBe(true);
    expect(pingsTooOften(hb(), newestFirst(everyMinute.slice(0, 9)))).toBe(false);
  });
  it('a daily job with a retry or a run by hand now and then is not', () => {
    const days = Array.from({ length: 8 }, (_, i) => i * 86_400);
    expect(pingsTooOften(hb(), newestFirst([...days, 100, 200]))).toBe(false);
  });
  it('a cron schedule counts its own runs: every 5 minutes pinging every 5 minutes is fine', () => {
    const h = hb({ schedule: '*/5 * * * *' });
    expect(pingsTooOften(h, newestFirst(Array.from({ length: 10 }, (_, i) => i * 300 + 20)))).toBe(false);
    expect(pingsTooOften(h, newestFirst(Array.from({ length: 10 }, (_, i) => i * 10 + 20)))).toBe(true);
  });
  it('starts do not count', () => {
    const pings = Array.from({ length: 20 }, (_, i) => ping(i * 30, i % 2 ? 'start' : 'success')).reverse();
    expect(pings.filter((p) => p.kind !== 'start').length).toBe(10);
    expect(pingsTooOften(hb(), pings)).toBe(true);
    expect(
      pingsTooOften(
        hb(),
        pings.filter((p) => p.kind === 'start'),
      ),
    ).toBe(false);
  });
});

describe('run durations in the ping log', () => {
  it('pairs a finish with its run id’s start, or without ids with the start just before it', () => {
    const s1 = ping(0, 'start', 'a');
    const s2 = ping(10, 'start');
    const f2 = ping(25, 'success');
    const f1 = ping(40, 'fail', 'a');
    const lone = ping(50, 'success');
    const pairs = runStarts([lone, f1, f2, s2, s1]);
    expect(pairs.get(f1)).toBe(s1);
    expect(pairs.get(f2)).toBe(s2);
    expect(pairs.has(lone)).toBe(false);
  });
});

describe('schedules in words and ready lines', () => {
  it('describes cron schedules with their zone, and periods', () => {
    expect(describeSchedule({ schedule: '0 3 * * 1-5', timezone: 'Europe/Berlin', period_seconds: 0 })).toBe(
      'At 03:00, Monday through Friday, Europe/Berlin',
    );
    expect(describeSchedule({ schedule: '@daily', timezone: 'UTC', period_seconds: 0 })).toBe(
      'At 00:00, UTC',
    );
    expect(describeSchedule({ schedule: null, timezone: 'UTC', period_seconds: 86_400 })).toBe('Every day');
    expect(describeSchedule({ schedule: null, timezone: 'UTC', period_seconds: 7200 })).toBe('Every 2 hours');
  });
  it('says a cron schedule in systemd’s OnCalendar words when it can', () => {
    expect(onCalendar('0 3 * * 1-5', 'Europe/Berlin')).toBe('Mon..Fri *-*-* 03:00:00 Europe/Berlin');
    expect(onCalendar('*/15 * * * *', 'UTC')).toBe('*-*-* *:0/15:00 UTC');
    expect(onCalendar('30 2 1 * *', 'UTC')).toBe('*-*-01 02:30:00 UTC');
    expect(onCalendar('0 3 * * MON,WED', 'UTC')).toBe('Mon,Wed *-*-* 03:00:00 UTC');
    // Day of month and weekday both set: cron takes either, systemd both; no equivalent.
    expect(onCalendar('0 3 1 * 1', 'UTC')).toBeNull();
    expect(onCalendar('0 3 L * *', 'UTC')).toBeNull();
  });
  it('gives crontab, systemd and Kubernetes lines with the /start and exit-status forms', () => {
    const url = 'https://acme.example.com/hb/ping/k/backup';
    const [crontab, systemd, k8s] = pingSnippets(
      hb({ schedule: '0 3 * * 1-5', timezone: 'Europe/Berlin', slug: 'backup' }),
      url,
    );
    expect(crontab!.text).toBe(
      `CRON_TZ=Europe/Berlin\n0 3 * * 1-5 curl -fsS -m 10 --retry 5 -o /dev/null ${url}/start; /path/to/backup; curl -fsS -m 10 --retry 5 -o /dev/null ${url}/$?`,
    );
    expect(systemd!.text).toContain(
      `ExecStartPre=-/usr/bin/curl -fsS -m 10 --retry 5 -o /dev/null ${url}/start`,
    );
    expect(systemd!.text).toContain(
      `ExecStartPost=-/usr/bin/curl -fsS -m 10 --retry 5 -o /dev/null ${url}/0`,
    );
    expect(systemd!.text).toContain('OnCalendar=Mon..Fri *-*-* 03:00:00 Europe/Berlin');
    expect(k8s!.text).toContain('schedule: "0 3 * * 1-5"\n  timeZone: "Europe/Berlin"');
    expect(k8s!.text).toContain(`${url}/start; /path/to/backup;`);
    // A period heartbeat gets the nearest schedule.
    expect(pingSnippets(hb({ period_seconds: 900 }), url)[0]!.text).toMatch(/^\*\/15 \* \* \* \* curl/);
  });
});
