/**
 * SamlReplayStore contract (domain/access/saml-replay-store.ts): an accepted SAML assertion is
 * recorded once; recording it again is refused (a replay), also when two callers race; rows are pruned
 * by their expiry only.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { at } from './fixtures.js';
import { contract } from './stores.js';

contract('SamlReplayStore', (ctx) => {
  describe('accepted SAML assertions', () => {
    it('the first time is accepted, every later time (same workspace, issuer and id) is a replay', async () => {
      const { store, ws } = ctx();
      const seen = {
        workspace_id: ws.workspace.id,
        issuer: 'https://idp.example',
        assertion_id: `_${randomUUID()}`,
      };
      expect(await store.rememberSamlAssertion({ ...seen, expires_at: at(10) })).toBe(true);
      expect(await store.rememberSamlAssertion({ ...seen, expires_at: at(10) })).toBe(false);
      // A later expiry does not make it new again.
      expect(await store.rememberSamlAssertion({ ...seen, expires_at: at(99) })).toBe(false);
      // The same id from another issuer, or in another workspace, is another assertion.
      expect(
        await store.rememberSamlAssertion({ ...seen, issuer: 'https://other.example', expires_at: at(10) }),
      ).toBe(true);
      expect(
        await store.rememberSamlAssertion({ ...seen, workspace_id: randomUUID(), expires_at: at(10) }),
      ).toBe(true);
    });

    it('two callers racing with one assertion: exactly one is accepted', async () => {
      const { store, ws } = ctx();
      const seen = {
        workspace_id: ws.workspace.id,
        issuer: 'https://idp.example',
        assertion_id: `_${randomUUID()}`,
        expires_at: at(10),
      };
      const answers = await Promise.all(Array.from({ length: 8 }, () => store.rememberSamlAssertion(seen)));
      expect(answers.filter(Boolean)).toHaveLength(1);
    });

    it('pruned once past their expiry, never before: a pruned id is then new (its timing refuses it)', async () => {
      const { store, ws } = ctx();
      const old = {
        workspace_id: ws.workspace.id,
        issuer: 'i',
        assertion_id: `_${randomUUID()}`,
        expires_at: at(5),
      };
      const live = { ...old, assertion_id: `_${randomUUID()}`, expires_at: at(20) };
      await store.rememberSamlAssertion(old);
      await store.rememberSamlAssertion(live);
      expect(await store.pruneSamlAssertions(at(5), 10_000)).toBeGreaterThanOrEqual(0);
      expect(await store.rememberSamlAssertion(old)).toBe(false);
      expect(await store.pruneSamlAssertions(at(6), 10_000)).toBeGreaterThanOrEqual(1);
      expect(await store.rememberSamlAssertion(live)).toBe(false);
      expect(await store.rememberSamlAssertion(old)).toBe(true);
    });

    it('pruning takes at most `limit` rows a call', async () => {
      const { store, ws } = ctx();
      for (let i = 0; i < 3; i++)
        await store.rememberSamlAssertion({
          workspace_id: ws.workspace.id,
          issuer: 'limit',
          assertion_id: `_${randomUUID()}`,
          expires_at: at(-1000),
        });
      expect(await store.pruneSamlAssertions(at(-999), 2)).toBe(2);
    });
  });
});
