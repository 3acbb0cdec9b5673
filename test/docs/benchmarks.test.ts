// docs/benchmarks.md holds current figures: one section per benchmark that `npm run bench` runs, and
// no log of work rounds (those stay in git, see its "History"). Whatever cites it by section must
// name a section that exists, so that a reader who follows a comment finds the figure:
//
// - `docs/benchmarks.md, "Title"` (in code comments and docs): some heading of the file starts with
//   Title.
// - A citation of a round without a quoted section (`docs/benchmarks.md, issue 27's fifth round`)
//   points at nothing since the round logs left; cite `"History": issue 27's fifth round` instead.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BENCHMARKS = readFileSync(join(REPO, 'docs/benchmarks.md'), 'utf8');

/** Where citations are looked for. */
const FOLDERS = ['agent', 'control-plane', 'shared', 'proto', 'test', 'deploy', 'docs'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'data', 'gen']);
/** The file itself, and this test (its examples are citations). */
const SELF = new Set(['docs/benchmarks.md', 'test/docs/benchmarks.test.ts']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|md|sh|yml|yaml)$/;

function textFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) textFiles(full, out);
    else if (TEXT.test(entry.name)) out.push(relative(REPO, full));
  }
  return out;
}

/** The headings of a Markdown text, without their `#`s. */
const headingsOf = (markdown: string) =>
  markdown
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => line.replace(/^#+ /, ''));

/** Each citation of benchmarks.md in `text`: what follows it (comment markers and line breaks folded). */
function citationsIn(text: string): { line: number; after: string }[] {
  const found: { line: number; after: string }[] = [];
  for (const match of text.matchAll(/benchmarks\.md/g)) {
    const at = match.index + match[0].length;
    const after = text
      .slice(at, at + 200)
      .replace(/\s*\n\s*(\*|\/\/|#)?\s*/g, ' ')
      .slice(0, 120);
    found.push({ line: text.slice(0, match.index).split('\n').length, after });
  }
  return found;
}

/** Why a citation points at nothing, or undefined when it is fine. */
function problem(after: string, headings: string[]): string | undefined {
  // What closes the name (a backtick, a link's `](…)`, a parenthesis) is not part of the citation.
  const rest = after.replace(/^[`\])]+/, '');
  const quoted = /^[,:;]?\s*"([^"]+)"/.exec(rest);
  if (quoted) {
    const title = quoted[1]!;
    return headings.some((heading) => heading.startsWith(title)) ? undefined : `no section "${title}"`;
  }
  const clause = /^[^).;]*/.exec(rest)![0];
  return /\bround\b/.test(clause) ? 'cites a round without a section' : undefined;
}

/** The bench names `npm run bench -- <name>` accepts (test/bench/run.js). */
const benchNames = () => {
  const runJs = readFileSync(join(REPO, 'test/bench/run.js'), 'utf8');
  const block = /const benches = \{([\s\S]*?)\n\};/.exec(runJs)![1]!;
  return [...block.matchAll(/^\s*'?([\w-]+)'?:/gm)].map((m) => m[1]!);
};

describe('docs/benchmarks.md', () => {
  it('has one section per benchmark `npm run bench` runs, and stays short', () => {
    const headings = headingsOf(BENCHMARKS);
    const names = benchNames();
    expect(names).toContain('system');
    const missing = names.filter(
      (name) => !headings.some((heading) => heading.includes(`\`npm run bench -- ${name}\``)),
    );
    expect(missing).toEqual([]);
    expect(BENCHMARKS.trimEnd().split('\n').length).toBeLessThan(400);
    expect(headings.filter((heading) => /\bround\b/i.test(heading))).toEqual([]);
  });

  it('keeps the markers the benches write between, each pair once and in order', () => {
    const starts = [...BENCHMARKS.matchAll(/^<!-- bench:([\w-]+) -->$/gm)].map((m) => m[1]!);
    const ends = [...BENCHMARKS.matchAll(/^<!-- \/bench:([\w-]+) -->$/gm)].map((m) => m[1]!);
    expect(starts).toEqual(ends);
    expect(new Set(starts).size).toBe(starts.length);
    for (const name of starts) {
      expect(BENCHMARKS.indexOf(`<!-- bench:${name} -->`)).toBeLessThan(
        BENCHMARKS.indexOf(`<!-- /bench:${name} -->`),
      );
    }
    // Every bench that writes a section finds its markers (report.js appends a section it cannot find).
    const benchDir = join(REPO, 'test/bench');
    const written = readdirSync(benchDir)
      .filter((name) => name.endsWith('.js'))
      .flatMap((name) => [
        ...readFileSync(join(benchDir, name), 'utf8').matchAll(/writeSection\(\s*'([\w-]+)'/g),
      ])
      .map((m) => m[1]!);
    expect(written.length).toBeGreaterThan(0);
    expect(written.filter((name) => !starts.includes(name))).toEqual([]);
  });

  it('is cited only by sections that exist', () => {
    const headings = headingsOf(BENCHMARKS);
    const files = ['README.md', ...FOLDERS.flatMap((folder) => textFiles(join(REPO, folder)))].filter(
      (file) => !SELF.has(file),
    );
    const bad = files.flatMap((file) =>
      citationsIn(readFileSync(join(REPO, file), 'utf8')).flatMap(({ line, after }) => {
        const why = problem(after, headings);
        return why ? [`${file}:${line} ${why}`] : [];
      }),
    );
    expect(bad).toEqual([]);
  });

  it('the citation rule tells a good citation from a bad one', () => {
    const headings = ['Benchmarks', 'History', 'Whole system (`npm run bench -- system`)'];
    expect(problem(', "History": issue 27\'s fifth round)', headings)).toBeUndefined();
    expect(problem(', "Whole system").', headings)).toBeUndefined();
    expect(problem('`](benchmarks.md)).', headings)).toBeUndefined();
    expect(problem(', "Issue 27, fifth round")', headings)).toBe('no section "Issue 27, fifth round"');
    expect(problem(", issue 27's fifth round).", headings)).toBe('cites a round without a section');
    expect(problem("), issue 27's ninth round.", headings)).toBe('cites a round without a section');
    expect(problem(').', headings)).toBeUndefined();
    const folded = citationsIn("a (docs/benchmarks.md, issue\n * 27's eighth round).")[0]!;
    expect(folded.line).toBe(1);
    expect(problem(folded.after, headings)).toBe('cites a round without a section');
  });
});
