/**
 * StatusSubscriberStore contract (domain/status-pages/subscriber-store.ts): one subscriber per page and
 * email, single-use expiring confirmation, the confirmation window, deletion with queued mail, the
 * pending retention, and the outbox: an incident update's event stored with the update, fanned out
 * once per confirmed subscriber, claimed by compare-and-set.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshProof } from '../../control-plane/src/domain/status-pages/custom-domain-proof.js';
import type { Incident, StatusPage } from '../../control-plane/src/domain/status-pages/status-page-store.js';
import type {
  StatusSubscriber,
  SubscriberMail,
} from '../../control-plane/src/domain/status-pages/subscriber-store.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, T0 } from './fixtures.js';
import { contract } from './stores.js';

const HOUR = 3_600_000;

const page = (workspaceId: string): StatusPage => ({
  id: randomUUID(),
  workspace_id: workspaceId,
  name: 'Acme',
  slug: `acme-${randomUUID().slice(0, 6)}`,
  custom_domain: null,
  ...freshProof(null),
  visibility: 'public',
  password_hash: null,
  cookie_secret: 'k',
  accent_color: null,
  auto_draft_incidents: false,
  components: [],
  created_at: T0,
  updated_at: T0,
});

const subscriber = (p: StatusPage, over: Partial<StatusSubscriber> = {}): StatusSubscriber => ({
  id: randomUUID(),
  workspace_id: p.workspace_id,
  page_id: p.id,
  email: `r-${randomUUID().slice(0, 6)}@example.test`,
  status: 'pending',
  confirm_hash: null,
  confirm_expires_at: null,
  confirm_sent_at: null,
  unsubscribe_hash: randomUUID(),
  unsubscribe_sealed: 'plain:x',
  created_at: T0,
  confirmed_at: null,
  ...over,
});

const confirmMail = (s: StatusSubscriber, due: Date): SubscriberMail => ({
  id: `confirm:${s.id}`,
  workspace_id: s.workspace_id,
  page_id: s.page_id,
  subscriber_id: s.id,
  kind: 'confirm',
  incident_id: null,
  update_id: null,
  due_at: due,
  attempts: 0,
  created_at: due,
});

const incident = (p: StatusPage, updateAt: Date): Incident => ({
  id: randomUUID(),
  workspace_id: p.workspace_id,
  page_id: p.id,
  title: 'Down',
  status: 'investigating',
  published: true,
  auto_key: null,
  components: {},
  updates: [
    {
      id: randomUUID(),
      status: 'investigating',
      message: 'x',
      components: {},
      created_at: updateAt,
      created_by: null,
    },
  ],
  postmortem: null,
  created_at: updateAt,
  updated_at: updateAt,
  resolved_at: null,
  version: 1,
});

const confirmed = async (store: Store, p: StatusPage, when: Date) => {
  const s = await store.addSubscriber(subscriber(p));
  expect(await store.requestConfirmation(s.id, when, new Date(0), confirmMail(s, when))).toBe(true);
  const hash = randomUUID();
  await store.setConfirmToken(s.id, hash, new Date(when.getTime() + HOUR));
  return (await store.confirmSubscriber(hash, when))!;
};

contract('StatusSubscriberStore', (ctx) => {
  describe('subscribers', () => {
    it('one per page and email; confirmation is single use and expires; listed, counted, deleted', async () => {
      const { store, ws } = ctx();
      const p = page(ws.workspace.id);
      await store.insertStatusPage(p);
      const s = subscriber(p);
      expect(await store.addSubscriber(s)).toEqual(s);
      // The same address again: the stored one comes back, nothing new is stored.
      expect(await store.addSubscriber({ ...subscriber(p), email: s.email })).toEqual(s);
      expect(await store.getSubscriberByUnsubscribeHash(s.unsubscribe_hash)).toEqual(s);

      await store.setConfirmToken(s.id, 'h1', at(60));
      expect(await store.getSubscriberByConfirmHash('h1')).toMatchObject({ id: s.id });
      expect(await store.confirmSubscriber('h1', at(60))).toBeNull(); // expired at that instant
      await store.setConfirmToken(s.id, 'h2', at(120));
      expect(await store.confirmSubscriber('h1', at(1))).toBeNull(); // replaced
      const c = await store.confirmSubscriber('h2', at(1));
      expect(c).toMatchObject({ id: s.id, status: 'confirmed', confirm_hash: null, confirmed_at: at(1) });
      expect(await store.confirmSubscriber('h2', at(1))).toBeNull(); // single use
      expect(await store.countSubscribers(ws.workspace.id, p.id)).toBe(1);

      const later = subscriber(p, { created_at: at(5) });
      await store.addSubscriber(later);
      const first = await store.listSubscribers(ws.workspace.id, p.id, { limit: 1 });
      expect(first.data.map((x) => x.id)).toEqual([later.id]);
      const rest = await store.listSubscribers(ws.workspace.id, p.id, {
        limit: 1,
        cursor: first.next_cursor!,
      });
      expect(rest.data.map((x) => x.id)).toEqual([s.id]);
      expect(await store.countSubscribers(randomUUID(), p.id)).toBe(0);
      expect(await store.getSubscriber(randomUUID(), p.id, s.id)).toBeNull();
      expect(await store.deleteSubscriber(randomUUID(), p.id, s.id)).toBe(false);
      expect(await store.deleteSubscriber(ws.workspace.id, p.id, s.id)).toBe(true);
      expect(await store.countSubscribers(ws.workspace.id, p.id)).toBe(0);
    });

    it('at most one confirmation mail per window; pending subscribers pruned with their mail', async () => {
      const { store, ws } = ctx();
      const p = page(ws.workspace.id);
      await store.insertStatusPage(p);
      const s = await store.addSubscriber(subscriber(p));
      expect(await store.requestConfirmation(s.id, at(0), at(-60), confirmMail(s, at(0)))).toBe(true);
      expect(await store.requestConfirmation(s.id, at(10), at(-50), confirmMail(s, at(10)))).toBe(false);
      expect(await store.listDueMails(at(100), 10)).toHaveLength(1);
      expect(await store.requestConfirmation(s.id, at(70), at(10), confirmMail(s, at(70)))).toBe(true);
      expect(await store.listDueMails(at(100), 10)).toMatchObject([
        { id: `confirm:${s.id}`, due_at: at(70) },
      ]);

      const c = await confirmed(store, p, at(0));
      expect(await store.prunePendingSubscribers(at(1), 10)).toBe(1);
      expect(await store.getSubscriber(ws.workspace.id, p.id, s.id)).toBeNull();
      expect(await store.getSubscriber(ws.workspace.id, p.id, c.id)).not.toBeNull();
      expect((await store.listDueMails(at(100), 10)).map((m) => m.subscriber_id)).toEqual([c.id]);
    });
  });

  describe('the outbox', () => {
    it('an update’s event is stored with it, fans out once per confirmed subscriber, and is claimed once', async () => {
      const { store, ws } = ctx();
      const p = page(ws.workspace.id);
      await store.insertStatusPage(p);
      const a = await confirmed(store, p, at(0));
      const b = await confirmed(store, p, at(0));
      await store.addSubscriber(subscriber(p)); // pending: no mail
      for (const m of await store.listDueMails(at(100), 10)) await store.finishMail(m.id);

      const i = incident(p, at(1));
      const u = i.updates[0]!;
      const event = {
        id: u.id,
        workspace_id: p.workspace_id,
        page_id: p.id,
        incident_id: i.id,
        created_at: at(1),
      };
      expect(await store.insertIncident(i, event)).toBe(true);
      // A write that loses its compare-and-set stores no event.
      expect(await store.updateIncident({ ...i, version: 3 }, 2, { ...event, id: 'lost' })).toBe(false);
      expect(await store.listMailEvents(10)).toEqual([event]);
      expect(await store.fanOutMailEvent(event, at(2))).toBe(2);
      expect(await store.listMailEvents(10)).toEqual([]);
      expect(await store.fanOutMailEvent(event, at(2))).toBe(0); // again: nothing new
      const due = await store.listDueMails(at(2), 10);
      expect(due.map((m) => m.id).sort()).toEqual([`${a.id}:${u.id}`, `${b.id}:${u.id}`].sort());
      expect(due[0]).toMatchObject({ kind: 'incident', incident_id: i.id, update_id: u.id, attempts: 0 });

      const m = due[0]!;
      expect(await store.claimMail(m, at(10))).toBe(true);
      expect(await store.claimMail(m, at(10))).toBe(false);
      expect(await store.listDueMails(at(2), 10)).toHaveLength(1);
      expect(await store.listDueMails(at(10), 10)).toMatchObject(
        expect.arrayContaining([{ ...m, due_at: at(10), attempts: 1 }]),
      );
      await store.retryMail(m.id, at(20));
      await store.finishMail(due[1]!.id);
      expect(await store.listDueMails(at(30), 10)).toMatchObject([{ id: m.id, due_at: at(20) }]);

      const next = {
        ...i,
        version: 2,
        updates: [...i.updates, { ...u, id: randomUUID(), created_at: at(3) }],
      };
      const e2 = { ...event, id: next.updates[1]!.id, created_at: at(3) };
      expect(await store.updateIncident(next, 1, e2)).toBe(true);
      expect(await store.listMailEvents(10)).toEqual([e2]);
      // Deleting the page takes its subscribers, events and mail with it.
      await store.deleteStatusPage(ws.workspace.id, p.id);
      expect(await store.listMailEvents(10)).toEqual([]);
      expect(await store.listDueMails(at(100), 10)).toEqual([]);
      expect(await store.countSubscribers(ws.workspace.id, p.id)).toBe(0);
    });
  });
});
