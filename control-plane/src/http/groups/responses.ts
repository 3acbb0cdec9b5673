import { z } from 'zod';
import type { Group } from '../../domain/types.js';
import { SEVERITIES } from '../../domain/types.js';
import { iso, responseSchemas, time, uuidString } from '../responses.js';

export const groupResponse = z
  .strictObject({
    id: uuidString,
    name: z.string(),
    created_at: time,
    updated_at: time,
  })
  .register(responseSchemas, { id: 'Group' });

export const groupJson = (g: Group): z.output<typeof groupResponse> => ({
  id: g.id,
  name: g.name,
  created_at: iso(g.created_at),
  updated_at: iso(g.updated_at),
});

/** What monitors and heartbeats show of their group, tags and severity. */
export const labelResponse = {
  group_id: z.string().nullable().describe('The group it belongs to, or null.'),
  tags: z.array(z.string()).describe('Its tags, each `key` or `key:value`.'),
  severity: z.enum(SEVERITIES).describe('`critical` or `warning`.'),
};
