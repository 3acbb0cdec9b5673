import { ApiError, type LookoutClient, ok } from '../api-client/client.js';
import { fieldName, problemsIn } from '../domain/validation.js';
import { configFileSchema } from './config-file.js';
import { allPages, Hidden, type Item, type Live, type Names, type ResourceKind } from './kind.js';
import { KINDS, kindByKey } from './kinds/index.js';
import { type ConfigSource, type FileProblem, FileProblems } from './yaml-source.js';

/**
 * `plan`: what apply would change, computed from the file and the workspace as the API shows it. The
 * whole file is checked first (shape, names, references, fields that cannot change, the role of the
 * key, and every new item of a kind with a bulk check against the API's own rules); any problem
 * stops it before anything is changed, naming each by its path and line.
 */

export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
  /** From the environment, or a value the API hides: never printed. */
  secret: boolean;
}

export interface Change {
  kind: ResourceKind;
  action: 'create' | 'update' | 'delete';
  name: string;
  /** The item's place in its list in the file (create, update). */
  index?: number;
  /** The file's item, checked (create, update). */
  item?: Item;
  /** The record (update, delete). */
  live?: Live;
  fields: FieldChange[];
}

/** A secret of an existing record whose variable is unset: the workspace's value stays. */
export interface KeptSecret {
  kind: ResourceKind;
  name: string;
  field: string;
  variable: string;
}

export interface Plan {
  changes: Change[];
  keptSecrets: KeptSecret[];
  /** Records of the kinds the file names that it does not list: kept (--prune deletes them). */
  kept: { kind: ResourceKind; name: string }[];
  names: NameBook;
}

const ROLE_RANK = { viewer: 0, member: 1, admin: 2 } as const;

/** The key's role does not allow the changes: nothing is applied. */
export class RoleRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RoleRefusal';
  }
}

/** Names ⇄ ids of every kind read, and of what apply creates as it goes. */
export class NameBook implements Names {
  private readonly ids = new Map<string, Map<string, string>>();
  private readonly names = new Map<string, Map<string, string>>();
  set(kind: string, name: string, id: string) {
    if (!this.ids.has(kind)) this.ids.set(kind, new Map());
    if (!this.names.has(kind)) this.names.set(kind, new Map());
    this.ids.get(kind)!.set(name, id);
    this.names.get(kind)!.set(id, name);
  }
  idOf(kind: string, name: string) {
    // A reference the exporter could not name (its kind was not readable) is the record's id.
    return this.ids.get(kind)?.get(name) ?? (this.names.get(kind)?.has(name) ? name : undefined);
  }
  nameOf(kind: string, id: string) {
    return this.names.get(kind)?.get(id);
  }
}

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Hidden);

/** The file's value against the record's: Hidden values match as far as they can tell. */
export const same = (fileValue: unknown, liveValue: unknown): boolean => {
  if (fileValue === liveValue) return true;
  if (liveValue instanceof Hidden) return liveValue.matches(fileValue);
  if (Array.isArray(fileValue) || Array.isArray(liveValue))
    return (
      Array.isArray(fileValue) &&
      Array.isArray(liveValue) &&
      fileValue.length === liveValue.length &&
      fileValue.every((v, i) => same(v, liveValue[i]))
    );
  if (isPlain(fileValue) || isPlain(liveValue)) {
    if (!isPlain(fileValue) || !isPlain(liveValue)) return false;
    const keys = new Set([...Object.keys(fileValue), ...Object.keys(liveValue)]);
    return [...keys].every((k) => same(fileValue[k] ?? null, liveValue[k] ?? null));
  }
  return (fileValue ?? null) === (liveValue ?? null);
};

const hasHidden = (v: unknown): boolean =>
  v instanceof Hidden ||
  (Array.isArray(v) ? v.some(hasHidden) : isPlain(v) ? Object.values(v).some(hasHidden) : false);

const valueAt = (v: unknown, path: readonly (string | number)[]): unknown =>
  path.reduce<unknown>(
    (x, k) => (x && typeof x === 'object' ? (x as Record<string, unknown>)[k] : undefined),
    v,
  );

/** `v` with the value at `path` replaced (copies along the path; `v` is not changed). */
const withValueAt = (v: unknown, path: readonly (string | number)[], value: unknown): unknown => {
  if (!path.length) return value;
  const [k, ...rest] = path;
  const copy = Array.isArray(v) ? [...v] : { ...(v as Record<string, unknown>) };
  (copy as Record<string | number, unknown>)[k!] = withValueAt(
    (v as Record<string | number, unknown>)?.[k!],
    rest,
    value,
  );
  return copy;
};

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : noun.endsWith('y') ? '' : 's'}`;

/** Reads a kind whole; a kind the key may not read is `forbidden` with the API's words. */
const readKind = async (api: LookoutClient, key: string): Promise<Live[] | { forbidden: string }> => {
  try {
    if (key === 'users')
      return await allPages((cursor) => ok(api.GET('/users', { params: { query: { limit: 100, cursor } } })));
    return await kindByKey(key)!.list(api);
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) return { forbidden: e.message };
    throw e;
  }
};

export interface Workspace {
  live: Map<string, Live[] | { forbidden: string }>;
  names: NameBook;
}

/** Reads the kinds asked for (and users, for policies), and books every name. */
export const readWorkspace = async (api: LookoutClient, keys: Iterable<string>): Promise<Workspace> => {
  const live = new Map<string, Live[] | { forbidden: string }>();
  const names = new NameBook();
  for (const key of keys) {
    if (key !== 'users' && !kindByKey(key)) continue;
    const records = await readKind(api, key);
    live.set(key, records);
    if (!Array.isArray(records)) continue;
    const nameField = key === 'users' ? 'email' : kindByKey(key)!.nameField;
    for (const r of records) names.set(key, String(r[nameField]), r.id);
  }
  return { live, names };
};

/** Times the schemas turn into Dates, back as the API writes them (ISO, UTC, milliseconds). */
const withIsoDates = (v: unknown): unknown =>
  v instanceof Date
    ? v.toISOString()
    : Array.isArray(v)
      ? v.map(withIsoDates)
      : isPlain(v)
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withIsoDates(x)]))
        : v;

const at = (source: ConfigSource, path: (string | number)[], message: string): FileProblem => ({
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

/** The kinds a plan must read: those in the file, those they name, and users when policies are there. */
const kindsToRead = (items: Map<ResourceKind, { raw: Item; item: Item }[]>) => {
  const keys = new Set<string>();
  for (const [kind, list] of items) {
    keys.add(kind.key);
    for (const { item } of list) for (const r of kind.references(item)) keys.add(r.kind);
  }
  // Order: as the table, users last.
  return [...KINDS.map((k) => k.key).filter((k) => keys.has(k)), ...(keys.has('users') ? ['users'] : [])];
};

export const makePlan = async (
  api: LookoutClient,
  source: ConfigSource,
  opts: { prune: boolean; now: Date },
): Promise<Plan> => {
  const items = checkFile(source);
  const me = await ok(api.GET('/users/me'));
  const { live, names } = await readWorkspace(api, kindsToRead(items));
  const problems: FileProblem[] = [];
  const changes: Change[] = [];
  const kept: Plan['kept'] = [];
  const keptSecrets: KeptSecret[] = [];
  // Names in the file per kind (sets: files of tens of thousands of items are compared in linear time).
  const fileNames = new Map<string, Set<string>>(
    [...items].map(([k, list]) => [k.key, new Set(list.map(({ item }) => String(item[k.nameField])))]),
  );
  const inFile = (kindKey: string, name: string) => fileNames.get(kindKey)?.has(name) ?? false;

  for (const [kind, list] of items) {
    const records = live.get(kind.key);
    if (!records || !Array.isArray(records)) {
      problems.push(
        at(
          source,
          [kind.key],
          `cannot be compared: the API refuses to list ${kind.key} to this key (${(records as { forbidden: string } | undefined)?.forbidden ?? 'unknown'})`,
        ),
      );
      continue;
    }
    const managed = records.filter((r) => kind.managed?.(r, opts.now) ?? true);
    const byName = new Map<string, Live[]>();
    for (const r of managed) {
      const n = String(r[kind.nameField]);
      byName.set(n, [...(byName.get(n) ?? []), r]);
    }
    for (const [i, { raw, item }] of list.entries()) {
      const name = String(item[kind.nameField]);
      for (const ref of kind.references(item)) {
        const where = [kind.key, i, ...ref.path];
        const target = live.get(ref.kind);
        if (inFile(ref.kind, ref.name)) continue;
        const listed = [...items.keys()].some((k) => k.key === ref.kind);
        if (names.idOf(ref.kind, ref.name) && opts.prune && listed) {
          problems.push(
            at(
              source,
              where,
              `names ${kindByKey(ref.kind)?.noun ?? ref.kind} "${ref.name}", which --prune would delete (the file lists ${ref.kind} without it)`,
            ),
          );
          continue;
        }
        if (names.idOf(ref.kind, ref.name)) continue;
        if (target && !Array.isArray(target))
          problems.push(
            at(
              source,
              where,
              `cannot be checked: the API refuses to list ${ref.kind} to this key (${target.forbidden})`,
            ),
          );
        else
          problems.push(
            at(
              source,
              where,
              ref.kind === 'users'
                ? `names no user of the workspace ("${ref.name}"; users are named by email)`
                : `names no ${kindByKey(ref.kind)?.noun ?? ref.kind} "${ref.name}" in the file or the workspace`,
            ),
          );
      }
      const matches = byName.get(name) ?? [];
      if (matches.length > 1) {
        problems.push(
          at(
            source,
            [kind.key, i, kind.nameField],
            `matches ${matches.length} ${kind.key} of the workspace named "${name}"; rename all but one so the file can tell them apart`,
          ),
        );
        continue;
      }
      const record = matches[0];
      // Secrets whose variable is unset: a new record needs them; an existing one keeps its own.
      const unsetHere = source.unsetSecrets.filter((u) => u.path[0] === kind.key && u.path[1] === i);
      if (!record) {
        for (const u of unsetHere)
          problems.push(
            at(
              source,
              u.path,
              `needs the environment variable ${u.name}, which is not set (${kind.noun} "${name}" is new: there is no value to keep)`,
            ),
          );
        changes.push({ kind, action: 'create', name, index: i, item, fields: [] });
        continue;
      }
      const current = kind.fromLive(record, names);
      const given: Item = {};
      for (const k of Object.keys(raw)) given[k] = item[k];
      // Every unset secret takes the workspace's value first, then each field is compared whole (one
      // field may hold several: a webhook's URL and headers in its config).
      const keeping: { u: (typeof unsetHere)[number]; inItem: (string | number)[]; theirs: unknown }[] = [];
      for (const u of unsetHere) {
        const inItem = u.path.slice(2);
        const theirs = valueAt(current, inItem);
        const field = String(inItem[0]);
        if (theirs === undefined || theirs === null) {
          problems.push(
            at(
              source,
              u.path,
              `needs the environment variable ${u.name}, which is not set (${kind.noun} "${name}" has no such secret in the workspace to keep)`,
            ),
          );
          continue;
        }
        given[field] = withValueAt(given[field], inItem.slice(1), theirs);
        keeping.push({ u, inItem, theirs });
      }
      for (const { u, inItem, theirs } of keeping) {
        const field = String(inItem[0]);
        // The API takes a field whole: a changed field with a secret the plan cannot know is refused.
        if (theirs instanceof Hidden && !same(given[field], current[field]))
          problems.push(
            at(
              source,
              u.path,
              `needs the environment variable ${u.name}, which is not set: ${field} changes, and the API takes it whole, secret included`,
            ),
          );
        else keptSecrets.push({ kind, name, field: fieldName(inItem), variable: u.name });
      }
      const wanted = kind.comparable?.(given) ?? given;
      const fields: FieldChange[] = [];
      for (const [field, to] of Object.entries(wanted)) {
        const from = current[field];
        if (same(to, from)) continue;
        if (kind.immutable.includes(field)) {
          problems.push(
            at(
              source,
              [kind.key, i, field],
              `cannot be changed in place (it is ${JSON.stringify(from)} in the workspace); give the item another name to create a new one, and --prune to delete the old`,
            ),
          );
          continue;
        }
        const prefix = fieldName([kind.key, i, field]);
        const secret =
          hasHidden(from) ||
          [...source.secretPaths].some(
            (p) => p === prefix || p.startsWith(`${prefix}.`) || p.startsWith(`${prefix}[`),
          );
        fields.push({ field, from, to, secret });
      }
      if (fields.length)
        changes.push({
          kind,
          action: 'update',
          name,
          index: i,
          item: { ...item, ...given },
          live: record,
          fields,
        });
    }
    for (const [name, rs] of byName) {
      if (inFile(kind.key, name)) continue;
      for (const r of rs) {
        if (!opts.prune) {
          kept.push({ kind, name });
          continue;
        }
        const refusal = kind.cannotDelete?.(
          r,
          list.map(({ item }) => item),
        );
        if (refusal)
          problems.push(at(source, [kind.key], `--prune cannot delete ${kind.noun} "${name}": ${refusal}`));
        else changes.push({ kind, action: 'delete', name, live: r, fields: [] });
      }
    }
  }
  if (problems.length) throw new FileProblems(source.file, problems);

  // The key's role, before asking the API to check anything: a refusal changes nothing.
  const refused = [
    ...new Set(changes.filter((c) => ROLE_RANK[me.role] < ROLE_RANK[c.kind.writeRole]).map((c) => c.kind)),
  ];
  if (refused.length)
    throw new RoleRefusal(
      `this key acts as ${me.role === 'admin' ? 'an' : 'a'} ${me.role}, and the API refuses (403) ${refused
        .map((k) => `changes to ${k.key} to anyone below ${k.writeRole}`)
        .join(', ')}; nothing was changed`,
    );

  await checkBulkCreates(api, source, changes, names);
  return { changes, kept, keptSecrets, names };
};

const CHECKS_IN_FLIGHT = 3;

/** A bulk check's refusal as problems of the file: `monitors[i].field` back to the item's path and line. */
const refusalProblems = (
  source: ConfigSource,
  kind: ResourceKind,
  chunk: Change[],
  e: ApiError,
): FileProblem[] => {
  if (e.status === 402) return [at(source, [kind.key], e.message)];
  return e.details.map((d) => {
    const m = d.field.match(/^\w+\[(\d+)\]\.?(.*)$/);
    const change = m ? chunk[Number(m[1])] : undefined;
    if (!change || !m)
      return { path: kind.key, line: source.lineOf([kind.key]), message: `${d.field} ${d.message}` };
    const rest = m[2] ? m[2].split(/\.|\[(\d+)\]/).filter((x) => x !== undefined && x !== '') : [];
    return at(
      source,
      [kind.key, change.index!, ...rest.map((x) => (/^\d+$/.test(x) ? Number(x) : x))],
      d.message,
    );
  });
};

/** New items of a kind with a bulk check are checked by the API (all of them) before anything changes. */
const checkBulkCreates = async (
  api: LookoutClient,
  source: ConfigSource,
  changes: Change[],
  names: Names,
) => {
  const problems: FileProblem[] = [];
  for (const kind of KINDS) {
    const bulk = kind.bulk;
    if (!bulk) continue;
    const creates = changes.filter((c) => c.kind === kind && c.action === 'create');
    const chunks: Change[][] = [];
    for (let from = 0; from < creates.length; from += bulk.size)
      chunks.push(creates.slice(from, from + bulk.size));
    // A few checks in flight (they store nothing), their problems kept in the file's order.
    const found: FileProblem[][] = chunks.map(() => []);
    let next = 0;
    const worker = async () => {
      for (let n = next++; n < chunks.length; n = next++) {
        const chunk = chunks[n]!;
        try {
          await bulk.check(
            api,
            chunk.map((c) => kind.toBody(c.item!, names)),
            creates.length - chunk.length,
          );
        } catch (e) {
          if (!(e instanceof ApiError) || (e.status !== 422 && e.status !== 402)) throw e;
          found[n] = refusalProblems(source, kind, chunk, e);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CHECKS_IN_FLIGHT, chunks.length) }, worker));
    // The plan limit is the same refusal for every chunk: said once.
    const seen = new Set<string>();
    for (const p of found.flat()) {
      const key = `${p.path}\n${p.message}`;
      if (!seen.has(key)) problems.push(p);
      seen.add(key);
    }
  }
  if (problems.length) throw new FileProblems(source.file, problems);
};

const show = (v: unknown, secret: boolean) =>
  secret
    ? '(secret)'
    : v === undefined
      ? '(unset)'
      : JSON.stringify(v, (_k, x) => (x instanceof Hidden ? '(hidden)' : x));

/** At most this many creates of one kind are listed by name; the rest are counted. */
const LISTED = 50;

/** The plan as people read it; the last line counts the changes. */
export const renderPlan = (plan: Plan, opts: { prune: boolean }): string => {
  const lines: string[] = [];
  for (const kind of KINDS) {
    const mine = plan.changes.filter((c) => c.kind === kind);
    let creates = 0;
    for (const c of mine) {
      if (c.action === 'create' && ++creates > LISTED) continue;
      const sign = c.action === 'create' ? '+' : c.action === 'update' ? '~' : '-';
      lines.push(
        `${sign} ${kind.noun} "${c.name}"${c.action === 'delete' ? ' (delete)' : c.action === 'create' ? ' (create)' : ''}`,
      );
      for (const f of c.fields)
        lines.push(`    ${f.field}: ${show(f.from, f.secret)} → ${show(f.to, f.secret)}`);
    }
    if (creates > LISTED) lines.push(`+ … and ${creates - LISTED} more ${kind.key} (create)`);
  }
  for (const k of plan.keptSecrets.slice(0, LISTED))
    lines.push(
      `= ${k.kind.noun} "${k.name}" ${k.field}: kept as it is in the workspace (${k.variable} is not set)`,
    );
  if (plan.keptSecrets.length > LISTED)
    lines.push(`= … and ${plan.keptSecrets.length - LISTED} more secrets kept as they are in the workspace`);
  const n = (a: Change['action']) => plan.changes.filter((c) => c.action === a).length;
  lines.push(`Plan: ${n('create')} to create, ${n('update')} to change, ${n('delete')} to delete.`);
  if (plan.kept.length && !opts.prune)
    lines.push(
      `${plural(plan.kept.length, 'record')} of the workspace ${plan.kept.length === 1 ? 'is' : 'are'} not in the file and ${plan.kept.length === 1 ? 'stays' : 'stay'} (--prune deletes them): ${plan.kept
        .slice(0, 10)
        .map((k) => `${k.kind.noun} "${k.name}"`)
        .join(', ')}${plan.kept.length > 10 ? ', …' : ''}`,
    );
  return lines.join('\n');
};
