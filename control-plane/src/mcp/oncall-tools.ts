import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ApiError, ok } from '../api-client/client.js';
import type { McpApi } from './api.js';
import {
  type MyShiftJson,
  myShiftsText,
  type OnCallJson,
  onCallLine,
  onCallText,
  type ScheduleJson,
} from './oncall-text.js';

/**
 * The on-call tools: who is on call in a schedule (or in every one), and the caller's next shifts.
 * Each answers in sentences (oncall-text.ts) built from the public API's JSON, called as the caller.
 */

/** A question the tool cannot answer as asked (no such schedule, several of that name): said as is. */
export class ToolRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolRefusal';
  }
}

const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Every schedule, by name (a workspace has at most 200: two pages). */
const allSchedules = async (api: McpApi): Promise<ScheduleJson[]> => {
  const all: ScheduleJson[] = [];
  let cursor: string | undefined;
  do {
    const page = await ok(api.client.GET('/schedules', { params: { query: { limit: 100, cursor } } }));
    all.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return all.sort((a, b) => a.name.localeCompare(b.name));
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The schedule `ref` names: its id, else its name (case aside), else the one schedule whose name
 * contains it. Anything else is refused with the names it could have meant.
 */
export const findSchedule = async (api: McpApi, ref: string): Promise<ScheduleJson> => {
  if (UUID.test(ref)) {
    try {
      return await ok(api.client.GET('/schedules/{id}', { params: { path: { id: ref } } }));
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 404) throw e;
    }
  }
  // A schedule's name is at most 100 characters: a longer one names none (and the list's search refuses it).
  const found =
    ref.length > 100
      ? []
      : (await ok(api.client.GET('/schedules', { params: { query: { limit: 100, search: ref } } }))).data;
  const exact = found.filter((s) => s.name.toLowerCase() === ref.trim().toLowerCase());
  const pick = exact.length ? exact : found;
  if (pick.length === 1) return pick[0]!;
  if (pick.length > 1)
    throw new ToolRefusal(
      `Several schedules match "${ref}": ${pick.map((s) => `${s.name} (id ${s.id})`).join(', ')}. Ask again with one of their ids.`,
    );
  const names = (await allSchedules(api)).map((s) => s.name);
  throw new ToolRefusal(
    names.length
      ? `No schedule is named "${ref}". The schedules of this workspace: ${names.join(', ')}.`
      : 'This workspace has no on-call schedules yet (create one in the web app under Schedules, or with POST /api/v1/schedules).',
  );
};

const onCall = (api: McpApi, id: string, at: string | undefined) =>
  ok(
    api.client.GET('/schedules/{id}/on-call', { params: { path: { id }, query: at ? { at } : {} } }),
  ) as Promise<OnCallJson>;

/** `at` as the API will read it, for the heading; without one, the server's "now". */
const instant = (at: string | undefined) => {
  if (at === undefined) return undefined;
  const t = new Date(at);
  return Number.isNaN(t.getTime()) ? at : t.toISOString();
};

export const whoIsOnCall = {
  name: 'who_is_on_call',
  title: 'Who is on call',
  description:
    'Who is on call in an on-call schedule, at an instant (default now): their email, until when (in the schedule’s time zone, then as ISO), why (the layer, or an override and who made it) and who is next. Without a schedule, one line for every schedule of the workspace. When nobody is on call, an escalation step naming the schedule reaches no one through it (a step that reaches no one at all hands over to the next at once).',
  input: z.object({
    schedule: z
      .string()
      .min(1)
      .optional()
      .describe('The schedule: its id or its name (e.g. "Primary"). Omit it for every schedule.'),
    at: z
      .string()
      .optional()
      .describe('The instant to ask about, ISO-8601 with a zone, e.g. 2026-12-24T20:00:00Z (default: now).'),
  }),
  annotations: READ,
  async run(api: McpApi, a: { schedule?: string; at?: string }): Promise<string> {
    const at = instant(a.at);
    if (a.schedule !== undefined) {
      const schedule = await findSchedule(api, a.schedule);
      return onCallText(schedule, await onCall(api, schedule.id, at), at);
    }
    const schedules = await allSchedules(api);
    if (schedules.length === 0)
      return 'This workspace has no on-call schedules yet (create one in the web app under Schedules, or with POST /api/v1/schedules).';
    const lines = [
      `Who is on call ${at ? `at ${at}` : 'now'}, in ${schedules.length === 1 ? 'the one schedule' : `${schedules.length} schedules`}:`,
    ];
    // Ten questions at a time: a workspace has at most 200 schedules.
    for (let i = 0; i < schedules.length; i += 10) {
      const chunk = schedules.slice(i, i + 10);
      const answers = await Promise.all(chunk.map((s) => onCall(api, s.id, at)));
      for (const [j, s] of chunk.entries()) lines.push(onCallLine(s, answers[j]!));
    }
    return lines.join('\n');
  },
};

export const listMyShifts = {
  name: 'list_my_shifts',
  title: 'My next on-call shifts',
  description:
    'The on-call shifts of the user this connection acts as, across every schedule, soonest first, over the next `days` days (default 30, at most 90): the schedule, start and end in the schedule’s time zone (and ISO), and why (the layer, or an override).',
  input: z.object({
    days: z.number().int().optional().describe('How many days ahead to look, 1 to 90 (default 30).'),
  }),
  annotations: READ,
  async run(api: McpApi, a: { days?: number }): Promise<string> {
    const days = a.days ?? 30;
    const me = await ok(api.client.GET('/users/me'));
    const shifts = (await ok(api.client.GET('/me/shifts', { params: { query: { days: a.days } } })))
      .data as MyShiftJson[];
    const zones = new Map(
      shifts.length ? (await allSchedules(api)).map((s) => [s.id, s.timezone] as const) : [],
    );
    return myShiftsText(me.email, days, shifts, zones);
  },
};
