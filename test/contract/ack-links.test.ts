/**
 * AckLinkStore contract (domain/alerts/ack-link-store.ts): one-click acknowledge links, kept by their
 * token's hash only.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AckLink } from '../../control-plane/src/domain/alerts/ack-link-store.js';
import { at } from './fixtures.js';
import { contract } from './stores.js';

const link = (workspaceId: string, over: Partial<AckLink> = {}): AckLink => ({
  id: randomUUID(),
  workspace_id: workspaceId,
  alert_id: randomUUID(),
  alert_ids: null,
  token_hash: randomUUID().replace(/-/g, '').repeat(2),
  user_id: randomUUID(),
  channel_id: null,
  via: 'email',
  recipient: 'oncall@example.test',
  created_at: at(0),
  expires_at: at(3600),
  ...over,
});

contract('AckLinkStore', (ctx) => {
  describe('acknowledge links', () => {
    it('found by the hash of their token, whole; an unknown hash finds nothing', async () => {
      const { store, ws } = ctx();
      const a = link(ws.workspace.id);
      const b = link(ws.workspace.id, {
        user_id: null,
        channel_id: randomUUID(),
        via: 'slack',
        recipient: 'https://hooks.slack.com/…',
      });
      await store.insertAckLink(a);
      await store.insertAckLink(b);
      expect(await store.findAckLink(a.token_hash)).toEqual(a);
      expect(await store.findAckLink(b.token_hash)).toEqual(b);
      expect(await store.findAckLink('0'.repeat(64))).toBeNull();
    });

    it('a token hash is stored once: a second link with it is refused', async () => {
      const { store, ws } = ctx();
      const a = link(ws.workspace.id);
      await store.insertAckLink(a);
      await expect(
        store.insertAckLink(link(ws.workspace.id, { token_hash: a.token_hash })),
      ).rejects.toThrow();
      expect(await store.findAckLink(a.token_hash)).toEqual(a);
    });

    it('pruning deletes only links expired before the time given, at most `limit` at a time', async () => {
      const { store, ws } = ctx();
      const old = [
        link(ws.workspace.id, { expires_at: at(10) }),
        link(ws.workspace.id, { expires_at: at(20) }),
      ];
      const live = link(ws.workspace.id, { expires_at: at(30) });
      for (const l of [...old, live]) await store.insertAckLink(l);
      expect(await store.pruneAckLinks(at(30), 1)).toBe(1);
      expect(await store.pruneAckLinks(at(30), 10)).toBe(1);
      expect(await store.pruneAckLinks(at(30), 10)).toBe(0);
      for (const l of old) expect(await store.findAckLink(l.token_hash)).toBeNull();
      expect(await store.findAckLink(live.token_hash)).toEqual(live);
    });
  });
});
