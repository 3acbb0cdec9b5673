/**
 * Store contract, members part (the `MemberStore` port of domain/access/member-store.ts): invitations, role
 * changes and removal, each one atomic step. Run against every adapter by members.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Invitation } from '../../control-plane/src/domain/access/member-store.js';
import type { Session } from '../../control-plane/src/domain/access/sessions.js';
import type { ApiKey, Role, User } from '../../control-plane/src/domain/types.js';
import type { Store } from '../../control-plane/src/store/port.js';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);
const hash = () => randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', '');

const user = (workspaceId: string, role: Role, over: Partial<User> = {}): User => ({
  id: randomUUID(),
  workspace_id: workspaceId,
  email: `${randomUUID().slice(0, 8)}@members.test`,
  role,
  password_hash: 'scrypt$salt$hash',
  created_at: T0,
  ...over,
});

const invitation = (u: User, over: Partial<Invitation> = {}): Invitation => ({
  id: randomUUID(),
  workspace_id: u.workspace_id,
  user_id: u.id,
  token_hash: hash(),
  created_by: randomUUID(),
  created_at: T0,
  expires_at: at(7 * 86400),
  used_at: null,
  ...over,
});

const session = (u: User): Session => ({
  id: randomUUID(),
  workspace_id: u.workspace_id,
  user_id: u.id,
  token_hash: hash(),
  csrf_secret: randomUUID(),
  created_at: T0,
  last_seen_at: T0,
  expires_at: at(3600),
});

const apiKey = (u: User): ApiKey => ({
  id: randomUUID(),
  workspace_id: u.workspace_id,
  user_id: u.id,
  kind: 'named',
  name: 'ci',
  key_hash: hash(),
  last_four: 'abcd',
  created_at: T0,
  expires_at: null,
  revoked_at: null,
  last_used_at: null,
  last_used_from: null,
});

export const memberContract = (name: string, open: () => Promise<Store>) => {
  describe(`Store contract, members: ${name}`, () => {
    let store: Store;
    let ws: string;
    let admin: User;

    beforeEach(async () => {
      store = await open();
      await store.init();
      ws = randomUUID();
      const sub = `m-${ws.slice(0, 8)}`;
      admin = user(ws, 'admin');
      await store.createWorkspace({
        workspace: { id: ws, subdomain: sub, name: sub, plan: 'team', created_at: T0 },
        admin,
        defaultPolicy: {
          id: randomUUID(),
          workspace_id: ws,
          name: 'Default',
          is_default: true,
          steps: [{ wait_minutes: 0, notify_user_ids: [admin.id], notify_channel_ids: [] }],
          repeat: 0,
          support_hours: null,
          created_at: T0,
          updated_at: T0,
        },
      });
    });
    afterEach(async () => {
      await store.close();
    });

    it('invites a new user without a password, found by the token hash only', async () => {
      const u = user(ws, 'member', { password_hash: null });
      const inv = invitation(u);
      const r = await store.inviteUser(u, inv);
      expect(r).toEqual({ outcome: 'invited', user: u, invitation: inv });
      expect(await store.getUser(ws, u.id)).toEqual(u);
      expect(await store.findInvitationByHash(inv.token_hash)).toEqual(inv);
      expect(await store.findInvitationByHash(hash())).toBeNull();
      expect(await store.listOpenInvitations(ws, [u.id, admin.id])).toEqual([inv]);
    });

    it('inviting a pending email again sets the role and replaces the invitation; a joined email is taken', async () => {
      const u = user(ws, 'viewer', { password_hash: null });
      const first = invitation(u);
      await store.inviteUser(u, first);
      const again = user(ws, 'member', { email: u.email, password_hash: null });
      const second = invitation(again);
      const r = await store.inviteUser(again, second);
      expect(r).toEqual({
        outcome: 'invited',
        user: { ...u, role: 'member' },
        invitation: { ...second, user_id: u.id },
      });
      expect(await store.findInvitationByHash(first.token_hash)).toBeNull();
      expect((await store.getUser(ws, u.id))?.role).toBe('member');
      expect(await store.getUser(ws, again.id)).toBeNull();
      expect(await store.inviteUser(user(ws, 'viewer', { email: admin.email }), invitation(admin))).toEqual({
        outcome: 'email_taken',
      });
      expect((await store.getUser(ws, admin.id))?.role).toBe('admin');
    });

    it('accepting sets the password, marks the link used, ends other links and inserts the session, once', async () => {
      const u = user(ws, 'member', { password_hash: null });
      const inv = invitation(u);
      await store.inviteUser(u, inv);
      const s = session(u);
      expect(
        await store.acceptInvitation({
          invitation_id: inv.id,
          password_hash: 'scrypt$x$y',
          session: s,
          now: at(60),
        }),
      ).toBe('accepted');
      expect((await store.getUser(ws, u.id))?.password_hash).toBe('scrypt$x$y');
      expect((await store.findInvitationByHash(inv.token_hash))?.used_at).toEqual(at(60));
      expect(await store.findSessionByHash(s.token_hash)).toEqual(s);
      expect(await store.listOpenInvitations(ws, [u.id])).toEqual([]);
      const s2 = session(u);
      expect(
        await store.acceptInvitation({
          invitation_id: inv.id,
          password_hash: 'scrypt$z$z',
          session: s2,
          now: at(120),
        }),
      ).toBe('used');
      expect(await store.findSessionByHash(s2.token_hash)).toBeNull();
      expect((await store.getUser(ws, u.id))?.password_hash).toBe('scrypt$x$y');
    });

    it('an expired or unknown link changes nothing', async () => {
      const u = user(ws, 'member', { password_hash: null });
      const inv = invitation(u, { expires_at: at(100) });
      await store.inviteUser(u, inv);
      const s = session(u);
      const accept = (id: string, now: Date) =>
        store.acceptInvitation({ invitation_id: id, password_hash: 'scrypt$x$y', session: s, now });
      expect(await accept(inv.id, at(100))).toBe('expired');
      expect(await accept(randomUUID(), at(1))).toBe('unknown');
      expect((await store.getUser(ws, u.id))?.password_hash).toBeNull();
      expect(await store.findSessionByHash(s.token_hash)).toBeNull();
    });

    it('changes a role, but never demotes the last active admin (an invited admin does not count)', async () => {
      expect(await store.changeUserRole(ws, admin.id, 'member')).toBe('last_admin');
      const pending = user(ws, 'admin', { password_hash: null });
      await store.inviteUser(pending, invitation(pending));
      expect(await store.changeUserRole(ws, admin.id, 'viewer')).toBe('last_admin');
      expect(await store.changeUserRole(ws, pending.id, 'viewer')).toBe('changed');
      const second = user(ws, 'member');
      await store.createUser(second);
      expect(await store.changeUserRole(ws, second.id, 'admin')).toBe('changed');
      expect(await store.changeUserRole(ws, admin.id, 'member')).toBe('changed');
      expect((await store.getUser(ws, admin.id))?.role).toBe('member');
      expect(await store.changeUserRole(ws, second.id, 'viewer')).toBe('last_admin');
      expect(await store.changeUserRole(randomUUID(), second.id, 'viewer')).toBe('not_found');
      expect(await store.changeUserRole(ws, randomUUID(), 'viewer')).toBe('not_found');
    });

    it('two admins demoting each other at once: one wins, one admin remains', async () => {
      const other = user(ws, 'admin');
      await store.createUser(other);
      const outcomes = await Promise.all([
        store.changeUserRole(ws, admin.id, 'member'),
        store.changeUserRole(ws, other.id, 'member'),
      ]);
      expect(outcomes.sort()).toEqual(['changed', 'last_admin']);
      const roles = [(await store.getUser(ws, admin.id))?.role, (await store.getUser(ws, other.id))?.role];
      expect(roles.sort()).toEqual(['admin', 'member']);
    });

    it('removing a user deletes them, their sessions and invitations and revokes their keys, in one step', async () => {
      const u = user(ws, 'member');
      await store.createUser(u);
      const s = session(u);
      await store.insertSession(s);
      const k = apiKey(u);
      await store.insertApiKey(k, { maxActive: 25, now: T0 });
      const keep = session(admin);
      await store.insertSession(keep);
      expect(await store.removeUser(ws, u.id, at(5))).toEqual({
        outcome: 'removed',
        policies: [],
        schedules: [],
      });
      expect(await store.getUser(ws, u.id)).toBeNull();
      expect(await store.findSessionByHash(s.token_hash)).toBeNull();
      expect(await store.getApiKey(ws, k.id)).toEqual({ ...k, revoked_at: at(5) });
      expect(await store.findSessionByHash(keep.token_hash)).toEqual(keep);
      expect(await store.removeUser(ws, u.id, at(6))).toEqual({ outcome: 'not_found' });

      const pending = user(ws, 'viewer', { password_hash: null });
      const inv = invitation(pending);
      await store.inviteUser(pending, inv);
      expect(await store.removeUser(ws, pending.id, at(7))).toEqual({
        outcome: 'removed',
        policies: [],
        schedules: [],
      });
      expect(await store.findInvitationByHash(inv.token_hash)).toBeNull();
    });

    it("a workspace's first role changes and removals, all at once, each succeed", async () => {
      // No member change has happened in this workspace yet: nothing of it may need creating first.
      const members = await Promise.all(
        Array.from({ length: 8 }, async () => {
          const u = user(ws, 'member');
          await store.createUser(u);
          return u;
        }),
      );
      const outcomes = await Promise.all(
        members.map((u, i) =>
          i % 2 ? store.changeUserRole(ws, u.id, 'viewer') : store.removeUser(ws, u.id, at(1)),
        ),
      );
      expect(outcomes).toEqual(
        members.map((_, i) => (i % 2 ? 'changed' : { outcome: 'removed', policies: [], schedules: [] })),
      );
      for (const [i, u] of members.entries())
        expect((await store.getUser(ws, u.id))?.role ?? null).toBe(i % 2 ? 'viewer' : null);
    });

    it('two invitations of one new email at once both invite one user; the later link stands', async () => {
      for (let round = 0; round < 5; round++) {
        const email = `both-${round}@members.test`;
        const [a, b] = [0, 1].map(() => user(ws, 'member', { email, password_hash: null }));
        const [ia, ib] = [invitation(a!), invitation(b!)];
        const [ra, rb] = await Promise.all([store.inviteUser(a!, ia), store.inviteUser(b!, ib)]);
        expect([ra.outcome, rb.outcome]).toEqual(['invited', 'invited']);
        if (ra.outcome !== 'invited' || rb.outcome !== 'invited') continue;
        expect(ra.user.id).toBe(rb.user.id);
        const open = await store.listOpenInvitations(ws, [ra.user.id]);
        expect(open).toHaveLength(1);
        expect([ia.id, ib.id]).toContain(open[0]!.id);
        const found = await Promise.all([ia, ib].map((i) => store.findInvitationByHash(i.token_hash)));
        expect(found.filter((f) => f !== null).map((f) => f!.id)).toEqual([open[0]!.id]);
      }
    });

    it('an invitation whose link (token hash) is taken is refused, not reported as a taken email, and adds nobody', async () => {
      const first = user(ws, 'member', { password_hash: null });
      const inv = invitation(first);
      await store.inviteUser(first, inv);
      const second = user(ws, 'viewer', { password_hash: null });
      await expect(
        store.inviteUser(second, invitation(second, { token_hash: inv.token_hash })),
      ).rejects.toThrow();
      expect(await store.getUser(ws, second.id)).toBeNull();
      expect(await store.findInvitationByHash(inv.token_hash)).toEqual(inv);
    });

    it('the last active admin cannot be removed; a user of another workspace is not found', async () => {
      expect(await store.removeUser(ws, admin.id, at(1))).toEqual({ outcome: 'last_admin' });
      expect(await store.getUser(ws, admin.id)).toEqual(admin);
      expect(await store.removeUser(randomUUID(), admin.id, at(1))).toEqual({ outcome: 'not_found' });
      const other = user(ws, 'admin');
      await store.createUser(other);
      // The default policy's one step notifies the first admin; the second shares it.
      const policy = (await store.getDefaultEscalationPolicy(ws))!;
      const shared = { wait_minutes: 0, notify_user_ids: [admin.id, other.id], notify_channel_ids: [] };
      await store.updateEscalationPolicy({ ...policy, steps: [shared] });
      expect(await store.removeUser(ws, admin.id, at(2))).toEqual({
        outcome: 'removed',
        policies: [{ id: policy.id, name: 'Default' }],
        schedules: [],
      });
      expect(await store.removeUser(ws, other.id, at(3))).toEqual({ outcome: 'last_admin' });
    });

    it('a user whom some escalation step notifies alone is not removed (the policies are named); from shared steps they are taken out in the same step', async () => {
      const [u, v] = [user(ws, 'member'), user(ws, 'member')];
      await store.createUser(u);
      await store.createUser(v);
      const s = session(u);
      await store.insertSession(s);
      const channel = randomUUID();
      await store.insertChannel({
        ...{ id: channel, workspace_id: ws, name: 'ops', type: 'slack', secret: null },
        ...{ config: { type: 'slack', url: 'https://hooks.example/x' }, created_at: T0, updated_at: T0 },
      });
      const step = (users: string[], channels: string[] = []) => ({
        wait_minutes: 5,
        notify_user_ids: users,
        notify_channel_ids: channels,
      });
      const policy = (name: string, steps: ReturnType<typeof step>[]) => ({
        ...{ id: randomUUID(), workspace_id: ws, name, is_default: false, steps, repeat: 0 },
        support_hours: null,
        ...{ created_at: T0, updated_at: T0 },
      });
      const gamma = policy('Gamma', [step([v.id]), step([u.id])]);
      const alpha = policy('Alpha', [step([u.id]), step([u.id, v.id]), step([u.id])]);
      const beta = policy('Beta', [step([u.id], [channel]), step([v.id, u.id])]);
      const untouched = policy('Delta', [step([v.id])]);
      for (const p of [gamma, alpha, beta, untouched]) await store.insertEscalationPolicy(p);

      expect(await store.removeUser(ws, u.id, at(8))).toEqual({
        outcome: 'only_target',
        policies: [
          { id: alpha.id, name: 'Alpha', steps: [1, 3] },
          { id: gamma.id, name: 'Gamma', steps: [2] },
        ],
      });
      // Refused whole: the user, their session and every policy are as they were.
      expect(await store.getUser(ws, u.id)).toEqual(u);
      expect(await store.findSessionByHash(s.token_hash)).toEqual(s);
      for (const p of [gamma, alpha, beta]) expect(await store.getEscalationPolicy(ws, p.id)).toEqual(p);

      expect(await store.deleteEscalationPolicy(ws, gamma.id)).toBe('deleted');
      const alphaShared = { ...alpha, steps: [step([u.id, v.id]), step([u.id, v.id])] };
      await store.updateEscalationPolicy(alphaShared);
      expect(await store.removeUser(ws, u.id, at(9))).toEqual({
        outcome: 'removed',
        policies: [
          { id: alpha.id, name: 'Alpha' },
          { id: beta.id, name: 'Beta' },
        ],
        schedules: [],
      });
      expect(await store.getUser(ws, u.id)).toBeNull();
      expect(await store.findSessionByHash(s.token_hash)).toBeNull();
      expect(await store.getEscalationPolicy(ws, alpha.id)).toEqual({
        ...alphaShared,
        steps: [step([v.id]), step([v.id])],
        updated_at: at(9),
      });
      expect(await store.getEscalationPolicy(ws, beta.id)).toEqual({
        ...beta,
        steps: [step([], [channel]), step([v.id])],
        updated_at: at(9),
      });
      expect(await store.getEscalationPolicy(ws, untouched.id)).toEqual(untouched);
    });
  });
};
