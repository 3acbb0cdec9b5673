// Every file or folder the docs name must exist, so a rename or a deletion cannot leave them pointing
// at nothing. The rule, stated once (docs/architecture.md repeats it for writers):
//
// - A path is a backticked span of the README or of docs/*.md with no spaces that ends in a known file
//   extension, ends in `/`, or starts with one of the folders in PATH_STARTS. URLs (`://`), API paths
//   (starting with `/`) and everything else are left alone.
// - A path with a `/` resolves against the repository root or one of ROOTS (so `domain/types.ts` is
//   `control-plane/src/domain/types.ts`, `pages/users.tsx` is `control-plane/web/src/pages/users.tsx`).
// - A bare name (`server.ts`, `tenancy/`) must be the name of some file or folder in the repository.
// - `<x>`, `*` and `…` stand for any part of a name: at least one file must match.
// - Files that Lookout or the operator creates outside the repository are listed in MADE_ELSEWHERE;
//   build output (anything in a `dist` folder) is not checked, since a fresh clone has none.
// - A Markdown link to a relative target (`[text](../control-plane/src/process/jobs.ts)`) must point at a file or
//   folder, resolved from the document's own folder as GitHub does.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where a short path may start, besides the repository root. */
const ROOTS = ['control-plane/src', 'control-plane', 'control-plane/web/src', 'agent/src'];

/** A span starting with one of these folders is a path even without an extension. */
const PATH_STARTS = [
  '.ci',
  '.github',
  'agent',
  'control-plane',
  'deploy',
  'docs',
  'proto',
  'shared',
  'test',
  'domain',
  'http',
  'store',
  'rpc',
  'notify',
  'mcp',
  'cli',
  'web',
  'pages',
  'probers',
];

/** Files the docs name that are made at run time or by the operator, never checked in. */
const MADE_ELSEWHERE = new Set([
  'dns.json', // IANA's RDAP bootstrap file
  'rdap-dns.json', // the agent's cache of it
  'claude_desktop_config.json', // a desktop assistant's configuration
  'deploy/compose/.env', // the operator's copy of deploy/compose/env.example
  'lookout.yaml', // a workspace's configuration, made by `npx lookout export`
]);

const EXTENSIONS =
  /\.(ts|tsx|js|mjs|cjs|json|md|proto|binpb|yml|yaml|toml|css|html|sh|Dockerfile|service|conf)$/;

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'data']);

function allFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(`${relative(REPO, full)}/`);
      allFiles(full, out);
    } else out.push(relative(REPO, full));
  }
  return out;
}

/** The backticked spans of a Markdown text that name files or folders, with their line numbers. */
function pathsIn(markdown: string): { path: string; line: number }[] {
  const found: { path: string; line: number }[] = [];
  const lines = markdown.split('\n');
  let fenced = false;
  for (const [index, line] of lines.entries()) {
    if (line.trimStart().startsWith('```')) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    for (const match of line.matchAll(/`([^`\s]+)`/g)) {
      const span = match[1]!;
      if (span.includes('://') || span.startsWith('/') || !/^[\w.<>*…-]/.test(span)) continue;
      if (!/^[\w.@<>*…/-]+$/.test(span)) continue;
      const first = span.split('/')[0]!;
      const looksLikePath =
        EXTENSIONS.test(span) || (span.includes('/') && (span.endsWith('/') || PATH_STARTS.includes(first)));
      if (looksLikePath) found.push({ path: span, line: index + 1 });
    }
  }
  return found;
}

/** The relative targets of the Markdown links of a text (URLs and in-page anchors left alone). */
function linksIn(markdown: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  for (const [index, line] of markdown.split('\n').entries()) {
    for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!.replace(/#.*$/, '');
      if (target === '' || /^[a-z][a-z+.-]*:/i.test(target)) continue;
      found.push({ target, line: index + 1 });
    }
  }
  return found;
}

function pattern(path: string): RegExp {
  const escaped = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/<[^>]*>|\*|…/g, '[^/]*')}$`);
}

function resolves(path: string, files: readonly string[]): boolean {
  if (MADE_ELSEWHERE.has(path) || path.split('/').includes('dist')) return true;
  const name = path.replace(/\/$/, '');
  const wild = /[<*…]/.test(name);
  if (!name.includes('/')) {
    const re = pattern(name);
    return files.some((file) => (wild ? re.test(basename(file)) : basename(file) === name));
  }
  const candidates = ['', ...ROOTS.map((root) => `${root}/`)].map((root) => root + name);
  if (!wild) return candidates.some((candidate) => existsSync(join(REPO, candidate)));
  return candidates.some((candidate) => {
    const re = pattern(candidate);
    return files.some((file) => re.test(file.replace(/\/$/, '')));
  });
}

const DOCS = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('paths named in the docs', () => {
  const files = allFiles(REPO);

  for (const doc of DOCS) {
    it(`${doc} names no path that is gone`, () => {
      const text = readFileSync(join(REPO, doc), 'utf8');
      const gone = pathsIn(text)
        .filter(({ path }) => !resolves(path, files))
        .map(({ path, line }) => `${doc}:${line} \`${path}\``);
      const broken = linksIn(text)
        .filter(({ target }) => !existsSync(resolve(REPO, dirname(doc), target)))
        .map(({ target, line }) => `${doc}:${line} (${target})`);
      expect([...gone, ...broken]).toEqual([]);
    });
  }

  it('docs/architecture.md says at which commit it was last reviewed', () => {
    const text = readFileSync(join(REPO, 'docs/architecture.md'), 'utf8');
    expect(text).toMatch(/^Last reviewed at `[0-9a-f]{7,40}`/m);
  });

  it('the rule finds a gone path and accepts the short forms', () => {
    const sample = [
      '`domain/types.ts`, `pages/users.tsx`, `agent/src/scheduler.ts`, `server.ts`, `store/sqlite/`',
      '`domain/<aggregate>/<x>-store.ts`, `deploy/docker/*.Dockerfile`, `control-plane/web/dist/index.html`',
      '`store/contract-sessions.ts`, `gone.ts`, `/api/v1/monitors`, `https://example.com/a.ts`, `text/plain`',
      '[a](../control-plane/src/process/jobs.ts) [b](../control-plane/src/gone.ts) [c](https://x.test/y) [d](#top)',
    ].join('\n');
    const named = pathsIn(sample).map(({ path }) => path);
    expect(named).not.toContain('/api/v1/monitors');
    expect(named).not.toContain('text/plain');
    expect(named.filter((path) => !resolves(path, files))).toEqual(['store/contract-sessions.ts', 'gone.ts']);
    expect(linksIn(sample).filter(({ target }) => !existsSync(resolve(REPO, 'docs', target)))).toEqual([
      { target: '../control-plane/src/gone.ts', line: 4 },
    ]);
  });
});
