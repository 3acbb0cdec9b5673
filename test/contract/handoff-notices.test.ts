/**
 * HandoffNoticeStore contract: each user's settings (by workspace), one cursor per schedule (set,
 * moved, listed when due, claimed by compare-and-set once), notices claimed once by their key, and
 * retention by age.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import type { HandoffNotice } from '../../control-plane/src/domain/oncall/handoff-notice-store.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at } from './fixtures.js';
import { contract } from './stores.js';

contract('HandoffNoticeStore', (c) => {
  let store: Store;
  let wsId: string;
  beforeEach(() => {
    const made = c();
    store = made.store;
    wsId = made.ws.workspace.id;
  });

  it('keeps each user’s settings per workspace, replaced whole', async () => {
    const user = randomUUID();
    expect(await store.getHandoffSettings(wsId, user)).toBeNull();
    const s = { workspace_id: wsId, user_id: user, enabled: true, lead_minutes: 90, updated_at: at(1) };
    await store.putHandoffSettings(s);
    expect(await store.getHandoffSettings(wsId, user)).toEqual(s);
    const next = { ...s, enabled: false, lead_minutes: 5, updated_at: at(2) };
    await store.putHandoffSettings(next);
    expect(await store.getHandoffSettings(wsId, user)).toEqual(next);
    expect(await store.getHandoffSettings(randomUUID(), user)).toBeNull();
  });

  it('lists due cursors soonest first, claims each once, moves and deletes them', async () => {
    const [a, b, later] = [randomUUID(), randomUUID(), randomUUID()];
    const other = randomUUID();
    await store.setHandoffCursor({ workspace_id: wsId, schedule_id: a, due_at: at(20) });
    await store.setHandoffCursor({ workspace_id: wsId, schedule_id: b, due_at: at(10) });
    await store.setHandoffCursor({ workspace_id: wsId, schedule_id: later, due_at: at(100) });
    await store.setHandoffCursor({ workspace_id: other, schedule_id: a, due_at: at(100) });
    const due = await store.listDueHandoffCursors(at(50), 10);
    expect(due.map((x) => x.schedule_id)).toEqual([b, a]);
    expect(due[0]).toEqual({ workspace_id: wsId, schedule_id: b, due_at: at(10) });
    expect(await store.listDueHandoffCursors(at(50), 1)).toHaveLength(1);
    // Two replicas claim the same due cursor: one wins.
    expect(await store.claimHandoffCursor(wsId, b, at(10), at(70))).toBe(true);
    expect(await store.claimHandoffCursor(wsId, b, at(10), at(70))).toBe(false);
    expect((await store.listDueHandoffCursors(at(50), 10)).map((x) => x.schedule_id)).toEqual([a]);
    // Set again (upsert): moved wherever it was.
    await store.setHandoffCursor({ workspace_id: wsId, schedule_id: b, due_at: at(5) });
    expect((await store.listDueHandoffCursors(at(50), 10)).map((x) => x.schedule_id)).toEqual([b, a]);
    // A lead changed: every later cursor of the workspace comes due now, none of another workspace's.
    await store.advanceHandoffCursors(wsId, at(30));
    expect((await store.listDueHandoffCursors(at(30), 10)).map((x) => x.schedule_id)).toEqual([b, a, later]);
    expect((await store.listDueHandoffCursors(at(30), 10)).map((x) => x.due_at)).toEqual([
      at(5),
      at(20),
      at(30),
    ]);
    await store.deleteHandoffCursor(wsId, later);
    expect((await store.listDueHandoffCursors(at(99), 10)).map((x) => x.schedule_id)).toEqual([b, a]);
    expect((await store.listDueHandoffCursors(at(100), 10)).map((x) => x.workspace_id)).toContain(other);
  });

  it('claims a notice once by its key, and prunes old ones', async () => {
    const notice = (key: string, sent: number): HandoffNotice => ({
      key,
      workspace_id: wsId,
      schedule_id: randomUUID(),
      user_id: randomUUID(),
      shift_starts_at: at(100),
      kind: 'before',
      sent_at: at(sent),
    });
    const k = `${randomUUID()}:x:1:before`;
    expect(await store.claimHandoffNotice(notice(k, 1))).toBe(true);
    expect(await store.claimHandoffNotice(notice(k, 2))).toBe(false);
    const k2 = `${randomUUID()}:x:1:start`;
    expect(await store.claimHandoffNotice(notice(k2, 50))).toBe(true);
    expect(await store.pruneHandoffNotices(at(10), 100)).toBe(1);
    // The pruned key can be claimed again; the kept one cannot.
    expect(await store.claimHandoffNotice(notice(k, 60))).toBe(true);
    expect(await store.claimHandoffNotice(notice(k2, 60))).toBe(false);
  });
});

contract('SchedulePolicyLookup', (c) => {
  it('names the policies whose steps name a schedule, by name, in the workspace only', async () => {
    const { store, ws } = c();
    const wsId = ws.workspace.id;
    const [primary, other] = [randomUUID(), randomUUID()];
    const policy = (name: string, steps: { notify_schedule_ids?: string[] }[]) => ({
      id: randomUUID(),
      workspace_id: wsId,
      name,
      is_default: false,
      steps: steps.map((s) => ({ wait_minutes: 0, notify_user_ids: [], notify_channel_ids: [], ...s })),
      repeat: 0,
      support_hours: null,
      created_at: at(1),
      updated_at: at(1),
    });
    const b = policy('B', [{ notify_schedule_ids: [other] }, { notify_schedule_ids: [primary, other] }]);
    const a = policy('A', [{ notify_schedule_ids: [primary] }]);
    // A step stored before schedules existed has no notify_schedule_ids at all.
    const old = policy('C', [{}]);
    for (const p of [b, a, old]) await store.insertEscalationPolicy(p);
    expect(await store.policiesNamingSchedule(wsId, primary, 10)).toEqual([
      { id: a.id, name: 'A' },
      { id: b.id, name: 'B' },
    ]);
    expect(await store.policiesNamingSchedule(wsId, primary, 1)).toEqual([{ id: a.id, name: 'A' }]);
    expect(await store.policiesNamingSchedule(wsId, randomUUID(), 10)).toEqual([]);
    expect(await store.policiesNamingSchedule(randomUUID(), primary, 10)).toEqual([]);
  });
});
