import { z } from 'zod';
import { currentOrNext, describeRecurrence, occurrenceAt } from '../../domain/maintenance/cover.js';
import type { MaintenanceWindow } from '../../domain/types.js';
import { MAINTENANCE_SCOPES } from '../../domain/types.js';
import { responseSchemas, time, uuidString } from '../responses.js';

export const maintenanceWindowResponse = z
  .strictObject({
    id: uuidString,
    name: z.string(),
    scope_type: z.enum(MAINTENANCE_SCOPES),
    /** The monitor, heartbeat or group id, or the tag; null for the whole workspace. */
    scope_id: z.string().nullable(),
    active: z.boolean(),
    /** One-off windows: their start and end; null for a recurring window. */
    starts_at: time.nullable(),
    ends_at: time.nullable(),
    /** Recurring windows: cron schedule, time zone and length of each occurrence; null for one-off. */
    schedule: z.string().nullable(),
    timezone: z.string().nullable(),
    duration_seconds: z.number().int().nullable(),
    /** The recurrence in words ("At 02:00, only on Sunday, Europe/Berlin, for 2 hours"); null for one-off. */
    schedule_text: z.string().nullable(),
    /** The occurrence in progress, else the next one; null once a one-off window has ended. */
    next_occurrence: z.strictObject({ starts_at: time, ends_at: time }).nullable(),
    created_at: time,
  })
  .register(responseSchemas, { id: 'MaintenanceWindow' });

export const maintenanceWindowJson = (
  w: MaintenanceWindow,
  now: Date,
): z.output<typeof maintenanceWindowResponse> => {
  const recurring = w.schedule !== null;
  const next = currentOrNext(w, now);
  return {
    id: w.id,
    name: w.name,
    scope_type: w.scope_type,
    scope_id: w.scope_id,
    active: occurrenceAt(w, now) !== null,
    starts_at: recurring ? null : w.starts_at.toISOString(),
    ends_at: recurring || !w.ends_at ? null : w.ends_at.toISOString(),
    schedule: w.schedule,
    timezone: w.timezone,
    duration_seconds: w.duration_seconds,
    schedule_text: describeRecurrence(w),
    next_occurrence: next
      ? { starts_at: next.starts_at.toISOString(), ends_at: next.ends_at.toISOString() }
      : null,
    created_at: w.created_at.toISOString(),
  };
};
