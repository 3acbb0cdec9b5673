import { ManualClock, newId } from '@lookout/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { CHANNEL_KINDS } from '../../notify/kinds/index.js';
import type { Store } from '../../store/port.js';
import { createSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { raiseAlert } from '../alerts/alerts.js';
import type { Dispatcher, Target } from '../notifications/messages.js';
import { createUser, createWorkspace } from '../tenancy/workspaces.js';
import type { Schedule, ScheduleLayer, User, Workspace } from '../types.js';
import { createPolicy, withoutUser } from './escalation-policies.js';
import { createEscalationRunner } from './escalation-runner.js';

const MIN = 60_000;
let store: Store;
let clock: ManualClock;
let workspace: Workspace;
let ana: User;
let bob: User;
let sent: { to: string; key: string | null; step: number }[];

const dispatcher: Dispatcher = {
  async send(target: Target, message, deliveryId, onAttempt) {
    sent.push({
      to: (target.config.addresses as string[]).join(','),
      key: deliveryId,
      step: (message.payload as { step: number }).step,
    });
    const ok = { ok: true, permanent: false, status_code: 250, error: null };
    await onAttempt(1, ok, false);
    return ok;
  },
  describe: (t) => (t.config.addresses as string[] | undefined)?.join(', ') ?? t.kind,
  follows: (kind) => CHANNEL_KINDS[kind]?.follows ?? [],
  grouping: () => 'per_alert',
};
const runner = () => createEscalationRunner({ store, clock, dispatcher, leaseMs: 60_000 });

beforeEach(async () => {
  store = createSqliteStore({ path: ':memory:' });
  await store.init();
  // A Monday, 12:00 UTC.
  clock = new ManualClock('2026-06-01T12:00:00Z');
  sent = [];
  const ws = await createWorkspace(
    store,
    loadConfig({}, {}).plans,
    { subdomain: 'oc', admin_email: 'admin@oc.test', plan: 'team' },
    clock.now(),
  );
  workspace = ws.workspace;
  ana = (await createUser(store, workspace, { email: 'ana@oc.test', role: 'member' }, clock.now())).user;
  bob = (await createUser(store, workspace, { email: 'bob@oc.test', role: 'member' }, clock.now())).user;
});

const layer = (over: Partial<ScheduleLayer>): ScheduleLayer => ({
  name: 'Daily',
  users: [ana.id, bob.id],
  rotation: 'daily',
  shift_seconds: null,
  handoff: '09:00',
  handoff_day: null,
  starts_at: new Date('2026-06-01T07:00:00Z'),
  restrictions: [],
  ...over,
});

const schedule = async (name: string, layers: ScheduleLayer[]): Promise<Schedule> => {
  const s: Schedule = {
    id: newId(),
    workspace_id: workspace.id,
    name,
    timezone: 'Europe/Berlin',
    layers,
    created_at: clock.now(),
    updated_at: clock.now(),
  };
  const entry = {
    id: newId(),
    workspace_id: workspace.id,
    schedule_id: s.id,
    at: clock.now(),
    actor_id: null,
    action: 'created' as const,
    detail: 'created',
  };
  await store.insertSchedule(s, entry, { maxSchedules: 200 });
  return s;
};

const raise = async (policyId: string) =>
  (
    await raiseAlert(
      store,
      {
        workspace_id: workspace.id,
        source_type: 'integration',
        source_id: 's',
        cause: 'c',
        dedup_key: newId(),
        title: 't',
        escalation_policy_id: policyId,
      },
      clock.now(),
    )
  ).alert;

const notes = async (alertId: string) =>
  ((await store.getAlert(workspace.id, alertId))?.escalation?.on_call ?? []).map((n) => [n.step, n.text]);

describe('escalation to a schedule', () => {
  it('reaches whoever is on call when the step fires, not when the alert was raised', async () => {
    const primary = await schedule('Primary', [layer({})]);
    const p = await createPolicy(
      store,
      workspace.id,
      {
        name: 'p',
        steps: [
          { wait_minutes: 0, notify_schedule_ids: [primary.id] },
          // Tuesday 09:00 Berlin is 19 hours after Monday 12:00 UTC.
          { wait_minutes: 20 * 60, notify_schedule_ids: [primary.id] },
        ],
      },
      clock.now(),
    );
    const a = await raise(p.id);
    await runner().tick();
    clock.advance(20 * 60 * MIN);
    await runner().tick();
    expect(sent.map((s) => [s.step, s.to])).toEqual([
      [0, 'ana@oc.test'],
      [1, 'bob@oc.test'],
    ]);
    expect(await notes(a.id)).toEqual([
      [0, 'reached ana@oc.test — on call in Primary (layer 1, Daily)'],
      [1, 'reached bob@oc.test — on call in Primary (layer 1, Daily)'],
    ]);
  });

  it('a user named by the step and on call is reached once', async () => {
    const primary = await schedule('Primary', [layer({})]);
    const p = await createPolicy(
      store,
      workspace.id,
      {
        name: 'p',
        steps: [{ wait_minutes: 0, notify_user_ids: [ana.id], notify_schedule_ids: [primary.id] }],
      },
      clock.now(),
    );
    await raise(p.id);
    await runner().tick();
    expect(sent.map((s) => s.to)).toEqual(['ana@oc.test']);
  });

  it('nobody on call: recorded, and the next step is due at once instead of after its wait', async () => {
    const gap = await schedule('Weekends', [
      layer({ restrictions: [{ days: ['sat'], start: '00:00', end: '24:00' }] }),
    ]);
    const p = await createPolicy(
      store,
      workspace.id,
      {
        name: 'p',
        steps: [
          { wait_minutes: 0, notify_schedule_ids: [gap.id] },
          { wait_minutes: 30, notify_user_ids: [bob.id] },
        ],
      },
      clock.now(),
    );
    const a = await raise(p.id);
    await runner().tick();
    const after = await store.getAlert(workspace.id, a.id);
    expect(after?.escalation_due_at).toEqual(clock.now());
    await runner().tick();
    expect(sent.map((s) => [s.step, s.to])).toEqual([[1, 'bob@oc.test']]);
    expect(await notes(a.id)).toEqual([[0, 'nobody on call in Weekends']]);
  });

  it('a deleted schedule is nobody on call; the last step of the last round says the escalation ends', async () => {
    const gone = await schedule('Gone', [layer({})]);
    const p = await createPolicy(
      store,
      workspace.id,
      { name: 'p', steps: [{ wait_minutes: 5, notify_schedule_ids: [gone.id] }], repeat: 1 },
      clock.now(),
    );
    await store.deleteSchedule(workspace.id, gone.id);
    const a = await raise(p.id);
    clock.advance(5 * MIN);
    await runner().tick();
    // The repeat is due at once, not 5 minutes later.
    await runner().tick();
    expect(sent).toEqual([]);
    expect(await notes(a.id)).toEqual([
      [0, 'nobody on call: the schedule was deleted'],
      [0, 'nobody on call: the schedule was deleted'],
      [0, 'the last step of the last round reached nobody: escalation ends here'],
    ]);
    expect((await store.getAlert(workspace.id, a.id))?.escalation?.finished).toBe(true);
  });

  it('validation: schedules of the workspace only, at most 10, and a step must notify someone', async () => {
    const other = await createWorkspace(
      store,
      loadConfig({}, {}).plans,
      { subdomain: 'oc2', admin_email: 'admin@oc2.test', plan: 'team' },
      clock.now(),
    );
    const theirs = await schedule('Theirs', [layer({})]);
    const problems = async (steps: unknown) => {
      try {
        await createPolicy(store, other.workspace.id, { name: 'p', steps }, clock.now());
        return [];
      } catch (e) {
        return (e as { details: { field: string; message: string }[] }).details;
      }
    };
    expect(
      await problems([{ wait_minutes: 0, notify_schedule_ids: [theirs.id] }, { wait_minutes: 0 }]),
    ).toEqual([
      { field: 'steps[0].notify_schedule_ids[0]', message: 'no schedule with this id in the workspace' },
      { field: 'steps[1]', message: 'must notify at least one user, channel or schedule' },
    ]);
    const eleven = Array.from({ length: 11 }, () => newId());
    expect((await problems([{ wait_minutes: 0, notify_schedule_ids: eleven }])).map((p) => p.field)).toEqual([
      'steps[0].notify_schedule_ids',
    ]);
  });

  it('removing a user: a step that also names a schedule still notifies someone, so it does not block', () => {
    const now = clock.now();
    const p = {
      id: newId(),
      workspace_id: workspace.id,
      name: 'p',
      is_default: false,
      steps: [
        {
          wait_minutes: 0,
          notify_user_ids: [ana.id],
          notify_channel_ids: [],
          notify_schedule_ids: [newId()],
        },
      ],
      repeat: 0,
      support_hours: null,
      created_at: now,
      updated_at: now,
    };
    const r = withoutUser([p], ana.id, now);
    expect(r.blocking).toEqual([]);
    expect(r.updated[0]?.steps[0]?.notify_user_ids).toEqual([]);
  });
});
