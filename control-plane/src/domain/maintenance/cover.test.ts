import { describe, expect, it } from 'vitest';
import type { MaintenanceWindow } from '../types.js';
import {
  coverAt,
  currentOrNext,
  describeRecurrence,
  isCovered,
  NO_COVER,
  occurrenceAt,
  windowOver,
} from './cover.js';

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

const recurring = (
  schedule: string,
  timezone: string,
  duration_seconds: number,
  over: Partial<MaintenanceWindow> = {},
): MaintenanceWindow => ({
  id: 'w1',
  workspace_id: 'ws',
  name: 'nightly',
  scope_type: 'workspace',
  scope_id: null,
  starts_at: new Date('2026-01-01T00:00:00Z'),
  ends_at: null,
  schedule,
  timezone,
  duration_seconds,
  created_at: new Date('2026-01-01T00:00:00Z'),
  ...over,
});

const oneOff = (from: string, to: string, over: Partial<MaintenanceWindow> = {}): MaintenanceWindow => ({
  ...recurring('x', 'UTC', 1),
  schedule: null,
  timezone: null,
  duration_seconds: null,
  starts_at: new Date(from),
  ends_at: new Date(to),
  ...over,
});

/**
 * Steps a clock by 5 minutes over `days` from `from` and returns the local times at which the window
 * became active and stopped being active: each occurrence exactly once, neither missed nor doubled.
 */
const transitions = (w: MaintenanceWindow, from: string, days: number) => {
  const out: string[] = [];
  let was = false;
  const start = Date.parse(from);
  for (let t = start; t < start + days * 86_400_000; t += 5 * MINUTE) {
    const now = occurrenceAt(w, new Date(t)) !== null;
    if (now !== was) out.push(`${now ? 'on' : 'off'} ${local(new Date(t), w.timezone!)}`);
    was = now;
  }
  return out;
};

describe('recurring windows across DST changes (Europe/Berlin, as heartbeat schedules are tested)', () => {
  it('an occurrence in the skipped hour (29 March 2026, 02:00 → 03:00) starts at 03:00 and lasts its duration', () => {
    const w = recurring('30 2 * * *', 'Europe/Berlin', 3600);
    expect(transitions(w, '2026-03-27T12:00:00Z', 4)).toEqual([
      'on 2026-03-28 02:30',
      'off 2026-03-28 03:30',
      'on 2026-03-29 03:00',
      'off 2026-03-29 04:00',
      'on 2026-03-30 02:30',
      'off 2026-03-30 03:30',
      'on 2026-03-31 02:30',
      'off 2026-03-31 03:30',
    ]);
    expect(occurrenceAt(w, new Date('2026-03-29T01:30:00Z'))?.starts_at.toISOString()).toBe(
      '2026-03-29T01:00:00.000Z',
    );
  });

  it('an occurrence in the repeated hour (25 October 2026, 03:00 → 02:00) happens once, at the first 02:30', () => {
    const w = recurring('30 2 * * *', 'Europe/Berlin', 1800);
    expect(transitions(w, '2026-10-24T12:00:00Z', 2)).toEqual([
      'on 2026-10-25 02:30',
      // 30 real minutes after the first 02:30 the clocks have just gone back from 03:00 to 02:00.
      'off 2026-10-25 02:00',
      'on 2026-10-26 02:30',
      'off 2026-10-26 03:00',
    ]);
    // 00:30 UTC is the first 02:30 (CEST), 01:30 UTC the second (CET): only the first is covered.
    expect(occurrenceAt(w, new Date('2026-10-25T00:45:00Z'))).not.toBeNull();
    expect(occurrenceAt(w, new Date('2026-10-25T01:45:00Z'))).toBeNull();
  });

  it('a window spanning the change lasts its duration in real time (01:00 + 3 h ends at 05:00 local that night)', () => {
    const w = recurring('0 1 * * *', 'Europe/Berlin', 3 * 3600);
    expect(transitions(w, '2026-03-28T12:00:00Z', 2)).toEqual([
      'on 2026-03-29 01:00',
      'off 2026-03-29 05:00',
      'on 2026-03-30 01:00',
      'off 2026-03-30 04:00',
    ]);
    const autumn = recurring('0 1 * * *', 'Europe/Berlin', 3 * 3600);
    expect(transitions(autumn, '2026-10-24T12:00:00Z', 2)).toEqual([
      'on 2026-10-25 01:00',
      'off 2026-10-25 03:00',
      'on 2026-10-26 01:00',
      'off 2026-10-26 04:00',
    ]);
  });
});

describe('occurrences', () => {
  it('a recurring window is active from each occurrence for its duration, and not before it began to recur', () => {
    const w = recurring('0 2 * * 0', 'UTC', 7200, { starts_at: new Date('2026-06-10T00:00:00Z') });
    // Sunday 7 June is before the window began; Sunday 14 June is its first occurrence.
    expect(occurrenceAt(w, new Date('2026-06-07T02:30:00Z'))).toBeNull();
    expect(occurrenceAt(w, new Date('2026-06-14T02:00:00Z'))).not.toBeNull();
    expect(occurrenceAt(w, new Date('2026-06-14T03:59:59Z'))).not.toBeNull();
    expect(occurrenceAt(w, new Date('2026-06-14T04:00:00Z'))).toBeNull();
    expect(currentOrNext(w, new Date('2026-06-14T04:00:00Z'))).toEqual({
      starts_at: new Date('2026-06-21T02:00:00Z'),
      ends_at: new Date('2026-06-21T04:00:00Z'),
    });
    expect(currentOrNext(w, new Date('2026-06-14T03:00:00Z'))?.starts_at).toEqual(
      new Date('2026-06-14T02:00:00Z'),
    );
    expect(describeRecurrence(w)).toBe('At 02:00, only on Sunday, UTC, for 2 hours');
  });

  it('a one-off window keeps working: active in [starts_at, ends_at), next until it has ended', () => {
    const w = oneOff('2026-06-01T10:00:00Z', '2026-06-01T11:00:00Z');
    expect(occurrenceAt(w, new Date('2026-06-01T09:59:59Z'))).toBeNull();
    expect(occurrenceAt(w, new Date('2026-06-01T10:00:00Z'))).not.toBeNull();
    expect(occurrenceAt(w, new Date('2026-06-01T11:00:00Z'))).toBeNull();
    expect(currentOrNext(w, new Date('2026-06-01T09:00:00Z'))?.starts_at).toEqual(w.starts_at);
    expect(currentOrNext(w, new Date('2026-06-01T11:00:00Z'))).toBeNull();
    expect(describeRecurrence(w)).toBeNull();
  });
});

describe('coverAt', () => {
  const at = new Date('2026-06-14T02:30:00Z');
  const windows = [
    recurring('0 2 * * *', 'UTC', 3600, { id: 'g', scope_type: 'group', scope_id: 'grp' }),
    recurring('0 2 * * *', 'UTC', 3600, { id: 't', scope_type: 'tag', scope_id: 'env:prod' }),
    oneOff('2026-06-14T00:00:00Z', '2026-06-15T00:00:00Z', {
      id: 'm',
      scope_type: 'monitor',
      scope_id: 'm1',
    }),
    oneOff('2026-06-14T00:00:00Z', '2026-06-15T00:00:00Z', {
      id: 'h',
      scope_type: 'heartbeat',
      scope_id: 'h1',
    }),
    recurring('0 5 * * *', 'UTC', 3600, { id: 'later', scope_id: null }),
  ];

  it('collects what the active windows cover, by scope', () => {
    expect(coverAt(windows, at)).toEqual({
      workspace: false,
      monitorIds: ['m1'],
      heartbeatIds: ['h1'],
      groupIds: ['grp'],
      tags: ['env:prod'],
    });
    expect(coverAt(windows, new Date('2026-06-14T05:10:00Z')).workspace).toBe(true);
    expect(coverAt([], at)).toBe(NO_COVER);
    expect(coverAt(windows, new Date('2026-06-16T12:00:00Z'))).toBe(NO_COVER);
  });

  it('a source is covered by its id, its group or one of its tags', () => {
    const cover = coverAt(windows, at);
    expect(isCovered(cover, { type: 'monitor', id: 'm1' })).toBe(true);
    expect(isCovered(cover, { type: 'heartbeat', id: 'm1' })).toBe(false);
    expect(isCovered(cover, { type: 'monitor', id: 'x', group_id: 'grp' })).toBe(true);
    expect(isCovered(cover, { type: 'heartbeat', id: 'x', tags: ['a', 'env:prod'] })).toBe(true);
    expect(isCovered(cover, { type: 'monitor', id: 'x', group_id: 'other', tags: ['env'] })).toBe(false);
    expect(isCovered(NO_COVER, { type: 'monitor', id: 'm1' })).toBe(false);
  });

  it('windowOver names the window covering a source, earliest occurrence first', () => {
    expect(windowOver(windows, { type: 'monitor', id: 'm1', group_id: 'grp' }, at)?.id).toBe('m');
    expect(windowOver(windows, { type: 'monitor', id: 'x', group_id: 'grp' }, at)?.id).toBe('g');
    expect(windowOver(windows, { type: 'integration', id: 'i', tags: ['env:prod'] }, at)).toBeNull();
    expect(windowOver(windows, { type: 'integration', id: 'i' }, new Date('2026-06-14T05:10:00Z'))?.id).toBe(
      'later',
    );
  });
});
