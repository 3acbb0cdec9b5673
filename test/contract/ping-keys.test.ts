/**
 * PingKeyStore contract (domain/heartbeats/ping-key-store.ts), and what slug pings need of the
 * HeartbeatStore: a slug unique in its workspace, found by (workspace, slug), a count for the plan's cap.
 */
import { describe, expect, it } from 'vitest';
import type { PingKeyRecord } from '../../control-plane/src/domain/heartbeats/ping-key-store.js';
import { at, fixtures } from './fixtures.js';
import { contract } from './stores.js';

const key = (workspaceId: string, n: number, over: Partial<PingKeyRecord> = {}): PingKeyRecord => ({
  workspace_id: workspaceId,
  key_hash: `${String(n).padStart(2, '0')}`.repeat(32),
  key_sealed: `plain:key-${n}`,
  created_at: at(n),
  ...over,
});

contract('PingKeyStore', (ctx) => {
  describe('ping keys', () => {
    it('none at first; the first create is kept, a second create returns it unchanged', async () => {
      const { store, ws } = ctx();
      expect(await store.getPingKey(ws.workspace.id)).toBeNull();
      const first = key(ws.workspace.id, 1);
      expect(await store.createPingKey(first)).toEqual(first);
      expect(await store.createPingKey(key(ws.workspace.id, 2))).toEqual(first);
      expect(await store.getPingKey(ws.workspace.id)).toEqual(first);
      expect(await store.findPingKey(first.key_hash)).toEqual(first);
    });

    it('two first uses racing store one key and both get it', async () => {
      const { store, ws } = ctx();
      const [a, b] = await Promise.all([
        store.createPingKey(key(ws.workspace.id, 3)),
        store.createPingKey(key(ws.workspace.id, 4)),
      ]);
      expect(a).toEqual(b);
      expect(await store.getPingKey(ws.workspace.id)).toEqual(a);
    });

    it('replacing makes the old hash find nothing; each workspace has its own', async () => {
      const { store, ws } = ctx();
      const other = fixtures.workspace();
      await store.createWorkspace(other);
      const old = await store.createPingKey(key(ws.workspace.id, 5));
      const theirs = await store.createPingKey(key(other.workspace.id, 6));
      const fresh = key(ws.workspace.id, 7);
      await store.replacePingKey(fresh);
      expect(await store.findPingKey(old.key_hash)).toBeNull();
      expect(await store.findPingKey(fresh.key_hash)).toEqual(fresh);
      expect(await store.getPingKey(ws.workspace.id)).toEqual(fresh);
      expect(await store.findPingKey(theirs.key_hash)).toEqual(theirs);
    });
  });

  describe('heartbeat slugs', () => {
    it('a slug is unique in its workspace (insert and edit), free in another, and found by it', async () => {
      const { store, ws } = ctx();
      const other = fixtures.workspace();
      await store.createWorkspace(other);
      const a = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, { slug: 'backup' });
      const b = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, { slug: 'backup' });
      const c = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, { slug: null });
      const d = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, { slug: null });
      const theirs = fixtures.heartbeat(other.workspace.id, other.defaultPolicy.id, { slug: 'backup' });
      expect(await store.insertHeartbeat(a)).toBe('inserted');
      expect(await store.insertHeartbeat(b)).toBe('slug_taken');
      // Many heartbeats have no slug.
      expect(await store.insertHeartbeat(c)).toBe('inserted');
      expect(await store.insertHeartbeat(d)).toBe('inserted');
      expect(await store.insertHeartbeat(theirs)).toBe('inserted');
      expect(await store.findHeartbeat(b.id)).toBeNull();
      expect(await store.findHeartbeatBySlug(ws.workspace.id, 'backup')).toEqual(a);
      expect(await store.findHeartbeatBySlug(other.workspace.id, 'backup')).toEqual(theirs);
      expect(await store.findHeartbeatBySlug(ws.workspace.id, 'nope')).toBeNull();
      expect(await store.countHeartbeats(ws.workspace.id)).toBe(3);
      expect(await store.countHeartbeats(other.workspace.id)).toBe(1);
      // Taking a used slug by an edit is refused and changes nothing; a free one is taken.
      expect(await store.updateHeartbeat({ ...c, slug: 'backup', version: 2 }, 1)).toBe('slug_taken');
      expect((await store.findHeartbeat(c.id))?.slug).toBeNull();
      expect(await store.updateHeartbeat({ ...c, slug: 'restore', version: 2 }, 1)).toBe('updated');
      expect((await store.findHeartbeatBySlug(ws.workspace.id, 'restore'))?.id).toBe(c.id);
    });

    it('keeps a schedule, its zone and the last run’s duration as stored', async () => {
      const { store, ws } = ctx();
      const h = fixtures.heartbeat(ws.workspace.id, ws.defaultPolicy.id, {
        schedule: '0 3 * * 1-5',
        timezone: 'Europe/Berlin',
      });
      await store.insertHeartbeat(h);
      expect(await store.findHeartbeat(h.id)).toEqual(h);
      // A start then a success 90 s later: the run's duration is kept; a cron heartbeat is due at once.
      const ping = (s: number, kind: 'start' | 'success') => ({
        id: `${h.id}-${s}`,
        heartbeat_id: h.id,
        workspace_id: ws.workspace.id,
        kind,
        at: at(s),
        received_at: at(s),
        source: null,
        rid: null,
        exit_status: null,
        body: null,
      });
      await store.recordPings([ping(10, 'start')]);
      await store.recordPings([ping(100, 'success')]);
      expect(await store.findHeartbeat(h.id)).toMatchObject({
        last_duration_ms: 90_000,
        due_at: at(100),
        state: 'up',
        started_at: null,
      });
    });
  });
});
