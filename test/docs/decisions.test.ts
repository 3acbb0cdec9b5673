// docs/decisions.md is an index of the decisions in force, not a diary: the area sections hold one short
// entry per decision (a bold title, what we do, why, and where in code), and how a decision came about
// stays in git. Whatever cites an entry by its title must find it:
//
// - Each entry is a paragraph that starts with a bold title, is at most MAX_ENTRY_LINES lines and names
//   the code that carries it (`Code:`); paths themselves are checked by paths.test.ts.
// - No history: no work rounds, no "issue N" narration.
// - `docs/decisions.md, "Title"` (in code comments and docs): an entry's title or a heading starts with
//   Title (case and line breaks aside).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DECISIONS = readFileSync(join(REPO, 'docs/decisions.md'), 'utf8');
const MAX_ENTRY_LINES = 6;
const FOLDERS = ['agent', 'control-plane', 'shared', 'proto', 'test', 'deploy', 'docs'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'data', 'gen']);
/** This test, whose examples are citations. */
const SELF = 'test/docs/decisions.test.ts';
const TEXT = /(\.(ts|tsx|js|mjs|cjs|md|sh|yml|yaml)|Dockerfile)$/;

function textFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) textFiles(full, out);
    else if (TEXT.test(entry.name)) out.push(relative(REPO, full));
  }
  return out;
}

const fold = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** The paragraphs of the area sections (after the first `## `) that are entries, with their first line. */
function entriesOf(markdown: string): { title: string; text: string; line: number }[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith('## '));
  const found: { title: string; text: string; line: number }[] = [];
  let paragraph: string[] = [];
  let first = 0;
  const flush = () => {
    const text = paragraph.join('\n');
    if (text.startsWith('**')) {
      const title = /^\*\*(.+?)\*\*/.exec(text)?.[1] ?? '';
      found.push({ title, text, line: first + 1 });
    }
    paragraph = [];
  };
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.startsWith('#')) flush();
    else {
      if (paragraph.length === 0) first = i;
      paragraph.push(line);
    }
  }
  flush();
  return found;
}

/** The titles a text cites as `decisions.md, "Title"`, with their line numbers. */
function citationsIn(text: string): { title: string; line: number }[] {
  return [...text.matchAll(/decisions\.md,?(?:\s|\*|\/\/|#)+"([^"]+)"/g)].map((m) => ({
    title: m[1]!.replace(/\s*\n\s*(\*|\/\/|#)?\s*/g, ' '),
    line: text.slice(0, m.index).split('\n').length,
  }));
}

/** Whether `title` names an entry or a heading of `markdown`. */
function cites(markdown: string, title: string): boolean {
  const names = [
    ...entriesOf(markdown).map((entry) => entry.title),
    ...markdown
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => line.replace(/^#+ /, '')),
  ];
  return names.some((name) => fold(name).startsWith(fold(title)));
}

/** Why an entry is not an index entry, or undefined. */
function problem(entry: { text: string }): string | undefined {
  const lines = entry.text.split('\n').length;
  if (lines > MAX_ENTRY_LINES) return `${lines} lines`;
  if (!/\bCode:/.test(entry.text)) return 'names no code';
  if (/\brounds?\b(?! trip)/i.test(entry.text)) return 'tells of a work round';
  if (/\bissue \d+/i.test(entry.text)) return 'tells of an issue';
  return undefined;
}

describe('docs/decisions.md', () => {
  it('is an index: short entries that name their code, with no history', () => {
    const entries = entriesOf(DECISIONS);
    expect(entries.length).toBeGreaterThan(100);
    const bad = entries.flatMap((entry) => {
      const why = problem(entry);
      return why ? [`line ${entry.line} "${entry.title}": ${why}`] : [];
    });
    expect(bad).toEqual([]);
    expect(DECISIONS.split('\n').filter((line) => /\bround\b(?! trip)/i.test(line))).toEqual([]);
  });

  it('has every entry that code and docs cite by title', () => {
    const files = ['README.md', ...FOLDERS.flatMap((folder) => textFiles(join(REPO, folder)))].filter(
      (file) => file !== SELF,
    );
    const missing = files.flatMap((file) =>
      citationsIn(readFileSync(join(REPO, file), 'utf8'))
        .filter(({ title }) => !cites(DECISIONS, title))
        .map(({ title, line }) => `${file}:${line} "${title}"`),
    );
    expect(missing).toEqual([]);
  });

  it('the rules tell an index entry and a citation from bad ones', () => {
    const sample = [
      '# Decisions',
      '',
      'Intro, not an entry.',
      '',
      '## Area',
      '',
      '**Short one.** What and why. Code: `x.ts`.',
      '',
      '**Long one.** 1\n2\n3\n4\n5\n6\n7 Code: `x.ts`.',
      '',
      '**Diary.** Taken in issue 27, fifth round. Code: `x.ts`.',
      '',
      '**Nowhere.** What and why.',
    ].join('\n');
    const entries = entriesOf(sample);
    expect(entries.map((entry) => entry.title)).toEqual(['Short one.', 'Long one.', 'Diary.', 'Nowhere.']);
    expect(entries.map(problem)).toEqual([undefined, '7 lines', 'tells of a work round', 'names no code']);
    const cited = citationsIn('a (docs/decisions.md,\n * "Short\n * one") and docs/decisions.md "Gone".');
    expect(cited.map(({ title }) => title)).toEqual(['Short one', 'Gone']);
    expect(cites(sample, 'short one')).toBe(true);
    expect(cites(sample, 'Area')).toBe(true);
    expect(cites(sample, 'Gone')).toBe(false);
  });
});
