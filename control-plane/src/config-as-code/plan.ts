import { type LookoutClient, ok } from '../api-client/client.js';
import { fieldName } from '../domain/validation.js';
import { checkBulkCreates } from './bulk-checks.js';
import { at, checkFile } from './check-file.js';
import { hasHidden, same, valueAt, withValueAt } from './compare.js';
import { Hidden, type Item, type Live, type ResourceKind } from './kind.js';
import { KINDS, kindByKey } from './kinds/index.js';
import type { NameBook } from './name-book.js';
import { readWorkspace } from './read-workspace.js';
import type { ConfigSource, FileProblem } from './yaml-source.js';
import { FileProblems } from './yaml-source.js';

/**
 * `plan`: what apply would change, computed from the file and the workspace as the API shows it. The
 * whole file is checked first (shape, names, references, fields that cannot change, the role of the
 * key, and every new item of a kind with a bulk check against the API's own rules); any problem
 * stops it before anything is changed, naming each by its path and line. Its parts: the file check
 * (check-file.ts), the workspace read into a name book (read-workspace.ts, name-book.ts), the comparison
 * with values the API hides (compare.ts), the bulk checks (bulk-checks.ts), the rendering (render-plan.ts).
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
