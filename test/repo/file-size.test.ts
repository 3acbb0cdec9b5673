// No hand-written source file over about 500 lines: past that a file holds several things and wants
// splitting by what they are (one migration per file, one module per API resource, …). Tests and
// generated files (a `@generated` or "Generated from" header: protobuf code, the API client's types)
// are not counted. A file listed in OVER_LIMIT is one whose split is still to come: it may not grow.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LIMIT = 500;
const SOURCES = [
  'shared/src',
  'proto/src',
  'control-plane/src',
  'control-plane/scripts',
  'control-plane/web/src',
  'agent/src',
];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'gen']);

/** Over the limit today, each at most its current length until it is split. */
const OVER_LIMIT: Record<string, number> = {};

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return SKIPPED_DIRS.has(e.name) ? [] : sourceFiles(path);
    return /\.(ts|tsx|js|mjs|css)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });

const handWritten = (text: string) => !/@generated|^\/\*\*\n \* Generated from/.test(text.slice(0, 300));

const lengths = () =>
  SOURCES.flatMap((dir) => sourceFiles(join(REPO, dir)))
    .map((path) => ({ file: relative(REPO, path), text: readFileSync(path, 'utf8') }))
    .filter(({ text }) => handWritten(text))
    .map(({ file, text }) => ({ file, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) }));

describe('file size', () => {
  it(`no hand-written source file is over ${LIMIT} lines, and none of those still over it grows`, () => {
    const all = lengths();
    expect(all.length).toBeGreaterThan(300);
    const over = all
      .filter(({ file, lines }) => lines > (OVER_LIMIT[file] ?? LIMIT))
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(over).toEqual([]);
  });

  it('every file still listed as over the limit exists and is still over it (delete its line once split)', () => {
    const byFile = new Map(lengths().map(({ file, lines }) => [file, lines]));
    for (const file of Object.keys(OVER_LIMIT)) expect(byFile.get(file), file).toBeGreaterThan(LIMIT);
  });
});
