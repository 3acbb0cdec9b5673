/**
 * NotificationGroupStore contract (domain/escalation/notification-group-store.ts): grouped
 * notifications wait in the store by the window rule (domain/escalation/group-window.ts), are taken
 * by compare-and-set, and leave nothing without a due time.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type GroupedItem,
  groupId,
} from '../../control-plane/src/domain/escalation/notification-group-store.js';
import { at } from './fixtures.js';
import { contract } from './stores.js';

const WAIT = 5_000;
const INTERVAL = 60_000;
const timing = (s: number) => ({ now: at(s), waitMs: WAIT, intervalMs: INTERVAL });

contract('NotificationGroupStore', (ctx) => {
  const setup = () => {
    const { store, ws } = ctx();
    const w = ws.workspace.id;
    const policy = randomUUID();
    const rk = `channel:${randomUUID()}`;
    const gid = groupId(w, policy, rk);
    const item = (s: number, over: Partial<GroupedItem> = {}): GroupedItem => ({
      id: `${randomUUID()}:${policy}:0:0:${rk}`,
      workspace_id: w,
      group_id: gid,
      alert_id: randomUUID(),
      event: 'raised',
      step: 0,
      round: 0,
      created_at: at(s),
      ...over,
    });
    const queue = (i: GroupedItem, s: number) =>
      store.queueGroupedItem(i, { policy_id: policy, recipient_key: rk }, timing(s));
    return { store, w, policy, rk, gid, item, queue };
  };

  describe('grouped notifications', () => {
    it('the first waits group_wait; later ones join it; an item is queued once', async () => {
      const { store, gid, item, queue, policy, rk } = setup();
      const a = item(0);
      expect(await queue(a, 0)).toBe(true);
      expect(await queue(a, 1)).toBe(false);
      const b = item(2);
      expect(await queue(b, 2)).toBe(true);
      expect(await store.listDueGroups(at(4), 10)).toEqual([]);
      const [g] = await store.listDueGroups(at(5), 10);
      expect(g).toMatchObject({ id: gid, policy_id: policy, recipient_key: rk, due_at: at(5), claim: null });
      expect(await store.listGroupItems(gid, 10)).toEqual([a, b]);
    });

    it('claimed by one replica only; finishing deletes what was sent and keeps the window', async () => {
      const { store, gid, item, queue } = setup();
      const a = item(0);
      const b = item(1);
      await queue(a, 0);
      await queue(b, 1);
      const claimed = await store.claimGroup(gid, at(5), 'c1', at(125));
      expect(claimed).toMatchObject({ claim: 'c1', due_at: at(125) });
      expect(await store.claimGroup(gid, at(5), 'c2', at(125))).toBeNull();
      expect(
        await store.finishGroup(gid, 'c2', { itemIds: [a.id, b.id], at: at(6), intervalMs: INTERVAL }),
      ).toBe(false);
      // Queued while the flush runs: it stays, and the group is due one interval after the flush.
      const c = item(6);
      await queue(c, 6);
      expect(
        await store.finishGroup(gid, 'c1', { itemIds: [a.id, b.id], at: at(6), intervalMs: INTERVAL }),
      ).toBe(true);
      expect(await store.listGroupItems(gid, 10)).toEqual([c]);
      const [g] = await store.listDueGroups(at(66), 10);
      expect(g).toMatchObject({ due_at: at(66), last_flush_at: at(6), claim: null });
    });

    it('idle after a flush: the next arrival within the interval waits for it, a later one waits group_wait', async () => {
      const { store, gid, item, queue } = setup();
      await queue(item(0), 0);
      await store.claimGroup(gid, at(5), 'c1', at(125));
      const sent = await store.listGroupItems(gid, 10);
      await store.finishGroup(gid, 'c1', { itemIds: sent.map((i) => i.id), at: at(5), intervalMs: INTERVAL });
      expect(await store.listDueGroups(at(10_000), 10)).toEqual([]);
      await queue(item(20), 20);
      expect((await store.listDueGroups(at(10_000), 10))[0]?.due_at).toEqual(at(65));
      await store.claimGroup(gid, at(65), 'c2', at(185));
      const more = await store.listGroupItems(gid, 10);
      await store.finishGroup(gid, 'c2', {
        itemIds: more.map((i) => i.id),
        at: at(65),
        intervalMs: INTERVAL,
      });
      // Quiet for longer than the interval: a new burst waits group_wait again.
      await queue(item(300), 300);
      expect((await store.listDueGroups(at(10_000), 10))[0]?.due_at).toEqual(at(305));
    });

    it('prunes only idle groups last sent before the time given', async () => {
      const { store, gid, item, queue, w } = setup();
      await queue(item(0), 0);
      await store.claimGroup(gid, at(5), 'c1', at(125));
      const sent = await store.listGroupItems(gid, 10);
      await store.finishGroup(gid, 'c1', { itemIds: sent.map((i) => i.id), at: at(5), intervalMs: INTERVAL });
      const other = groupId(w, randomUUID(), 'user:x');
      await store.queueGroupedItem(
        item(0, { group_id: other, id: 'waiting' }),
        { policy_id: 'p', recipient_key: 'user:x' },
        timing(0),
      );
      expect(await store.pruneNotificationGroups(at(5), 10)).toBe(0);
      expect(await store.pruneNotificationGroups(at(6), 10)).toBe(1);
      expect((await store.listDueGroups(at(10), 10)).map((g) => g.id)).toEqual([other]);
    });
  });
});
