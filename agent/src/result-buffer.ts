/**
 * Results waiting to be acknowledged by the control plane, oldest first. Bounded by count and by
 * age: when full, or when a result is too old to matter, the oldest go first and are counted as
 * dropped (reported in the agent's health). Results are removed only when acknowledged.
 */
export interface Buffered<T> {
  id: string;
  at: number;
  value: T;
}

export const createResultBuffer = <T>(opts: { maxItems: number; maxAgeMs: number }) => {
  const items: Buffered<T>[] = [];
  let dropped = 0;
  const expire = (nowMs: number) => {
    let n = 0;
    while (n < items.length && nowMs - items[n]!.at > opts.maxAgeMs) n++;
    if (n > 0) {
      items.splice(0, n);
      dropped += n;
    }
  };
  return {
    push(id: string, at: number, value: T, nowMs: number) {
      expire(nowMs);
      if (items.length >= opts.maxItems) {
        items.shift();
        dropped++;
      }
      items.push({ id, at, value });
    },
    /** The oldest `max` results, left in place until `ack`. */
    peek(max: number, nowMs: number): Buffered<T>[] {
      expire(nowMs);
      return items.slice(0, max);
    },
    ack(ids: Iterable<string>) {
      const done = new Set(ids);
      let w = 0;
      for (const it of items) if (!done.has(it.id)) items[w++] = it;
      items.length = w;
    },
    get size() {
      return items.length;
    },
    get dropped() {
      return dropped;
    },
  };
};
