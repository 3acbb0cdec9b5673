import { hasVisible, NAME_PATTERN } from '../../domain/validation.js';
import type { ImportOutcome, Unmapped } from '../import-outcome.js';
import { envRef, importEnvName } from '../import-source.js';

/**
 * Gatus's values as Lookout writes them: durations (`1h30m`), and `$VAR` / `${VAR}` (Gatus expands
 * both everywhere in its file; `$$` is a literal `$`). Lookout reads `${VAR}` only in secret fields,
 * so a variable there stays a variable, and one anywhere else is reported.
 */

/** A Go duration (`90s`, `1h30m`, `500ms`) in seconds; a bare number is seconds; null if unreadable. */
export const durationSeconds = (value: unknown): number | null => {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const units: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
  let total = 0;
  let rest = text;
  while (rest) {
    const m = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/.exec(rest);
    if (!m) return null;
    total += Number(m[1]) * units[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return text ? total : null;
};

/** `$VAR` and `${VAR}` (not `$$`): the variables a Gatus value names. */
const GATUS_VAR = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

export const variablesIn = (value: string): string[] =>
  [...value.matchAll(GATUS_VAR)].flatMap((m) => ((m[1] ?? m[2]) ? [(m[1] ?? m[2])!] : []));

/** The value with `$$` as `$` (the text Gatus would use, variables left as written). */
export const literal = (value: string) => value.replace(/\$\$/g, '$');

/** What every part of the mapping shares: the outcome being built. */
export class Collector {
  readonly outcome: ImportOutcome = { file: {}, unmapped: [], secrets: [], counts: {} };

  note(source: string, setting: string, reason: string, item?: Unmapped['item']) {
    this.outcome.unmapped.push({ source, setting, reason, ...(item ? { item } : {}) });
  }

  /**
   * A secret of the source as the file writes it: a value naming Gatus variables keeps them (as
   * `${VAR}`, the user sets them as for Gatus); any other value becomes `${LOOKOUT_IMPORT_…}`, its
   * text never written.
   */
  secret(value: string, env: { kind: string; name: string; field: string }, where: string): string {
    if (variablesIn(value).length) {
      const names: string[] = [];
      const text = value.replace(GATUS_VAR, (m, braced?: string, bare?: string) => {
        if (m === '$$') return '$';
        names.push((braced ?? bare)!);
        return envRef((braced ?? bare)!);
      });
      for (const name of names) this.outcome.secrets.push({ env: name, where });
      return text;
    }
    const name = importEnvName(env.kind, env.name, env.field);
    this.outcome.secrets.push({ env: name, where });
    return envRef(name);
  }

  /** A value of a field that cannot read variables: a variable in it is reported (kept as its text). */
  plain(value: string, source: string, setting: string, item?: Unmapped['item']): string {
    const vars = variablesIn(value);
    if (vars.length)
      this.note(
        source,
        setting,
        `names the variable ${vars.join(', ')}: Lookout reads variables only in secret fields (passwords, tokens, webhook URLs, headers); written as the text, put the value in its place`,
        item,
      );
    return literal(value);
  }

  count(what: string, n = 1) {
    this.outcome.counts[what] = (this.outcome.counts[what] ?? 0) + n;
  }

  /** Appends an item to a kind's list; its index (for `Unmapped.item`). */
  add(kind: keyof ImportOutcome['file'] & string, item: Record<string, unknown>): number {
    const file = this.outcome.file as Record<string, unknown[]>;
    const list = file[kind] ?? [];
    file[kind] = list;
    list.push(item);
    return list.length - 1;
  }
}

/** A plain object of the YAML, or an empty one. */
export const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/**
 * A name Lookout accepts (one line, no control or bidirectional formatting characters, something
 * visible, at most `max` characters): the others become spaces; `fallback` when nothing is left.
 */
export const nameOf = (value: string, max: number, fallback: string) => {
  const clean = [...value]
    .map((ch) => (NAME_PATTERN.test(ch) ? ch : ' '))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
  return clean && hasVisible(clean) ? clean : fallback;
};

/** A URL as a note may show it: without the password it carries. */
export const withoutPassword = (url: string) => url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1…@');
