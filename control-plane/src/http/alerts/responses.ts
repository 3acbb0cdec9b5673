import { z } from 'zod';
import type { TimelineEntry } from '../../domain/alerts/alerts.js';
import type { Alert } from '../../domain/types.js';
import { CHANNEL_TYPES } from '../../notify/kinds/index.js';
import { iso, responseSchemas, time, uuidString } from '../responses.js';

/** Who did something to an alert. */
export const actorResponse = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('user'), user_id: z.string(), api_key_id: z.string().nullable() }),
    z.strictObject({ type: z.literal('system') }),
    z.strictObject({ type: z.literal('integration'), integration_id: z.string() }),
    z.strictObject({
      type: z.literal('link'),
      user_id: z.string().nullable(),
      channel_id: z.string().nullable(),
      via: z.enum(CHANNEL_TYPES),
      recipient: z.string(),
    }),
  ])
  .register(responseSchemas, { id: 'Actor' });

export const alertResponse = z
  .strictObject({
    id: uuidString,
    source_type: z.enum(['monitor', 'heartbeat', 'integration', 'region']),
    source_id: z.string(),
    cause: z.string(),
    dedup_key: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    severity: z.enum(['critical', 'warning', 'info']),
    status: z.enum(['open', 'acknowledged', 'resolved']),
    escalation_policy_id: z.string().nullable(),
    created_at: time,
    updated_at: time,
    acknowledged_at: time.nullable(),
    acknowledged_by: actorResponse.nullable(),
    resolved_at: time.nullable(),
    resolved_by: actorResponse.nullable(),
    escalation: z
      .strictObject({
        policy_id: z.string(),
        next_step: z.number().int().nullable(),
        round: z.number().int(),
        next_step_at: time.nullable(),
        finished: z.boolean(),
        suppressed_by: z.strictObject({ window_id: z.string(), name: z.string() }).nullable(),
        /** A `warning` alert outside its policy's support hours: when they begin and it notifies. */
        waiting_for_support_hours_until: time.nullable(),
      })
      .nullable(),
    held_back: z
      .number()
      .int()
      .describe('How many dependents (monitors, heartbeats depending on its source) this alert holds back.'),
  })
  .register(responseSchemas, { id: 'Alert' });

export const alertJson = (a: Alert): z.output<typeof alertResponse> => {
  const { workspace_id: _w, escalation, escalation_due_at, ...rest } = a;
  return {
    ...rest,
    created_at: iso(a.created_at),
    updated_at: iso(a.updated_at),
    acknowledged_at: iso(a.acknowledged_at),
    resolved_at: iso(a.resolved_at),
    held_back: a.held_back ?? 0,
    escalation: escalation
      ? {
          policy_id: escalation.policy_id,
          next_step: escalation.finished ? null : escalation.step,
          round: escalation.round,
          // While a replica runs the step this is the end of its lease (when another would take over).
          next_step_at: a.status === 'open' ? iso(escalation_due_at) : null,
          finished: escalation.finished,
          suppressed_by: escalation.suppressed_by,
          waiting_for_support_hours_until:
            a.status === 'open' && escalation.deferred_until ? escalation.deferred_until : null,
        }
      : null,
  };
};

const timelineEntry = z.discriminatedUnion('type', [
  z.strictObject({ at: time, type: z.literal('raised') }),
  z.strictObject({ at: time, type: z.literal('suppressed'), window_id: z.string(), window_name: z.string() }),
  z.strictObject({
    at: time,
    type: z.literal('notification'),
    event: z
      .enum(['raised', 'acknowledged', 'resolved'])
      .describe('What it told: the alert raised (a step), or acknowledged or resolved (a follow-up).'),
    via: z.enum(CHANNEL_TYPES),
    to: z.string().describe('The destination as the delivery log shows it (an address, a URL’s origin).'),
    name: z
      .string()
      .nullable()
      .describe('Who it went to, by name: the channel’s name or the user’s email; null when gone since.'),
    user_id: z.string().nullable(),
    channel_id: z.string().nullable(),
    step: z.number().int().nullable(),
    round: z.number().int().nullable(),
    attempt: z.number().int(),
    outcome: z.enum(['sent', 'retrying', 'failed']),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
  }),
  z
    .strictObject({
      at: time,
      type: z.literal('on_call'),
      step: z.number().int(),
      round: z.number().int(),
      schedule_id: z.string().nullable(),
      schedule_name: z.string().nullable().describe('Null when the schedule was deleted.'),
      user_id: z
        .string()
        .nullable()
        .describe('Whom the step reached through the schedule; null: nobody on call.'),
      name: z.string().nullable().describe('Their email.'),
      text: z
        .string()
        .describe(
          'In words: "reached ana@example.com — on call in Primary (layer 2, Weekdays)", "nobody on call in Primary".',
        ),
    })
    .describe('What a step found in a schedule it names when it fired.'),
  z.strictObject({ at: time, type: z.literal('acknowledged'), by: actorResponse.nullable() }),
  z.strictObject({ at: time, type: z.literal('resolved'), by: actorResponse.nullable() }),
]);

export const alertDetailResponse = alertResponse
  .extend({ timeline: z.array(timelineEntry) })
  .register(responseSchemas, { id: 'AlertDetail' });

/** GET /alerts/{uuid}: the alert and what happened to it. */
export const alertDetailJson = (
  a: Alert,
  timeline: TimelineEntry[],
): z.output<typeof alertDetailResponse> => ({
  ...alertJson(a),
  timeline: timeline.map((e) => ({ ...e, at: e.at.toISOString() })),
});
