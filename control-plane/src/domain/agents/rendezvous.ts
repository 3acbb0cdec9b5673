import { createHash } from 'node:crypto';

/** A node's weight for a key: the owner of a key is the node with the highest. */
export type Weight = (key: string, node: string) => bigint;

/**
 * Rendezvous (highest-random-weight) hashing: each monitor goes to the agent with the highest
 * hash(monitor, agent). An agent joining or leaving moves only the monitors it wins or held.
 */
export const sha256Weight: Weight = (key, node) => {
  const h = createHash('sha256').update(key).update('\0').update(node).digest();
  return h.readBigUInt64BE(0);
};

export const ownerOf = (
  key: string,
  nodes: readonly string[],
  weight: Weight = sha256Weight,
): string | null => {
  // Nothing to choose between: no hashing (a region with one agent is the common case).
  if (nodes.length <= 1) return nodes[0] ?? null;
  let best: string | null = null;
  let bestWeight = -1n;
  for (const n of nodes) {
    const w = weight(key, n);
    if (w > bestWeight || (w === bestWeight && best !== null && n < best)) {
      best = n;
      bestWeight = w;
    }
  }
  return best;
};

/** The keys that `node` owns among `nodes`. */
export const shareOf = (
  keys: Iterable<string>,
  node: string,
  nodes: readonly string[],
  weight: Weight = sha256Weight,
): string[] => {
  const out: string[] = [];
  for (const k of keys) if (ownerOf(k, nodes, weight) === node) out.push(k);
  return out;
};

/**
 * What a node must be told so that it holds exactly the keys it owns: the owned values whose version
 * it does not hold, and the keys it holds but does not own. Only the `dirty` keys are looked at (a
 * change costs the changed keys, not the whole set), unless it is 'all'.
 */
export const shareChanges = <T extends { version: number }>(
  values: { get(key: string): T | undefined; keys(): Iterable<string> },
  dirty: Iterable<string> | 'all',
  held: ReadonlyMap<string, number>,
  owns: (key: string) => boolean,
): { upserts: T[]; removes: string[] } => {
  const upserts: T[] = [];
  const removes: string[] = [];
  const mine = new Set<string>();
  for (const key of dirty === 'all' ? values.keys() : dirty) {
    const v = values.get(key);
    if (v && owns(key)) {
      if (dirty === 'all') mine.add(key);
      if (held.get(key) !== v.version) upserts.push(v);
    } else if (dirty !== 'all' && held.has(key)) removes.push(key);
  }
  if (dirty === 'all') for (const key of held.keys()) if (!mine.has(key)) removes.push(key);
  return { upserts, removes };
};
