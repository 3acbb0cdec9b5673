import { fieldName, problemsIn } from '../domain/validation.js';
import { isPlain } from './compare.js';
import { configFileSchema } from './config-file.js';
import type { Item, ResourceKind } from './kind.js';
import { KINDS } from './kinds/index.js';
import { type ConfigSource, type FileProblem, FileProblems } from './yaml-source.js';

/** Times the schemas turn into Dates, back as the API writes them (ISO, UTC, milliseconds). */
const withIsoDates = (v: unknown): unknown =>
  v instanceof Date
    ? v.toISOString()
    : Array.isArray(v)
      ? v.map(withIsoDates)
      : isPlain(v)
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withIsoDates(x)]))
        : v;

export const at = (source: ConfigSource, path: (string | number)[], message: string): FileProblem => ({
  path: fieldName(path),
  line: source.lineOf(path),
  message,
});

/** `monitors[3].auth.password` → ['monitors', 3, 'auth', 'password']. */
const pathOf = (field: string) =>
  field
    .split(/\.|\[(\d+)\]/)
    .filter((x) => x !== undefined && x !== '')
    .map((x) => (/^\d+$/.test(x) ? Number(x) : x));

/** Checks the file's shape and names; the items per kind, as checked. */
export const checkFile = (source: ConfigSource): Map<ResourceKind, { raw: Item; item: Item }[]> => {
  const problems = [...source.problems];
  if (source.problems.some((p) => p.path === '(file)')) throw new FileProblems(source.file, problems);
  const data = source.data;
  const parsed = problemsIn(configFileSchema, data);
  const unset = new Map(source.unsetSecrets.map((u) => [fieldName(u.path), u.name]));
  const named = new Set(source.problems.map((p) => p.path));
  for (const p of parsed.problems) {
    // A value already refused (a variable outside a secret field) is not a second problem.
    if (named.has(p.field)) continue;
    // A secret whose variable is unset, in a field its stand-in does not fit: the variable is needed.
    const variable = unset.get(p.field);
    if (variable !== undefined) {
      problems.push({
        path: p.field,
        line: source.lineOf(pathOf(p.field)),
        message: `needs the environment variable ${variable}, which is not set`,
      });
      continue;
    }
    problems.push({ path: p.field, line: source.lineOf(pathOf(p.field)), message: p.message });
  }
  const items = new Map<ResourceKind, { raw: Item; item: Item }[]>();
  if (parsed.data) {
    for (const kind of KINDS) {
      const list = (parsed.data as Record<string, Item[] | undefined>)[kind.key];
      if (!list) continue;
      const raws = (data as Record<string, Item[]>)[kind.key]!;
      const seen = new Map<string, number>();
      for (const [i, item] of list.entries()) {
        const name = String(item[kind.nameField]);
        const first = seen.get(name);
        if (first !== undefined)
          problems.push(
            at(
              source,
              [kind.key, i, kind.nameField],
              `repeats the name of ${kind.key}[${first}]; names are unique per kind`,
            ),
          );
        else seen.set(name, i);
      }
      items.set(
        kind,
        list.map((item, i) => ({ raw: raws[i]!, item: withIsoDates(item) as Item })),
      );
    }
  }
  if (problems.length) throw new FileProblems(source.file, problems);
  return items;
};
