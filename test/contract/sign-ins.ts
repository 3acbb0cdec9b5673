/**
 * SignInStore contract (domain/access/sign-in-store.ts): browsers known to an account (device tokens), and
 * the account's sign-ins as its owner and admins see them.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SignInDevice } from '../../control-plane/src/domain/access/sign-in-store.js';
import type { User } from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

interface Ctx {
  store: Store;
  ws: { workspace: { id: string }; admin: User };
}

const device = (workspaceId: string, userId: string, over: Partial<SignInDevice> = {}): SignInDevice => ({
  id: randomUUID(),
  workspace_id: workspaceId,
  user_id: userId,
  token_hash: randomUUID().replaceAll('-', ''),
  created_at: T0,
  expires_at: at(86_400),
  ...over,
});

export const signInScenarios = (ctx: () => Ctx) => {
  const addUser = async (c: Ctx, role: User['role'] = 'member') => {
    const user: User = {
      ...c.ws.admin,
      id: randomUUID(),
      email: `u-${randomUUID()}@x.test`,
      role,
      password_hash: 'scrypt$s$h',
    };
    await c.store.createUser(user);
    return user;
  };
  const signIn = (
    c: Ctx,
    userId: string,
    when: Date,
    d: SignInDevice,
    replaces: string | null = null,
    keep = 20,
  ) =>
    c.store.recordSignIn({
      workspace_id: c.ws.workspace.id,
      user_id: userId,
      at: when,
      device: d,
      replaces,
      keep,
    });
  const activityOf = async (c: Ctx, userId: string) =>
    (await c.store.listSignInActivity(c.ws.workspace.id, [userId]))[0];

  describe('sign-ins', () => {
    it('counts failures in a row with the last address; a sign-in ends the run without erasing it; the next failure starts a new one since that sign-in', async () => {
      const c = ctx();
      const { store, ws } = c;
      const id = ws.admin.id;
      expect(await store.listSignInActivity(ws.workspace.id, [id])).toEqual([]);
      await store.recordFailedSignIn(ws.workspace.id, id, at(1), '203.0.113.1');
      await store.recordFailedSignIn(ws.workspace.id, id, at(2), '203.0.113.2');
      expect(await activityOf(c, id)).toEqual({
        workspace_id: ws.workspace.id,
        user_id: id,
        last_sign_in_at: null,
        failed_count: 2,
        failed_since: null,
        last_failed_at: at(2),
        last_failed_address: '203.0.113.2',
      });
      await signIn(c, id, at(10), device(ws.workspace.id, id));
      expect(await activityOf(c, id)).toMatchObject({
        last_sign_in_at: at(10),
        failed_count: 2,
        failed_since: null,
        last_failed_at: at(2),
      });
      await store.recordFailedSignIn(ws.workspace.id, id, at(20), '198.51.100.9');
      await store.recordFailedSignIn(ws.workspace.id, id, at(21), '198.51.100.9');
      await store.recordFailedSignIn(ws.workspace.id, id, at(22), '198.51.100.10');
      expect(await activityOf(c, id)).toMatchObject({
        last_sign_in_at: at(10),
        failed_count: 3,
        failed_since: at(10),
        last_failed_at: at(22),
        last_failed_address: '198.51.100.10',
      });
    });

    it('a first sign-in without failures; last_sign_in_at never moves back', async () => {
      const c = ctx();
      const id = c.ws.admin.id;
      await signIn(c, id, at(30), device(c.ws.workspace.id, id));
      await signIn(c, id, at(20), device(c.ws.workspace.id, id));
      expect(await activityOf(c, id)).toEqual({
        workspace_id: c.ws.workspace.id,
        user_id: id,
        last_sign_in_at: at(30),
        failed_count: 0,
        failed_since: null,
        last_failed_at: null,
        last_failed_address: null,
      });
      await c.store.recordFailedSignIn(c.ws.workspace.id, id, at(40), '192.0.2.1');
      expect(await activityOf(c, id)).toMatchObject({ failed_count: 1, failed_since: at(30) });
    });

    it('lists only the users asked for, in their own workspace', async () => {
      const c = ctx();
      const { store, ws } = c;
      const other = await addUser(c);
      const third = await addUser(c);
      await store.recordFailedSignIn(ws.workspace.id, ws.admin.id, at(1), '192.0.2.1');
      await store.recordFailedSignIn(ws.workspace.id, other.id, at(2), '192.0.2.2');
      await store.recordFailedSignIn(ws.workspace.id, third.id, at(3), '192.0.2.3');
      const listed = await store.listSignInActivity(ws.workspace.id, [ws.admin.id, other.id, randomUUID()]);
      expect(listed.map((a) => a.user_id).sort()).toEqual([ws.admin.id, other.id].sort());
      expect(await store.listSignInActivity(randomUUID(), [ws.admin.id])).toEqual([]);
      expect(await store.listSignInActivity(ws.workspace.id, [])).toEqual([]);
    });

    it('finds a device by its token hash; a sign-in replaces the one presented and keeps the user’s newest few', async () => {
      const c = ctx();
      const { store, ws } = c;
      const id = ws.admin.id;
      const other = await addUser(c);
      const theirs = device(ws.workspace.id, other.id);
      await signIn(c, other.id, T0, theirs);
      const first = device(ws.workspace.id, id, { created_at: at(1) });
      await signIn(c, id, at(1), first, null, 3);
      expect(await store.findSignInDevice(first.token_hash)).toEqual(first);
      expect(await store.findSignInDevice('0'.repeat(64))).toBeNull();
      const second = device(ws.workspace.id, id, { created_at: at(2) });
      await signIn(c, id, at(2), second, first.id, 3);
      expect(await store.findSignInDevice(first.token_hash)).toBeNull();
      expect(await store.findSignInDevice(second.token_hash)).toEqual(second);
      // A device is replaced only for its own user.
      const third = device(ws.workspace.id, id, { created_at: at(3) });
      await signIn(c, id, at(3), third, theirs.id, 3);
      expect(await store.findSignInDevice(theirs.token_hash)).toEqual(theirs);
      // Beyond three, the oldest go.
      const more = [4, 5].map((s) => device(ws.workspace.id, id, { created_at: at(s) }));
      for (const d of more) await signIn(c, id, d.created_at, d, null, 3);
      expect(await store.findSignInDevice(second.token_hash)).toBeNull();
      expect(await store.findSignInDevice(third.token_hash)).toEqual(third);
      for (const d of more) expect(await store.findSignInDevice(d.token_hash)).toEqual(d);
      expect(await store.findSignInDevice(theirs.token_hash)).toEqual(theirs);
    });

    it('prunes devices past their expiry, up to the limit', async () => {
      const c = ctx();
      const id = c.ws.admin.id;
      const old = device(c.ws.workspace.id, id, { expires_at: at(10) });
      const live = device(c.ws.workspace.id, id, { expires_at: at(100) });
      await signIn(c, id, T0, old);
      await signIn(c, id, T0, live);
      expect(await c.store.pruneSignInDevices(at(50), 100)).toBe(1);
      expect(await c.store.findSignInDevice(old.token_hash)).toBeNull();
      expect(await c.store.findSignInDevice(live.token_hash)).toEqual(live);
      expect(await c.store.pruneSignInDevices(at(50), 100)).toBe(0);
    });

    it('removing a user deletes their devices and activity, and no one else’s', async () => {
      const c = ctx();
      const { store, ws } = c;
      const gone = await addUser(c);
      const d = device(ws.workspace.id, gone.id);
      const mine = device(ws.workspace.id, ws.admin.id);
      await signIn(c, gone.id, at(1), d);
      await signIn(c, ws.admin.id, at(1), mine);
      await store.recordFailedSignIn(ws.workspace.id, gone.id, at(2), '192.0.2.1');
      expect(await store.removeUser(ws.workspace.id, gone.id, at(3))).toEqual({
        outcome: 'removed',
        policies: [],
        schedules: [],
      });
      expect(await store.findSignInDevice(d.token_hash)).toBeNull();
      expect(await store.listSignInActivity(ws.workspace.id, [gone.id])).toEqual([]);
      expect(await store.findSignInDevice(mine.token_hash)).toEqual(mine);
      expect(await store.listSignInActivity(ws.workspace.id, [ws.admin.id])).toHaveLength(1);
    });
  });
};
