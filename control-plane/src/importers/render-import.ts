import { Document, isMap, isSeq } from 'yaml';
import { checkFile } from '../config-as-code/check-file.js';
import { CONFIG_VERSION, SCHEMA_FILE_NAME } from '../config-as-code/config-file.js';
import { isSecretField, KINDS } from '../config-as-code/kinds/index.js';
import { type FileProblem, FileProblems, readConfigSource } from '../config-as-code/yaml-source.js';
import { NAME_PATTERN } from '../domain/validation.js';
import type { ConfigFileData, ImportOutcome, Unmapped } from './import-outcome.js';
import { countOf } from './import-source.js';

/**
 * An importer's outcome as the text of a configuration file, in the form `lookout export` writes:
 * the editor's schema line; one comment block listing what was read, every setting not imported with
 * its reason, and every `${NAME}` to set; a `# not imported: …` comment above each item that lost
 * something; then the YAML. Names are made unique per kind (a later duplicate gets ` (2)`, noted).
 * The text is read back as plan reads it and checked against `configFileSchema`: a file that fails
 * is an importer's bug, returned in `problems` (the command writes nothing then).
 */
export interface RenderedImport {
  text: string;
  /** Names changed to be unique, in plain words (also in the file's top comment). */
  notes: string[];
  /** Why the file would not pass plan: empty when it is good. */
  problems: FileProblem[];
}

export interface RenderOptions {
  /** The source as its users call it: `Gatus`, `Uptime Kuma`. */
  source: string;
  now: Date;
  /** The workspace's API address (`…/api/v1`), for the schema line; a path beside the file without it. */
  apiBase?: string | null;
}

const nameFieldOf = (key: string) => KINDS.find((k) => k.key === key)?.nameField;

/** Unique names per kind: the first keeps its name, later ones get ` (2)`, ` (3)`, …. */
const dedupeNames = (file: ConfigFileData, notes: string[]): ConfigFileData => {
  const out: Record<string, unknown> = { ...file };
  for (const kind of KINDS) {
    const list = (file as Record<string, unknown>)[kind.key];
    if (!Array.isArray(list)) continue;
    const seen = new Set<string>();
    out[kind.key] = list.map((item: Record<string, unknown>) => {
      const name = item[kind.nameField];
      if (typeof name !== 'string') return item;
      let unique = name;
      for (let n = 2; seen.has(unique.toLowerCase()); n++) unique = `${name} (${n})`;
      seen.add(unique.toLowerCase());
      if (unique === name) return item;
      notes.push(
        `${kind.noun} "${name}" is written as "${unique}": names are unique per kind in Lookout (references by name point to the first "${name}")`,
      );
      return { ...item, [kind.nameField]: unique };
    });
  }
  return out as ConfigFileData;
};

/**
 * Every string as the file must hold it: `${NAME}` of a listed secret stays a reference; any other
 * `${` is a literal, written `$${` (as export writes it).
 */
const escapeLiterals = (value: unknown, secrets: Set<string>): unknown => {
  if (typeof value === 'string')
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*\})?/g, (m, rest?: string) =>
      rest && secrets.has(rest.slice(0, -1)) ? m : `$${m}`,
    );
  if (Array.isArray(value)) return value.map((v) => escapeLiterals(v, secrets));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeLiterals(v, secrets)]));
  return value;
};

/**
 * Text from the source, as a comment or a terminal line may show it: control and bidirectional
 * formatting characters (a line break, an escape sequence, U+202E) become spaces.
 */
export const shown = (text: string) => [...text].map((ch) => (NAME_PATTERN.test(ch) ? ch : ' ')).join('');

/** One unmapped setting as a line of the listing. */
export const unmappedLine = (u: Unmapped) =>
  shown(`${u.source}: ${u.setting || '(the whole object)'} — ${u.reason}`);

const topComment = (outcome: ImportOutcome, opts: RenderOptions, notes: string[]) => {
  const counts = Object.entries(outcome.counts).map(([what, n]) => countOf(n, what));
  const lines = [
    `Imported from ${opts.source} on ${opts.now.toISOString().slice(0, 10)}: ${counts.join(', ') || 'nothing'}.`,
    'Review it with `npx lookout plan -f FILE`, then `npx lookout apply -f FILE`.',
  ];
  lines.push('', `Not imported (${outcome.unmapped.length}):`);
  if (!outcome.unmapped.length) lines.push('  (nothing: every setting read has its place in Lookout)');
  for (const u of outcome.unmapped) lines.push(`  - ${unmappedLine(u)}`);
  if (notes.length) {
    lines.push('', `Notes (${notes.length}):`);
    for (const n of notes) lines.push(`  - ${shown(n)}`);
  }
  const envs = [...new Map(outcome.secrets.map((s) => [s.env, s])).values()];
  lines.push('', envs.length ? 'Set these before plan and apply:' : 'No secrets to set.');
  for (const s of envs) lines.push(`  ${s.env}  (${shown(s.where)})`);
  return lines.map((l) => (l ? ` ${l}` : '')).join('\n');
};

const itemComment = (lost: Unmapped[]) =>
  lost.map((u) => ` not imported: ${shown(`${u.setting || 'the whole object'} (${u.reason})`)}`).join('\n');

export const renderImport = (outcome: ImportOutcome, opts: RenderOptions): RenderedImport => {
  const notes: string[] = [];
  const secrets = new Set(outcome.secrets.map((s) => s.env));
  const deduped = dedupeNames(outcome.file, notes);
  const data = escapeLiterals(deduped, secrets) as Record<string, unknown>;
  // Kinds in the order export writes them; empty lists left out.
  const ordered: Record<string, unknown> = { version: CONFIG_VERSION };
  for (const kind of KINDS) {
    const list = data[kind.key];
    if (Array.isArray(list) && list.length) ordered[kind.key] = list;
  }
  for (const [key, value] of Object.entries(data))
    if (key !== 'version' && !KINDS.some((k) => k.key === key)) ordered[key] = value;
  const doc = new Document(ordered);
  doc.commentBefore = topComment(outcome, opts, notes);
  const problems: FileProblem[] = [];
  for (const u of outcome.unmapped) {
    if (!u.item) continue;
    const list = (outcome.file as Record<string, unknown>)[u.item.kind];
    if (!Array.isArray(list) || !list[u.item.index])
      problems.push({
        path: `unmapped ${u.source}`,
        line: null,
        message: `names ${u.item.kind}[${u.item.index}], which the file does not have`,
      });
  }
  for (const kind of KINDS) {
    const seq = doc.get(kind.key, true);
    if (!isSeq(seq)) continue;
    seq.items.forEach((node, index) => {
      const lost = outcome.unmapped.filter((u) => u.item?.kind === kind.key && u.item.index === index);
      if (lost.length && isMap(node)) node.commentBefore = itemComment(lost);
    });
  }
  const schemaAt = opts.apiBase ? `${opts.apiBase}/${SCHEMA_FILE_NAME}` : SCHEMA_FILE_NAME;
  const text = `# yaml-language-server: $schema=${schemaAt}\n${doc.toString({ lineWidth: 0 })}`;
  problems.push(...checkImportedText(text));
  return { text, notes, problems };
};

/**
 * The file as plan reads and checks it before asking the API (secrets unset: their variables are the
 * user's to set, so "needs the environment variable" is no problem here). The API's own rules per
 * monitor type are checked by plan against the workspace; the round-trip tests prove those.
 */
export const checkImportedText = (text: string): FileProblem[] => {
  const source = readConfigSource('(imported file)', text, {}, isSecretField);
  try {
    checkFile(source);
    return [];
  } catch (e) {
    if (!(e instanceof FileProblems)) throw e;
    return e.problems.filter((p) => !p.message.startsWith('needs the environment variable'));
  }
};

/** The item names of each kind in a file (for summaries and tests). */
export const namesOf = (file: ConfigFileData, key: string): string[] => {
  const list = (file as Record<string, unknown>)[key];
  const field = nameFieldOf(key);
  return Array.isArray(list) && field ? list.map((i: Record<string, unknown>) => String(i[field])) : [];
};
