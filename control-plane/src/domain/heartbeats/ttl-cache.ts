/**
 * What a ping names (a heartbeat by uuid or slug, a workspace by ping key), cached for a few seconds per
 * replica: the lookup is the one store read on the ping path. Bounded (oldest entry out first);
 * unknown keys are not cached, so a new heartbeat or key works at once. A record changed meanwhile is
 * seen within the TTL, unless this replica changed it and `forget`s it at once.
 */
export const createTtlCache = <T>(find: (key: string) => Promise<T | null>, ttlMs = 5_000, max = 100_000) => {
  const cache = new Map<string, { at: number; value: T }>();
  return {
    async get(key: string, nowMs: number): Promise<T | null> {
      const hit = cache.get(key);
      if (hit && nowMs - hit.at < ttlMs) return hit.value;
      const value = await find(key);
      if (value === null) {
        cache.delete(key);
        return null;
      }
      if (!cache.has(key) && cache.size >= max) cache.delete(cache.keys().next().value as string);
      cache.set(key, { at: nowMs, value });
      return value;
    },
    /** Drops every entry whose value `which` picks. */
    forget(which: (value: T) => boolean) {
      for (const [key, hit] of cache) if (which(hit.value)) cache.delete(key);
    },
  };
};
