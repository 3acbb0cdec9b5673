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
  /**
   * Secret fields whose variable is unset: the plan keeps the workspace's value where it has one, and
   * asks for the variable only where it must create the secret (their value is `UNSET_STAND_IN`).
   */
  unsetSecrets: UnsetSecret[];
  /** Problems so far (YAML syntax, `${NAME}` outside a secret field). */
  problems: FileProblem[];
}

export interface UnsetSecret {
  path: (string | number)[];
  /** The variable named. */
  name: string;
}

/**
 * What an unset secret reads as until the plan puts the workspace's value in its place (it is never
 * sent): shaped to pass the checks of a secret's field (a URL, a long enough password).
 */
export const UNSET_STAND_IN = 'https://unset-variable.invalid/kept-secret';

/** Whether `path` (from the file's top: `monitors`, 3, `auth`, `password`) may hold a secret. */
export type SecretFieldTest = (data: unknown, path: (string | number)[]) => boolean;

/**
 * Parses YAML keeping every value's position, and resolves `${NAME}` from `env` in the secret fields
 * that `isSecret` names (`$${` is a literal `${`). `${NAME}` anywhere else is a problem at its line:
 * a variable expanded into a name or a URL would be printed by plan and shown by the API. An unset
 * variable is left to the plan (`unsetSecrets`).
 */
export const readConfigSource = (
  file: string,
  text: string,
  env: Record<string, string | undefined>,
  isSecret: SecretFieldTest,
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
  const unsetSecrets: UnsetSecret[] = [];
  let raw: unknown = null;
  const resolve = (value: unknown, path: (string | number)[]): unknown => {
    if (typeof value === 'string') {
      if (!value.includes('${')) return value;
      const parts = value.split('$${');
      const named = parts.flatMap((part) => [...part.matchAll(ENV_REF)].map((m) => m[1]!));
      if (!named.length) return parts.join('${');
      if (!isSecret(raw, path)) {
        problems.push({
          path: fieldName(path),
          line: lineOf(path),
          message: `takes no \${${named[0]}}: only secret fields (passwords, tokens, credential headers) are read from the environment; write $\${ for a literal \${`,
        });
        return value;
      }
      secretPaths.add(fieldName(path));
      const unset = named.find((name) => env[name] === undefined);
      if (unset !== undefined) {
        unsetSecrets.push({ path, name: unset });
        return UNSET_STAND_IN;
      }
      return parts.map((part) => part.replace(ENV_REF, (_m, name: string) => env[name]!)).join('${');
    }
    if (Array.isArray(value)) return value.map((v, i) => resolve(v, [...path, i]));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, [...path, k])]));
    return value;
  };
  raw = problems.length ? null : doc.toJS({ maxAliasCount: 100 });
  return { file, data: resolve(raw ?? {}, []), lineOf, secretPaths, unsetSecrets, problems };
};
