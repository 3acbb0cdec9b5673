/**
 * Store contract, OAuth part (the `OAuthStore` port of domain/access/oauth-store.ts): run by oauth.test.ts
 * against SQLite always and MongoDB when LOOKOUT_MONGODB_URI is set.
 */
import { randomUUID } from 'node:crypto';
import { hashSecret } from '@lookout/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OAuthRecord } from '../../control-plane/src/domain/access/oauth-store.js';
import type { Store } from '../../control-plane/src/store/port.js';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

const record = (workspaceId: string, over: Partial<OAuthRecord> = {}): OAuthRecord => ({
  workspace_id: workspaceId,
  model: 'AccessToken',
  key_hash: hashSecret(randomUUID()),
  payload: { iat: 1, exp: 2, accountId: 'u1', resources: { 'http://a.localhost:8080/mcp': 'mcp' } },
  grant_id: null,
  account_id: null,
  client_id: null,
  uid: null,
  created_at: T0,
  expires_at: at(3600),
  consumed_at: null,
  ...over,
});

export const oauthContract = (name: string, open: () => Promise<Store>) => {
  describe(`OAuth records (${name})`, () => {
    let store: Store;
    const ws = randomUUID();
    beforeEach(async () => {
      store = await open();
      await store.init();
    });
    afterEach(async () => store.close());

    it('finds a record by workspace, model and key hash only', async () => {
      const r = record(ws);
      await store.upsertOAuthRecord(r);
      expect(await store.findOAuthRecord(ws, 'AccessToken', r.key_hash)).toEqual(r);
      expect(await store.findOAuthRecord(randomUUID(), 'AccessToken', r.key_hash)).toBeNull();
      expect(await store.findOAuthRecord(ws, 'RefreshToken', r.key_hash)).toBeNull();
      expect(await store.findOAuthRecord(ws, 'AccessToken', hashSecret('other'))).toBeNull();
    });

    it('an upsert replaces the payload and keeps the first created_at', async () => {
      const r = record(ws, { model: 'Session', uid: 'uid-1' });
      await store.upsertOAuthRecord(r);
      const next = { ...r, payload: { changed: true }, created_at: at(99), expires_at: at(7200) };
      await store.upsertOAuthRecord(next);
      expect(await store.findOAuthRecord(ws, 'Session', r.key_hash)).toEqual({ ...next, created_at: T0 });
      expect(await store.findOAuthRecordByUid(ws, 'Session', 'uid-1')).toEqual({ ...next, created_at: T0 });
      expect(await store.findOAuthRecordByUid(randomUUID(), 'Session', 'uid-1')).toBeNull();
    });

    it('consume sets consumed_at once; delete removes one record', async () => {
      const r = record(ws, { model: 'RefreshToken' });
      await store.upsertOAuthRecord(r);
      await store.consumeOAuthRecord(ws, 'RefreshToken', r.key_hash, at(10));
      await store.consumeOAuthRecord(ws, 'RefreshToken', r.key_hash, at(20));
      expect((await store.findOAuthRecord(ws, 'RefreshToken', r.key_hash))?.consumed_at).toEqual(at(10));
      await store.deleteOAuthRecord(ws, 'RefreshToken', r.key_hash);
      expect(await store.findOAuthRecord(ws, 'RefreshToken', r.key_hash)).toBeNull();
    });

    it('revoking a grant deletes the grant and every code and token of it, in its workspace only', async () => {
      const grant = record(ws, { model: 'Grant', grant_id: 'g1', account_id: 'u1', client_id: 'c1' });
      const access = record(ws, { grant_id: 'g1', account_id: 'u1' });
      const refresh = record(ws, { model: 'RefreshToken', grant_id: 'g1', account_id: 'u1' });
      const other = record(ws, { grant_id: 'g2', account_id: 'u1' });
      const elsewhere = record(randomUUID(), { grant_id: 'g1', account_id: 'u1' });
      for (const r of [grant, access, refresh, other, elsewhere]) await store.upsertOAuthRecord(r);
      expect(await store.revokeOAuthGrant(ws, 'g1')).toBe(3);
      expect(await store.findOAuthRecord(ws, 'Grant', grant.key_hash)).toBeNull();
      expect(await store.findOAuthRecord(ws, 'AccessToken', access.key_hash)).toBeNull();
      expect(await store.findOAuthRecord(ws, 'RefreshToken', refresh.key_hash)).toBeNull();
      expect(await store.findOAuthRecord(ws, 'AccessToken', other.key_hash)).toEqual(other);
      expect(await store.findOAuthRecord(elsewhere.workspace_id, 'AccessToken', elsewhere.key_hash)).toEqual(
        elsewhere,
      );
    });

    it('lists a user’s unexpired grants, newest first', async () => {
      const old = record(ws, { model: 'Grant', grant_id: 'g1', account_id: 'u1', created_at: at(1) });
      const recent = record(ws, { model: 'Grant', grant_id: 'g2', account_id: 'u1', created_at: at(2) });
      const expired = record(ws, { model: 'Grant', grant_id: 'g3', account_id: 'u1', expires_at: at(5) });
      const forever = record(ws, {
        model: 'Grant',
        grant_id: 'g4',
        account_id: 'u1',
        created_at: at(0),
        expires_at: null,
      });
      const theirs = record(ws, { model: 'Grant', grant_id: 'g5', account_id: 'u2' });
      const token = record(ws, { grant_id: 'g1', account_id: 'u1' });
      for (const r of [old, recent, expired, forever, theirs, token]) await store.upsertOAuthRecord(r);
      expect(await store.listOAuthGrants(ws, { accountId: 'u1' }, at(10))).toEqual([recent, old, forever]);
    });

    it('lists grants of every user or one client, and only those in use (a live, unused-up token)', async () => {
      const w = randomUUID();
      const grant = (id: string, account: string, client: string, s: number) =>
        record(w, {
          model: 'Grant',
          grant_id: id,
          account_id: account,
          client_id: client,
          created_at: at(s),
        });
      const token = (model: string, grantId: string, over: Partial<OAuthRecord> = {}) =>
        record(w, { model, grant_id: grantId, account_id: 'u1', ...over });
      const exchanged = grant('g1', 'u1', 'c1', 1);
      const pending = grant('g2', 'u1', 'c1', 2); // its code was never exchanged
      const refreshOnly = grant('g3', 'u2', 'c2', 3);
      const lapsed = grant('g4', 'u2', 'c3', 4);
      const usedUp = grant('g5', 'u1', 'c4', 5);
      const elsewhere = record(randomUUID(), {
        model: 'Grant',
        grant_id: 'g6',
        account_id: 'u1',
        client_id: 'c1',
      });
      for (const r of [
        exchanged,
        pending,
        refreshOnly,
        lapsed,
        usedUp,
        elsewhere,
        token('AccessToken', 'g1'),
        token('AuthorizationCode', 'g2'),
        token('RefreshToken', 'g3', { expires_at: at(86_400) }),
        token('AccessToken', 'g4', { expires_at: at(5) }),
        token('RefreshToken', 'g5', { consumed_at: at(3) }),
      ])
        await store.upsertOAuthRecord(r);
      expect(await store.listOAuthGrants(w, {}, at(10))).toEqual([
        usedUp,
        lapsed,
        refreshOnly,
        pending,
        exchanged,
      ]);
      expect(await store.listOAuthGrants(w, { inUse: true }, at(10))).toEqual([refreshOnly, exchanged]);
      expect(await store.listOAuthGrants(w, { accountId: 'u1', inUse: true }, at(10))).toEqual([exchanged]);
      expect(await store.listOAuthGrants(w, { accountId: 'u1', clientId: 'c1' }, at(10))).toEqual([
        pending,
        exchanged,
      ]);
      expect(await store.listOAuthGrants(w, { clientId: 'c9' }, at(10))).toEqual([]);
    });

    it('a registered client expires unless kept: a day on, the sweep deletes the unused one only', async () => {
      const DAY = 86_400;
      const unused = record(ws, { model: 'Client', client_id: 'c-unused', expires_at: at(DAY) });
      const used = record(ws, { model: 'Client', client_id: 'c-used', expires_at: at(DAY) });
      for (const r of [unused, used]) await store.upsertOAuthRecord(r);
      await store.keepOAuthClient(ws, used.key_hash);
      await store.keepOAuthClient(randomUUID(), unused.key_hash); // another workspace's: no effect
      expect(await store.pruneOAuthRecords(at(DAY - 1), 100)).toBe(0);
      expect(await store.pruneOAuthRecords(at(DAY), 100)).toBe(1);
      expect(await store.findOAuthRecord(ws, 'Client', unused.key_hash)).toBeNull();
      expect(await store.findOAuthRecord(ws, 'Client', used.key_hash)).toEqual({ ...used, expires_at: null });
      await store.keepOAuthClient(ws, used.key_hash); // again: nothing changes
      expect(await store.findOAuthRecord(ws, 'Client', used.key_hash)).toEqual({ ...used, expires_at: null });
    });

    it('counts the live clients of a workspace or of all, with the first expiry among them', async () => {
      const w = randomUUID();
      const other = randomUUID();
      const allBefore = await store.countOAuthClients(null, at(10));
      expect(await store.countOAuthClients(w, at(10))).toEqual({ count: 0, next_expiry: null });
      const kept = record(w, { model: 'Client', expires_at: null });
      const soon = record(w, { model: 'Client', expires_at: at(100) });
      const later = record(w, { model: 'Client', expires_at: at(200) });
      const gone = record(w, { model: 'Client', expires_at: at(5) });
      const token = record(w, { model: 'AccessToken', expires_at: at(50) });
      const elsewhere = record(other, { model: 'Client', expires_at: at(300) });
      for (const r of [kept, soon, later, gone, token, elsewhere]) await store.upsertOAuthRecord(r);
      expect(await store.countOAuthClients(w, at(10))).toEqual({ count: 3, next_expiry: at(100) });
      expect(await store.countOAuthClients(w, at(150))).toEqual({ count: 2, next_expiry: at(200) });
      expect(await store.countOAuthClients(w, at(250))).toEqual({ count: 1, next_expiry: null });
      expect(await store.countOAuthClients(other, at(10))).toEqual({ count: 1, next_expiry: at(300) });
      const all = await store.countOAuthClients(null, at(10));
      expect(all.count - allBefore.count).toBe(4);
    });

    it('prunes expired records up to the limit, never those without expiry', async () => {
      const expired = [record(ws, { expires_at: at(1) }), record(ws, { expires_at: at(2) })];
      const live = record(ws, { expires_at: at(100) });
      const forever = record(ws, { model: 'Client', expires_at: null });
      for (const r of [...expired, live, forever]) await store.upsertOAuthRecord(r);
      expect(await store.pruneOAuthRecords(at(10), 1)).toBe(1);
      expect(await store.pruneOAuthRecords(at(10), 100)).toBe(1);
      expect(await store.pruneOAuthRecords(at(10), 100)).toBe(0);
      expect(await store.findOAuthRecord(ws, 'AccessToken', live.key_hash)).toEqual(live);
      expect(await store.findOAuthRecord(ws, 'Client', forever.key_hash)).toEqual(forever);
    });
  });
};
