/**
 * ScheduleStore contract: schedules (names unique per workspace ignoring case, a cap, layers read back
 * exactly: dates, time zone, layer order), overrides (the overlap query of a window), history written
 * with each change, shift offers (take/assign as one compare-and-set step with its override), the
 * delete that takes everything of a schedule with it, and retention.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import type {
  ScheduleHistoryEntry,
  ShiftOffer,
} from '../../control-plane/src/domain/oncall/schedule-store.js';
import type { Schedule, ScheduleOverride } from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, fixtures, T0 } from './fixtures.js';
import { contract } from './stores.js';

const DAY = 86_400;
const cap = { maxSchedules: 200 };

export const scheduleFixture = (workspaceId: string, over: Partial<Schedule> = {}): Schedule => ({
  id: randomUUID(),
  workspace_id: workspaceId,
  name: `Primary ${randomUUID().slice(0, 6)}`,
  timezone: 'Europe/Berlin',
  layers: [
    {
      name: 'Weekdays',
      users: [randomUUID(), randomUUID()],
      rotation: 'weekly',
      shift_seconds: null,
      handoff: '09:00',
      handoff_day: 'mon',
      starts_at: new Date('2026-03-02T08:00:00.000Z'),
      restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' }],
    },
    {
      name: 'Nights',
      users: [randomUUID()],
      rotation: 'custom',
      shift_seconds: 43_200,
      handoff: '20:30',
      handoff_day: null,
      starts_at: new Date('2026-03-02T19:30:00.000Z'),
      restrictions: [],
    },
  ],
  created_at: T0,
  updated_at: T0,
  ...over,
});

export const entryFor = (
  s: { workspace_id: string; id: string },
  action: ScheduleHistoryEntry['action'],
  when = T0,
): ScheduleHistoryEntry => ({
  id: randomUUID(),
  workspace_id: s.workspace_id,
  schedule_id: s.id,
  at: when,
  actor_id: null,
  action,
  detail: `${action} at ${when.toISOString()}`,
});

export const overrideFixture = (
  s: Schedule,
  from: Date,
  to: Date,
  over: Partial<ScheduleOverride> = {},
): ScheduleOverride => ({
  id: randomUUID(),
  workspace_id: s.workspace_id,
  schedule_id: s.id,
  user_id: randomUUID(),
  starts_at: from,
  ends_at: to,
  created_by: null,
  offer_id: null,
  created_at: T0,
  ...over,
});

const offerFixture = (s: Schedule, over: Partial<ShiftOffer> = {}): ShiftOffer => ({
  id: randomUUID(),
  workspace_id: s.workspace_id,
  schedule_id: s.id,
  user_id: s.layers[0]!.users[0]!,
  starts_at: at(DAY),
  ends_at: at(2 * DAY),
  note: 'dentist',
  status: 'open',
  taken_by: null,
  override_id: null,
  created_at: T0,
  closed_at: null,
  ...over,
});

contract('ScheduleStore', (c) => {
  let store: Store;
  let ws: ReturnType<typeof fixtures.workspace>;
  let wsId: string;
  beforeEach(() => {
    ({ store, ws } = c());
    wsId = ws.workspace.id;
  });
  const add = async (over: Partial<Schedule> = {}) => {
    const s = scheduleFixture(wsId, over);
    expect(await store.insertSchedule(s, entryFor(s, 'created'), cap)).toBe('inserted');
    return s;
  };

  it('round-trips a schedule exactly, keeps other workspaces out, and refuses a name taken in any case', async () => {
    const s = await add({ name: 'Primary On-Call' });
    expect(await store.getSchedule(wsId, s.id)).toEqual(s);
    expect((await store.getSchedule(wsId, s.id))!.layers[1]!.starts_at).toBeInstanceOf(Date);
    const dup = scheduleFixture(wsId, { name: 'PRIMARY on-call' });
    expect(await store.insertSchedule(dup, entryFor(dup, 'created'), cap)).toBe('name_taken');
    expect(await store.getSchedule(wsId, dup.id)).toBeNull();
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect(await store.getSchedule(other.workspace.id, s.id)).toBeNull();
    expect(await store.deleteSchedule(other.workspace.id, s.id)).toBe(false);
    expect(
      await store.updateSchedule({ ...s, workspace_id: other.workspace.id }, entryFor(s, 'updated')),
    ).toBe('not_found');
    expect(await store.listWorkspaceSchedules(other.workspace.id)).toEqual([]);
    const mine = scheduleFixture(other.workspace.id, { name: 'primary on-call' });
    expect(await store.insertSchedule(mine, entryFor(mine, 'created'), cap)).toBe('inserted');
  });

  it('caps the schedules of a workspace', async () => {
    await add({ name: 'a' });
    await add({ name: 'b' });
    const s = scheduleFixture(wsId, { name: 'c' });
    expect(await store.insertSchedule(s, entryFor(s, 'created'), { maxSchedules: 2 })).toBe('limit_reached');
    expect(await store.getSchedule(wsId, s.id)).toBeNull();
  });

  it('updates (a name taken refused, nothing stored), lists newest first, searches and lists all by name', async () => {
    const a = await add({ name: 'Alpha', created_at: at(1) });
    const b = await add({ name: 'Beta', created_at: at(2) });
    expect(
      await store.updateSchedule({ ...b, name: 'ALPHA', updated_at: at(9) }, entryFor(b, 'updated')),
    ).toBe('name_taken');
    expect(await store.getSchedule(wsId, b.id)).toEqual(b);
    const layers = [...b.layers].reverse();
    const next = { ...b, name: 'Gamma', timezone: 'Asia/Kolkata', layers, updated_at: at(9) };
    expect(await store.updateSchedule(next, entryFor(b, 'updated'))).toBe('updated');
    expect(await store.getSchedule(wsId, b.id)).toEqual(next);
    const p1 = await store.listSchedules(wsId, { limit: 1 });
    expect(p1.data.map((s) => s.id)).toEqual([b.id]);
    const p2 = await store.listSchedules(wsId, { limit: 1, cursor: p1.next_cursor! });
    expect(p2.data).toEqual([a]);
    expect(p2.next_cursor).toBeNull();
    expect((await store.listSchedules(wsId, { limit: 10, search: 'gAm' })).data.map((s) => s.id)).toEqual([
      b.id,
    ]);
    expect((await store.listWorkspaceSchedules(wsId)).map((s) => s.name)).toEqual(['Alpha', 'Gamma']);
  });

  it('answers the overrides overlapping a window, by start, and not those of another schedule or workspace', async () => {
    const s = await add();
    const t = await add();
    const o1 = overrideFixture(s, at(0), at(DAY));
    const o2 = overrideFixture(s, at(-10 * DAY), at(-DAY + 1));
    const o3 = overrideFixture(s, at(-30 * DAY), at(3 * DAY)); // long, starting well before
    const o4 = overrideFixture(s, at(5 * DAY), at(6 * DAY)); // after the window
    const o5 = overrideFixture(t, at(0), at(DAY)); // another schedule
    for (const o of [o1, o2, o3, o4, o5])
      expect(await store.insertOverride(o, entryFor(s, 'override_added'))).toBe(true);
    const got = await store.listOverrides(wsId, s.id, at(-DAY), at(2 * DAY));
    expect(got.map((o) => o.id)).toEqual([o3.id, o2.id, o1.id]);
    expect(got[2]).toEqual(o1);
    // [from, to): one ending exactly at from, one starting exactly at to are out.
    expect((await store.listOverrides(wsId, s.id, at(DAY), at(5 * DAY))).map((o) => o.id)).toEqual([o3.id]);
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect(await store.listOverrides(other.workspace.id, s.id, at(-DAY), at(2 * DAY))).toEqual([]);
    expect(await store.getOverride(other.workspace.id, s.id, o1.id)).toBeNull();
    expect(await store.getOverride(wsId, s.id, o1.id)).toEqual(o1);
    expect((await store.listUserOverrides(wsId, o1.user_id, at(-DAY), at(DAY))).map((o) => o.id)).toEqual([
      o1.id,
    ]);
    expect(await store.deleteOverride(other.workspace.id, s.id, o1.id, entryFor(s, 'override_removed'))).toBe(
      false,
    );
    expect(await store.deleteOverride(wsId, t.id, o1.id, entryFor(s, 'override_removed'))).toBe(false);
    expect(await store.deleteOverride(wsId, s.id, o1.id, entryFor(s, 'override_removed'))).toBe(true);
    expect(await store.getOverride(wsId, s.id, o1.id)).toBeNull();
    // An override for a schedule that is gone is refused.
    const gone = scheduleFixture(wsId);
    expect(
      await store.insertOverride(overrideFixture(gone, at(0), at(1)), entryFor(gone, 'override_added')),
    ).toBe(false);
  });

  it('writes each change’s history entry with it, pages it newest first', async () => {
    const s = await add({ name: 'Hist' });
    await store.updateSchedule({ ...s, name: 'Hist 2', updated_at: at(5) }, entryFor(s, 'updated', at(5)));
    await store.appendHistory(entryFor(s, 'user_removed', at(7)));
    const o = overrideFixture(s, at(10), at(20));
    await store.insertOverride(o, entryFor(s, 'override_added', at(8)));
    const p1 = await store.listHistory(wsId, s.id, { limit: 2 });
    expect(p1.data.map((e) => e.action)).toEqual(['override_added', 'user_removed']);
    expect(p1.data[0]).toEqual({ ...p1.data[0], at: at(8), actor_id: null, schedule_id: s.id });
    const p2 = await store.listHistory(wsId, s.id, { limit: 2, cursor: p1.next_cursor! });
    expect(p2.data.map((e) => e.action)).toEqual(['updated', 'created']);
    expect(p2.next_cursor).toBeNull();
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect((await store.listHistory(other.workspace.id, s.id, { limit: 10 })).data).toEqual([]);
  });

  it('takes an offer once: the compare-and-set, its override and its entry are one step', async () => {
    const s = await add();
    const offer = offerFixture(s);
    expect(await store.insertOffer(offer, entryFor(s, 'shift_offered'))).toBe(true);
    expect(await store.getOffer(wsId, s.id, offer.id)).toEqual(offer);
    const taker = randomUUID();
    const override = (user: string) =>
      overrideFixture(s, offer.starts_at, offer.ends_at, {
        user_id: user,
        offer_id: offer.id,
        created_by: user,
      });
    const first = override(taker);
    const second = override(randomUUID());
    const [r1, r2] = await Promise.all([
      store.closeOffer({
        workspaceId: wsId,
        scheduleId: s.id,
        offerId: offer.id,
        status: 'taken',
        override: first,
        entry: entryFor(s, 'shift_taken', at(3)),
      }),
      store.closeOffer({
        workspaceId: wsId,
        scheduleId: s.id,
        offerId: offer.id,
        status: 'assigned',
        override: second,
        entry: entryFor(s, 'shift_assigned', at(3)),
      }),
    ]);
    expect([r1, r2].sort()).toEqual(['closed', 'not_open']);
    const won = r1 === 'closed' ? first : second;
    const lost = r1 === 'closed' ? second : first;
    const stored = await store.getOffer(wsId, s.id, offer.id);
    expect(stored).toEqual({
      ...offer,
      status: r1 === 'closed' ? 'taken' : 'assigned',
      taken_by: won.user_id,
      override_id: won.id,
      closed_at: at(3),
    });
    expect(await store.getOverride(wsId, s.id, won.id)).toEqual(won);
    expect(await store.getOverride(wsId, s.id, lost.id)).toBeNull();
    const actions = (await store.listHistory(wsId, s.id, { limit: 10 })).data.map((e) => e.action);
    expect(actions.filter((a) => a === 'shift_taken' || a === 'shift_assigned')).toHaveLength(1);
    expect(await store.withdrawOffer(wsId, s.id, offer.id, entryFor(s, 'offer_withdrawn'))).toBe('not_open');
    expect(
      await store.closeOffer({
        workspaceId: wsId,
        scheduleId: s.id,
        offerId: randomUUID(),
        status: 'taken',
        override: override(taker),
        entry: entryFor(s, 'shift_taken'),
      }),
    ).toBe('not_found');
  });

  it('withdraws an open offer, lists offers by status, and keeps other workspaces out', async () => {
    const s = await add();
    const a = offerFixture(s, { created_at: at(1) });
    const b = offerFixture(s, { created_at: at(2) });
    await store.insertOffer(a, entryFor(s, 'shift_offered'));
    await store.insertOffer(b, entryFor(s, 'shift_offered'));
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect(await store.withdrawOffer(other.workspace.id, s.id, a.id, entryFor(s, 'offer_withdrawn'))).toBe(
      'not_found',
    );
    expect(await store.getOffer(other.workspace.id, s.id, a.id)).toBeNull();
    expect(await store.withdrawOffer(wsId, s.id, a.id, entryFor(s, 'offer_withdrawn', at(4)))).toBe(
      'withdrawn',
    );
    expect((await store.listOffers(wsId, s.id)).map((o) => o.id)).toEqual([b.id, a.id]);
    expect((await store.listOffers(wsId, s.id, 'open')).map((o) => o.id)).toEqual([b.id]);
    expect(await store.listOffers(wsId, s.id, 'withdrawn')).toEqual([
      { ...a, status: 'withdrawn', closed_at: at(4) },
    ]);
    expect(await store.listOffers(other.workspace.id, s.id)).toEqual([]);
  });

  it('deletes a schedule with its overrides, offers and history', async () => {
    const s = await add();
    const keep = await add();
    const o = overrideFixture(s, at(0), at(DAY));
    const k = overrideFixture(keep, at(0), at(DAY));
    await store.insertOverride(o, entryFor(s, 'override_added'));
    await store.insertOverride(k, entryFor(keep, 'override_added'));
    const offer = offerFixture(s);
    await store.insertOffer(offer, entryFor(s, 'shift_offered'));
    expect(await store.deleteSchedule(wsId, s.id)).toBe(true);
    expect(await store.getSchedule(wsId, s.id)).toBeNull();
    expect(await store.getOverride(wsId, s.id, o.id)).toBeNull();
    expect(await store.getOffer(wsId, s.id, offer.id)).toBeNull();
    expect((await store.listHistory(wsId, s.id, { limit: 10 })).data).toEqual([]);
    expect(await store.getOverride(wsId, keep.id, k.id)).toEqual(k);
    expect((await store.listHistory(wsId, keep.id, { limit: 10 })).data).toHaveLength(2);
    expect(await store.deleteSchedule(wsId, s.id)).toBe(false);
  });

  it('prunes overrides ended, offers closed or stale and history older than the cuts, and nothing newer', async () => {
    const s = await add();
    const old = overrideFixture(s, at(-20 * DAY), at(-10 * DAY));
    const recent = overrideFixture(s, at(-2 * DAY), at(-DAY));
    await store.insertOverride(old, entryFor(s, 'override_added', at(-20 * DAY)));
    await store.insertOverride(recent, entryFor(s, 'override_added', at(-2 * DAY)));
    const closed = offerFixture(s, { starts_at: at(-20 * DAY), ends_at: at(-19 * DAY) });
    const stale = offerFixture(s, { starts_at: at(-20 * DAY), ends_at: at(-19 * DAY) });
    const open = offerFixture(s);
    for (const o of [closed, stale, open]) await store.insertOffer(o, entryFor(s, 'shift_offered', at(0)));
    await store.withdrawOffer(wsId, s.id, closed.id, entryFor(s, 'offer_withdrawn', at(-15 * DAY)));
    const cut = { overridesBefore: at(-5 * DAY), offersBefore: at(-5 * DAY), historyBefore: at(-5 * DAY) };
    // created (T0), two override entries, three offers, the withdrawal: the two entries before the cut go.
    expect(await store.pruneSchedules(cut, 100)).toBe(1 + 2 + 2);
    expect(await store.getOverride(wsId, s.id, old.id)).toBeNull();
    expect(await store.getOverride(wsId, s.id, recent.id)).toEqual(recent);
    expect((await store.listOffers(wsId, s.id)).map((o) => o.id)).toEqual([open.id]);
    expect((await store.listHistory(wsId, s.id, { limit: 20 })).data).toHaveLength(5);
    expect(await store.pruneSchedules(cut, 100)).toBe(0);
  });
});
