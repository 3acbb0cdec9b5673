/**
 * PasswordResetStore contract (domain/access/password-reset.ts): reset links kept by their token's
 * hash; taking one is single use, refused once expired, and sets the password and ends every session
 * of the user in the same step.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PasswordReset } from '../../control-plane/src/domain/access/password-reset.js';
import type { Session } from '../../control-plane/src/domain/access/sessions.js';
import { at, fixtures } from './fixtures.js';
import { contract } from './stores.js';

const reset = (workspaceId: string, userId: string, over: Partial<PasswordReset> = {}): PasswordReset => ({
  id: randomUUID(),
  workspace_id: workspaceId,
  user_id: userId,
  token_hash: randomUUID().replace(/-/g, '').repeat(2),
  created_at: at(0),
  expires_at: at(1800),
  used_at: null,
  ...over,
});

const session = (workspaceId: string, userId: string): Session => ({
  id: randomUUID(),
  workspace_id: workspaceId,
  user_id: userId,
  token_hash: randomUUID().replace(/-/g, ''),
  csrf_secret: randomUUID(),
  created_at: at(0),
  last_seen_at: at(0),
  expires_at: at(86_400),
});

contract('PasswordResetStore', (ctx) => {
  describe('password resets', () => {
    it('found by the hash of their token, whole; an unknown hash finds nothing', async () => {
      const { store, ws } = ctx();
      const r = reset(ws.workspace.id, ws.admin.id);
      await store.insertPasswordReset(r, 3);
      expect(await store.findPasswordResetByHash(r.token_hash)).toEqual(r);
      expect(await store.findPasswordResetByHash('0'.repeat(64))).toBeNull();
    });

    it('taking one sets the password, ends every session of the user (only theirs) and spends it: once', async () => {
      const { store, ws } = ctx();
      const other = { ...fixtures.workspace().admin, workspace_id: ws.workspace.id, email: 'other@x.test' };
      await store.createUser(other);
      const mine = [session(ws.workspace.id, ws.admin.id), session(ws.workspace.id, ws.admin.id)];
      const theirs = session(ws.workspace.id, other.id);
      for (const s of [...mine, theirs]) await store.insertSession(s);
      const r = reset(ws.workspace.id, ws.admin.id);
      await store.insertPasswordReset(r, 3);
      const input = {
        workspace_id: ws.workspace.id,
        token_hash: r.token_hash,
        password_hash: 'scrypt$new',
        now: at(60),
      };
      expect(await store.completePasswordReset(input)).toEqual({ user_id: ws.admin.id });
      expect((await store.getUser(ws.workspace.id, ws.admin.id))?.password_hash).toBe('scrypt$new');
      for (const s of mine) expect(await store.findSessionByHash(s.token_hash)).toBeNull();
      expect(await store.findSessionByHash(theirs.token_hash)).toEqual(theirs);
      expect((await store.findPasswordResetByHash(r.token_hash))?.used_at).toEqual(at(60));
      // A second take changes nothing.
      expect(
        await store.completePasswordReset({ ...input, password_hash: 'scrypt$again', now: at(61) }),
      ).toBeNull();
      expect((await store.getUser(ws.workspace.id, ws.admin.id))?.password_hash).toBe('scrypt$new');
    });

    it('two takes at once: exactly one wins', async () => {
      const { store, ws } = ctx();
      const r = reset(ws.workspace.id, ws.admin.id);
      await store.insertPasswordReset(r, 3);
      const take = (h: string) =>
        store.completePasswordReset({
          workspace_id: ws.workspace.id,
          token_hash: r.token_hash,
          password_hash: h,
          now: at(1),
        });
      const results = await Promise.all([take('scrypt$a'), take('scrypt$b'), take('scrypt$c')]);
      expect(results.filter((x) => x !== null)).toHaveLength(1);
    });

    it('refused, changing nothing: expired, from another workspace, or for a user who is gone', async () => {
      const { store, ws } = ctx();
      const s = session(ws.workspace.id, ws.admin.id);
      await store.insertSession(s);
      const r = reset(ws.workspace.id, ws.admin.id);
      await store.insertPasswordReset(r, 3);
      const base = { workspace_id: ws.workspace.id, token_hash: r.token_hash, password_hash: 'scrypt$x' };
      expect(await store.completePasswordReset({ ...base, now: at(1800) })).toBeNull();
      expect(
        await store.completePasswordReset({ ...base, workspace_id: randomUUID(), now: at(1) }),
      ).toBeNull();
      const gone = reset(ws.workspace.id, randomUUID());
      await store.insertPasswordReset(gone, 3);
      expect(
        await store.completePasswordReset({ ...base, token_hash: gone.token_hash, now: at(1) }),
      ).toBeNull();
      expect((await store.findPasswordResetByHash(gone.token_hash))?.used_at).toBeNull();
      expect((await store.getUser(ws.workspace.id, ws.admin.id))?.password_hash).toBeNull();
      expect(await store.findSessionByHash(s.token_hash)).toEqual(s);
      expect((await store.findPasswordResetByHash(r.token_hash))?.used_at).toBeNull();
    });

    it("keeps only a user's newest `keep` resets; others' are untouched", async () => {
      const { store, ws } = ctx();
      const otherUser = randomUUID();
      const theirs = reset(ws.workspace.id, otherUser);
      await store.insertPasswordReset(theirs, 2);
      const mine = [0, 1, 2, 3].map((i) => reset(ws.workspace.id, ws.admin.id, { created_at: at(i) }));
      for (const r of mine) await store.insertPasswordReset(r, 2);
      expect(await store.findPasswordResetByHash(mine[0]!.token_hash)).toBeNull();
      expect(await store.findPasswordResetByHash(mine[1]!.token_hash)).toBeNull();
      expect(await store.findPasswordResetByHash(mine[2]!.token_hash)).not.toBeNull();
      expect(await store.findPasswordResetByHash(mine[3]!.token_hash)).not.toBeNull();
      expect(await store.findPasswordResetByHash(theirs.token_hash)).not.toBeNull();
    });

    it('prunes those expired before a time, used or not, at most `limit` at once', async () => {
      const { store, ws } = ctx();
      const old = [1, 2, 3].map((i) => reset(ws.workspace.id, randomUUID(), { expires_at: at(i) }));
      old[0]!.used_at = at(0);
      const fresh = reset(ws.workspace.id, randomUUID(), { expires_at: at(5000) });
      for (const r of [...old, fresh]) await store.insertPasswordReset(r, 3);
      expect(await store.prunePasswordResets(at(100), 2)).toBe(2);
      expect(await store.prunePasswordResets(at(100), 10)).toBe(1);
      expect(await store.prunePasswordResets(at(100), 10)).toBe(0);
      expect(await store.findPasswordResetByHash(fresh.token_hash)).toEqual(fresh);
    });
  });
});
