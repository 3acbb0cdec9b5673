import { describe, expect, it } from 'vitest';
import type { AuditEntry } from './audit-store.js';
import { recordSignIn } from './sign-ins.js';

describe('recordSignIn', () => {
  it('writes session.sign_in / session.sign_in_failed with via, never more than the email typed', async () => {
    const got: AuditEntry[] = [];
    const store = { appendAuditEntry: async (e: AuditEntry) => void got.push(e) };
    const base = { workspace: { id: 'w' }, ip: '203.0.113.1', at: new Date(0) };
    await recordSignIn(store, {
      ...base,
      user: { id: 'u', email: 'ada@example.test' },
      email: 'ADA@example.test',
      via: 'oidc',
      ok: true,
      session_id: 's',
      user_agent: 'x'.repeat(600),
    });
    await recordSignIn(store, {
      ...base,
      user: null,
      email: `${'n'.repeat(300)}@example.test`,
      via: 'password',
      ok: false,
      user_agent: null,
    });
    expect(got[0]).toMatchObject({
      action: 'session.sign_in',
      actor: { type: 'user', id: 'u', name: 'ada@example.test' },
      resource_type: 'session',
      resource_id: 's',
      changes: { via: [null, 'oidc'] },
    });
    expect(got[0]!.user_agent).toHaveLength(512);
    expect(got[1]).toMatchObject({
      action: 'session.sign_in_failed',
      actor: { id: null },
      resource_id: null,
    });
    expect(got[1]!.actor.name).toHaveLength(254);
  });
});
