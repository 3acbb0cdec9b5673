import { z } from 'zod';
import type { ScheduleHistoryEntry, ShiftOffer } from '../../domain/oncall/schedule-store.js';
import type { Schedule, ScheduleOverride, Shift } from '../../domain/types.js';
import { iso, responseSchemas, time, uuidString } from '../responses.js';

/**
 * Schedules, shifts, overrides, offers and history as the API answers them. Users are `{id, email}`,
 * resolved by one batched read per answer (`UserBook`); a user who has left the workspace has email null.
 */

export const userRef = z
  .strictObject({
    id: uuidString,
    email: z.string().nullable().describe('Null when the user has left the workspace.'),
  })
  .register(responseSchemas, { id: 'UserRef' });
type UserRef = z.output<typeof userRef>;

/** Each user id's `{id, email}`, read once for the whole answer. */
export type UserBook = (id: string) => UserRef;
export const userBook = (users: { id: string; email: string }[]): UserBook => {
  const m = new Map(users.map((u) => [u.id, u.email]));
  return (id) => ({ id, email: m.get(id) ?? null });
};

const span = z.strictObject({ starts_at: time, ends_at: time });

const restriction = z.strictObject({ days: z.array(z.string()), start: z.string(), end: z.string() });
const layer = z.strictObject({
  name: z.string(),
  users: z.array(uuidString),
  rotation: z.enum(['daily', 'weekly', 'custom']),
  shift_seconds: z.number().int().nullable(),
  handoff: z.string(),
  handoff_day: z.string().nullable(),
  starts_at: time,
  restrictions: z.array(restriction),
});

const scheduleFields = {
  id: uuidString,
  name: z.string(),
  timezone: z.string(),
  layers: z.array(layer),
  created_at: time,
  updated_at: time,
};
export const scheduleResponse = z.strictObject(scheduleFields).register(responseSchemas, { id: 'Schedule' });
export const scheduleDetailResponse = z
  .strictObject({
    ...scheduleFields,
    gaps: z
      .array(span)
      .describe('The spans of the next 14 days where nobody is on call (at most 50): fill them.'),
  })
  .register(responseSchemas, { id: 'ScheduleDetail' });

export const scheduleJson = (s: Schedule): z.output<typeof scheduleResponse> => ({
  id: s.id,
  name: s.name,
  timezone: s.timezone,
  layers: s.layers.map((l) => ({
    name: l.name,
    users: l.users,
    rotation: l.rotation,
    shift_seconds: l.shift_seconds,
    handoff: l.handoff,
    handoff_day: l.handoff_day,
    starts_at: iso(l.starts_at),
    restrictions: l.restrictions.map((r) => ({ days: r.days, start: r.start, end: r.end })),
  })),
  created_at: iso(s.created_at),
  updated_at: iso(s.updated_at),
});

export const spanJson = (g: { starts_at: Date; ends_at: Date }) => ({
  starts_at: iso(g.starts_at),
  ends_at: iso(g.ends_at),
});

export const scheduleDetailJson = (
  s: Schedule,
  gaps: { starts_at: Date; ends_at: Date }[],
): z.output<typeof scheduleDetailResponse> => ({ ...scheduleJson(s), gaps: gaps.map(spanJson) });

export const shiftSource = z
  .union([
    z.strictObject({ kind: z.literal('layer'), layer: z.number().int(), layer_name: z.string() }),
    z.strictObject({ kind: z.literal('override'), override_id: uuidString, created_by: userRef.nullable() }),
  ])
  .describe('Why: the layer (1-based number and name) or the override that placed the user.');

export const sourceJson = (s: Shift['source'], users: UserBook): z.output<typeof shiftSource> =>
  s.kind === 'layer'
    ? { kind: 'layer', layer: s.layer, layer_name: s.layer_name }
    : { kind: 'override', override_id: s.override_id, created_by: s.created_by ? users(s.created_by) : null };

export const shiftResponse = z
  .strictObject({ user: userRef, starts_at: time, ends_at: time, source: shiftSource })
  .register(responseSchemas, { id: 'Shift' });

export const shiftJson = (s: Shift, users: UserBook): z.output<typeof shiftResponse> => ({
  user: users(s.user_id),
  starts_at: iso(s.starts_at),
  ends_at: iso(s.ends_at),
  source: sourceJson(s.source, users),
});

export const shiftsResponse = z.strictObject({ data: z.array(shiftResponse) });
export const previewResponse = z.strictObject({ data: z.array(shiftResponse), gaps: z.array(span) });

export const onCallResponse = z
  .strictObject({
    user: userRef.nullable().describe('Who is on call at `at`; null: nobody.'),
    until: time.nullable().describe('When that changes; null: not within 90 days.'),
    next: z
      .strictObject({ user: userRef, starts_at: time })
      .nullable()
      .describe('The next person on call after `until`; null: nobody within 90 days.'),
    source: shiftSource.nullable(),
  })
  .register(responseSchemas, { id: 'OnCall' });

export const myShiftsResponse = z.strictObject({
  data: z.array(
    z.strictObject({
      schedule: z.strictObject({ id: uuidString, name: z.string() }),
      starts_at: time,
      ends_at: time,
      source: shiftSource,
    }),
  ),
});

export const overrideResponse = z
  .strictObject({
    id: uuidString,
    schedule_id: uuidString,
    user: userRef,
    starts_at: time,
    ends_at: time,
    created_by: userRef.nullable(),
    offer_id: uuidString.nullable(),
    created_at: time,
  })
  .register(responseSchemas, { id: 'ScheduleOverride' });

export const overrideJson = (o: ScheduleOverride, users: UserBook): z.output<typeof overrideResponse> => ({
  id: o.id,
  schedule_id: o.schedule_id,
  user: users(o.user_id),
  starts_at: iso(o.starts_at),
  ends_at: iso(o.ends_at),
  created_by: o.created_by ? users(o.created_by) : null,
  offer_id: o.offer_id,
  created_at: iso(o.created_at),
});

export const offerResponse = z
  .strictObject({
    id: uuidString,
    schedule_id: uuidString,
    user: userRef.describe('Who offered the shift.'),
    starts_at: time,
    ends_at: time,
    note: z.string().nullable(),
    status: z.enum(['open', 'taken', 'assigned', 'withdrawn']),
    taken_by: userRef.nullable(),
    override_id: uuidString.nullable(),
    created_at: time,
  })
  .register(responseSchemas, { id: 'ShiftOffer' });

export const offerJson = (o: ShiftOffer, users: UserBook): z.output<typeof offerResponse> => ({
  id: o.id,
  schedule_id: o.schedule_id,
  user: users(o.user_id),
  starts_at: iso(o.starts_at),
  ends_at: iso(o.ends_at),
  note: o.note,
  status: o.status,
  taken_by: o.taken_by ? users(o.taken_by) : null,
  override_id: o.override_id,
  created_at: iso(o.created_at),
});

export const historyResponse = z
  .strictObject({
    id: uuidString,
    at: time,
    actor: userRef.nullable().describe('Null: the system (or a user who has left, by id).'),
    action: z.enum([
      'created',
      'updated',
      'override_added',
      'override_removed',
      'shift_offered',
      'shift_taken',
      'shift_assigned',
      'offer_withdrawn',
      'user_removed',
    ]),
    detail: z.string(),
  })
  .register(responseSchemas, { id: 'ScheduleHistoryEntry' });

export const historyJson = (e: ScheduleHistoryEntry, users: UserBook): z.output<typeof historyResponse> => ({
  id: e.id,
  at: iso(e.at),
  actor: e.actor_id ? users(e.actor_id) : null,
  action: e.action,
  detail: e.detail,
});
