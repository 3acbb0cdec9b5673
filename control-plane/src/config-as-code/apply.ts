import type { LookoutClient } from '../api-client/client.js';
import { dependsOnRef } from './depends-on.js';
import type { Item, Live } from './kind.js';
import { KINDS } from './kinds/index.js';
import type { Change, Plan } from './plan.js';

/** Apply stopped on a refusal of the API after `done` changes (those stay: say which). */
export class ApplyFailed extends Error {
  constructor(
    readonly done: number,
    readonly change: Change,
    readonly refusal: unknown,
  ) {
    super(
      `stopped at ${change.action} ${change.kind.noun} "${change.name}" after ${done} change${done === 1 ? '' : 's'}: ${(refusal as Error).message}`,
    );
    this.name = 'ApplyFailed';
  }
}

const only = (item: Item, fields: string[]) => Object.fromEntries(fields.map((f) => [f, item[f]]));

/**
 * Applies a plan (already checked whole by makePlan): per kind in the table's order, its creates
 * (in bulk where the kind can, all or none per request) then its updates in place; with --prune, the
 * deletes last, in the reverse order (what names a record goes before it). `say` gets one line per
 * step.
 */
export const applyPlan = async (
  api: LookoutClient,
  plan: Plan,
  say: (line: string) => void,
): Promise<number> => {
  let done = 0;
  // Changes whose depends_on names a record not created yet: set whole once everything exists.
  const deferred: Change[] = [];
  const defer = (c: Change, item: Item) => {
    if ('depends_on' in item && dependsOnRef.pending(item, plan.names)) deferred.push(c);
  };
  const step = async (c: Change, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (e) {
      throw new ApplyFailed(done, c, e);
    }
  };
  for (const kind of KINDS) {
    const mine = plan.changes.filter((c) => c.kind === kind);
    const creates = mine.filter((c) => c.action === 'create');
    if (kind.bulk) {
      for (let i = 0; i < creates.length; i += kind.bulk.size) {
        const chunk = creates.slice(i, i + kind.bulk.size);
        for (const c of chunk) defer(c, c.item!);
        await step(chunk[0]!, async () => {
          const created = await kind.bulk!.create(
            api,
            chunk.map((c) => kind.toBody(c.item!, plan.names)),
          );
          for (const [j, r] of created.entries()) plan.names.set(kind.key, chunk[j]!.name, r.id);
        });
        done += chunk.length;
        say(`created ${chunk.length} ${kind.key} (${i + chunk.length} of ${creates.length})`);
      }
    } else
      for (const c of creates)
        await step(c, async () => {
          defer(c, c.item!);
          const created = await kind.create(api, kind.toBody(c.item!, plan.names));
          plan.names.set(kind.key, c.name, created.id);
          done++;
          say(`created ${kind.noun} "${c.name}"`);
          const note = kind.createdNote?.(created);
          if (note) say(`  ${note}`);
        });
    for (const c of mine.filter((x) => x.action === 'update'))
      await step(c, async () => {
        const fields = c.fields.map((f) => f.field);
        defer(c, only(c.item!, fields));
        await kind.update(api, c.live!, kind.toBody(only(c.item!, fields), plan.names));
        done++;
        say(`changed ${kind.noun} "${c.name}" (${fields.join(', ')})`);
      });
  }
  for (const c of deferred)
    await step(c, async () => {
      const id = c.live?.id ?? plan.names.idOf(c.kind.key, c.name)!;
      await c.kind.update(api, { id } as Live, c.kind.toBody({ depends_on: c.item!.depends_on }, plan.names));
      say(`set ${c.kind.noun} "${c.name}" depends_on, now that what it names exists`);
    });
  for (const kind of [...KINDS].reverse())
    for (const c of plan.changes.filter((x) => x.kind === kind && x.action === 'delete'))
      await step(c, async () => {
        await kind.remove(api, c.live!);
        done++;
        say(`deleted ${kind.noun} "${c.name}"`);
      });
  return done;
};
