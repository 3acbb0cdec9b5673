import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { fieldName } from '../domain/validation.js';
import { ENV_REF } from './kind.js';

/** Something wrong with the file: where (path and line) and what. */
export interface FileProblem {
  path: string;
  line: number | null;
  message: string;
}

export class FileProblems extends Error {
  constructor(
    readonly file: string,
    readonly problems: FileProblem[],
  ) {
    super(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was changed`);
    this.name = 'FileProblems';
  }
}

/** A parsed file: its data (secrets resolved), and where each value came from. */
export interface ConfigSource {
  file: string;
  data: unknown;
  /** The line of the value at `path`, or of the nearest enclosing value that exists. */
  lineOf(path: readonly (string | number)[]): number | null;
  /** Paths (as `fieldName` gives them) whose value came from the environment: never printed. */
  secretPaths: Set<string>;
  /** Problems so far (YAML syntax, unset variables). */
  problems: FileProblem[];
}

/**
 * Parses YAML keeping every value's position, and resolves `${NAME}` from `env` in every string
 * (`$${` is a literal `${`). An unset variable is a problem naming it, at its line.
 */
export const readConfigSource = (
  file: string,
  text: string,
  env: Record<string, string | undefined>,
): ConfigSource => {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const problems: FileProblem[] = doc.errors.map((e) => ({
    path: '(file)',
    line: lineCounter.linePos(e.pos[0]).line,
    message: e.message.split('\n')[0] ?? e.message,
  }));
  const lineOf = (path: readonly (string | number)[]): number | null => {
    for (let n = path.length; n >= 0; n--) {
      const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
      const range = (node as { range?: [number, number, number] } | undefined)?.range;
      if (range) {
        // A key's value that is a collection starts on the next line: name the key's line instead.
        if (n > 0 && (isMap(node) || isSeq(node))) {
          const parent = n === 1 ? doc.contents : doc.getIn(path.slice(0, n - 1), true);
          if (isMap(parent)) {
            const pair = parent.items.find((p) => (p.key as { value?: unknown })?.value === path[n - 1]);
            const keyRange = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
            if (keyRange) return lineCounter.linePos(keyRange[0]).line;
          }
        }
        return lineCounter.linePos(range[0]).line;
      }
    }
    return null;
  };
  const secretPaths = new Set<string>();
  const resolve = (value: unknown, path: (string | number)[]): unknown => {
    if (typeof value === 'string') {
      if (!value.includes('${')) return value;
      let used = false;
      const out = value
        .split('$${')
        .map((part) =>
          part.replace(ENV_REF, (_m, name: string) => {
            used = true;
            const v = env[name];
            if (v === undefined) {
              problems.push({
                path: fieldName(path),
                line: lineOf(path),
                message: `needs the environment variable ${name}, which is not set`,
              });
              return '';
            }
            return v;
          }),
        )
        .join('${');
      if (used) secretPaths.add(fieldName(path));
      return out;
    }
    if (Array.isArray(value)) return value.map((v, i) => resolve(v, [...path, i]));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, [...path, k])]));
    return value;
  };
  const raw = problems.length ? null : doc.toJS({ maxAliasCount: 100 });
  return { file, data: resolve(raw ?? {}, []), lineOf, secretPaths, problems };
};
