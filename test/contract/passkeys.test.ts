/**
 * PasskeyStore contract: credentials unique per workspace and capped per user, the counter moved by
 * compare-and-set, challenges taken once (and only unexpired, only in their workspace), pruning, and a
 * removed user's passkeys gone with them. A removal writes the request's audit entry in its own step.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import type { Passkey, PasskeyChallenge } from '../../control-plane/src/domain/access/passkey-store.js';
import { newDraft, withAuditDraft } from '../../control-plane/src/domain/audit/audit-scope.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, fixtures } from './fixtures.js';
import { contract } from './stores.js';

contract('PasskeyStore', (c) => {
  let store: Store;
  let ws: ReturnType<typeof fixtures.workspace>;
  beforeEach(() => {
    ({ store, ws } = c());
  });
  const cap = { maxPerUser: 10 };
  const passkey = (over: Partial<Passkey> = {}): Passkey => ({
    id: randomUUID(),
    workspace_id: ws.workspace.id,
    user_id: ws.admin.id,
    credential_id: randomUUID().replaceAll('-', ''),
    public_key: 'pQECAyYgASFYIA',
    counter: 0,
    transports: ['internal'],
    name: 'Laptop',
    created_at: at(1),
    last_used_at: null,
    ...over,
  });
  const challenge = (over: Partial<PasskeyChallenge> = {}): PasskeyChallenge => ({
    id: randomUUID(),
    workspace_id: ws.workspace.id,
    user_id: null,
    purpose: 'sign_in',
    expires_at: at(300),
    ...over,
  });

  it('round-trips a passkey, finds it by credential id only in its workspace, and refuses the id twice', async () => {
    const p = passkey();
    expect(await store.insertPasskey(p, cap)).toBe('inserted');
    expect(await store.listPasskeys(ws.workspace.id, ws.admin.id)).toEqual([p]);
    expect(await store.findPasskeyByCredentialId(ws.workspace.id, p.credential_id)).toEqual(p);
    expect(await store.insertPasskey(passkey({ credential_id: p.credential_id }), cap)).toBe('taken');
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect(await store.findPasskeyByCredentialId(other.workspace.id, p.credential_id)).toBeNull();
    expect(await store.listPasskeys(other.workspace.id, ws.admin.id)).toEqual([]);
    expect(await store.deletePasskey(other.workspace.id, ws.admin.id, p.id)).toBe(false);
    expect(await store.usePasskey(other.workspace.id, p.id, { expected: 0, counter: 1, at: at(2) })).toBe(
      false,
    );
    // Another user of the workspace cannot remove it either.
    expect(await store.deletePasskey(ws.workspace.id, randomUUID(), p.id)).toBe(false);
    expect(await store.deletePasskey(ws.workspace.id, ws.admin.id, p.id)).toBe(true);
    expect(await store.listPasskeys(ws.workspace.id, ws.admin.id)).toEqual([]);
  });

  it("writes the request's audit entry in the step that removes a passkey, and none when nothing went", async () => {
    const p = passkey();
    await store.insertPasskey(p, cap);
    const draft = () =>
      newDraft({
        workspace_id: ws.workspace.id,
        at: at(5),
        actor: { type: 'user', id: ws.admin.id, name: ws.admin.email },
        ip: null,
        user_agent: null,
        action: 'passkey.delete',
        resource_type: 'passkey',
        resource_id: p.id,
        changes: { name: ['Laptop', null] },
      });
    const entries = async () => (await store.listAuditEntries(ws.workspace.id, {}, { limit: 10 })).data;
    const missed = draft();
    expect(await withAuditDraft(missed, () => store.deletePasskey(ws.workspace.id, randomUUID(), p.id))).toBe(
      false,
    );
    expect(missed.written).toBe(false);
    expect(await entries()).toEqual([]);
    const d = draft();
    expect(await withAuditDraft(d, () => store.deletePasskey(ws.workspace.id, ws.admin.id, p.id))).toBe(true);
    expect(d.written).toBe(true);
    expect(await entries()).toMatchObject([{ id: d.id, action: 'passkey.delete', resource_id: p.id }]);
  });

  it('caps the passkeys of a user, not of the workspace', async () => {
    for (let i = 0; i < 3; i++)
      expect(await store.insertPasskey(passkey({ created_at: at(i) }), { maxPerUser: 3 })).toBe('inserted');
    expect(await store.insertPasskey(passkey(), { maxPerUser: 3 })).toBe('limit_reached');
    expect(await store.insertPasskey(passkey({ user_id: randomUUID() }), { maxPerUser: 3 })).toBe('inserted');
    const mine = await store.listPasskeys(ws.workspace.id, ws.admin.id);
    expect(mine.map((p) => p.created_at)).toEqual([at(0), at(1), at(2)]);
  });

  it('moves the counter only from the value it expects', async () => {
    const p = passkey({ counter: 4 });
    await store.insertPasskey(p, cap);
    expect(await store.usePasskey(ws.workspace.id, p.id, { expected: 3, counter: 9, at: at(2) })).toBe(false);
    expect(await store.usePasskey(ws.workspace.id, p.id, { expected: 4, counter: 5, at: at(3) })).toBe(true);
    expect(await store.usePasskey(ws.workspace.id, p.id, { expected: 4, counter: 6, at: at(4) })).toBe(false);
    expect(await store.findPasskeyByCredentialId(ws.workspace.id, p.credential_id)).toEqual({
      ...p,
      counter: 5,
      last_used_at: at(3),
    });
  });

  it('gives a challenge once, only unexpired and only to its workspace; prunes the expired', async () => {
    const ch = challenge({ user_id: ws.admin.id, purpose: 'register' });
    await store.insertPasskeyChallenge(ch);
    const other = fixtures.workspace();
    expect(await store.takePasskeyChallenge(other.workspace.id, ch.id, at(2))).toBeNull();
    expect(await store.takePasskeyChallenge(ws.workspace.id, ch.id, at(2))).toEqual(ch);
    expect(await store.takePasskeyChallenge(ws.workspace.id, ch.id, at(2))).toBeNull();

    const racing = challenge();
    await store.insertPasskeyChallenge(racing);
    const both = await Promise.all([
      store.takePasskeyChallenge(ws.workspace.id, racing.id, at(2)),
      store.takePasskeyChallenge(ws.workspace.id, racing.id, at(2)),
    ]);
    expect(both.filter((x) => x !== null)).toHaveLength(1);

    const old = challenge({ expires_at: at(10) });
    await store.insertPasskeyChallenge(old);
    expect(await store.takePasskeyChallenge(ws.workspace.id, old.id, at(10))).toBeNull();
    const fresh = challenge({ expires_at: at(100) });
    await store.insertPasskeyChallenge(fresh);
    expect(await store.prunePasskeyChallenges(at(50), 100)).toBe(1);
    expect(await store.takePasskeyChallenge(ws.workspace.id, fresh.id, at(50))).toEqual(fresh);
  });

  it('removing a user removes their passkeys', async () => {
    const u = {
      ...ws.admin,
      id: randomUUID(),
      email: `m-${randomUUID().slice(0, 6)}@x.test`,
      role: 'member' as const,
    };
    await store.createUser(u);
    const p = passkey({ user_id: u.id });
    await store.insertPasskey(p, cap);
    expect((await store.removeUser(ws.workspace.id, u.id, at(5))).outcome).toBe('removed');
    expect(await store.findPasskeyByCredentialId(ws.workspace.id, p.credential_id)).toBeNull();
  });
});
