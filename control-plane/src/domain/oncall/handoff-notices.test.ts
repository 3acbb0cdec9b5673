import { newId } from '@lookout/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import type { Store } from '../../store/port.js';
import { createSqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { ContactServices } from '../contacts/contact-methods.js';
import type { Dispatcher } from '../notifications/messages.js';
import { createUser, createWorkspace } from '../tenancy/workspaces.js';
import type { Schedule, ScheduleLayer, User, Workspace } from '../types.js';
import {
  HANDOFF_RESYNC_MS,
  putHandoffSettings,
  runHandoffNotices,
  touchingHandoffCursors,
} from './handoff-notices.js';

const HOUR = 3_600_000;
let store: Store;
let workspace: Workspace;
let ana: User;
let bob: User;
let sent: { to: string; subject: string }[];
const services: ContactServices = { telegram: null, twilio: null, pushover: null };
const dispatcher: Dispatcher = {
  async send(target, message) {
    sent.push({ to: (target.config.addresses as string[]).join(','), subject: message.subject });
    return { ok: true, permanent: false, status_code: 250, error: null };
  },
  describe: (t) => (t.config.addresses as string[]).join(','),
  follows: () => [],
  grouping: () => 'per_alert',
};
const T0 = Date.parse('2026-06-01T00:00:00Z');
const pass = (ms: number) =>
  runHandoffNotices({ store, dispatcher, services }, new Date(ms), { leaseMs: 60_000 });

beforeEach(async () => {
  store = createSqliteStore({ path: ':memory:' });
  await store.init();
  sent = [];
  const ws = await createWorkspace(
    store,
    loadConfig({}, {}).plans,
    { subdomain: 'hn', admin_email: 'admin@hn.test', plan: 'team' },
    new Date(T0),
  );
  workspace = ws.workspace;
  ana = (await createUser(store, workspace, { email: 'ana@hn.test', role: 'member' }, new Date(T0))).user;
  bob = (await createUser(store, workspace, { email: 'bob@hn.test', role: 'member' }, new Date(T0))).user;
});

const layer = (over: Partial<ScheduleLayer>): ScheduleLayer => ({
  name: 'L',
  users: [ana.id],
  rotation: 'daily',
  shift_seconds: null,
  handoff: '00:00',
  handoff_day: null,
  starts_at: new Date(T0),
  restrictions: [],
  ...over,
});

const schedule = async (layers: ScheduleLayer[], now: number): Promise<Schedule> => {
  const s: Schedule = {
    id: newId(),
    workspace_id: workspace.id,
    name: 'Primary',
    timezone: 'UTC',
    layers,
    created_at: new Date(now),
    updated_at: new Date(now),
  };
  const entry = {
    id: newId(),
    workspace_id: workspace.id,
    schedule_id: s.id,
    at: new Date(now),
    actor_id: null,
    action: 'created' as const,
    detail: 'created',
  };
  await touchingHandoffCursors(store, () => new Date(now)).insertSchedule(s, entry, { maxSchedules: 200 });
  return s;
};

describe('handoff notices', () => {
  it('a shift that merely continues in another layer brings no new notice', async () => {
    // Layer 1: ana Monday 06:00–12:00; layer 2: ana again 12:00–18:00: one merged shift 06:00–18:00.
    await schedule(
      [
        layer({ restrictions: [{ days: ['mon'], start: '06:00', end: '12:00' }] }),
        layer({ name: 'M', restrictions: [{ days: ['mon'], start: '12:00', end: '18:00' }] }),
      ],
      T0,
    );
    for (let t = T0; t <= T0 + 20 * HOUR; t += HOUR / 2) await pass(t);
    expect(sent.map((s) => `${s.to} ${s.subject}`)).toEqual([
      'ana@hn.test [Lookout hn] On call in Primary from Mon 1 Jun 06:00 (UTC)',
      'ana@hn.test [Lookout hn] You are on call in Primary now',
    ]);
  });

  it('a user who turned notices off gets none; the others still do', async () => {
    await schedule([layer({ users: [bob.id, ana.id], handoff: '06:00' })], T0);
    await putHandoffSettings(store, workspace.id, ana.id, { enabled: false }, new Date(T0));
    for (let t = T0; t <= T0 + 31 * HOUR; t += HOUR) await pass(t);
    // bob's first shift starts as the schedule does (Monday 00:00), his next Tuesday 06:00.
    expect(sent.map((s) => `${s.to} ${s.subject}`)).toEqual([
      'bob@hn.test [Lookout hn] You are on call in Primary now',
      'bob@hn.test [Lookout hn] On call in Primary from Tue 2 Jun 06:00 (UTC)',
      'bob@hn.test [Lookout hn] You are on call in Primary now',
    ]);
  });

  it('looks at a schedule only when its cursor is due, at most HANDOFF_RESYNC_MS apart; a deleted one is dropped', async () => {
    const s = await schedule([layer({ handoff: '06:00', users: [ana.id, bob.id] })], T0);
    expect(await pass(T0)).toBe(1);
    // Next notice: bob's, an hour before Monday 06:00 (05:00) — sooner than the resync.
    expect((await store.listDueHandoffCursors(new Date(T0 + 10 * HOUR), 10))[0]?.due_at).toEqual(
      new Date(T0 + 5 * HOUR),
    );
    expect(await pass(T0 + HOUR)).toBe(0);
    await store.deleteSchedule(workspace.id, s.id);
    expect(await pass(T0 + 5 * HOUR)).toBe(1);
    expect(await store.listDueHandoffCursors(new Date(T0 + 1000 * HOUR), 10)).toEqual([]);
    expect(HANDOFF_RESYNC_MS).toBe(6 * HOUR);
  });

  it('removing a user from the workspace makes the schedules that named them due again', async () => {
    const s = await schedule([layer({ handoff: '06:00', users: [ana.id, bob.id] })], T0);
    await pass(T0);
    const later = T0 + HOUR;
    expect(await store.listDueHandoffCursors(new Date(later), 10)).toEqual([]);
    const r = await touchingHandoffCursors(store, () => new Date(later)).removeUser(
      workspace.id,
      bob.id,
      new Date(later),
    );
    expect(r.outcome).toBe('removed');
    expect(await store.listDueHandoffCursors(new Date(later), 10)).toEqual([
      { workspace_id: workspace.id, schedule_id: s.id, due_at: new Date(later) },
    ]);
  });
});
