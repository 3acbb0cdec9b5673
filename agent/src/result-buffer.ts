/**
 * Results waiting to be acknowledged by the control plane, oldest first. Bounded by count and by
 * age: when full, or when a result is too old to matter, the oldest go first and are counted as
 * dropped (reported in the agent's health). Results are removed only when acknowledged.
 *
 * The live results are `items[head..]`: dropping or acknowledging the oldest moves `head` (the
 * array is compacted now and then), so a full buffer or a backlog costs nothing per result beyond
 * the result itself. Acknowledgements normally name the oldest results in order (a batch from
 * `peek`), which costs only the batch; any other set is removed by one pass.
 */
export interface Buffered<T> {
  id: string;
  at: number;
  value: T;
}

export const createResultBuffer = <T>(opts: { maxItems: number; maxAgeMs: number }) => {
  let items: Buffered<T>[] = [];
  let head = 0;
  let dropped = 0;
  /** Forgets the first `head` slots once they are most of the array. */
  const compact = () => {
    if (head > 1024 && head * 2 > items.length) {
      items = items.slice(head);
      head = 0;
    }
  };
  const expire = (nowMs: number) => {
    const from = head;
    while (head < items.length && nowMs - items[head]!.at > opts.maxAgeMs) head++;
    dropped += head - from;
    if (head === items.length) {
      items = [];
      head = 0;
    } else compact();
  };
  return {
    push(id: string, at: number, value: T, nowMs: number) {
      expire(nowMs);
      if (items.length - head >= opts.maxItems) {
        head++;
        dropped++;
        compact();
      }
      items.push({ id, at, value });
    },
    /** The oldest `max` results, left in place until `ack`. */
    peek(max: number, nowMs: number): Buffered<T>[] {
      expire(nowMs);
      return items.slice(head, head + max);
    },
    ack(ids: Iterable<string>) {
      const rest: string[] = [];
      for (const id of ids) {
        if (rest.length === 0 && head < items.length && items[head]!.id === id) head++;
        else rest.push(id);
      }
      if (rest.length > 0) {
        const done = new Set(rest);
        let w = head;
        for (let r = head; r < items.length; r++) if (!done.has(items[r]!.id)) items[w++] = items[r]!;
        items.length = w;
      }
      if (head === items.length) {
        items = [];
        head = 0;
      } else compact();
    },
    get size() {
      return items.length - head;
    },
    get dropped() {
      return dropped;
    },
  };
};
