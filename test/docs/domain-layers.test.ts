// The folders of control-plane/src/domain/ are layers: a file imports only from its own folder, from
// the files at the root of domain/ and from folders BELOW its own. The order is declared once, as the
// numbered list under "Layers inside `domain/`" in docs/architecture.md (bottom first); this test reads
// it there, checks that it names every folder exactly once, and fails on any cycle between folders and
// on any import that goes up the list. Test files count too: a test beside the code is held to the
// same direction.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DOMAIN = join(REPO, 'control-plane/src/domain');
const DOC = join(REPO, 'docs/architecture.md');
/** The files directly in domain/ (types.ts, validation.ts, …): the bottom, below every folder. */
const ROOT = '.';

/** The folders in the order the doc declares, bottom first. */
const declaredOrder = (doc: string): string[] => {
  const start = doc.indexOf('Layers inside `domain/`');
  if (start < 0) throw new Error('docs/architecture.md has no "Layers inside `domain/`" list');
  const order: string[] = [];
  for (const line of doc.slice(start).split('\n').slice(1)) {
    const item = /^\s*\d+\. `([a-z-]+)\/`/.exec(line);
    if (item) order.push(item[1]!);
    else if (order.length > 0 && !/^\s*$|^\s{4,}\S/.test(line)) break;
  }
  return order;
};

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.(ts|tsx|mts)$/.test(name) ? [path] : [];
  });

/** The folder of domain/ a path is in, ROOT for the files at its root, null outside domain/. */
const folderOf = (path: string): string | null => {
  const rel = relative(DOMAIN, path);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(sep);
  return parts.length === 1 ? ROOT : parts[0]!;
};

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

/** Every import of one folder by another: `from → to`, with the files that make it. */
const folderImports = (): Map<string, string[]> => {
  const edges = new Map<string, string[]>();
  for (const file of filesUnder(DOMAIN)) {
    const from = folderOf(file)!;
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      if (!spec!.startsWith('.')) continue;
      const to = folderOf(resolve(dirname(file), spec!));
      if (to === null || to === from) continue;
      const key = `${from} → ${to}`;
      const files = edges.get(key) ?? [];
      if (!files.includes(relative(DOMAIN, file))) files.push(relative(DOMAIN, file));
      edges.set(key, files);
    }
  }
  return edges;
};

/** The cycles of a directed graph, each as the folders on it (one per strongly connected component). */
const cycles = (edges: Iterable<[string, string]>): string[][] => {
  const next = new Map<string, string[]>();
  for (const [a, b] of edges) next.set(a, [...(next.get(a) ?? []), b]);
  // Tarjan's strongly connected components; a component of two or more nodes holds a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
};

describe('the layers of domain/', () => {
  const order = declaredOrder(readFileSync(DOC, 'utf8'));
  const edges = folderImports();
  const pairs = [...edges.keys()].map((k) => k.split(' → ') as [string, string]);

  it('docs/architecture.md lists every folder of domain/ exactly once', () => {
    const folders = readdirSync(DOMAIN)
      .filter((n) => statSync(join(DOMAIN, n)).isDirectory())
      .sort();
    expect([...order].sort()).toEqual(folders);
    expect(new Set(order).size).toBe(order.length);
  });

  it('has no cycle between folders', () => {
    expect(cycles(pairs)).toEqual([]);
  });

  it('imports only downwards: from a folder to one listed before it, or to the root files', () => {
    const rank = (folder: string) => (folder === ROOT ? -1 : order.indexOf(folder));
    const upwards = [...edges]
      .filter(([key]) => {
        const [from, to] = key.split(' → ') as [string, string];
        if (to === ROOT) return false;
        return rank(to) === -1 || rank(from) <= rank(to);
      })
      .map(([key, files]) => `${key} (${files.join(', ')})`);
    expect(upwards).toEqual([]);
  });

  it('the cycle finder finds a cycle, and none in a chain', () => {
    expect(
      cycles([
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['c', 'd'],
      ]),
    ).toEqual([['a', 'b', 'c']]);
    expect(
      cycles([
        ['a', 'b'],
        ['b', 'c'],
      ]),
    ).toEqual([]);
  });
});
