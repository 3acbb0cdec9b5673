import { z } from 'zod';
import type { MaintenanceWindow } from '../../domain/types.js';
import { MAINTENANCE_SCOPES } from '../../domain/types.js';
import { responseSchemas, time, uuidString } from '../responses.js';

export const maintenanceWindowResponse = z
  .strictObject({
    id: uuidString,
    name: z.string(),
    scope_type: z.enum(MAINTENANCE_SCOPES),
    scope_id: z.string().nullable(),
    active: z.boolean(),
    starts_at: time,
    ends_at: time,
    created_at: time,
  })
  .register(responseSchemas, { id: 'MaintenanceWindow' });

export const maintenanceWindowJson = (
  w: MaintenanceWindow,
  now: Date,
): z.output<typeof maintenanceWindowResponse> => {
  const { workspace_id: _w, ...rest } = w;
  return {
    ...rest,
    active: w.starts_at <= now && now < w.ends_at,
    starts_at: w.starts_at.toISOString(),
    ends_at: w.ends_at.toISOString(),
    created_at: w.created_at.toISOString(),
  };
};
