import { hash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** A node's weight for a key: the owner of a key is the node with the highest. */
export type Weight = (key: string, node: string) => bigint;

/**
 * Rendezvous (highest-random-weight) hashing: each monitor goes to the agent with the highest
 * hash(monitor, agent). An agent joining or leaving moves only the monitors it wins or held.
 */
export const sha256Weight: Weight = (key, node) =>
  // The first 8 bytes of SHA-256(key, NUL, node), big-endian: one call, no hash object (3-6 × faster
  // than createHash's update chain, and the same weights, so replicas of either version agree).
  BigInt(`0x${hash('sha256', `${key}\0${node}`).slice(0, 16)}`);

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

/** How many keys a pass looks at between two pauses (~3.5 ms of work with two agents to choose from). */
export const SHARE_SLICE = 1000;

/**
 * What a node must be told so that it holds exactly the keys it owns: the owned values whose version
 * it does not hold, and the keys it holds but does not own. Only the `dirty` keys are looked at (a
 * change costs the changed keys, not the whole set), unless it is 'all'. Every `SHARE_SLICE` keys it
 * awaits `pause` (by default a return to the event loop): a pass over 100,000 monitors in a region
 * with two agents hashes 200,000 times, which must not hold up every other request for that long.
 */
export const shareChanges = async <T extends { version: number }>(
  values: { get(key: string): T | undefined; keys(): Iterable<string> },
  dirty: Iterable<string> | 'all',
  held: { get(key: string): number | undefined; has(key: string): boolean; keys(): Iterable<string> },
  /** Whether the node owns a key (given with its value, which placement by type reads). */
  owns: (key: string, value: T) => boolean,
  pause: () => Promise<void> = nextTurn,
): Promise<{ upserts: T[]; removes: string[] }> => {
  const upserts: T[] = [];
  const removes: string[] = [];
  const mine = new Set<string>();
  let seen = 0;
  for (const key of dirty === 'all' ? values.keys() : dirty) {
    if (++seen % SHARE_SLICE === 0) await pause();
    const v = values.get(key);
    if (v && owns(key, v)) {
      if (dirty === 'all') mine.add(key);
      if (held.get(key) !== v.version) upserts.push(v);
    } else if (dirty !== 'all' && held.has(key)) removes.push(key);
  }
  if (dirty === 'all') for (const key of held.keys()) if (!mine.has(key)) removes.push(key);
  return { upserts, removes };
};
