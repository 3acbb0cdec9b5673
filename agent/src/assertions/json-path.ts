import type { JsonPathSegment, ParsedJsonPath } from '@lookout/shared';

/**
 * Evaluates a parsed JSONPath (shared/src/json-path.ts) against a value JSON.parse made. Plain data
 * walking: no code is ever run, no prototype is looked at (own keys only, so `$.constructor` or
 * `$.__proto__` select nothing that the document does not hold), and the walk is a loop over an
 * explicit stack, so a body nested a million deep selects or fails, never overflows the stack.
 */

/** At most this many values per step (more than a 256 KiB body, the json_body cap, can hold): a bound of its own. */
export const MAX_SELECTED = 200_000;

const own = Object.prototype.hasOwnProperty;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The children of `v` (array items, object values), in document order. */
const childrenOf = (v: unknown): unknown[] => {
  if (Array.isArray(v)) return v;
  if (isObject(v)) return Object.values(v);
  return [];
};

/** `v` and every value inside it, in document order (pre-order), without recursion. */
const selfAndDescendants = (v: unknown, out: unknown[]) => {
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const node = stack.pop();
    out.push(node);
    if (out.length > MAX_SELECTED) return;
    const kids = childrenOf(node);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
};

const applySelector = (node: unknown, seg: JsonPathSegment, out: unknown[]) => {
  const s = seg.selector;
  if (s.kind === 'wildcard') {
    for (const kid of childrenOf(node)) out.push(kid);
  } else if (s.kind === 'index') {
    if (!Array.isArray(node)) return;
    const i = s.index < 0 ? node.length + s.index : s.index;
    if (i >= 0 && i < node.length) out.push(node[i]);
  } else if (isObject(node) && own.call(node, s.name)) {
    out.push(node[s.name]);
  }
};

/** The values `path` selects in `root`, in document order (none: an empty list). */
export const selectAll = (root: unknown, path: ParsedJsonPath): unknown[] => {
  let nodes: unknown[] = [root];
  for (const seg of path.segments) {
    let from = nodes;
    if (seg.descendant) {
      from = [];
      for (const n of nodes) {
        selfAndDescendants(n, from);
        if (from.length > MAX_SELECTED) break;
      }
    }
    const next: unknown[] = [];
    for (const n of from) {
      applySelector(n, seg, next);
      if (next.length > MAX_SELECTED) break;
    }
    nodes = next;
  }
  return nodes;
};
