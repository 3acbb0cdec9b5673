import type { FieldProblem } from '@lookout/shared';
import { z } from 'zod';
import type { GroupStore } from '../monitors/group-store.js';
import { tag } from '../monitors/labels.js';
import type { MonitorStore } from '../monitors/monitor-store.js';
import type { StatusPageStore } from '../status-pages/status-page-store.js';
import type { TenancyStore } from '../tenancy/tenancy-store.js';
import { problemsIn, throwIfProblems, uuid } from '../validation.js';
import { monthAfter, previousMonth, reportDueAt } from './report-months.js';
import type { ReportSchedule, ReportScheduleStore } from './report-schedule-store.js';
import { DEFAULT_SLO_PERCENT } from './sla-report.js';

/** The most users one monthly report is mailed to. */
export const MAX_REPORT_RECIPIENTS = 50;

const SCOPE_TYPES = ['workspace', 'group', 'tag', 'status_page', 'monitor'] as const;

/** `PUT /reports/schedule`: the whole schedule (scope and slo may be left out: the workspace, 99.9). */
export const reportScheduleBody = z.strictObject({
  enabled: z.boolean().describe('Whether the report is mailed on the 1st of each month (UTC) after 06:00.'),
  recipient_user_ids: z
    .array(uuid())
    .max(MAX_REPORT_RECIPIENTS)
    .describe(
      `Users of this workspace the report goes to (at most ${MAX_REPORT_RECIPIENTS}); repeats are dropped.`,
    ),
  scope: z
    .strictObject({
      type: z.enum(SCOPE_TYPES),
      id: z
        .string()
        .min(1)
        .max(200)
        .nullable()
        .describe('Null for `workspace`; a tag for `tag`; else the id.'),
    })
    .default({ type: 'workspace', id: null })
    .describe('What the report covers: the whole workspace, a group, a tag, a status page or a monitor.'),
  slo: z
    .number()
    .gt(0)
    .lt(100)
    .default(DEFAULT_SLO_PERCENT)
    .describe(`The SLO target in percent, 0 < slo < 100 (default ${DEFAULT_SLO_PERCENT}).`),
});
export type ReportScheduleInput = z.output<typeof reportScheduleBody>;

/** What a schedule's checks read: its users and the record its scope names. */
export type ReportScheduleLookups = Pick<TenancyStore, 'getUser'> &
  Pick<GroupStore, 'getGroup'> &
  Pick<MonitorStore, 'getMonitor' | 'listMonitors'> &
  Pick<StatusPageStore, 'getStatusPage'>;

const scopeProblems = async (
  store: ReportScheduleLookups,
  workspaceId: string,
  scope: ReportScheduleInput['scope'],
): Promise<FieldProblem[]> => {
  const { type } = scope;
  const id = type === 'tag' ? scope.id : (scope.id?.toLowerCase() ?? null);
  if (type === 'workspace')
    return id === null ? [] : [{ field: 'scope.id', message: 'must be null for the whole workspace' }];
  if (id === null) return [{ field: 'scope.id', message: `is required for a ${type.replace('_', ' ')}` }];
  if (type === 'tag') {
    if (!tag().safeParse(id).success)
      return [{ field: 'scope.id', message: 'must be a tag: key or key:value, such as env:prod' }];
    const carried = await store.listMonitors(workspaceId, { tag: id, limit: 1 });
    return carried.data.length > 0
      ? []
      : [{ field: 'scope.id', message: 'no monitor carries this tag in the workspace' }];
  }
  const what = type.replace('_', ' ');
  if (!uuid().safeParse(id).success)
    return [{ field: 'scope.id', message: `no ${what} with this id in the workspace` }];
  const found =
    type === 'group'
      ? await store.getGroup(workspaceId, id)
      : type === 'monitor'
        ? await store.getMonitor(workspaceId, id)
        : await store.getStatusPage(workspaceId, id);
  return found ? [] : [{ field: 'scope.id', message: `no ${what} with this id in the workspace` }];
};

/**
 * The body checked whole: one 422 naming every bad field, the shape's problems and the stored ones
 * (each recipient a user of this workspace; the scope's record in it; a recipient when enabled).
 */
export const parseReportSchedule = async (
  store: ReportScheduleLookups,
  workspaceId: string,
  raw: unknown,
): Promise<ReportScheduleInput> => {
  const parsed = problemsIn(reportScheduleBody, raw ?? {});
  const problems: FieldProblem[] = [...parsed.problems];
  const seen = new Set(problems.map((p) => p.field));
  // Each part that is well formed on its own is checked against the store even when another is not,
  // so that one answer names every bad field.
  const body = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const part = <S extends z.ZodType>(schema: S, value: unknown) => {
    const r = schema.safeParse(value);
    return r.success ? (r.data as z.output<S>) : null;
  };
  const ids = (part(reportScheduleBody.shape.recipient_user_ids, body.recipient_user_ids) ?? []).map((id) =>
    id.toLowerCase(),
  );
  const users = await Promise.all(ids.map((id) => store.getUser(workspaceId, id)));
  users.forEach((u, i) => {
    if (!u)
      problems.push({ field: `recipient_user_ids[${i}]`, message: 'no user with this id in the workspace' });
  });
  if (body.enabled === true && Array.isArray(body.recipient_user_ids) && body.recipient_user_ids.length === 0)
    problems.push({
      field: 'recipient_user_ids',
      message: 'needs at least one user while the report is enabled',
    });
  const scope = part(reportScheduleBody.shape.scope, body.scope);
  if (scope && !seen.has('scope.id') && !seen.has('scope.type'))
    problems.push(...(await scopeProblems(store, workspaceId, scope)));
  throwIfProblems(problems);
  const data = parsed.data!;
  // Ids are stored as the records have them (lower case); a tag is its own.
  const scopeId = data.scope.type === 'tag' ? data.scope.id : (data.scope.id?.toLowerCase() ?? null);
  return { ...data, recipient_user_ids: [...new Set(ids)], scope: { ...data.scope, id: scopeId } };
};

/**
 * Saves a checked schedule. A schedule made, or enabled again, in month M starts at M − 1 as if sent:
 * its first mail is M's report on the 1st of M + 1, never a report of a month it was off for (`POST
 * /reports/schedule/send-now` mails one at once to try it). An edit keeps the month reached; the store
 * keeps the later of the two, so a save racing the job never makes a month due again.
 */
export const saveReportSchedule = async (
  store: Pick<ReportScheduleStore, 'getReportSchedule' | 'putReportSchedule'>,
  workspaceId: string,
  userId: string,
  input: ReportScheduleInput,
  now: Date,
): Promise<ReportSchedule> => {
  const old = await store.getReportSchedule(workspaceId);
  const floor = previousMonth(now);
  const last_sent_month =
    old?.enabled && input.enabled
      ? old.last_sent_month
      : old && old.last_sent_month > floor
        ? old.last_sent_month
        : floor;
  const next: ReportSchedule = {
    workspace_id: workspaceId,
    enabled: input.enabled,
    recipient_user_ids: input.recipient_user_ids,
    scope: input.scope,
    slo: input.slo,
    last_sent_month,
    updated_at: now,
    updated_by: userId,
  };
  await store.putReportSchedule(next);
  return (await store.getReportSchedule(workspaceId)) ?? next;
};

/** The month the schedule mails next and from when (`YYYY-MM`, UTC); null while it is off. */
export const nextReport = (s: ReportSchedule | null): { month: string; at: Date } | null => {
  if (!s?.enabled) return null;
  const month = monthAfter(s.last_sent_month);
  return { month, at: reportDueAt(month) };
};
