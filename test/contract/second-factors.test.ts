/**
 * SecondFactorStore contract: a TOTP factor pending then confirmed (with its recovery codes in the same
 * step), a time step accepted once (replay refused), recovery codes and challenges single use under
 * concurrency, challenge tries counted, expired challenges pruned, the workspace's require_2fa, and
 * another workspace's user seeing none of it.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import type {
  RecoveryCode,
  SignInChallenge,
  TotpFactor,
} from '../../control-plane/src/domain/access/second-factor-store.js';
import type { Store } from '../../control-plane/src/store/port.js';
import { at, fixtures } from './fixtures.js';
import { contract } from './stores.js';

contract('SecondFactorStore', (c) => {
  let store: Store;
  let ws: ReturnType<typeof fixtures.workspace>;
  beforeEach(() => {
    ({ store, ws } = c());
  });
  const user = () => ws.admin;
  const factor = (secret = 'sealed-1'): TotpFactor => ({
    workspace_id: ws.workspace.id,
    user_id: user().id,
    secret_sealed: secret,
    created_at: at(0),
    confirmed_at: null,
    last_step: null,
  });
  const codes = (n: number): RecoveryCode[] =>
    Array.from({ length: n }, (_, i) => ({
      id: randomUUID(),
      workspace_id: ws.workspace.id,
      user_id: user().id,
      code_hash: `hash-${i}-${randomUUID()}`,
      created_at: at(0),
    }));
  const challenge = (expires = at(300)): SignInChallenge => ({
    id: randomUUID(),
    workspace_id: ws.workspace.id,
    user_id: user().id,
    token_hash: randomUUID(),
    created_at: at(0),
    expires_at: expires,
    failures: 0,
  });

  it('keeps a TOTP secret pending until confirmed, then refuses a new pending one and replayed steps', async () => {
    const w = ws.workspace.id;
    const u = user().id;
    expect(await store.getSecondFactors(w, u)).toEqual({ totp: null, recovery_codes_left: 0, passkeys: 0 });
    expect(await store.putPendingTotp(factor('a'))).toBe(true);
    expect(await store.putPendingTotp(factor('b'))).toBe(true);
    expect((await store.getSecondFactors(w, u)).totp).toMatchObject({
      secret_sealed: 'b',
      confirmed_at: null,
    });
    // A pending factor accepts no step.
    expect(await store.acceptTotpStep(w, u, 10)).toBe(false);
    const ten = codes(10);
    expect(await store.confirmTotp({ workspace_id: w, user_id: u, at: at(5), step: 10, codes: ten })).toBe(
      true,
    );
    expect(await store.confirmTotp({ workspace_id: w, user_id: u, at: at(6), step: 11, codes: [] })).toBe(
      false,
    );
    const f = await store.getSecondFactors(w, u);
    expect(f.totp).toEqual({ ...factor('b'), confirmed_at: at(5), last_step: 10 });
    expect(f.recovery_codes_left).toBe(10);
    expect(await store.putPendingTotp(factor('c'))).toBe(false);
    expect((await store.getSecondFactors(w, u)).totp?.secret_sealed).toBe('b');
    // The confirming step and earlier ones are spent; a later one is accepted once, even when raced.
    expect(await store.acceptTotpStep(w, u, 10)).toBe(false);
    expect(await store.acceptTotpStep(w, u, 9)).toBe(false);
    const raced = await Promise.all([1, 2, 3, 4].map(() => store.acceptTotpStep(w, u, 11)));
    expect(raced.filter(Boolean)).toHaveLength(1);
    // Another workspace sees nothing of it.
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect(await store.getSecondFactors(other.workspace.id, u)).toEqual({
      totp: null,
      recovery_codes_left: 0,
      passkeys: 0,
    });
    expect(await store.acceptTotpStep(other.workspace.id, u, 50)).toBe(false);
    // Disabling keeps the codes when asked (another factor remains), else deletes them.
    await store.deleteTotp(w, u, true);
    expect(await store.getSecondFactors(w, u)).toEqual({ totp: null, recovery_codes_left: 10, passkeys: 0 });
    await store.deleteTotp(w, u, false);
    expect((await store.getSecondFactors(w, u)).recovery_codes_left).toBe(0);
  });

  it('uses each recovery code once, replaces them all, and keeps other users out', async () => {
    const w = ws.workspace.id;
    const u = user().id;
    await store.replaceRecoveryCodes(w, u, codes(10));
    const listed = await store.listRecoveryCodes(w, u);
    expect(listed).toHaveLength(10);
    const one = listed[0]!;
    const raced = await Promise.all([1, 2, 3].map(() => store.useRecoveryCode(w, u, one.id)));
    expect(raced.filter(Boolean)).toHaveLength(1);
    expect(await store.listRecoveryCodes(w, u)).toHaveLength(9);
    expect(await store.useRecoveryCode(w, 'someone-else', listed[1]!.id)).toBe(false);
    const fresh = codes(10);
    await store.replaceRecoveryCodes(w, u, fresh);
    expect((await store.listRecoveryCodes(w, u)).map((r) => r.id).sort()).toEqual(
      fresh.map((r) => r.id).sort(),
    );
    expect(await store.useRecoveryCode(w, u, listed[1]!.id)).toBe(false);
  });

  it('counts a challenge’s tries, consumes it once, and prunes expired ones', async () => {
    const ch = challenge();
    await store.insertChallenge(ch);
    expect(await store.findChallenge(ch.token_hash)).toEqual(ch);
    const tries = await Promise.all([1, 2, 3].map(() => store.countChallengeTry(ch.id)));
    expect(tries.sort()).toEqual([1, 2, 3]);
    const both = await Promise.all([store.consumeChallenge(ch.id), store.consumeChallenge(ch.id)]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect(await store.findChallenge(ch.token_hash)).toBeNull();
    expect(await store.countChallengeTry(ch.id)).toBeNull();
    const old = challenge(at(10));
    const live = challenge(at(1000));
    await store.insertChallenge(old);
    await store.insertChallenge(live);
    expect(await store.pruneChallenges(at(10), 100)).toBe(1);
    expect(await store.findChallenge(old.token_hash)).toBeNull();
    expect(await store.findChallenge(live.token_hash)).not.toBeNull();
  });

  it('keeps a session’s two-factor setup mark, present only when set', async () => {
    const base = {
      workspace_id: ws.workspace.id,
      user_id: user().id,
      csrf_secret: 'c',
      created_at: at(0),
      last_seen_at: at(0),
      expires_at: at(3600),
    };
    const marked = { ...base, id: randomUUID(), token_hash: randomUUID(), two_factor_setup: true as const };
    const plain = { ...base, id: randomUUID(), token_hash: randomUUID() };
    await store.insertSession(marked);
    await store.insertSession(plain);
    expect(await store.findSessionByHash(marked.token_hash)).toEqual(marked);
    const read = await store.findSessionByHash(plain.token_hash);
    expect(read).toEqual(plain);
    expect(read && 'two_factor_setup' in read).toBe(false);
  });

  it('keeps require_2fa per workspace (off by default)', async () => {
    const w = ws.workspace.id;
    expect(await store.getWorkspaceSecurity(w)).toEqual({ workspace_id: w, require_2fa: false });
    await store.putWorkspaceSecurity({ workspace_id: w, require_2fa: true });
    expect(await store.getWorkspaceSecurity(w)).toEqual({ workspace_id: w, require_2fa: true });
    const other = fixtures.workspace();
    await store.createWorkspace(other);
    expect((await store.getWorkspaceSecurity(other.workspace.id)).require_2fa).toBe(false);
    await store.putWorkspaceSecurity({ workspace_id: w, require_2fa: false });
    expect((await store.getWorkspaceSecurity(w)).require_2fa).toBe(false);
  });
});
