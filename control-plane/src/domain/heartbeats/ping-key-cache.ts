import type { PingKeyStore } from './ping-key-store.js';
import { workspaceOfPingKey } from './ping-keys.js';
import { createTtlCache } from './ttl-cache.js';

/**
 * Which workspace a ping key names, one cache per replica shared by the ping endpoint and the route
 * that regenerates keys: regenerating forgets the workspace's entries, so the old key stops on this
 * replica at once; other replicas stop within the cache's TTL.
 */
export interface PingKeyCache {
  workspaceOf(key: string, nowMs: number): Promise<string | null>;
  forgetWorkspace(workspaceId: string): void;
}

export const createPingKeyCache = (store: Pick<PingKeyStore, 'findPingKey'>): PingKeyCache => {
  const cache = createTtlCache((key) => workspaceOfPingKey(store, key));
  return {
    workspaceOf: (key, nowMs) => cache.get(key, nowMs),
    forgetWorkspace: (workspaceId) => cache.forget((id) => id === workspaceId),
  };
};
