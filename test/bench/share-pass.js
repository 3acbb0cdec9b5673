// A stream's whole pass over its region (docs/benchmarks.md, "History": issue 27's fifteenth round):
// `shareChanges` over MONITORS keys
// (UUIDs, as monitor ids are) with AGENTS live agents, as `watchAssignments` runs it (paused with
// setImmediate every SHARE_SLICE keys), once with each weight: the baseline, `createHash`'s update
// chain (the weight before this round), and this tree's `sha256Weight`. Prints the whole pass and its
// longest stretch without returning to the event loop, ROUNDS (3) times, alternating.
//
//   node test/bench/share-pass.js        Env: MONITORS (100000), AGENTS (2), ROUNDS (3).
import { createHash, randomUUID } from 'node:crypto';
import { ownerOf, sha256Weight, shareChanges } from '../../control-plane/dist/domain/agents/rendezvous.js';

const MONITORS = Number(process.env.MONITORS ?? 100_000);
const AGENTS = Number(process.env.AGENTS ?? 2);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const values = new Map();
for (let i = 0; i < MONITORS; i++) {
  const id = randomUUID();
  values.set(id, { id, version: 1 });
}
const agents = Array.from({ length: AGENTS }, (_, i) => `agent-${i}-${randomUUID()}`);
const createHashWeight = (key, node) =>
  createHash('sha256').update(key).update('\0').update(node).digest().readBigUInt64BE(0);

const pass = async (weight) => {
  let since = performance.now();
  let longest = 0;
  const pause = async () => {
    longest = Math.max(longest, performance.now() - since);
    await new Promise((resolve) => setImmediate(resolve));
    since = performance.now();
  };
  const t0 = performance.now();
  const { upserts } = await shareChanges(
    values,
    'all',
    new Map(),
    (id) => ownerOf(id, agents, weight) === agents[0],
    pause,
  );
  longest = Math.max(longest, performance.now() - since);
  return { ms: performance.now() - t0, longest, mine: upserts.length };
};

process.stdout.write(`${MONITORS} monitors, ${AGENTS} agents\n`);
for (let r = 1; r <= ROUNDS; r++) {
  for (const [name, weight] of [
    ['createHash weight (baseline)', createHashWeight],
    ['sha256Weight (this tree)', sha256Weight],
  ]) {
    const { ms, longest, mine } = await pass(weight);
    process.stdout.write(
      `round ${r}, ${name}: pass ${ms.toFixed(0)} ms, longest stretch ${longest.toFixed(1)} ms, owned ${mine}\n`,
    );
  }
}
