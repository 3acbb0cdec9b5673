import { z } from 'zod';
import {
  checkWindow,
  DEFAULT_SHIFT_DAYS,
  MAX_MY_SHIFTS_DAYS,
  MY_SHIFTS_DAYS,
  myShifts,
  onCallIn,
  shiftsIn,
} from '../../domain/oncall/on-call-questions.js';
import {
  createScheduleBody,
  isoInstant,
  previewBody,
  updateScheduleBody,
} from '../../domain/oncall/schedule-body.js';
import type { SchedulePolicyLookup } from '../../domain/oncall/schedule-policy-lookup.js';
import { MAX_SCHEDULES, type ScheduleStore } from '../../domain/oncall/schedule-store.js';
import {
  createSchedule,
  deleteSchedule,
  loadSchedule,
  previewSchedule,
  upcomingGaps,
  upcomingOverrides,
  updateSchedule,
} from '../../domain/oncall/schedules.js';
import { MAX_WINDOW_DAYS } from '../../domain/oncall/shifts.js';
import { idOf, pageQuery } from '../query.js';
import { page } from '../responses.js';
import { type RouteDeps, route } from '../route.js';
import {
  myShiftsResponse,
  onCallResponse,
  previewResponse,
  scheduleDetailJson,
  scheduleDetailResponse,
  scheduleJson,
  scheduleResponse,
  shiftJson,
  shiftsResponse,
  sourceJson,
  spanJson,
  userBook,
} from './responses.js';
import { scheduleTradeRoutes } from './trade-routes.js';

const DAY_MS = 86_400_000;
const TAG = 'On-call schedules';

/** `{id, email}` of every user an answer names, in one read. */
const usersOf = async (
  store: Pick<ScheduleStore, 'getScheduleUsers'>,
  workspaceId: string,
  ids: (string | null)[],
) =>
  userBook(
    await store.getScheduleUsers(workspaceId, [...new Set(ids.filter((x): x is string => x !== null))]),
  );

const sourceUsers = (s: { source: { kind: string; created_by?: string | null } }) =>
  s.source.kind === 'override' ? (s.source.created_by ?? null) : null;

export const scheduleRoutes = (deps: RouteDeps<ScheduleStore & SchedulePolicyLookup>) => {
  const { store, clock } = deps;
  const detail = async (s: Awaited<ReturnType<typeof loadSchedule>>) => {
    const now = clock.now();
    return scheduleDetailJson(s, await upcomingGaps(s, await upcomingOverrides(store, s, now), now));
  };
  return [
    route({
      method: 'get',
      path: '/schedules',
      tag: TAG,
      response: page(scheduleResponse),
      summary: 'List the on-call schedules, newest first; `search`: a part of the name, any case.',
      query: z.strictObject({
        ...pageQuery,
        search: z.string().min(1).max(100).optional().describe('A case-insensitive part of the name.'),
      }),
      async handler({ auth, query: { search, ...query } }) {
        const p = await store.listSchedules(auth.workspace.id, { ...query, search });
        return { data: p.data.map(scheduleJson), next_cursor: p.next_cursor };
      },
    }),
    route({
      method: 'post',
      path: '/schedules',
      tag: TAG,
      response: scheduleDetailResponse,
      summary: `Create an on-call schedule: \`name\` (unique in the workspace ignoring case), \`timezone\` (IANA) and ordered \`layers\` (at most 10; a later layer wins where it covers the time). Each layer: \`users\` in turn order (at most 50, users of the workspace), \`rotation\` \`daily\`, \`weekly\` (with \`handoff_day\`) or \`custom\` (with \`shift_seconds\`, 1800 to 7,776,000), \`handoff\` (local HH:MM), \`starts_at\`, and optional \`restrictions\` (at most 28, not overlapping). One 422 names every bad field. The answer's \`gaps\` are the spans of the next 14 days where nobody is on call. At most ${MAX_SCHEDULES} schedules a workspace (409 past that).`,
      role: 'member',
      body: createScheduleBody,
      status: 201,
      responses: { 409: 'The name is taken, or the workspace has the most schedules it may' },
      async handler({ auth, body }) {
        return detail(await createSchedule(store, auth.workspace.id, auth.user.id, body, clock.now()));
      },
    }),
    route({
      method: 'post',
      path: '/schedules/preview',
      audit: { noRecord: true },
      tag: TAG,
      response: previewResponse,
      summary:
        'Preview unsaved layers: a create body (validated the same) and optionally `schedule_id`, whose overrides apply. Answers the final shifts and gaps of the next 14 days; stores nothing.',
      role: 'member',
      body: previewBody,
      async handler({ auth, body }) {
        const r = await previewSchedule(store, auth.workspace.id, body, clock.now());
        const users = await usersOf(
          store,
          auth.workspace.id,
          r.shifts.flatMap((s) => [s.user_id, sourceUsers(s)]),
        );
        return { data: r.shifts.map((s) => shiftJson(s, users)), gaps: r.gaps.map(spanJson) };
      },
    }),
    route({
      method: 'get',
      path: '/schedules/{id}',
      tag: TAG,
      response: scheduleDetailResponse,
      summary:
        'Get a schedule, with `gaps`: the spans of the next 14 days where nobody is on call (at most 50).',
      responses: { 404: 'No such schedule in this workspace' },
      async handler({ auth, params }) {
        return detail(await loadSchedule(store, auth.workspace.id, idOf(params.id)));
      },
    }),
    route({
      method: 'patch',
      path: '/schedules/{id}',
      tag: TAG,
      response: scheduleDetailResponse,
      summary:
        'Change a schedule’s `name`, `timezone` or `layers` (sent layers replace them all; validated as on create).',
      role: 'member',
      body: updateScheduleBody,
      responses: { 404: 'No such schedule in this workspace', 409: 'The name is taken' },
      async handler({ auth, params, body }) {
        return detail(
          await updateSchedule(store, auth.workspace.id, auth.user.id, idOf(params.id), body, clock.now()),
        );
      },
    }),
    route({
      method: 'delete',
      path: '/schedules/{id}',
      tag: TAG,
      response: null,
      summary:
        'Delete a schedule with its overrides, shift offers and history. Refused while an escalation policy pages it.',
      role: 'member',
      status: 204,
      responses: {
        404: 'No such schedule in this workspace',
        409: 'Escalation policies page this schedule (named); remove it from their steps first',
      },
      async handler({ auth, params }) {
        await deleteSchedule(store, auth.workspace.id, idOf(params.id));
        return undefined;
      },
    }),
    route({
      method: 'get',
      path: '/schedules/{id}/on-call',
      tag: TAG,
      response: onCallResponse,
      summary:
        'Who is on call at `at` (default now), until when, and who is next (looking up to 90 days ahead), and why (`source`: the layer or the override).',
      query: z.strictObject({
        at: isoInstant().optional().describe('An ISO 8601 instant with a zone; default now.'),
      }),
      responses: { 404: 'No such schedule in this workspace' },
      async handler({ auth, params, query }) {
        const a = await onCallIn(store, auth.workspace.id, idOf(params.id), query.at ?? clock.now());
        const users = await usersOf(store, auth.workspace.id, [
          a.shift?.user_id ?? null,
          a.next?.user_id ?? null,
          a.shift ? sourceUsers(a.shift) : null,
        ]);
        return {
          user: a.shift ? users(a.shift.user_id) : null,
          until: a.until ? a.until.toISOString() : null,
          next: a.next ? { user: users(a.next.user_id), starts_at: a.next.starts_at.toISOString() } : null,
          source: a.shift ? sourceJson(a.shift.source, users) : null,
        };
      },
    }),
    route({
      method: 'get',
      path: '/schedules/{id}/shifts',
      tag: TAG,
      response: shiftsResponse,
      summary: `The final shifts over [\`from\`, \`to\`) (default now to 14 days on; at most ${MAX_WINDOW_DAYS} days, else 422 naming \`to\`): overrides applied, adjacent shifts of one user merged, clipped to the window.`,
      query: z.strictObject({
        from: isoInstant().optional().describe('ISO 8601 with a zone; default now.'),
        to: isoInstant()
          .optional()
          .describe(`ISO 8601 with a zone; default from + ${DEFAULT_SHIFT_DAYS} days.`),
      }),
      responses: { 404: 'No such schedule in this workspace' },
      async handler({ auth, params, query }) {
        const from = query.from ?? clock.now();
        const to = query.to ?? new Date(from.getTime() + DEFAULT_SHIFT_DAYS * DAY_MS);
        checkWindow(from, to);
        const shifts = await shiftsIn(store, auth.workspace.id, idOf(params.id), from, to);
        const users = await usersOf(
          store,
          auth.workspace.id,
          shifts.flatMap((s) => [s.user_id, sourceUsers(s)]),
        );
        return { data: shifts.map((s) => shiftJson(s, users)) };
      },
    }),
    route({
      method: 'get',
      path: '/me/shifts',
      tag: TAG,
      response: myShiftsResponse,
      summary: `My shifts over the next \`days\` (default ${MY_SHIFTS_DAYS}, at most ${MAX_MY_SHIFTS_DAYS}) across the workspace's schedules, in time order (the first 1,000).`,
      query: z.strictObject({
        days: z.coerce.number().int().min(1).max(MAX_MY_SHIFTS_DAYS).default(MY_SHIFTS_DAYS),
      }),
      async handler({ auth, query }) {
        const mine = await myShifts(store, auth.workspace.id, auth.user.id, clock.now(), query.days);
        const users = await usersOf(
          store,
          auth.workspace.id,
          mine.map((m) => sourceUsers(m.shift)),
        );
        return {
          data: mine.map(({ schedule, shift }) => ({
            schedule: { id: schedule.id, name: schedule.name },
            starts_at: shift.starts_at.toISOString(),
            ends_at: shift.ends_at.toISOString(),
            source: sourceJson(shift.source, users),
          })),
        };
      },
    }),
    ...scheduleTradeRoutes(deps),
  ];
};
