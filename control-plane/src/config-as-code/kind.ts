import type { z } from 'zod';
import type { LookoutClient } from '../api-client/client.js';

/**
 * One resource kind of the configuration file (monitors, channels, …): how to read it from the API
 * (through the typed client), how it looks in the file, how to compare, create, update and delete it. Export, plan and apply are
 * written once over the table of kinds (`kinds/index.ts`); a new kind is one file in `kinds/` and one
 * line in that table.
 */

/** An item as the file holds it: the API's field names, references by name. */
export type Item = Record<string, unknown>;
/** A record as the API returns it. */
export type Live = Record<string, unknown> & { id: string };

/**
 * A value the API does not show (a password, a masked URL, a viewer's masked header): exported as
 * `${ENV}`, and compared with the file's value only as far as `matches` can tell (a write-only
 * secret matches anything: a changed password alone is not seen).
 */
export class Hidden {
  constructor(readonly matches: (fileValue: unknown) => boolean = () => true) {}
}

/** A reference in a file item to an item of another kind, by name. */
export interface Reference {
  /** Where in the item (for messages: `monitors[3].escalation_policy`). */
  path: (string | number)[];
  /** The kind named: a key of the kind table, or `users` (named by email; never created by the file). */
  kind: string;
  name: string;
}

/** Names ⇄ ids across kinds: the workspace's records, and those this apply has created so far. */
export interface Names {
  /** The id of `name` in `kind`; undefined when it has none yet (to be created) or is unknown. */
  idOf(kind: string, name: string): string | undefined;
  /** The name of record `id` of `kind`; undefined when the key may not read that kind. */
  nameOf(kind: string, id: string): string | undefined;
}

export interface ResourceKind {
  /** The top-level key in the file, plural (`monitors`). */
  key: string;
  /** One of them, in messages (`monitor`). */
  noun: string;
  /** The field that names an item, unique in the file and the key that matches it to a record. */
  nameField: string;
  /** The file's item schema: the API's create body, with references by name (JSON Schema follows). */
  item: z.ZodType;
  /** The least role that may create, change or delete it (checked before anything is applied). */
  writeRole: 'member' | 'admin';
  /** Every record of the kind (all pages of its list). */
  list(api: LookoutClient): Promise<Live[]>;
  /** Records the file does not manage (a maintenance window that has ended): never compared or pruned. */
  managed?(live: Live, now: Date): boolean;
  /** A record as a file item: read-only fields left out, ids as names, unreadable values as Hidden. */
  fromLive(live: Live, names: Names): Item;
  /** The references an item makes (checked against the file and the workspace). */
  references(item: Item): Reference[];
  /** A (partial) file item as an API body: names back to ids (every reference resolvable by now). */
  toBody(item: Item, names: Names): Record<string, unknown>;
  /** Fields that cannot change in place (a monitor's type): a change is refused at validation. */
  immutable: string[];
  /**
   * Where an item may hold a secret (a password, a token, a credential header): the only places the
   * file may write `${NAME}`, read from the environment. Everywhere else `${` is refused, so that no
   * variable (an API key, say) can be copied into a field that plan, export or the web app would show.
   */
  secretField(item: Item, path: (string | number)[]): boolean;
  /** Values that are readable but secret (an Authorization header): exported as `${ENV}` too. */
  sensitive?(item: Item, path: (string | number)[]): boolean;
  /** The file item as compared (policies: `is_default: false` only follows from another's true). */
  comparable?(item: Item): Item;
  create(api: LookoutClient, body: Record<string, unknown>): Promise<Live>;
  /** Create many at once, all or none, and a check that stores nothing (monitors: the batch endpoint). */
  bulk?: {
    size: number;
    /** `others`: how many more the caller creates in other batches (counted against the plan limit). */
    check(api: LookoutClient, bodies: Record<string, unknown>[], others: number): Promise<void>;
    create(api: LookoutClient, bodies: Record<string, unknown>[]): Promise<Live[]>;
  };
  update(api: LookoutClient, live: Live, body: Record<string, unknown>): Promise<void>;
  remove(api: LookoutClient, live: Live): Promise<void>;
  /**
   * Why the API would refuse to delete this record whatever the order (the default policy, unless the
   * file makes another one the default): a problem of the file, before anything changes.
   */
  cannotDelete?(live: Live, fileItems: Item[]): string | undefined;
  /** Something to tell after creating one (a secret the API shows once and apply does not print). */
  createdNote?(created: Live): string | undefined;
}

/** One list of the API read whole, page by page (100 a page, the most the API gives). */
export const allPages = async (
  page: (cursor: string | undefined) => Promise<{ data: unknown[]; next_cursor: string | null }>,
): Promise<Live[]> => {
  const all: Live[] = [];
  let cursor: string | undefined;
  do {
    const p = await page(cursor);
    all.push(...(p.data as Live[]));
    cursor = p.next_cursor ?? undefined;
  } while (cursor);
  return all;
};

/** The fields of `live` that `schema` (a zod object) names, in its order; others dropped. */
export const pick = (live: Record<string, unknown>, keys: readonly string[]): Item => {
  const out: Item = {};
  for (const k of keys) if (live[k] !== undefined) out[k] = live[k];
  return out;
};

/** A single reference field: `escalation_policy_id` (API, an id) ⇄ `escalation_policy` (file, a name). */
export const singleRef = (apiField: string, fileField: string, kind: string) => ({
  fromLive(out: Item, live: Live, names: Names) {
    const id = live[apiField];
    delete out[apiField];
    if (typeof id === 'string' && id !== '') out[fileField] = names.nameOf(kind, id) ?? id;
    else if (id === null) out[fileField] = null;
  },
  references(item: Item): Reference[] {
    const name = item[fileField];
    return typeof name === 'string' ? [{ path: [fileField], kind, name }] : [];
  },
  toBody(body: Record<string, unknown>, names: Names) {
    if (!(fileField in body)) return;
    const name = body[fileField];
    delete body[fileField];
    if (typeof name !== 'string') body[apiField] = name;
    else {
      // Unknown only while checking creates before what they name exists: left out then.
      const id = names.idOf(kind, name);
      if (id !== undefined) body[apiField] = id;
    }
  },
});

/**
 * A monitor's or heartbeat's group: `group_id` (API) ⇄ `group` (file, the group's name). Left out of an
 * export when there is none; `group: null` in a file ungroups.
 */
export const groupRef = () => {
  const ref = singleRef('group_id', 'group', 'groups');
  return {
    ...ref,
    fromLive(out: Item, live: Live, names: Names) {
      ref.fromLive(out, live, names);
      if (out.group === null) delete out.group;
    },
  };
};

/** `${NAME}` in a file value; `$${` writes a literal `${`. */
export const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The environment variable named for a secret: MONITOR_CHECKOUT_API_AUTH_PASSWORD. */
export const envNameFor = (noun: string, name: string, path: (string | number)[]) =>
  [noun, name, ...path.map(String)]
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(\d)/, '_$1');

/** Header names whose values are credentials: exported as `${ENV}` even when readable. */
export const SECRET_HEADER = /authorization|token|secret|password|api[-_]?key|cookie|signature/i;
