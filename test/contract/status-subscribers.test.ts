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
  RecipientBudget,
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

/** A budget of its own for each call unless `key` is given. */
const budget = (over: Partial<RecipientBudget> = {}): RecipientBudget => ({
  key: randomUUID(),
  windowStart: new Date(0),
  max: 5,
  ...over,
});

const confirmed = async (store: Store, p: StatusPage, when: Date) => {
  const s = await store.addSubscriber(subscriber(p));
  expect(await store.requestConfirmation(s.id, when, new Date(0), confirmMail(s, when), budget())).toBe(true);
  const hash = randomUUID();
  await store.setConfirmToken(s.id, hash, new Date(when.getTime() + HOUR));
  return (await store.confirmSubscriber(hash, p.id, when))!;
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
      expect(await store.confirmSubscriber('h1', p.id, at(60))).toBeNull(); // expired at that instant
      await store.setConfirmToken(s.id, 'h2', at(120));
      expect(await store.confirmSubscriber('h1', p.id, at(1))).toBeNull(); // replaced
      const c = await store.confirmSubscriber('h2', p.id, at(1));
      expect(c).toMatchObject({ id: s.id, status: 'confirmed', confirm_hash: null, confirmed_at: at(1) });
      expect(await store.confirmSubscriber('h2', p.id, at(1))).toBeNull(); // single use
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
      expect(await store.requestConfirmation(s.id, at(0), at(-60), confirmMail(s, at(0)), budget())).toBe(
        true,
      );
      expect(await store.requestConfirmation(s.id, at(10), at(-50), confirmMail(s, at(10)), budget())).toBe(
        false,
      );
      expect(await store.listDueMails(at(100), 10)).toHaveLength(1);
      expect(await store.requestConfirmation(s.id, at(70), at(10), confirmMail(s, at(70)), budget())).toBe(
        true,
      );
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

  describe('confirmation', () => {
    it('a token confirms only on its own page, and a try on another page leaves it usable', async () => {
      const { store, ws } = ctx();
      const a = page(ws.workspace.id);
      const b = page(ws.workspace.id);
      await store.insertStatusPage(a);
      await store.insertStatusPage(b);
      const s = await store.addSubscriber(subscriber(a));
      await store.setConfirmToken(s.id, 'ha', at(60));
      expect(await store.confirmSubscriber('ha', b.id, at(1))).toBeNull();
      expect(await store.getSubscriber(ws.workspace.id, a.id, s.id)).toMatchObject({
        status: 'pending',
        confirm_hash: 'ha',
      });
      expect(await store.confirmSubscriber('ha', a.id, at(1))).toMatchObject({
        id: s.id,
        status: 'confirmed',
      });
    });

    it('a recipient budget counts confirmations over pages, refuses past its max, starts afresh, is pruned', async () => {
      const { store, ws } = ctx();
      const key = randomUUID();
      const pages = [page(ws.workspace.id), page(ws.workspace.id), page(ws.workspace.id)];
      for (const p of pages) await store.insertStatusPage(p);
      const subs = await Promise.all(pages.map((p) => store.addSubscriber(subscriber(p))));
      const ask = (s: StatusSubscriber, when: Date, windowStart: Date) =>
        store.requestConfirmation(
          s.id,
          when,
          new Date(0),
          confirmMail(s, when),
          budget({ key, windowStart, max: 2 }),
        );
      expect(await ask(subs[0]!, at(0), at(-60))).toBe(true);
      expect(await ask(subs[1]!, at(1), at(-59))).toBe(true);
      // Full: nothing changes (no mail, no confirm_sent_at, so the reader may ask again later).
      expect(await ask(subs[2]!, at(2), at(-58))).toBe(false);
      expect(await store.getSubscriber(ws.workspace.id, pages[2]!.id, subs[2]!.id)).toMatchObject({
        confirm_sent_at: null,
      });
      expect((await store.listDueMails(at(100), 10)).map((m) => m.subscriber_id).sort()).toEqual(
        [subs[0]!.id, subs[1]!.id].sort(),
      );
      // Another key has its own budget.
      expect(
        await store.requestConfirmation(
          subs[2]!.id,
          at(2),
          new Date(0),
          confirmMail(subs[2]!, at(2)),
          budget({ max: 1 }),
        ),
      ).toBe(true);
      const p4 = page(ws.workspace.id);
      await store.insertStatusPage(p4);
      const s4 = await store.addSubscriber(subscriber(p4));
      // The window began at 0, before the one asked about (from 30): a new window, counting one.
      expect(await ask(s4, at(90), at(30))).toBe(true);
      const p5 = page(ws.workspace.id);
      await store.insertStatusPage(p5);
      const s5 = await store.addSubscriber(subscriber(p5));
      expect(await ask(s5, at(91), at(31))).toBe(true);
      const p6 = page(ws.workspace.id);
      await store.insertStatusPage(p6);
      const s6 = await store.addSubscriber(subscriber(p6));
      expect(await ask(s6, at(92), at(32))).toBe(false);
      // Pruning takes budgets whose window began before the time given (the other key's began at 2).
      expect(await store.pruneRecipientBudgets(at(2), 10)).toBe(0);
      expect(await store.pruneRecipientBudgets(at(91), 1)).toBe(1);
      expect(await store.pruneRecipientBudgets(at(91), 10)).toBe(1);
      expect(await ask(s6, at(93), at(0))).toBe(true); // gone: a fresh budget
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
