import type { PingKeyStore } from './ping-key-store.js';
import { workspaceOfPingKey } from './ping-keys.js';

/**
 * Which workspace a ping key names, cached for a few seconds per replica: slug pings look it up on
 * the hot path. Bounded (oldest entry out first); unknown keys are not cached. Regenerating a key on
 * this replica forgets the workspace's entries at once (`forgetWorkspace`), so the old key stops here
 * immediately; other replicas stop within `ttlMs`, the documented cache time.
 */
export interface PingKeyCache {
  workspaceOf(key: string, nowMs: number): Promise<string | null>;
  forgetWorkspace(workspaceId: string): void;
}

export const createPingKeyCache = (
  store: Pick<PingKeyStore, 'findPingKey'>,
  ttlMs = 5_000,
  max = 100_000,
): PingKeyCache => {
  const cache = new Map<string, { at: number; workspaceId: string }>();
  return {
    async workspaceOf(key, nowMs) {
      const hit = cache.get(key);
      if (hit && nowMs - hit.at < ttlMs) return hit.workspaceId;
      const workspaceId = await workspaceOfPingKey(store, key);
      if (workspaceId === null) {
        cache.delete(key);
        return null;
      }
      if (!cache.has(key) && cache.size >= max) cache.delete(cache.keys().next().value as string);
      cache.set(key, { at: nowMs, workspaceId });
      return workspaceId;
    },
    forgetWorkspace(workspaceId) {
      for (const [key, hit] of cache) if (hit.workspaceId === workspaceId) cache.delete(key);
    },
  };
};
