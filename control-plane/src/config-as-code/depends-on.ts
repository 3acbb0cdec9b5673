import { z } from 'zod';
import { MAX_DEPENDS_ON } from '../domain/monitors/depends-on.js';
import type { Item, Live, Names, Reference } from './kind.js';

/**
 * `depends_on` in the file, by name like group and policy references: each entry names one monitor,
 * heartbeat or group (`{monitor: "Core switch"}`). The API takes ids; a record this apply creates later
 * (a monitor naming a heartbeat, or another monitor of the same batch) is not known by id yet, so
 * `toBody` leaves such an entry out and `pending` says so: apply sets the whole list once everything
 * exists (`applyPlan`).
 */

const KIND_OF = { monitor: 'monitors', heartbeat: 'heartbeats', group: 'groups' } as const;
type Entry = { monitor: string } | { heartbeat: string } | { group: string };

const name = z.string().min(1).max(200);
export const dependsOnItem = z
  .array(
    z.union([
      z.strictObject({ monitor: name }),
      z.strictObject({ heartbeat: name }),
      z.strictObject({ group: name }),
    ]),
  )
  .max(MAX_DEPENDS_ON)
  .optional()
  .describe(
    'What it depends on, each by name: `{monitor: …}`, `{heartbeat: …}` or `{group: …}`. While one is down, its failures raise no alert.',
  );

const entryOf = (e: Entry): [keyof typeof KIND_OF, string] =>
  'monitor' in e
    ? ['monitor', e.monitor]
    : 'heartbeat' in e
      ? ['heartbeat', e.heartbeat]
      : ['group', e.group];

export const dependsOnRef = {
  /** The record's dependencies (the API's `dependencies`, with kinds and names) as file entries. */
  fromLive(out: Item, live: Live) {
    delete out.depends_on;
    const deps = (live.dependencies ?? []) as { kind: keyof typeof KIND_OF; name: string }[];
    if (deps.length > 0) out.depends_on = deps.map((d) => ({ [d.kind]: d.name }));
  },
  references(item: Item): Reference[] {
    return ((item.depends_on ?? []) as Entry[]).map((e, i) => {
      const [kind, n] = entryOf(e);
      return { path: ['depends_on', i, kind], kind: KIND_OF[kind], name: n };
    });
  },
  /** Names to ids; entries not created yet are left out (see `pending`). */
  toBody(body: Record<string, unknown>, names: Names) {
    if (!('depends_on' in body)) return;
    const entries = (body.depends_on ?? []) as Entry[];
    body.depends_on = entries.flatMap((e) => {
      const [kind, n] = entryOf(e);
      const id = names.idOf(KIND_OF[kind], n);
      return id === undefined ? [] : [id];
    });
  },
  /** Whether some entry of `item` names a record that has no id yet. */
  pending(item: Item, names: Names) {
    return ((item.depends_on ?? []) as Entry[]).some((e) => {
      const [kind, n] = entryOf(e);
      return names.idOf(KIND_OF[kind], n) === undefined;
    });
  },
};
