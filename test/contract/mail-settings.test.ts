/**
 * MailSettingsStore contract (domain/notifications/mail-settings-store.ts): a workspace's own SMTP server.
 */
import { describe, expect, it } from 'vitest';
import type { WorkspaceMailSettings } from '../../control-plane/src/domain/notifications/mail-settings-store.js';
import { at, fixtures } from './fixtures.js';
import { contract } from './stores.js';

const settings = (workspaceId: string, over: Partial<WorkspaceMailSettings> = {}): WorkspaceMailSettings => ({
  workspace_id: workspaceId,
  host: 'smtp.example.com',
  port: 587,
  tls: 'starttls',
  username: 'alerts@example.com',
  password_sealed: 'aes256gcm:aaaa.bbbb.cccc',
  from_address: 'Lookout <alerts@example.com>',
  updated_at: at(0),
  updated_by: 'user-1',
  ...over,
});

contract('MailSettingsStore', (ctx) => {
  describe('mail settings', () => {
    it('none at first; stored whole and read back as stored', async () => {
      const { store, ws } = ctx();
      expect(await store.getMailSettings(ws.workspace.id)).toBeNull();
      const s = settings(ws.workspace.id);
      await store.putMailSettings(s);
      expect(await store.getMailSettings(ws.workspace.id)).toEqual(s);
    });

    it('a second put replaces every field, nulls included', async () => {
      const { store, ws } = ctx();
      await store.putMailSettings(settings(ws.workspace.id));
      const next = settings(ws.workspace.id, {
        host: '10.0.0.5',
        port: 25,
        tls: 'none',
        username: null,
        password_sealed: null,
        from_address: 'alerts@example.org',
        updated_at: at(60),
        updated_by: 'user-2',
      });
      await store.putMailSettings(next);
      expect(await store.getMailSettings(ws.workspace.id)).toEqual(next);
    });

    it('each workspace has its own; deleting one leaves the other, and reports whether there was one', async () => {
      const { store, ws } = ctx();
      const other = fixtures.workspace();
      await store.createWorkspace(other);
      const mine = settings(ws.workspace.id);
      const theirs = settings(other.workspace.id, { host: 'mail.other.test', tls: 'tls', port: 465 });
      await store.putMailSettings(mine);
      await store.putMailSettings(theirs);
      expect(await store.getMailSettings(other.workspace.id)).toEqual(theirs);
      expect(await store.deleteMailSettings(ws.workspace.id)).toBe(true);
      expect(await store.deleteMailSettings(ws.workspace.id)).toBe(false);
      expect(await store.getMailSettings(ws.workspace.id)).toBeNull();
      expect(await store.getMailSettings(other.workspace.id)).toEqual(theirs);
    });
  });
});
