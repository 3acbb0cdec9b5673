import { createHash } from 'node:crypto';

/**
 * Rendezvous (highest-random-weight) hashing: each monitor goes to the agent with the highest
 * hash(monitor, agent). An agent joining or leaving moves only the monitors it wins or held.
 */
const weight = (key: string, node: string): bigint => {
  const h = createHash('sha256').update(key).update('\0').update(node).digest();
  return h.readBigUInt64BE(0);
};

export const ownerOf = (key: string, nodes: readonly string[]): string | null => {
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
export const shareOf = (keys: Iterable<string>, node: string, nodes: readonly string[]): string[] => {
  const out: string[] = [];
  for (const k of keys) if (ownerOf(k, nodes) === node) out.push(k);
  return out;
};
