import { setImmediate as nextTurn } from 'node:timers/promises';
import { AppError, type FieldProblem } from '@lookout/shared';
import { z } from 'zod';
import type { MaintenanceCover, Monitor } from '../types.js';
import { parseOrThrow, throwIfProblems, uuid } from '../validation.js';
import { groupProblems, labelFields, MAX_TAGS, tag } from './labels.js';
import { FIRST_RUNS_PER_BATCH, requestFirstRuns } from './monitor-runs.js';
import type { MonitorStatusQuery, MonitorStatusStore } from './monitor-status.js';
import type { MonitorContext, Notice } from './monitors.js';

/**
 * `POST /monitors/bulk`: one action on many monitors, all or nothing (docs/decisions.md, "Bulk
 * actions"). The monitors are named by `ids` (at most MAX_BULK_IDS, each one of the workspace's, or a
 * 422 naming `ids[i]`) or by `filter`, the list's own filters resolved by the list's own query
 * (`listMonitorsWithStatus`), at most the plan's monitor cap of them. Every record is rebuilt here and
 * written in ONE store step (`updateMonitors` / `deleteMonitors`: one transaction, each record by
 * compare-and-set on its version, one feed entry each, so agents drop a paused or deleted monitor and
 * pick a resumed one up). A record changed meanwhile fails the whole step (409), nothing written.
 */
export const BULK_ACTIONS = [
  'pause',
  'resume',
  'delete',
  'set_policy',
  'set_group',
  'add_tags',
  'remove_tags',
] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The fields a bulk action may change (besides `version` and `updated_at`): all the store writes. */
const BULK_FIELDS = [
  'paused',
  'escalation_policy_id',
  'check_interval_seconds',
  'group_id',
  'tags',
] as const satisfies readonly (keyof Monitor)[];

/** The most ids one request may name (a bounded body; a filter reaches further). */
export const MAX_BULK_IDS = 1000;
/** The filter's monitors are read this many a page (one bounded read each, yielding between). */
const FILTER_PAGE = 500;

/** Which field goes with which actions: required for them, refused for any other. */
const ACTION_FIELDS = {
  escalation_policy_id: { actions: ['set_policy'], hint: ' (null: the workspace default)' },
  group_id: { actions: ['set_group'], hint: ' (null: no group)' },
  tags: { actions: ['add_tags', 'remove_tags'], hint: '' },
} as const satisfies Record<string, { actions: readonly BulkAction[]; hint: string }>;

/** The list's filters (what GET /monitors takes, paging and order aside), as the list parses them. */
export type MonitorFilter = Omit<MonitorStatusQuery, 'limit' | 'cursor' | 'checks'>;

/** The body, with `filter` parsed by the list's own filter schema (given by the HTTP layer). */
export const bulkMonitorsBody = (filter: z.ZodType<MonitorFilter>) =>
  z.strictObject({
    action: z.enum(BULK_ACTIONS),
    ids: z.array(uuid()).min(1).max(MAX_BULK_IDS).optional(),
    filter: filter.optional(),
    escalation_policy_id: uuid().nullable().optional(),
    group_id: labelFields.group_id.optional(),
    tags: z.array(tag()).min(1).max(MAX_TAGS).optional(),
  });

export interface BulkContext extends MonitorContext {
  store: MonitorContext['store'] & MonitorStatusStore;
  /** The workspace's maintenance cover now (a filter on status means what the list shows). */
  cover: MaintenanceCover;
}

/** The monitors `ids` names, in the caller's workspace; every id that is not there is a problem. */
const byIds = async (ctx: BulkContext, ids: string[]): Promise<Monitor[]> => {
  const wanted = ids.map((id) => id.toLowerCase());
  const found = new Map(
    (await ctx.store.getMonitorsByIds([...new Set(wanted)]))
      .filter((m) => m.workspace_id === ctx.workspace.id)
      .map((m) => [m.id, m]),
  );
  await nextTurn();
  const seen = new Map<string, number>();
  const problems: FieldProblem[] = [];
  for (const [i, id] of wanted.entries()) {
    if (seen.has(id)) problems.push({ field: `ids[${i}]`, message: `repeats ids[${seen.get(id)}]` });
    else if (!found.has(id))
      problems.push({ field: `ids[${i}]`, message: 'no monitor with this id in the workspace' });
    seen.set(id, seen.get(id) ?? i);
  }
  throwIfProblems(problems);
  return wanted.map((id) => found.get(id)!);
};

/**
 * The monitors the list shows for `filter` now, read a page at a time through the list's own query
 * (so a filter means here exactly what it means on the page), at most `cap` of them. Each page's
 * records are read back as stored (the list's rows carry their status beside them), still of this
 * workspace; between pages the event loop is free.
 */
const byFilter = async (ctx: BulkContext, filter: MonitorFilter, cap: number): Promise<Monitor[]> => {
  const found: Monitor[] = [];
  let cursor: string | undefined;
  do {
    const page = await ctx.store.listMonitorsWithStatus(
      ctx.workspace.id,
      { ...filter, limit: FILTER_PAGE, checks: false, ...(cursor ? { cursor } : {}) },
      ctx.now,
      ctx.cover,
    );
    if (found.length + page.data.length > cap)
      throwIfProblems([
        {
          field: 'filter',
          message: `matches more than ${cap} monitors, the most one bulk action takes (the ${ctx.planName} plan's monitor cap); narrow the filter`,
        },
      ]);
    const records = await ctx.store.getMonitorsByIds(page.data.map((m) => m.id));
    found.push(...records.filter((m) => m.workspace_id === ctx.workspace.id));
    cursor = page.next_cursor ?? undefined;
    // The store's reads are synchronous on SQLite: without this the whole walk is one macrotask.
    await nextTurn();
  } while (cursor);
  return found;
};

/** Problems with the action's own field: missing for its action, or given to another. */
const fieldProblems = (input: { action: BulkAction } & Record<string, unknown>): FieldProblem[] => {
  const problems: FieldProblem[] = [];
  for (const [field, { actions, hint }] of Object.entries(ACTION_FIELDS)) {
    const mine = (actions as readonly BulkAction[]).includes(input.action);
    if (mine && input[field] === undefined)
      problems.push({ field, message: `is required for ${input.action}${hint}` });
    if (!mine && input[field] !== undefined)
      problems.push({ field, message: `applies only to ${actions.join(' and ')}` });
  }
  if (input.ids === undefined && input.filter === undefined)
    problems.push({
      field: 'ids',
      message:
        'name the monitors with ids or filter ({"filter": {}} spelled out means every monitor of the workspace)',
    });
  if (input.ids !== undefined && input.filter !== undefined)
    problems.push({ field: 'filter', message: 'give ids or filter, not both' });
  return problems;
};

/**
 * Runs one bulk action. Answers how many monitors it changed (`affected`: a monitor already in the
 * asked state is left as it is and not counted) and what it adjusted: a monitor that will run gets
 * its interval raised to the plan's minimum, as an edit does (a workspace moved to a smaller plan
 * resumes nothing faster than the plan allows).
 */
export const bulkMonitors = async (
  ctx: BulkContext,
  body: unknown,
  filterSchema: z.ZodType<MonitorFilter>,
): Promise<{ affected: number; warnings: Notice[] }> => {
  const input = parseOrThrow(bulkMonitorsBody(filterSchema), body);
  throwIfProblems(fieldProblems(input));
  let policyId: string | undefined;
  if (input.action === 'set_policy') {
    const policy = input.escalation_policy_id
      ? await ctx.store.getEscalationPolicy(ctx.workspace.id, input.escalation_policy_id.toLowerCase())
      : await ctx.store.getDefaultEscalationPolicy(ctx.workspace.id);
    if (!policy)
      throwIfProblems([
        { field: 'escalation_policy_id', message: 'no escalation policy with this id in the workspace' },
      ]);
    policyId = policy!.id;
  }
  if (input.action === 'set_group')
    throwIfProblems(
      await groupProblems(ctx.store, ctx.workspace.id, [{ field: 'group_id', id: input.group_id }]),
    );
  const targets = input.ids
    ? await byIds(ctx, input.ids)
    : await byFilter(ctx, input.filter ?? {}, ctx.plan.max_monitors);

  if (input.action === 'delete') {
    const outcome = await ctx.store.deleteMonitors(
      ctx.workspace.id,
      targets.map((m) => ({ id: m.id, version: m.version })),
    );
    if (outcome === 'conflict') throw changedMeanwhile();
    return { affected: targets.length, warnings: [] };
  }

  const floor = ctx.plan.min_interval_seconds;
  const tags = input.tags ?? [];
  let raised = 0;
  const tooManyTags: number[] = [];
  const changes: { next: Monitor; expectedVersion: number }[] = [];
  for (const [i, m] of targets.entries()) {
    const next: Monitor = { ...m, updated_at: ctx.now, version: m.version + 1 };
    if (input.action === 'pause') next.paused = true;
    if (input.action === 'resume') next.paused = false;
    if (policyId !== undefined) next.escalation_policy_id = policyId;
    if (input.action === 'set_group') next.group_id = input.group_id ?? null;
    if (input.action === 'add_tags') next.tags = [...new Set([...m.tags, ...tags])];
    if (input.action === 'remove_tags') next.tags = m.tags.filter((t) => !tags.includes(t));
    if (next.tags.length > MAX_TAGS) tooManyTags.push(i);
    if (
      next.paused === m.paused &&
      next.escalation_policy_id === m.escalation_policy_id &&
      next.group_id === m.group_id &&
      next.tags.length === m.tags.length
    )
      continue;
    if (!next.paused && next.check_interval_seconds < floor) {
      next.check_interval_seconds = floor;
      raised++;
    }
    changes.push({ next, expectedVersion: m.version });
  }
  throwIfProblems(tagProblems(input.ids ? 'ids' : 'filter', tooManyTags, targets));
  if ((await ctx.store.updateMonitors(changes, BULK_FIELDS)) === 'conflict') throw changedMeanwhile();
  if (input.action === 'resume')
    await requestFirstRuns(
      ctx.store,
      changes.slice(0, FIRST_RUNS_PER_BATCH).map((c) => c.next),
      ctx.now,
    );
  const warnings =
    raised === 0
      ? []
      : [
          {
            field: 'check_interval_seconds',
            message: `${raised} monitor${raised === 1 ? '' : 's'} checked more often than the ${ctx.planName} plan's minimum of ${floor} s; they now check every ${floor} s. Upgrade the plan for shorter intervals.`,
          },
        ];
  return { affected: changes.length, warnings };
};

/** The monitors (by their place in `ids`, or named once for a filter) that would pass MAX_TAGS. */
const tagProblems = (by: 'ids' | 'filter', places: number[], targets: Monitor[]): FieldProblem[] => {
  const over = `would carry more than ${MAX_TAGS} tags`;
  if (places.length === 0) return [];
  if (by === 'ids') return places.map((i) => ({ field: `ids[${i}]`, message: `${over}; remove some first` }));
  const names = places.slice(0, 3).map((i) => `“${targets[i]!.display_name}”`);
  return [
    {
      field: 'filter',
      message: `${places.length} of its monitors ${over} (${names.join(', ')}${places.length > 3 ? ', …' : ''}); remove some first`,
    },
  ];
};

const changedMeanwhile = () =>
  new AppError(
    'conflict',
    'Some of these monitors were changed or deleted by someone else meanwhile; nothing was changed. Try again.',
  );
