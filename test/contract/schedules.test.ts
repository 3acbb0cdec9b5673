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
import { finalShifts, onCallAt } from '../../control-plane/src/domain/oncall/shifts.js';
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

  it('reads the users a schedule names, of this workspace only, in one read', async () => {
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect(await store.getScheduleUsers(wsId, [ws.admin.id, other.admin.id, randomUUID()])).toEqual([
      { id: ws.admin.id, email: ws.admin.email },
    ]);
    expect(await store.getScheduleUsers(wsId, [])).toEqual([]);
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
      expect(await store.insertOverride(o, entryFor(s, 'override_added'))).toBe('inserted');
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
    ).toBe('not_found');
  });

  it('caps the overrides not yet ended and the open offers of a schedule', async () => {
    const s = await add();
    const ended = overrideFixture(s, at(-DAY), at(-1));
    expect(await store.insertOverride(ended, entryFor(s, 'override_added'))).toBe('inserted');
    const upcoming = (n: number) => overrideFixture(s, at(n * 60), at(n * 60 + 30));
    const limit = { maxUpcoming: 2 };
    expect(await store.insertOverride(upcoming(1), entryFor(s, 'override_added'), limit)).toBe('inserted');
    expect(await store.insertOverride(upcoming(2), entryFor(s, 'override_added'), limit)).toBe('inserted');
    const refused = upcoming(3);
    expect(await store.insertOverride(refused, entryFor(s, 'override_added'), limit)).toBe('limit_reached');
    expect(await store.getOverride(wsId, s.id, refused.id)).toBeNull();
    const offers = [offerFixture(s), offerFixture(s)];
    expect(await store.insertOffer(offers[0]!, entryFor(s, 'shift_offered'), { maxOpen: 1 })).toBe(
      'inserted',
    );
    expect(await store.insertOffer(offers[1]!, entryFor(s, 'shift_offered'), { maxOpen: 1 })).toBe(
      'limit_reached',
    );
    await store.withdrawOffer(wsId, s.id, offers[0]!.id, entryFor(s, 'offer_withdrawn'));
    expect(await store.insertOffer(offers[1]!, entryFor(s, 'shift_offered'), { maxOpen: 1 })).toBe(
      'inserted',
    );
    // 1 created, 1 ended + 2 upcoming overrides, 2 offers and a withdrawal: nothing refused was written.
    expect((await store.listHistory(wsId, s.id, { limit: 100 })).data).toHaveLength(7);
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
    expect(await store.insertOffer(offer, entryFor(s, 'shift_offered'))).toBe('inserted');
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

/**
 * The rotation and DST cases through each store: schedules in four time zones are stored, read back
 * and asked who is on call; the expected instants are written by hand. A store that mangles a date,
 * a time zone or the order of layers gives other answers.
 */
contract('ScheduleStore rotations', (c) => {
  const [A, B, C] = [randomUUID(), randomUUID(), randomUUID()];
  const who = (id: string) => (id === A ? 'A' : id === B ? 'B' : id === C ? 'C' : id);
  const z = (s: string) => new Date(s);
  const storedAndRead = async (s: Schedule, overrides: ScheduleOverride[] = []) => {
    const { store } = c();
    expect(await store.insertSchedule(s, entryFor(s, 'created'), cap)).toBe('inserted');
    for (const o of overrides)
      expect(await store.insertOverride(o, entryFor(s, 'override_added'))).toBe('inserted');
    const read = (await store.getSchedule(s.workspace_id, s.id))!;
    return {
      shifts: async (from: string, to: string) =>
        finalShifts(
          read,
          await store.listOverrides(s.workspace_id, s.id, z(from), z(to)),
          z(from),
          z(to),
        ).map((x) => [who(x.user_id), x.starts_at.toISOString(), x.ends_at.toISOString(), x.source.kind]),
      onCall: async (at: string) => {
        const a = onCallAt(
          read,
          await store.listOverrides(s.workspace_id, s.id, z(at), new Date(z(at).getTime() + 93 * DAY * 1000)),
          z(at),
        );
        return {
          user: a.shift ? who(a.shift.user_id) : null,
          source: a.shift?.source.kind ?? null,
          until: a.until?.toISOString() ?? null,
          next: a.next ? [who(a.next.user_id), a.next.starts_at.toISOString()] : null,
        };
      },
    };
  };
  const layer = (over: Partial<Schedule['layers'][number]>): Schedule['layers'][number] => ({
    name: 'L',
    users: [A, B],
    rotation: 'daily',
    shift_seconds: null,
    handoff: '09:00',
    handoff_day: null,
    starts_at: z('2026-03-27T08:00:00Z'),
    restrictions: [],
    ...over,
  });

  it('Europe/Berlin: daily 09:00 handoffs make a 23-hour shift in March and a 25-hour one in October', async () => {
    const s = scheduleFixture(c().ws.workspace.id, {
      timezone: 'Europe/Berlin',
      layers: [layer({ starts_at: z('2026-03-27T09:00:00+01:00') })],
    });
    const q = await storedAndRead(s);
    expect(await q.shifts('2026-03-27T08:00:00Z', '2026-03-30T07:00:00Z')).toEqual([
      ['A', '2026-03-27T08:00:00.000Z', '2026-03-28T08:00:00.000Z', 'layer'],
      ['B', '2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z', 'layer'],
      ['A', '2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z', 'layer'],
    ]);
    expect(await q.shifts('2026-10-24T07:00:00Z', '2026-10-26T08:00:00Z')).toEqual([
      ['B', '2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z', 'layer'],
      ['A', '2026-10-25T08:00:00.000Z', '2026-10-26T08:00:00.000Z', 'layer'],
    ]);
    expect(await q.onCall('2026-10-25T01:30:00Z')).toEqual({
      user: 'B',
      source: 'layer',
      until: '2026-10-25T08:00:00.000Z',
      next: ['A', '2026-10-25T08:00:00.000Z'],
    });
  });

  it('America/New_York: weekly Monday handoffs across both DST changes, and a later layer restricted across a handoff', async () => {
    const weekly = layer({
      name: 'Weekly',
      users: [A, B, C],
      rotation: 'weekly',
      handoff_day: 'mon',
      starts_at: z('2026-03-02T09:00:00-05:00'),
    });
    const mornings = layer({
      name: 'Monday mornings',
      users: [C],
      handoff: '00:00',
      starts_at: z('2026-03-01T00:00:00-05:00'),
      restrictions: [{ days: ['mon'], start: '08:00', end: '10:00' }],
    });
    const q = await storedAndRead(
      scheduleFixture(c().ws.workspace.id, { timezone: 'America/New_York', layers: [weekly, mornings] }),
    );
    // Monday 2 March 09:00 EST: the first handoff falls inside the mornings (08:00 to 10:00), so C first.
    expect(await q.shifts('2026-03-02T14:00:00Z', '2026-03-16T13:00:00Z')).toEqual([
      ['C', '2026-03-02T14:00:00.000Z', '2026-03-02T15:00:00.000Z', 'layer'],
      ['A', '2026-03-02T15:00:00.000Z', '2026-03-09T12:00:00.000Z', 'layer'],
      ['C', '2026-03-09T12:00:00.000Z', '2026-03-09T14:00:00.000Z', 'layer'],
      ['B', '2026-03-09T14:00:00.000Z', '2026-03-16T12:00:00.000Z', 'layer'],
      ['C', '2026-03-16T12:00:00.000Z', '2026-03-16T13:00:00.000Z', 'layer'],
    ]);
    // November: the mornings are 08:00 to 10:00 EST (13:00Z to 15:00Z), C's weekly turn from Monday 2
    // November 09:00 EST (14:00Z) runs into them and on to A's turn, which the next mornings hide to 15:00Z.
    expect(await q.shifts('2026-10-26T14:00:00Z', '2026-11-09T16:00:00Z')).toEqual([
      ['B', '2026-10-26T14:00:00.000Z', '2026-11-02T13:00:00.000Z', 'layer'],
      ['C', '2026-11-02T13:00:00.000Z', '2026-11-09T15:00:00.000Z', 'layer'],
      ['A', '2026-11-09T15:00:00.000Z', '2026-11-09T16:00:00.000Z', 'layer'],
    ]);
    expect(await q.onCall('2026-10-27T12:00:00Z')).toEqual({
      user: 'B',
      source: 'layer',
      until: '2026-11-02T13:00:00.000Z',
      next: ['C', '2026-11-02T13:00:00.000Z'],
    });
    // Without the mornings, the weekly handoffs alone: 09:00 EDT (13:00Z) then 09:00 EST (14:00Z), a 169-hour week.
    const plain = await storedAndRead(
      scheduleFixture(c().ws.workspace.id, { timezone: 'America/New_York', layers: [weekly] }),
    );
    expect(await plain.shifts('2026-10-26T12:00:00Z', '2026-11-02T15:00:00Z')).toEqual([
      ['A', '2026-10-26T12:00:00.000Z', '2026-10-26T13:00:00.000Z', 'layer'],
      ['B', '2026-10-26T13:00:00.000Z', '2026-11-02T14:00:00.000Z', 'layer'],
      ['C', '2026-11-02T14:00:00.000Z', '2026-11-02T15:00:00.000Z', 'layer'],
    ]);
  });

  it('Australia/Lord_Howe: a 24.5-hour shift over the half-hour change, and a custom layer that starts in the future', async () => {
    const daily = layer({ starts_at: z('2026-04-03T09:00:00+11:00') });
    const future = layer({
      name: 'Custom',
      users: [C, A],
      rotation: 'custom',
      shift_seconds: 43_200,
      starts_at: z('2026-04-06T00:00:00+10:30'),
    });
    const q = await storedAndRead(
      scheduleFixture(c().ws.workspace.id, { timezone: 'Australia/Lord_Howe', layers: [daily, future] }),
    );
    expect(await q.shifts('2026-04-02T22:00:00Z', '2026-04-06T22:30:00Z')).toEqual([
      ['A', '2026-04-02T22:00:00.000Z', '2026-04-03T22:00:00.000Z', 'layer'],
      ['B', '2026-04-03T22:00:00.000Z', '2026-04-04T22:30:00.000Z', 'layer'],
      ['A', '2026-04-04T22:30:00.000Z', '2026-04-05T13:30:00.000Z', 'layer'],
      ['C', '2026-04-05T13:30:00.000Z', '2026-04-05T22:30:00.000Z', 'layer'],
      ['A', '2026-04-05T22:30:00.000Z', '2026-04-06T10:30:00.000Z', 'layer'],
      ['C', '2026-04-06T10:30:00.000Z', '2026-04-06T22:30:00.000Z', 'layer'],
    ]);
    expect(await q.onCall('2026-04-05T12:00:00Z')).toEqual({
      user: 'A',
      source: 'layer',
      until: '2026-04-05T13:30:00.000Z',
      next: ['C', '2026-04-05T13:30:00.000Z'],
    });
  });

  it('Asia/Kolkata: an override across a handoff beats the layer on both sides of it', async () => {
    const s = scheduleFixture(c().ws.workspace.id, {
      timezone: 'Asia/Kolkata',
      layers: [layer({ starts_at: z('2026-03-02T09:00:00+05:30') })],
    });
    const o = overrideFixture(s, z('2026-03-03T00:00:00Z'), z('2026-03-03T06:00:00Z'), { user_id: C });
    const q = await storedAndRead(s, [o]);
    expect(await q.shifts('2026-03-02T03:30:00Z', '2026-03-04T03:30:00Z')).toEqual([
      ['A', '2026-03-02T03:30:00.000Z', '2026-03-03T00:00:00.000Z', 'layer'],
      ['C', '2026-03-03T00:00:00.000Z', '2026-03-03T06:00:00.000Z', 'override'],
      ['B', '2026-03-03T06:00:00.000Z', '2026-03-04T03:30:00.000Z', 'layer'],
    ]);
    expect(await q.onCall('2026-03-03T03:00:00Z')).toEqual({
      user: 'C',
      source: 'override',
      until: '2026-03-03T06:00:00.000Z',
      next: ['B', '2026-03-03T06:00:00.000Z'],
    });
  });

  it('a user removed from the workspace leaves its schedules in the removal’s own step: rotation rewritten, future overrides and open offers gone, history written', async () => {
    const { store, ws } = c();
    const wsId = ws.workspace.id;
    const leaver = {
      ...fixtures.workspace().admin,
      id: randomUUID(),
      workspace_id: wsId,
      email: `leaver@${ws.workspace.subdomain}.test`,
      role: 'member' as const,
    };
    await store.createUser(leaver);
    const s = scheduleFixture(wsId, {
      name: 'Leavers',
      timezone: 'Asia/Kolkata',
      layers: [
        layer({ users: [A, leaver.id, B], starts_at: z('2026-03-02T09:00:00+05:30') }),
        layer({ users: [leaver.id] }),
      ],
    });
    expect(await store.insertSchedule(s, entryFor(s, 'created'), cap)).toBe('inserted');
    const now = z('2026-03-03T12:00:00Z'); // shift 1 of layer 1: the leaver's turn
    const past = overrideFixture(s, z('2026-03-01T00:00:00Z'), z('2026-03-01T06:00:00Z'), {
      user_id: leaver.id,
    });
    const running = overrideFixture(s, z('2026-03-03T10:00:00Z'), z('2026-03-03T14:00:00Z'), {
      user_id: leaver.id,
    });
    const future = overrideFixture(s, z('2026-03-05T00:00:00Z'), z('2026-03-05T06:00:00Z'), {
      user_id: leaver.id,
    });
    for (const o of [past, running, future]) await store.insertOverride(o, entryFor(s, 'override_added'));
    const offer = offerFixture(s, { user_id: leaver.id });
    await store.insertOffer(offer, entryFor(s, 'shift_offered'));
    const r = await store.removeUser(wsId, leaver.id, now);
    expect(r).toMatchObject({
      outcome: 'removed',
      schedules: [{ id: s.id, name: 'Leavers', empty_layers: [2] }],
    });
    const after = (await store.getSchedule(wsId, s.id))!;
    expect(after.layers.map((l) => l.users.map(who))).toEqual([['A', 'B'], []]);
    expect(after.updated_at).toEqual(now);
    // B, next in turn, takes over at once; A's turn follows at the next handoff.
    expect(
      finalShifts(after, [], now, z('2026-03-05T03:30:00Z')).map((x) => [
        who(x.user_id),
        x.starts_at.toISOString(),
      ]),
    ).toEqual([
      ['B', '2026-03-03T12:00:00.000Z'],
      ['A', '2026-03-04T03:30:00.000Z'],
    ]);
    expect(await store.getOverride(wsId, s.id, future.id)).toBeNull();
    expect((await store.getOverride(wsId, s.id, running.id))?.ends_at).toEqual(now);
    expect(await store.getOverride(wsId, s.id, past.id)).toEqual(past);
    expect(await store.getOffer(wsId, s.id, offer.id)).toBeNull();
    const [entry] = (await store.listHistory(wsId, s.id, { limit: 1 })).data;
    expect(entry).toMatchObject({ action: 'user_removed', actor_id: null, at: now });
    expect(entry!.detail).toMatch(
      /^leaver@.* left the workspace: taken out of layers 1, 2 \(layer 2 now covers nobody\)/,
    );
  });
});
