import { ManualClock } from '@lookout/shared';
import { describe, expect, it } from 'vitest';
import type { Heartbeat } from '../types.js';
import { evaluateHeartbeat, touchPing } from './heartbeat-rules.js';
import { nextExpectedAfter, nextRunAfter, scheduleProblem } from './schedule.js';

const MINUTE = 60_000;

/** The wall-clock date and time of an instant in a zone: `2026-03-29 03:00`. */
const local = (d: Date, timeZone: string) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(d);

const cronHeartbeat = (schedule: string, timezone: string, created: Date): Heartbeat => ({
  id: 'h',
  workspace_id: 'w',
  display_name: 'nightly',
  period_seconds: 86_400,
  schedule,
  timezone,
  slug: null,
  grace_seconds: 30 * 60,
  state: 'new',
  last_ping_at: null,
  escalation_policy_id: 'p',
  depends_on: [],
  paused: false,
  group_id: null,
  tags: [],
  severity: 'critical',
  created_at: created,
  updated_at: created,
  version: 1,
  due_at: null,
  started_at: null,
  start_rid: null,
  alert_id: null,
  state_version: 0,
  rearmed_at: null,
  last_duration_ms: null,
});

/**
 * A job run by cron (croner's calendar, which follows Vixie cron) for `days` days from `from`, pinging
 * a minute after each run, while the clock steps by 5 minutes and the deadline rule is evaluated at
 * every step. Returns the local times of the runs and every state the rule saw.
 */
const simulate = (schedule: string, timezone: string, from: string, days: number) => {
  const clock = new ManualClock(from);
  let h = cronHeartbeat(schedule, timezone, clock.now());
  const runs: string[] = [];
  const states = new Set<string>();
  let nextRun = nextRunAfter(schedule, timezone, clock.now())!;
  const end = clock.now().getTime() + days * 86_400_000;
  while (clock.now().getTime() < end) {
    clock.advance(5 * MINUTE);
    const now = clock.now();
    if (now.getTime() >= nextRun.getTime() + MINUTE) {
      runs.push(local(nextRun, timezone));
      const at = nextRun.getTime() + MINUTE;
      h = touchPing(h, { id: h.id, at, received: at, kind: 'success', rid: null }) ?? h;
      nextRun = nextRunAfter(schedule, timezone, new Date(at))!;
    }
    if (h.state !== 'new') {
      const v = evaluateHeartbeat(h, now);
      states.add(v.state);
      h = { ...h, state: v.state, due_at: v.due_at };
    }
  }
  return { runs, states, h };
};

describe('cron schedules across DST changes (a 02:30 job: neither missed nor doubled)', () => {
  it('Europe/Berlin, spring forward (29 March 2026: 02:00 → 03:00): the run is at 03:00 that night', () => {
    const { runs, states } = simulate('30 2 * * *', 'Europe/Berlin', '2026-03-27T12:00:00Z', 4);
    expect(runs).toEqual(['2026-03-28 02:30', '2026-03-29 03:00', '2026-03-30 02:30', '2026-03-31 02:30']);
    // Up, late between a run's time and its ping a minute later; never down.
    expect([...states].sort()).toEqual(['late', 'up']);
  });

  it('Europe/Berlin, fall back (25 October 2026: 03:00 → 02:00): one run at the first 02:30, no late second one', () => {
    const { runs, states } = simulate('30 2 * * *', 'Europe/Berlin', '2026-10-23T12:00:00Z', 4);
    expect(runs).toEqual(['2026-10-24 02:30', '2026-10-25 02:30', '2026-10-26 02:30', '2026-10-27 02:30']);
    expect(states.has('down')).toBe(false);
    // After the first 02:30 (00:30 UTC) the next run expected is the next night's, not the repeat an hour later.
    expect(nextRunAfter('30 2 * * *', 'Europe/Berlin', new Date('2026-10-25T00:31:00Z'))!.toISOString()).toBe(
      '2026-10-26T01:30:00.000Z',
    );
  });

  it('America/New_York, both changes (8 March and 1 November 2026)', () => {
    const spring = simulate('30 2 * * *', 'America/New_York', '2026-03-06T17:00:00Z', 3);
    expect(spring.runs).toEqual(['2026-03-07 02:30', '2026-03-08 03:00', '2026-03-09 02:30']);
    expect(spring.states.has('down')).toBe(false);
    const fall = simulate('30 2 * * *', 'America/New_York', '2026-10-30T17:00:00Z', 3);
    expect(fall.runs).toEqual(['2026-10-31 02:30', '2026-11-01 02:30', '2026-11-02 02:30']);
    expect(fall.states.has('down')).toBe(false);
  });

  it('Asia/Kolkata (UTC+05:30, no DST): the same local time every night, at :00 UTC', () => {
    const { runs, states } = simulate('30 2 * * *', 'Asia/Kolkata', '2026-03-27T00:00:00Z', 3);
    expect(runs).toEqual(['2026-03-28 02:30', '2026-03-29 02:30', '2026-03-30 02:30']);
    expect(states.has('down')).toBe(false);
    expect(nextRunAfter('30 2 * * *', 'Asia/Kolkata', new Date('2026-03-28T00:00:00Z'))!.toISOString()).toBe(
      '2026-03-28T21:00:00.000Z',
    );
  });

  it('Australia/Lord_Howe, half-hour changes: 02:15 in the 02:00–02:30 gap runs at 02:30; 01:45 repeated runs once', () => {
    // 4 October 2026: 02:00 → 02:30 (UTC+10:30 → +11).
    const spring = simulate('15 2 * * *', 'Australia/Lord_Howe', '2026-10-02T00:00:00Z', 3);
    expect(spring.runs).toEqual(['2026-10-03 02:15', '2026-10-04 02:30', '2026-10-05 02:15']);
    expect(spring.states.has('down')).toBe(false);
    // 5 April 2026: 02:00 → 01:30 (UTC+11 → +10:30): 01:45 happens twice.
    const fall = simulate('45 1 * * *', 'Australia/Lord_Howe', '2026-04-03T00:00:00Z', 3);
    expect(fall.runs).toEqual(['2026-04-04 01:45', '2026-04-05 01:45', '2026-04-06 01:45']);
    expect(fall.states.has('down')).toBe(false);
  });
});

describe('the deadline rule on a schedule', () => {
  const weekdays = { schedule: '0 3 * * 1-5', timezone: 'Europe/Berlin', period_seconds: 86_400 };
  it('a weekday job that ran on Friday is next expected on Monday', () => {
    // Friday 5 June 2026, 03:00:30 in Berlin (UTC+2).
    expect(nextExpectedAfter(weekdays, new Date('2026-06-05T01:00:30Z'))!.toISOString()).toBe(
      '2026-06-08T01:00:00.000Z',
    );
  });
  it('nicknames and five fields are taken; other shapes are refused with a reason', () => {
    expect(scheduleProblem('@daily')).toBeNull();
    expect(scheduleProblem('0 3 * * MON-FRI')).toBeNull();
    expect(scheduleProblem('@reboot')).toMatch(/five cron fields or one of @hourly/);
    expect(scheduleProblem('0 0 3 * * *')).toMatch(/five fields/);
    expect(scheduleProblem('61 3 * * *')).toMatch(/not a valid cron expression.*minute/);
    expect(scheduleProblem('0 0 30 2 *')).toBe('never fires (no such date)');
  });
});
