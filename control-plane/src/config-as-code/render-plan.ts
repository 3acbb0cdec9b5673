import { Hidden } from './kind.js';
import { KINDS } from './kinds/index.js';
import type { Change, Plan } from './plan.js';

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : noun.endsWith('y') ? '' : 's'}`;

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
