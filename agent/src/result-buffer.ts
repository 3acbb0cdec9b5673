/**
 * Results waiting to be acknowledged by the control plane, oldest first. Bounded by count, by
 * estimated bytes and by age: when full, or when a result is too old to matter, the oldest go first
 * and are counted as dropped (reported in the agent's health). Results are removed only when
 * acknowledged.
 *
 * The live results are `items[head..]`: dropping or acknowledging the oldest moves `head` and clears
 * the slot it leaves (the array is compacted now and then), so a full buffer or a backlog costs
 * nothing per result beyond the result itself, and a dropped result is garbage at once.
 * Acknowledgements normally name the oldest results in order (a batch from `peek`), which costs only
 * the batch; any other set is removed by one pass.
 */
export interface Buffered<T, K = string> {
  /** The result's key for `ack`: its id, or any value unique among the results kept. */
  id: K;
  at: number;
  value: T;
  /** What `sizeOf` estimated for `value` when it was pushed. */
  bytes: number;
}

export interface ResultBufferOptions<T> {
  maxItems: number;
  maxAgeMs: number;
  /** Bound on the sum of `sizeOf` over the results kept; the newest result is always kept. */
  maxBytes?: number;
  /** A cheap estimate of the memory a result holds (called once per push). */
  sizeOf?: (value: T) => number;
}

export const createResultBuffer = <T, K = string>(opts: ResultBufferOptions<T>) => {
  const maxBytes = opts.maxBytes ?? Number.POSITIVE_INFINITY;
  const sizeOf = opts.sizeOf ?? (() => 0);
  let items: Buffered<T, K>[] = [];
  let head = 0;
  let dropped = 0;
  let bytes = 0;
  const empty = () => {
    items = [];
    head = 0;
    bytes = 0;
  };
  /** Forgets the first `head` slots once they are most of the array. */
  const compact = () => {
    if (head === items.length) empty();
    else if (head > 1024 && head * 2 > items.length) {
      items = items.slice(head);
      head = 0;
    }
  };
  /** Removes the oldest result (there is one); the slot is cleared so the result can be collected. */
  const shift = () => {
    bytes -= items[head]!.bytes;
    items[head++] = undefined as unknown as Buffered<T, K>;
  };
  const expire = (nowMs: number) => {
    const from = head;
    while (head < items.length && nowMs - items[head]!.at > opts.maxAgeMs) shift();
    dropped += head - from;
    compact();
  };
  return {
    push(id: K, at: number, value: T, nowMs: number) {
      expire(nowMs);
      const size = sizeOf(value);
      items.push({ id, at, value, bytes: size });
      bytes += size;
      const from = head;
      while (items.length - head > opts.maxItems || (bytes > maxBytes && items.length - head > 1)) shift();
      dropped += head - from;
      compact();
    },
    /** The oldest `max` results, left in place until `ack`. */
    peek(max: number, nowMs: number): Buffered<T, K>[] {
      expire(nowMs);
      return items.slice(head, head + max);
    },
    ack(ids: Iterable<K>) {
      const rest: K[] = [];
      for (const id of ids) {
        if (rest.length === 0 && head < items.length && items[head]!.id === id) shift();
        else rest.push(id);
      }
      if (rest.length > 0) {
        const done = new Set(rest);
        let w = head;
        for (let r = head; r < items.length; r++) {
          const item = items[r]!;
          if (done.has(item.id)) bytes -= item.bytes;
          else items[w++] = item;
        }
        items.length = w;
      }
      compact();
    },
    get size() {
      return items.length - head;
    },
    /** The estimated bytes of the results kept (the sum of `sizeOf`). */
    get bytes() {
      return bytes;
    },
    get dropped() {
      return dropped;
    },
  };
};
