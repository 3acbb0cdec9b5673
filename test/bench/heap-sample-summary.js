// node test/bench/heap-sample-summary.js FILE.heapprofile [N]: the N allocation sites (function and
// place) that allocated most in a sampling heap profile (heap-sample.js), self and with their callees.
import { readFileSync } from 'node:fs';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const n = Number(process.argv[3] ?? 30);
const name = (f) =>
  `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
const self = new Map();
const total = new Map();
let all = 0;
const walk = (node, stack) => {
  const here = name(node.callFrame);
  const bytes = node.selfSize;
  all += bytes;
  self.set(here, (self.get(here) ?? 0) + bytes);
  const seen = new Set([...stack, here]);
  for (const s of seen) total.set(s, (total.get(s) ?? 0) + bytes);
  for (const c of node.children) walk(c, seen);
};
walk(profile.head, new Set());
const top = (m) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(
      ([k, v]) =>
        `${((100 * v) / all).toFixed(1).padStart(5)} %  ${(v / 1e6).toFixed(1).padStart(7)} MB  ${k}`,
    )
    .join('\n');
console.log(`sampled ${(all / 1e6).toFixed(1)} MB\n\nself:\n${top(self)}\n\nwith callees:\n${top(total)}`);
