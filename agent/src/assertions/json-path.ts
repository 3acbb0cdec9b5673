import type { JsonPathSegment, ParsedJsonPath } from '@lookout/shared';

/**
 * Evaluates a parsed JSONPath (shared/src/json-path.ts) against a value JSON.parse made. Plain data
 * walking: no code is ever run, no prototype is looked at (own keys only, so `$.constructor` or
 * `$.__proto__` select nothing that the document does not hold), and the walk is a loop, never a
 * recursion (evaluate.ts refuses a body nested deeper than MAX_JSON_DEPTH before parsing it anyway).
 */

/**
 * At most this many values visited in one evaluation, every step together: a path of many `..` over a
 * nested body selects the same values again at each step, and without a bound its work would grow
 * with the number of steps times the body. Past it the path fails (selectAll returns null). One `..*`
 * over the largest body json_body reads (256 KiB: at most ~131,000 values) visits ~262,000.
 */
export const MAX_VISITED = 300_000;

const own = Object.prototype.hasOwnProperty;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;

/** Appends what `seg`'s selector picks among `node`'s children to `out`. */
const applySelector = (node: unknown, seg: JsonPathSegment, out: unknown[]) => {
  const s = seg.selector;
  if (s.kind === 'wildcard') {
    if (Array.isArray(node)) for (let k = 0; k < node.length; k++) out.push(node[k]);
    else if (isObject(node)) for (const key in node) if (own.call(node, key)) out.push(node[key]);
  } else if (s.kind === 'index') {
    if (!Array.isArray(node)) return;
    const i = s.index < 0 ? node.length + s.index : s.index;
    if (i >= 0 && i < node.length) out.push(node[i]);
  } else if (isObject(node) && own.call(node, s.name)) {
    out.push(node[s.name]);
  }
};

/**
 * `..`: the selector applied to each of `roots` and every array and object inside them, level by level
 * (RFC 9535 leaves the order of descendants open). Only arrays and objects are queued (a scalar has
 * no children to select), the queue is an array walked by index: no recursion. False once the queue
 * and what was selected pass `room`.
 */
const descend = (roots: unknown[], seg: JsonPathSegment, out: unknown[], room: number): boolean => {
  const queue: object[] = [];
  for (const r of roots) if (isContainer(r)) queue.push(r);
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    applySelector(node, seg, out);
    if (Array.isArray(node)) {
      for (let k = 0; k < node.length; k++) if (isContainer(node[k])) queue.push(node[k]);
    } else {
      for (const key in node) {
        const kid = (node as Record<string, unknown>)[key];
        if (own.call(node, key) && isContainer(kid)) queue.push(kid);
      }
    }
    if (queue.length + out.length > room) return false;
  }
  return true;
};

/** The values `path` selects in `root`, in order (none: an empty list); null past MAX_VISITED. */
export const selectAll = (root: unknown, path: ParsedJsonPath): unknown[] | null => {
  let nodes: unknown[] = [root];
  let visited = 1;
  for (const seg of path.segments) {
    const next: unknown[] = [];
    if (seg.descendant) {
      if (!descend(nodes, seg, next, MAX_VISITED - visited)) return null;
    } else {
      for (const n of nodes) {
        applySelector(n, seg, next);
        if (next.length > MAX_VISITED - visited) return null;
      }
    }
    visited += next.length;
    nodes = next;
  }
  return nodes;
};
