/** The filters the MCP list tools take (tools.ts), as the REST API's lists read them. */
import { z } from 'zod';
import { MONITOR_STATUSES } from '../domain/monitors/monitor-status.js';
import { MONITOR_TYPES } from '../domain/types.js';

/**
 * A status filter as the assistant writes it: a list (["open", "acknowledged"]) or, as the REST API
 * takes it, one word or a comma-separated list ("open" or "open,acknowledged"); the API checks the words.
 */
export const statuses = <T extends readonly [string, ...string[]]>(values: T, example: string) =>
  z
    .union([z.array(z.enum(values)).min(1), z.string().min(1)])
    .optional()
    .describe(
      `Only these statuses (${values.join(', ')}): a list or a comma-separated string, e.g. ${example}.`,
    );
/** A status list as the REST API reads it: one comma-separated value. */
export const words = (v: string | readonly string[] | undefined) =>
  Array.isArray(v) ? v.join(',') : (v as string);
/** The tag and group filters of the monitor and heartbeat lists. */
export const labelFilters = (what: string) => ({
  tag: z
    .string()
    .optional()
    .describe(
      `Only ${what} carrying this tag, matched whole: "env:prod" or "db" (tags are key or key:value).`,
    ),
  group_id: z
    .string()
    .optional()
    .describe(`Only ${what} of this group (an id from list_groups); "none": only ${what} in no group.`),
});
/** The monitor list's filters, as list_monitors and count_monitors take them. */
export const monitorFilters = (statusHint: string) => ({
  status: statuses(MONITOR_STATUSES, statusHint),
  monitor_type: z.enum(MONITOR_TYPES).optional().describe('Only monitors of this type.'),
  search: z.string().optional().describe('Only monitors whose name or target contains this text.'),
  ...labelFilters('monitors'),
  region: z.string().optional().describe('Only monitors checked from this region.'),
});
