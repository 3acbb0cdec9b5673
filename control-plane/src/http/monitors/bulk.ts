import { z } from 'zod';
import { coverNow } from '../../domain/maintenance/cover.js';
import type { MaintenanceWindowStore } from '../../domain/maintenance/maintenance-store.js';
import {
  BULK_ACTIONS,
  type BulkContext,
  bulkMonitors,
  bulkMonitorsBody,
  MAX_BULK_IDS,
  type MonitorFilter,
} from '../../domain/monitors/monitor-bulk.js';
import { type Authed, route } from '../route.js';

/** `POST /monitors/bulk`: the rules are domain/monitors/monitor-bulk.ts's; `filter` is the list's. */
export const bulkRoute = ({
  context,
  filter,
}: {
  context: (auth: Authed) => Omit<BulkContext, 'cover'> & {
    store: Pick<MaintenanceWindowStore, 'listLiveMaintenanceWindows'>;
  };
  filter: z.ZodType<MonitorFilter>;
}) =>
  route({
    method: 'post',
    path: '/monitors/bulk',
    tag: 'Monitors',
    response: z.strictObject({
      affected: z.number().int(),
      warnings: z.array(z.strictObject({ field: z.string(), message: z.string() })).optional(),
    }),
    summary: `One action on many monitors, all or nothing: \`action\` (${BULK_ACTIONS.join(', ')}; \`set_policy\` takes \`escalation_policy_id\`, null for the workspace's default; \`set_group\` takes \`group_id\`, null for no group; \`add_tags\` and \`remove_tags\` take \`tags\`, and a monitor may carry at most 20) on the monitors named by \`ids\` (at most ${MAX_BULK_IDS}, each of this workspace: an unknown one is a 422 naming \`ids[i]\`) or by \`filter\` (the filters of \`GET /monitors\`, as its query takes them, e.g. \`{"status": "down", "q": "db"}\`; \`{"filter": {}}\` spelled out means every monitor of the workspace; at most the plan's monitor cap). Answers \`{"affected": n}\`: the monitors changed (one already paused is not paused again). Every change is one store transaction; a monitor changed by someone else meanwhile fails it whole (409). A monitor that will run checks no more often than the plan allows: its interval is raised to the plan's minimum, and \`warnings\` says so.`,
    role: 'member',
    body: bulkMonitorsBody(filter),
    responses: {
      200: '`{"affected": n}` (with `warnings` when an interval was raised to the plan minimum)',
      409: 'A monitor changed meanwhile: nothing was changed',
    },
    async handler({ auth, body }) {
      const ctx = context(auth);
      const cover = await coverNow(ctx.store, auth.workspace.id, ctx.now);
      const { affected, warnings } = await bulkMonitors({ ...ctx, cover }, body, filter);
      return warnings.length > 0 ? { affected, warnings } : { affected };
    },
  });
