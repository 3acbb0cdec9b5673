import { describe, expect, it } from 'vitest';
import type { Names } from '../kind.js';
import { escalationPolicies } from './escalation-policies.js';
import { schedules } from './schedules.js';

const book: Names = {
  idOf: (kind, name) =>
    ({ users: { 'a@x.test': 'u-a', 'b@x.test': 'u-b' }, schedules: { Primary: 's-1' } })[
      kind as 'users' | 'schedules'
    ]?.[name as never],
  nameOf: (kind, id) =>
    ({ users: { 'u-a': 'a@x.test', 'u-b': 'b@x.test' }, schedules: { 's-1': 'Primary' } })[
      kind as 'users' | 'schedules'
    ]?.[id as never],
};

const live = {
  id: 's-1',
  name: 'Primary',
  timezone: 'Europe/Berlin',
  layers: [
    {
      name: 'Layer 1',
      users: ['u-a', 'u-b'],
      rotation: 'weekly',
      shift_seconds: null,
      handoff: '09:00',
      handoff_day: 'mon',
      starts_at: '2026-01-05T08:00:00.000Z',
      restrictions: [{ days: ['mon', 'fri'], start: '09:00', end: '17:00' }],
    },
  ],
  gaps: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('the schedules kind', () => {
  it('exports emails for user ids and leaves out what only the API keeps', () => {
    expect(schedules.fromLive(live, book)).toEqual({
      name: 'Primary',
      timezone: 'Europe/Berlin',
      layers: [
        {
          name: 'Layer 1',
          users: ['a@x.test', 'b@x.test'],
          rotation: 'weekly',
          handoff: '09:00',
          handoff_day: 'mon',
          starts_at: '2026-01-05T08:00:00.000Z',
          restrictions: [{ days: ['mon', 'fri'], start: '09:00', end: '17:00' }],
        },
      ],
    });
  });

  it('names every user by its path, and sends ids', () => {
    const item = schedules.fromLive(live, book);
    expect(schedules.references(item)).toEqual([
      { path: ['layers', 0, 'users', 0], kind: 'users', name: 'a@x.test' },
      { path: ['layers', 0, 'users', 1], kind: 'users', name: 'b@x.test' },
    ]);
    expect((schedules.toBody(item, book).layers as { users: string[] }[])[0]!.users).toEqual(['u-a', 'u-b']);
  });

  it('compares a file as the API would store it: an unnamed layer, days out of order, a zone in another case', () => {
    const file = {
      name: 'Primary',
      timezone: 'europe/berlin',
      layers: [
        {
          users: ['a@x.test', 'b@x.test'],
          rotation: 'weekly',
          handoff: '09:00',
          handoff_day: 'mon',
          starts_at: '2026-01-05T08:00:00.000Z',
          restrictions: [{ days: ['fri', 'mon'], start: '09:00', end: '17:00' }],
        },
      ],
    };
    expect(schedules.comparable!(file)).toEqual(schedules.fromLive(live, book));
  });

  it('policy steps name schedules and send their ids', () => {
    const policy = {
      id: 'p-1',
      name: 'Page',
      is_default: false,
      repeat: 0,
      support_hours: null,
      steps: [{ wait_minutes: 0, notify_user_ids: [], notify_channel_ids: [], notify_schedule_ids: ['s-1'] }],
    };
    const item = escalationPolicies.fromLive(policy, book);
    expect(item.steps).toEqual([
      { wait_minutes: 0, notify_users: [], notify_channels: [], notify_schedules: ['Primary'] },
    ]);
    expect(escalationPolicies.references(item)).toEqual([
      { path: ['steps', 0, 'notify_schedules', 0], kind: 'schedules', name: 'Primary' },
    ]);
    expect(escalationPolicies.toBody(item, book).steps).toEqual([
      { wait_minutes: 0, notify_user_ids: [], notify_channel_ids: [], notify_schedule_ids: ['s-1'] },
    ]);
  });
});
