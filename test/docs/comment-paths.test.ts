// The code's comments speak of this repository: a file a comment names (`shared/src/errors.ts`,
// `mcp/in-process-fetch.ts`, `docs/benchmarks.md`, a bare `README.md`) must exist, so that a reader who
// follows one finds it, and a rename or a deletion cannot leave comments pointing at nothing.
//
// - A name with a `/` and a `.ts`, `.tsx`, `.js` or `.md` ending resolves against the repository root,
//   the comment's own folder, one of ROOTS, or as the tail of some file's path; `x.js` also matches
//   its source `x.ts` or `x.tsx` (comments often name the built file).
// - A bare `NAME.md` must be the name of some file in the repository.
// - Build output is not in the repository: a name in a `dist/` folder is checked as its source in `src/`.
// - Names made up in an example are listed in EXAMPLES.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FOLDERS = ['control-plane', 'agent', 'shared', 'proto', 'test'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'data', 'gen']);
const ROOTS = [
  '',
  'control-plane/src/',
  'control-plane/',
  'control-plane/web/src/',
  'agent/src/',
  'shared/src/',
];
/** This test, whose examples name files that are gone on purpose. */
const SELF = 'test/docs/comment-paths.test.ts';
/** Names that stand for any file in an example. */
const EXAMPLES = new Set(['./x-worker.js']);

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(relative(REPO, full));
  }
  return out;
}

const ALL = walk(REPO);

/** The comments of a source file (line and block), with the line each starts on. */
function commentsOf(source: string): { text: string; line: number }[] {
  return [...source.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)].map((m) => ({
    text: m[0],
    line: source.slice(0, m.index).split('\n').length,
  }));
}

/** The file names a comment mentions. */
function namesIn(comment: string): string[] {
  return [...comment.matchAll(/(?<![\w./@-])((?:\.{1,2}\/)?(?:[\w-]+\/)*[\w.-]+\.(?:md|tsx?|js))(?![\w/])/g)]
    .map((m) => m[1]!)
    .filter((name) => name.includes('/') || name.endsWith('.md'));
}

/** Whether `name`, met in a comment of `file`, names a file of the repository. */
function resolves(name: string, file: string): boolean {
  if (EXAMPLES.has(name)) return true;
  // Build output is not checked in: `agent/dist/main.js` stands for its source, `agent/src/main.ts`.
  if (/(^|\/)dist\//.test(name)) return resolves(name.replace(/(^|\/)dist\//, '$1src/'), file);
  const forms = name.endsWith('.js')
    ? [name, name.replace(/\.js$/, '.ts'), name.replace(/\.js$/, '.tsx')]
    : [name];
  if (!name.includes('/')) return ALL.some((path) => path === name || path.endsWith(`/${name}`));
  return forms.some(
    (form) =>
      existsSync(resolve(REPO, dirname(file), form)) ||
      ROOTS.some((root) => existsSync(join(REPO, root + form))) ||
      ALL.some((path) => path.endsWith(`/${form.replace(/^(\.{1,2}\/)+/, '')}`)),
  );
}

describe('files named in code comments', () => {
  it('exist in this repository', () => {
    const sources = FOLDERS.flatMap((folder) => walk(join(REPO, folder))).filter(
      (file) => /\.(ts|tsx|js|mjs)$/.test(file) && file !== SELF,
    );
    expect(sources.length).toBeGreaterThan(100);
    const gone = sources.flatMap((file) =>
      commentsOf(readFileSync(join(REPO, file), 'utf8')).flatMap(({ text, line }) =>
        namesIn(text)
          .filter((name) => !resolves(name, file))
          .map((name) => `${file}:${line} ${name}`),
      ),
    );
    expect(gone).toEqual([]);
    // Reads every source file of the repository: seconds on a busy 2-core box.
  }, 60_000);

  it('the rule finds a gone file and accepts the short forms', () => {
    const here = 'control-plane/src/http/app.ts';
    const named = namesIn(
      '/* see DESIGN.md "Web app", mcp/in-process-client.ts, shared/src/errors.ts, rpc/wire.js, ./route.ts, https://x.test/a.md */',
    );
    expect(named.filter((name) => !resolves(name, here))).toEqual(['DESIGN.md', 'mcp/in-process-client.ts']);
    expect(named).toContain('./route.ts');
    expect(namesIn('// a plain server.ts, and a URL like /docs/a.md')).toEqual([]);
    expect(resolves('control-plane/dist/main.js', here)).toBe(true);
    expect(resolves('control-plane/dist/gone.js', here)).toBe(false);
  });
});
