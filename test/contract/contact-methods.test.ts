/**
 * ContactMethodStore contract (domain/contacts/contact-method-store.ts): a user's own ways to be
 * reached, updated by compare-and-set on their version.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type {
  ContactMethod,
  SendAllowance,
} from '../../control-plane/src/domain/contacts/contact-method-store.js';
import { at } from './fixtures.js';
import { contract } from './stores.js';

const method = (workspaceId: string, userId: string, over: Partial<ContactMethod> = {}): ContactMethod => ({
  id: randomUUID(),
  workspace_id: workspaceId,
  user_id: userId,
  type: 'ntfy',
  address: { type: 'ntfy', server_url: 'https://ntfy.example', topic: 'ops-alerts', access_token: null },
  verified_at: null,
  verification: { code_hash: 'ab'.repeat(32), sent_at: at(0), expires_at: at(900), failed_attempts: 2 },
  created_at: at(0),
  version: 0,
  ...over,
});

contract('ContactMethodStore', (ctx) => {
  describe('contact methods', () => {
    it('a user’s methods, oldest first, read back whole; other users and workspaces see none of them', async () => {
      const { store, ws } = ctx();
      const me = ws.admin.id;
      const a = method(ws.workspace.id, me, { created_at: at(10) });
      const b = method(ws.workspace.id, me, {
        type: 'sms',
        address: { type: 'sms', phone: '+14155550123' },
        verified_at: at(5),
        verification: null,
        created_at: at(5),
      });
      const theirs = method(ws.workspace.id, randomUUID());
      for (const m of [a, b, theirs]) await store.insertContactMethod(m);
      expect(await store.listContactMethods(ws.workspace.id, me)).toEqual([b, a]);
      expect(await store.getContactMethod(ws.workspace.id, me, a.id)).toEqual(a);
      expect(await store.getContactMethod(ws.workspace.id, me, theirs.id)).toBeNull();
      expect(await store.getContactMethod(randomUUID(), me, a.id)).toBeNull();
      expect(await store.listContactMethods(randomUUID(), me)).toEqual([]);
    });

    it('an update is compare-and-set on the version, which it moves on by one', async () => {
      const { store, ws } = ctx();
      const m = method(ws.workspace.id, ws.admin.id);
      await store.insertContactMethod(m);
      const verified = { ...m, verified_at: at(60), verification: null };
      expect(await store.updateContactMethod(verified)).toBe(true);
      expect(await store.getContactMethod(ws.workspace.id, ws.admin.id, m.id)).toEqual({
        ...verified,
        version: 1,
      });
      // A writer that read version 0 lost the race.
      expect(await store.updateContactMethod({ ...m, verification: null })).toBe(false);
      expect(await store.getContactMethod(ws.workspace.id, ws.admin.id, m.id)).toEqual({
        ...verified,
        version: 1,
      });
      // Another user's id never matches.
      expect(await store.updateContactMethod({ ...verified, version: 1, user_id: randomUUID() })).toBe(false);
    });

    it('deleted by its user only; reports whether it was there', async () => {
      const { store, ws } = ctx();
      const m = method(ws.workspace.id, ws.admin.id);
      await store.insertContactMethod(m);
      expect(await store.deleteContactMethod(ws.workspace.id, randomUUID(), m.id)).toBe(false);
      expect(await store.deleteContactMethod(ws.workspace.id, ws.admin.id, m.id)).toBe(true);
      expect(await store.deleteContactMethod(ws.workspace.id, ws.admin.id, m.id)).toBe(false);
      expect(await store.listContactMethods(ws.workspace.id, ws.admin.id)).toEqual([]);
    });

    it('all of a user’s methods are deleted at once (the user removed); other users keep theirs', async () => {
      const { store, ws } = ctx();
      const gone = randomUUID();
      const stays = method(ws.workspace.id, ws.admin.id);
      for (const m of [method(ws.workspace.id, gone), method(ws.workspace.id, gone), stays])
        await store.insertContactMethod(m);
      expect(await store.deleteUserContactMethods(randomUUID(), gone)).toBe(0);
      expect(await store.deleteUserContactMethods(ws.workspace.id, gone)).toBe(2);
      expect(await store.listContactMethods(ws.workspace.id, gone)).toEqual([]);
      expect(await store.listContactMethods(ws.workspace.id, ws.admin.id)).toEqual([stays]);
    });
  });

  describe('code send allowances', () => {
    const allowance = (key: string, limit: number, expiresAt = at(3600)): SendAllowance => ({
      key: `${key}:${randomUUID()}`,
      limit,
      expires_at: expiresAt,
    });

    it('all counters are taken at once, or none: the full one is returned and the others keep their count', async () => {
      const { store } = ctx();
      const dest = allowance('dest', 2);
      const user = allowance('user', 3);
      expect(await store.takeSendAllowance([dest, user], at(0))).toBeNull();
      expect(await store.takeSendAllowance([dest, user], at(1))).toBeNull();
      // dest is full (2): nothing is taken, user stays at 2.
      expect(await store.takeSendAllowance([user, dest], at(2))).toEqual(dest);
      expect(await store.takeSendAllowance([user], at(3))).toBeNull();
      expect(await store.takeSendAllowance([user], at(4))).toEqual(user);
    });

    it('taken concurrently, a counter never goes past its limit', async () => {
      const { store } = ctx();
      const shared = allowance('ws', 3);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.takeSendAllowance([allowance('user', 5), shared], at(i))),
      );
      expect(answers.filter((a) => a === null)).toHaveLength(3);
      expect(answers.filter((a) => a !== null)).toEqual(Array(7).fill(shared));
    });

    it('a counter whose window has ended no longer counts', async () => {
      const { store } = ctx();
      const hour = allowance('dest', 1, at(60));
      expect(await store.takeSendAllowance([hour], at(0))).toBeNull();
      expect(await store.takeSendAllowance([hour], at(30))).toEqual(hour);
      // After its end it is dropped (SQLite at the next take; MongoDB by its TTL index, while a new
      // window has a key of its own): the same key starts at 0 again.
      expect(await store.takeSendAllowance([{ ...hour, expires_at: at(120) }], at(61))).toBeNull();
    });
  });
});
