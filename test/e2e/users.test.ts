import { hashSecret } from '@lookout/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type Reply, startHarness } from '../support/harness.js';

/**
 * Users for admins (the web app's Users page, `pages/users.tsx`): invite by a one-time link valid 7 days (token shown once,
 * stored as a hash; accepting sets the password and signs in), change a role, remove a user (their
 * sessions and keys stop at once). The last admin can be neither removed nor demoted.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ sign_in_failures_per_minute: 0, sign_in_failures_per_account_per_hour: 0 });
});
afterAll(() => h.close());

const cookieOf = (r: Reply) => {
  const set = r.headers['set-cookie'];
  const line = (Array.isArray(set) ? set : [set ?? '']).find((c) => c.includes('lookout_session='));
  return (line ?? '').split(';')[0]!;
};

const tokenOf = (url: string) => new URL(url).hash.replace(/^#token=/, '');

const accept = (host: string, token: string, password: string) =>
  h.request('POST', '/api/v1/invitations/accept', { host, json: { token, password } });

const signIn = (host: string, email: string, password: string) =>
  h.request('POST', '/api/v1/session', { host, json: { email, password } });

describe('users', () => {
  it('an admin invites by email and role; the link is shown once, stored as a hash, and signs the invitee in', async () => {
    const w = await h.workspace('users-invite');
    const r = await w.api('POST', '/users', { json: { email: 'Nia@Users-Invite.test', role: 'member' } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ email: 'nia@users-invite.test', role: 'member', status: 'invited' });
    expect(r.body.invitation_url).toMatch(
      /^http:\/\/users-invite\.localhost(:\d+)?\/accept-invite#token=li\.[\w-]{43}$/,
    );
    expect(new Date(r.body.invitation_expires_at).getTime() - h.clock.now().getTime()).toBe(7 * 86_400_000);
    const token = tokenOf(r.body.invitation_url);
    expect(await h.store.findInvitationByHash(token)).toBeNull();
    expect((await h.store.findInvitationByHash(hashSecret(token)))?.user_id).toBe(r.body.id);

    const list = await w.api('GET', '/users');
    expect(list.body.data.find((u: { id: string }) => u.id === r.body.id)).toMatchObject({
      status: 'invited',
      invitation_expires_at: r.body.invitation_expires_at,
    });
    // Invited, not yet able to sign in.
    expect((await signIn(w.host, 'nia@users-invite.test', 'a long new password')).status).toBe(401);

    const a = await accept(w.host, token, 'a long new password');
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ user: { email: 'nia@users-invite.test', role: 'member' } });
    const cookie = cookieOf(a);
    expect(cookie).toMatch(/^lookout_session=ls\./);
    const me = await h.request('GET', '/api/v1/session', { host: w.host, headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('nia@users-invite.test');
    expect((await signIn(w.host, 'nia@users-invite.test', 'a long new password')).status).toBe(201);
    const after = await w.api('GET', '/users');
    expect(after.body.data.find((u: { id: string }) => u.id === r.body.id)).toMatchObject({
      status: 'active',
      invitation_expires_at: null,
    });

    // One time only.
    const again = await accept(w.host, token, 'another long password');
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/already been used/);
  });

  it('an expired link is refused; a new invitation replaces the old link', async () => {
    const w = await h.workspace('users-expired');
    const first = await w.api('POST', '/users', {
      json: { email: 'old@users-expired.test', role: 'viewer' },
    });
    h.clock.advance(7 * 86_400_000 + 1000);
    const late = await accept(w.host, tokenOf(first.body.invitation_url), 'a long new password');
    expect(late.status).toBe(409);
    expect(late.body.error.message).toMatch(/expired/);
    // Inviting the same (never signed-in) email again gives a new link and the new role.
    const second = await w.api('POST', '/users', {
      json: { email: 'old@users-expired.test', role: 'member' },
    });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ id: first.body.id, role: 'member' });
    expect((await accept(w.host, tokenOf(second.body.invitation_url), 'short')).body.error.details).toEqual([
      { field: 'password', message: 'must be at least 12 characters' },
    ]);
    expect((await accept(w.host, tokenOf(second.body.invitation_url), 'a long new password')).status).toBe(
      201,
    );
    // An active user's email is taken.
    const taken = await w.api('POST', '/users', {
      json: { email: 'old@users-expired.test', role: 'member' },
    });
    expect(taken.status).toBe(409);
  });

  it('a link works only on its own workspace; an unknown one is refused', async () => {
    const a = await h.workspace('users-ws-a');
    const b = await h.workspace('users-ws-b');
    const r = await a.api('POST', '/users', { json: { email: 'x@users-ws-a.test', role: 'viewer' } });
    const other = await accept(b.host, tokenOf(r.body.invitation_url), 'a long new password');
    expect(other.status).toBe(404);
    expect((await accept(a.host, 'li.nope', 'a long new password')).status).toBe(404);
    expect((await accept(a.host, tokenOf(r.body.invitation_url), 'a long new password')).status).toBe(201);
  });

  it('admins only; bad fields are named; other workspaces’ users are 404', async () => {
    const w = await h.workspace('users-rules');
    const other = await h.workspace('users-rules-other');
    const member = await w.userWithKey('member');
    const asMember = w.as(member.key);
    expect((await asMember('GET', '/users')).status).toBe(403);
    expect((await asMember('POST', '/users', { json: { email: 'a@b.test', role: 'viewer' } })).status).toBe(
      403,
    );
    expect((await asMember('PATCH', `/users/${member.user.id}`, { json: { role: 'admin' } })).status).toBe(
      403,
    );
    expect((await asMember('DELETE', `/users/${w.admin.id}`)).status).toBe(403);

    const bad = await w.api('POST', '/users', { json: { email: 'not-an-email', role: 'owner' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['email', 'role']);
    const badRole = await w.api('PATCH', `/users/${member.user.id}`, { json: { role: 'root' } });
    expect(badRole.status).toBe(422);
    expect(badRole.body.error.details.map((d: { field: string }) => d.field)).toEqual(['role']);

    expect((await other.api('PATCH', `/users/${member.user.id}`, { json: { role: 'viewer' } })).status).toBe(
      404,
    );
    expect((await other.api('DELETE', `/users/${member.user.id}`)).status).toBe(404);
    expect((await w.api('DELETE', '/users/not-a-user')).status).toBe(404);
    expect((await h.store.getUser(w.workspace.id, member.user.id))?.role).toBe('member');
  });

  it('any role reads the people of its own workspace as id and email only (whom a schedule may name)', async () => {
    const w = await h.workspace('users-people');
    const other = await h.workspace('users-people-other');
    const viewer = await w.userWithKey('viewer');
    const seen = await w.as(viewer.key)('GET', '/people?limit=1');
    expect(seen.status).toBe(200);
    expect(seen.body.data).toHaveLength(1);
    const rest = await w.as(viewer.key)(
      'GET',
      `/people?limit=100&cursor=${encodeURIComponent(seen.body.next_cursor)}`,
    );
    const people = [...seen.body.data, ...rest.body.data];
    expect(people.map((p: { email: string }) => p.email).sort()).toEqual(
      [w.admin.email, viewer.user.email].sort(),
    );
    for (const p of people) expect(Object.keys(p).sort()).toEqual(['email', 'id']);
    const theirs = await other.api('GET', '/people?limit=100');
    expect(theirs.body.data.map((p: { id: string }) => p.id)).not.toContain(viewer.user.id);
    expect((await h.request('GET', '/api/v1/people', { host: w.host })).status).toBe(401);
  });

  it('changes a role; the last admin can be neither demoted nor removed', async () => {
    const w = await h.workspace('users-roles');
    const last = await w.api('PATCH', `/users/${w.admin.id}`, { json: { role: 'member' } });
    expect(last.status).toBe(409);
    expect(last.body.error.message).toMatch(/last admin/);
    const removeLast = await w.api('DELETE', `/users/${w.admin.id}`);
    expect(removeLast.status).toBe(409);
    // An invited admin who never signed in does not count.
    await w.api('POST', '/users', { json: { email: 'pending@users-roles.test', role: 'admin' } });
    expect((await w.api('PATCH', `/users/${w.admin.id}`, { json: { role: 'member' } })).status).toBe(409);

    const member = await w.userWithKey('member');
    const up = await w.api('PATCH', `/users/${member.user.id}`, { json: { role: 'admin' } });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ id: member.user.id, role: 'admin', status: 'active' });
    // The key acts with the new role at its next request.
    expect((await w.as(member.key)('GET', '/users')).status).toBe(200);
    const down = await w.as(member.key)('PATCH', `/users/${w.admin.id}`, { json: { role: 'viewer' } });
    expect(down.status).toBe(200);
    expect((await w.api('GET', '/users')).status).toBe(403);
  });

  it('removing a user ends their sessions and keys at once', async () => {
    const w = await h.workspace('users-remove');
    const member = await w.userWithKey('member');
    const s = await signIn(w.host, member.user.email, member.password);
    const cookie = cookieOf(s);
    expect((await h.request('GET', '/api/v1/session', { host: w.host, headers: { cookie } })).status).toBe(
      200,
    );
    expect((await w.as(member.key)('GET', '/monitors')).status).toBe(200);

    const r = await w.api('DELETE', `/users/${member.user.id}`);
    expect(r.status).toBe(200);
    expect((await h.request('GET', '/api/v1/session', { host: w.host, headers: { cookie } })).status).toBe(
      401,
    );
    expect((await w.as(member.key)('GET', '/monitors')).status).toBe(401);
    expect(await h.store.getApiKey(w.workspace.id, member.keyId)).toMatchObject({
      revoked_at: h.clock.now(),
    });
    expect((await w.api('GET', '/users')).body.data.map((u: { id: string }) => u.id)).not.toContain(
      member.user.id,
    );
    expect((await w.api('DELETE', `/users/${member.user.id}`)).status).toBe(404);
    // A removed user's invitation dies with them.
    const inv = await w.api('POST', '/users', { json: { email: 'gone@users-remove.test', role: 'viewer' } });
    await w.api('DELETE', `/users/${inv.body.id}`);
    expect((await accept(w.host, tokenOf(inv.body.invitation_url), 'a long new password')).status).toBe(404);
  });

  it('a user whom an escalation step notifies alone is not removed (409 naming the policies); from shared steps they are taken out', async () => {
    const w = await h.workspace('users-steps');
    const [ana, bob] = [await w.userWithKey('member'), await w.userWithKey('member')];
    const policy = async (name: string, steps: string[][]) => {
      const r = await w.api('POST', '/escalation-policies', {
        json: { name, steps: steps.map((ids, i) => ({ wait_minutes: i * 10, notify_user_ids: ids })) },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body as { id: string; updated_at: string };
    };
    const night = await policy('Night shift', [[ana.user.id], [ana.user.id, bob.user.id]]);
    const db = await policy('Database', [[bob.user.id, ana.user.id]]);
    const created = night.updated_at;
    h.clock.advance(60_000);

    const refused = await w.api('DELETE', `/users/${ana.user.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({
      code: 'conflict',
      message:
        'This user is the only one notified by step 1 of “Night shift”. Add someone else to that step (or change the escalation policy) before removing them.',
      details: [
        {
          field: 'escalation_policies',
          message: `${night.id} (“Night shift”): step 1 notifies only this user`,
        },
      ],
    });
    // Nothing changed: the user and their key work, both policies still name them.
    expect((await w.as(ana.key)('GET', '/monitors')).status).toBe(200);
    expect((await w.api('GET', `/escalation-policies/${db.id}`)).body.steps[0].notify_user_ids).toContain(
      ana.user.id,
    );

    const shared = await w.api('PATCH', `/escalation-policies/${night.id}`, {
      json: {
        steps: [
          { wait_minutes: 0, notify_user_ids: [ana.user.id, bob.user.id] },
          { wait_minutes: 10, notify_user_ids: [ana.user.id, bob.user.id] },
        ],
      },
    });
    expect(shared.status).toBe(200);
    h.clock.advance(60_000);
    expect((await w.api('DELETE', `/users/${ana.user.id}`)).status).toBe(200);
    for (const id of [night.id, db.id]) {
      const p = (await w.api('GET', `/escalation-policies/${id}`)).body;
      for (const step of p.steps) expect(step.notify_user_ids).toEqual([bob.user.id]);
      expect(p.updated_at).toBe(h.clock.now().toISOString());
      expect(p.updated_at).not.toBe(created);
    }
    expect((await w.as(ana.key)('GET', '/monitors')).status).toBe(401);
  });
});
