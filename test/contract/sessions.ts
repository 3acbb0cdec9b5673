/**
 * SessionStore contract (domain/access/sessions.ts): web app sessions.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../control-plane/src/domain/access/sessions.js';
import type { User } from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

interface Ctx {
  store: Store;
  ws: { workspace: { id: string }; admin: User };
}

const session = (workspaceId: string, userId: string, over: Partial<Session> = {}): Session => ({
  id: randomUUID(),
  workspace_id: workspaceId,
  user_id: userId,
  token_hash: randomUUID().replaceAll('-', ''),
  csrf_secret: randomUUID(),
  created_at: T0,
  last_seen_at: T0,
  expires_at: at(3600),
  ...over,
});

export const sessionScenarios = (ctx: () => Ctx) => {
  describe('sessions', () => {
    it('finds a session by its token hash, and only by it', async () => {
      const { store, ws } = ctx();
      const s = session(ws.workspace.id, ws.admin.id);
      await store.insertSession(s);
      expect(await store.findSessionByHash(s.token_hash)).toEqual(s);
      expect(await store.findSessionByHash('0'.repeat(32))).toBeNull();
    });

    it('touch moves last_seen_at forward, never back', async () => {
      const { store, ws } = ctx();
      const s = session(ws.workspace.id, ws.admin.id);
      await store.insertSession(s);
      await store.touchSession(s.id, at(120));
      await store.touchSession(s.id, at(60));
      expect((await store.findSessionByHash(s.token_hash))?.last_seen_at).toEqual(at(120));
    });

    it('deleting one session leaves the user’s others', async () => {
      const { store, ws } = ctx();
      const a = session(ws.workspace.id, ws.admin.id);
      const b = session(ws.workspace.id, ws.admin.id);
      await store.insertSession(a);
      await store.insertSession(b);
      await store.deleteSession(a.id);
      expect(await store.findSessionByHash(a.token_hash)).toBeNull();
      expect(await store.findSessionByHash(b.token_hash)).toEqual(b);
    });

    it('a password change ends every session of that user, starts the new one, and no one else’s', async () => {
      const { store, ws } = ctx();
      const other: User = { ...ws.admin, id: randomUUID(), email: `other-${randomUUID()}@x.test` };
      await store.createUser(other);
      const mine = [session(ws.workspace.id, ws.admin.id), session(ws.workspace.id, ws.admin.id)];
      const theirs = session(ws.workspace.id, other.id);
      for (const s of [...mine, theirs]) await store.insertSession(s);
      const next = session(ws.workspace.id, ws.admin.id);
      expect(
        await store.changePassword({
          workspace_id: ws.workspace.id,
          user_id: ws.admin.id,
          password_hash: 'scrypt$new$hash',
          next,
        }),
      ).toBe(true);
      for (const s of mine) expect(await store.findSessionByHash(s.token_hash)).toBeNull();
      expect(await store.findSessionByHash(next.token_hash)).toEqual(next);
      expect(await store.findSessionByHash(theirs.token_hash)).toEqual(theirs);
      expect((await store.getUser(ws.workspace.id, ws.admin.id))?.password_hash).toBe('scrypt$new$hash');
    });

    it('a password change for an unknown user (or one of another workspace) changes nothing', async () => {
      const { store, ws } = ctx();
      const next = session(ws.workspace.id, ws.admin.id);
      expect(
        await store.changePassword({
          workspace_id: randomUUID(),
          user_id: ws.admin.id,
          password_hash: 'scrypt$x$y',
          next,
        }),
      ).toBe(false);
      expect(await store.findSessionByHash(next.token_hash)).toBeNull();
      expect((await store.getUser(ws.workspace.id, ws.admin.id))?.password_hash).toBe(ws.admin.password_hash);
    });

    it('prunes sessions past their absolute expiry or idle since the cut-off, up to the limit', async () => {
      const { store, ws } = ctx();
      const expired = session(ws.workspace.id, ws.admin.id, { expires_at: at(10) });
      const idle = session(ws.workspace.id, ws.admin.id, { last_seen_at: at(5) });
      const live = session(ws.workspace.id, ws.admin.id, { last_seen_at: at(100) });
      for (const s of [expired, idle, live]) await store.insertSession(s);
      expect(await store.pruneSessions(at(20), at(50), 100)).toBe(2);
      expect(await store.findSessionByHash(expired.token_hash)).toBeNull();
      expect(await store.findSessionByHash(idle.token_hash)).toBeNull();
      expect(await store.findSessionByHash(live.token_hash)).toEqual(live);
      expect(await store.pruneSessions(at(20), at(50), 100)).toBe(0);
    });
  });
};
