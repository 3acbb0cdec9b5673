/**
 * SsoStore contract (domain/access/sso.ts): a workspace's single sign-on settings, and what an SSO
 * sign-in does to users on each store (created just in time, roles following the IdP's groups).
 */
import { describe, expect, it } from 'vitest';
import { completeSsoSignIn, type SsoSettings } from '../../control-plane/src/domain/access/sso.js';
import { at, fixtures } from './fixtures.js';
import { contract } from './stores.js';

const settings = (workspaceId: string, over: Partial<SsoSettings> = {}): SsoSettings => ({
  workspace_id: workspaceId,
  oidc: {
    issuer: 'https://idp.example.com',
    client_id: 'lookout',
    client_secret_sealed: 'aes256gcm:aaaa.bbbb.cccc',
    allowed_domains: ['example.com'],
    default_role: 'viewer',
    group_claim: 'groups',
    group_roles: [
      { group: 'ops.admins', role: 'admin' },
      { group: '$team', role: 'member' },
    ],
  },
  saml: null,
  enforced: false,
  break_glass_user_ids: [],
  updated_at: at(0),
  updated_by: 'user-1',
  ...over,
});

const life = { idleMs: 3_600_000, absoluteMs: 86_400_000 };
const identity = (email: string, groups: string[] = []) => ({
  email,
  email_verified: true,
  groups,
  via: 'oidc' as const,
  subject: `sub-${email}`,
});

contract('SsoStore', (ctx) => {
  describe('sso settings', () => {
    it('none at first; stored whole and read back as stored (group names with dots and dollars included)', async () => {
      const { store, ws } = ctx();
      expect(await store.getSsoSettings(ws.workspace.id)).toBeNull();
      const s = settings(ws.workspace.id);
      await store.putSsoSettings(s);
      expect(await store.getSsoSettings(ws.workspace.id)).toEqual(s);
    });

    it('a second put replaces every field, nulls included; each workspace has its own', async () => {
      const { store, ws } = ctx();
      const other = fixtures.workspace();
      await store.createWorkspace(other);
      await store.putSsoSettings(settings(ws.workspace.id));
      const theirs = settings(other.workspace.id, { enforced: true });
      await store.putSsoSettings(theirs);
      const next = settings(ws.workspace.id, {
        oidc: null,
        saml: { idp_metadata_url: null, idp_metadata_xml: '<EntityDescriptor/>', default_role: 'member' },
        enforced: true,
        break_glass_user_ids: [ws.admin.id],
        updated_at: at(60),
        updated_by: 'user-2',
      });
      await store.putSsoSettings(next);
      expect(await store.getSsoSettings(ws.workspace.id)).toEqual(next);
      expect(await store.getSsoSettings(other.workspace.id)).toEqual(theirs);
    });
  });

  describe('completeSsoSignIn', () => {
    it('creates a new user just in time with the mapped role, finds them again the next time, and signs them in', async () => {
      const { store, ws } = ctx();
      await store.putSsoSettings(settings(ws.workspace.id));
      const first = await completeSsoSignIn(
        store,
        ws.workspace,
        identity('Ann@Example.com', ['$team']),
        at(1),
        life,
      );
      expect(first.user).toMatchObject({ email: 'ann@example.com', role: 'member', password_hash: null });
      expect(await store.getUserByEmail(ws.workspace.id, 'ann@example.com')).toEqual(first.user);
      expect(await store.findSessionByHash(first.session.token_hash)).toEqual(first.session);
      const [activity] = await store.listSignInActivity(ws.workspace.id, [first.user.id]);
      expect(activity?.last_sign_in_at).toEqual(at(1));
      const again = await completeSsoSignIn(
        store,
        ws.workspace,
        identity('ann@example.com', ['ops.admins', '$team']),
        at(2),
        life,
      );
      expect(again.user.id).toBe(first.user.id);
      expect(again.user.role).toBe('admin');
      expect((await store.getUser(ws.workspace.id, first.user.id))?.role).toBe('admin');
    });

    it('a user in no mapped group gets the default role, but the last active admin is never demoted', async () => {
      const { store } = ctx();
      const w = fixtures.workspace();
      w.admin.password_hash = 'scrypt$stored';
      await store.createWorkspace(w);
      const open = settings(w.workspace.id).oidc!;
      await store.putSsoSettings(settings(w.workspace.id, { oidc: { ...open, allowed_domains: [] } }));
      const bob = await completeSsoSignIn(store, w.workspace, identity('bob@example.com'), at(1), life);
      expect(bob.user.role).toBe('viewer');
      const r = await completeSsoSignIn(store, w.workspace, identity(w.admin.email), at(2), life);
      expect(r.user).toMatchObject({ id: w.admin.id, role: 'admin' });
      expect((await store.getUser(w.workspace.id, w.admin.id))?.role).toBe('admin');
    });
  });
});
