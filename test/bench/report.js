import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

const FILE = join(import.meta.dirname, '..', '..', 'docs', 'benchmarks.md');

export const machine = () =>
  `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;

/** Replaces the section between `<!-- bench:NAME -->` markers (or appends it) with `body`. */
export const writeSection = (name, body) => {
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  let doc = readFileSync(FILE, 'utf8');
  const block = `${start}\n${body.trim()}\n${end}`;
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  doc =
    i >= 0 && j > i ? doc.slice(0, i) + block + doc.slice(j + end.length) : `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(FILE, doc);
};

/**
 * Markdown with each paragraph on one line (tables and headings kept as they are): a section says
 * the same in fewer lines (docs/benchmarks.md stays under its line budget).
 */
export const onePerLine = (md) =>
  md
    .split('\n\n')
    .map((p) => (p.startsWith('|') || p.startsWith('#') ? p : p.replace(/\n/g, ' ')))
    .join('\n\n');
