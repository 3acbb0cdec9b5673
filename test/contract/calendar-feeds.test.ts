/**
 * CalendarFeedStore contract (domain/oncall/calendar-feed-store.ts): calendar feeds' secret URLs, kept
 * by their token's hash only, one per subject.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CalendarFeed } from '../../control-plane/src/domain/oncall/calendar-feed-store.js';
import { at } from './fixtures.js';
import { contract } from './stores.js';

const feed = (workspaceId: string, over: Partial<CalendarFeed> = {}): CalendarFeed => ({
  id: randomUUID(),
  workspace_id: workspaceId,
  kind: 'schedule',
  subject_id: randomUUID(),
  token_hash: randomUUID().replace(/-/g, '').repeat(2),
  created_by: randomUUID(),
  created_at: at(0),
  last_used_at: null,
  ...over,
});

contract('CalendarFeedStore', (ctx) => {
  describe('calendar feeds', () => {
    it('found by the hash of their token, whole, and by their subject; unknown finds nothing', async () => {
      const { store, ws } = ctx();
      const a = feed(ws.workspace.id);
      const b = feed(ws.workspace.id, { kind: 'user', created_by: null, last_used_at: at(5) });
      await store.replaceCalendarFeed(a);
      await store.replaceCalendarFeed(b);
      expect(await store.findCalendarFeed(a.token_hash)).toEqual(a);
      expect(await store.findCalendarFeed(b.token_hash)).toEqual(b);
      expect(await store.getCalendarFeed(ws.workspace.id, 'user', b.subject_id)).toEqual(b);
      // The subject is (workspace, kind, id): the same id of another kind or workspace is not it.
      expect(await store.getCalendarFeed(ws.workspace.id, 'user', a.subject_id)).toBeNull();
      expect(await store.getCalendarFeed(randomUUID(), 'schedule', a.subject_id)).toBeNull();
      expect(await store.findCalendarFeed('0'.repeat(64))).toBeNull();
    });

    it('a new feed replaces (revokes) its subject’s old one in one step; other subjects keep theirs', async () => {
      const { store, ws } = ctx();
      const old = feed(ws.workspace.id);
      const other = feed(ws.workspace.id);
      const sameIdAsUser = feed(ws.workspace.id, { kind: 'user', subject_id: old.subject_id });
      await store.replaceCalendarFeed(old);
      await store.replaceCalendarFeed(other);
      await store.replaceCalendarFeed(sameIdAsUser);
      const next = feed(ws.workspace.id, { subject_id: old.subject_id, created_at: at(60) });
      await store.replaceCalendarFeed(next);
      expect(await store.findCalendarFeed(old.token_hash)).toBeNull();
      expect(await store.findCalendarFeed(next.token_hash)).toEqual(next);
      expect(await store.getCalendarFeed(ws.workspace.id, 'schedule', old.subject_id)).toEqual(next);
      expect(await store.findCalendarFeed(other.token_hash)).toEqual(other);
      expect(await store.findCalendarFeed(sameIdAsUser.token_hash)).toEqual(sameIdAsUser);
    });

    it('concurrent replaces of one subject leave exactly one feed', async () => {
      const { store, ws } = ctx();
      const subject = randomUUID();
      const many = Array.from({ length: 5 }, () => feed(ws.workspace.id, { subject_id: subject }));
      await Promise.allSettled(many.map((f) => store.replaceCalendarFeed(f)));
      const found = await Promise.all(many.map((f) => store.findCalendarFeed(f.token_hash)));
      expect(found.filter((f) => f !== null)).toHaveLength(1);
      expect(await store.getCalendarFeed(ws.workspace.id, 'schedule', subject)).toEqual(
        found.find((f) => f !== null),
      );
    });

    it('a token hash is stored once: a feed with another feed’s hash is refused', async () => {
      const { store, ws } = ctx();
      const a = feed(ws.workspace.id);
      await store.replaceCalendarFeed(a);
      await expect(
        store.replaceCalendarFeed(feed(ws.workspace.id, { token_hash: a.token_hash })),
      ).rejects.toThrow();
      expect(await store.findCalendarFeed(a.token_hash)).toEqual(a);
    });

    it('delete revokes the subject’s feed once; false when there is none', async () => {
      const { store, ws } = ctx();
      const a = feed(ws.workspace.id, { kind: 'user' });
      await store.replaceCalendarFeed(a);
      expect(await store.deleteCalendarFeed(ws.workspace.id, 'schedule', a.subject_id)).toBe(false);
      expect(await store.deleteCalendarFeed(randomUUID(), 'user', a.subject_id)).toBe(false);
      expect(await store.deleteCalendarFeed(ws.workspace.id, 'user', a.subject_id)).toBe(true);
      expect(await store.findCalendarFeed(a.token_hash)).toBeNull();
      expect(await store.deleteCalendarFeed(ws.workspace.id, 'user', a.subject_id)).toBe(false);
    });

    it('last use is written only when it is unset or older than the bound given', async () => {
      const { store, ws } = ctx();
      const a = feed(ws.workspace.id);
      await store.replaceCalendarFeed(a);
      expect(await store.touchCalendarFeed(a.id, at(100), at(100))).toBe(true);
      expect((await store.findCalendarFeed(a.token_hash))?.last_used_at).toEqual(at(100));
      // Written at 100: not stale before 100, so a read at 200 with the bound at 100 writes nothing.
      expect(await store.touchCalendarFeed(a.id, at(200), at(100))).toBe(false);
      expect((await store.findCalendarFeed(a.token_hash))?.last_used_at).toEqual(at(100));
      expect(await store.touchCalendarFeed(a.id, at(300), at(101))).toBe(true);
      expect((await store.findCalendarFeed(a.token_hash))?.last_used_at).toEqual(at(300));
      expect(await store.touchCalendarFeed(randomUUID(), at(400), at(400))).toBe(false);
    });

    it('pruning deletes only feeds last used, or never used and made, before the time given, `limit` at a time', async () => {
      const { store, ws } = ctx();
      const old = [
        feed(ws.workspace.id, { created_at: at(0), last_used_at: at(10) }),
        feed(ws.workspace.id, { created_at: at(20), last_used_at: null }),
      ];
      const live = [
        feed(ws.workspace.id, { created_at: at(0), last_used_at: at(30) }),
        feed(ws.workspace.id, { created_at: at(30), last_used_at: null }),
      ];
      for (const f of [...old, ...live]) await store.replaceCalendarFeed(f);
      expect(await store.pruneCalendarFeeds(at(30), 1)).toBe(1);
      expect(await store.pruneCalendarFeeds(at(30), 10)).toBe(1);
      expect(await store.pruneCalendarFeeds(at(30), 10)).toBe(0);
      for (const f of old) expect(await store.findCalendarFeed(f.token_hash)).toBeNull();
      for (const f of live) expect(await store.findCalendarFeed(f.token_hash)).toEqual(f);
    });
  });
});
