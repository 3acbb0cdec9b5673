import { z } from 'zod';
import type { EscalationPolicy } from '../../domain/types.js';
import { iso, responseSchemas, time, uuidString } from '../responses.js';

export const policyResponse = z
  .strictObject({
    id: uuidString,
    name: z.string(),
    is_default: z.boolean(),
    steps: z.array(
      z.strictObject({
        wait_minutes: z.number(),
        notify_user_ids: z.array(z.string()),
        notify_channel_ids: z.array(z.string()),
        notify_schedule_ids: z
          .array(z.string())
          .describe('On-call schedules: whoever is on call in each when the step fires is notified.'),
      }),
    ),
    repeat: z.number().int(),
    support_hours: z
      .strictObject({
        timezone: z.string(),
        days: z.array(z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'])),
        start: z.string(),
        end: z.string(),
      })
      .nullable(),
    created_at: time,
    updated_at: time,
  })
  .register(responseSchemas, { id: 'EscalationPolicy' });

export const policyJson = (p: EscalationPolicy): z.output<typeof policyResponse> => {
  const { workspace_id: _w, ...rest } = p;
  return {
    ...rest,
    steps: p.steps.map((s) => ({ ...s, notify_schedule_ids: s.notify_schedule_ids ?? [] })),
    // A policy stored before support hours existed has none.
    support_hours: p.support_hours ?? null,
    created_at: iso(p.created_at),
    updated_at: iso(p.updated_at),
  };
};
