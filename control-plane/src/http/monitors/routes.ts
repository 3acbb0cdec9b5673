import { AppError } from '@lookout/shared';
import { z } from 'zod';
import type { AlertHoldStore } from '../../domain/alerts/alert-hold-store.js';
import type { PolicyLookup } from '../../domain/lookups.js';
import { coverNow } from '../../domain/maintenance/cover.js';
import type { MaintenanceWindowStore } from '../../domain/maintenance/maintenance-store.js';
import type { DependencyGraphLookup } from '../../domain/monitors/depends-on.js';
import type { GroupStore } from '../../domain/monitors/group-store.js';
import { labelFilters } from '../../domain/monitors/labels.js';
import { checkNow } from '../../domain/monitors/monitor-runs.js';
import type { MonitorSecretLookup } from '../../domain/monitors/monitor-secrets.js';
import type { MonitorStatusStore } from '../../domain/monitors/monitor-status.js';
import {
  MONITOR_SORTS,
  MONITOR_STATUSES,
  type MonitorStatus,
  NO_CHECKS,
} from '../../domain/monitors/monitor-status.js';
import type { MonitorStore } from '../../domain/monitors/monitor-store.js';
import {
  checkMonitors,
  checkMonitorsBody,
  createMonitor,
  createMonitorBody,
  createMonitors,
  createMonitorsBody,
  MAX_MONITOR_BATCH,
  setPaused,
  updateMonitor,
  updateMonitorBody,
} from '../../domain/monitors/monitors.js';
import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import type { Monitor } from '../../domain/types.js';
import { MONITOR_TYPES } from '../../domain/types.js';
import {
  dependencyNodes,
  suppressedBy,
  TIMELINE_SUMMARY,
  timelineJson,
  timelineResponse,
} from '../dependency-responses.js';
import { boolParam, pageQuery } from '../query.js';
import { page } from '../responses.js';
import { type Authed, type RouteDeps, route } from '../route.js';
import { bulkRoute } from './bulk.js';
import { monitorJson, monitorResponse } from './responses.js';

/**
 * `?status=down` or `?status=up,pending` (or the parameter repeated): one or several statuses. The
 * wire form is a string; a repeated parameter is joined first.
 */
const STATUS_PROBLEM = `must be one or more of ${MONITOR_STATUSES.join(', ')} (comma-separated)`;
const statusParam = z.preprocess(
  (v) => (Array.isArray(v) ? v.join(',') : v),
  z
    .string()
    .max(100)
    .transform((s, ctx) => {
      const values = s.split(',').map((v) => v.trim());
      if (values.some((v) => !(MONITOR_STATUSES as readonly string[]).includes(v))) {
        ctx.addIssue({ code: 'custom', message: STATUS_PROBLEM });
        return z.NEVER;
      }
      return [...new Set(values)] as MonitorStatus[];
    }),
);

/** The list's filters: GET /monitors takes them as its query, POST /monitors/bulk as its `filter`. */
const listFilters = {
  monitor_type: z.enum(MONITOR_TYPES).optional(),
  paused: boolParam.optional(),
  q: z.string().min(1).max(200).optional().describe('A case-insensitive part of the name or the target.'),
  search: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('The older name of `q` (`q` wins when both are given).'),
  status: statusParam.optional(),
  ...labelFilters,
};
/** The list's filters as one query for the store (`q` is the store's `search`). */
const listFilter = z
  .strictObject(listFilters)
  .transform(({ q, search, ...rest }) => ({ ...rest, search: q ?? search }));

/** The region filter: one of the deployment's regions. */
const regionFilter = (regions: readonly string[]) => ({
  region: z
    .string()
    .max(100)
    .refine((r) => regions.includes(r), { message: `must be one of ${regions.join(', ')}` })
    .optional()
    .describe('Only monitors checked from this region.'),
});

/** A monitor just created or changed, with what was adjusted (an interval raised to the plan minimum). */
const warnings = z.array(z.strictObject({ field: z.string(), message: z.string() }));
const monitorWithWarnings = monitorResponse.extend({ warnings });

export const monitorRoutes = ({
  store,
  clock,
  config,
  box,
}: RouteDeps<
  MonitorStore &
    MonitorStatusStore &
    PolicyLookup &
    TenancyStore &
    GroupStore &
    Pick<MaintenanceWindowStore, 'listLiveMaintenanceWindows'> &
    DependencyGraphLookup &
    AlertHoldStore &
    MonitorSecretLookup
>) => {
  const context = (auth: Authed) => ({
    workspace: auth.workspace,
    plan: config.plans[auth.workspace.plan] ?? { max_monitors: 0, min_interval_seconds: 86400 },
    planName: auth.workspace.plan,
    regions: config.regions,
    store,
    box,
    now: clock.now(),
  });
  const load = async (auth: Authed, id: string): Promise<Monitor> => {
    const m = await store.getMonitor(auth.workspace.id, id);
    if (!m) throw new AppError('not_found', 'Monitor not found.');
    return m;
  };
  /** The statuses and checks of these monitors now, under the workspace's maintenance cover. */
  const statuses = async (auth: Authed, ids: string[]) => {
    const now = clock.now();
    return store.getMonitorStatuses(
      auth.workspace.id,
      ids,
      now,
      await coverNow(store, auth.workspace.id, now),
    );
  };
  /** A monitor as the API shows it, with its status and checks now (a bounded number of store reads). */
  const shown = async (auth: Authed, m: Monitor) => {
    const info = (await statuses(auth, [m.id])).get(m.id) ?? {
      ...NO_CHECKS,
      status: 'pending' as const,
      last_checked_at: null,
    };
    const held = await suppressedBy(store, auth.workspace.id, [m.id]);
    const nodes = await dependencyNodes(store, auth.workspace.id, [m]);
    return monitorJson(m, auth.user.role, info, held.get(m.id) ?? null, nodes);
  };

  return [
    route({
      method: 'post',
      path: '/monitors/create',
      tag: 'Monitors',
      response: monitorWithWarnings,
      summary:
        'Create a monitor; it is checked at once in every location, then on its schedule. An interval below the plan minimum is raised to it, and `warnings` says so. After a failed check a location checks again every `retry_interval_seconds` (default 15, at most the interval) until `failure_threshold` checks in a row failed or one passed.',
      role: 'member',
      body: createMonitorBody,
      status: 201,
      responses: {
        201: 'The monitor, with `warnings`',
        402: 'Plan monitor limit reached: upgrade to add more',
      },
      async handler({ auth, body }) {
        const { monitor, notices } = await createMonitor(context(auth), body);
        return { ...(await shown(auth, monitor)), warnings: notices };
      },
    }),
    route({
      method: 'post',
      path: '/monitors/batch',
      tag: 'Monitors',
      response: z.strictObject({ data: z.array(monitorResponse), warnings }),
      summary: `Create up to ${MAX_MONITOR_BATCH} monitors at once, all or none: \`{"monitors": [<the body of POST /monitors/create>, …]}\`. Every item is checked as a single create is; a 422 names every bad field of every item by its place (\`monitors[3].url\`) and creates nothing. A batch that would take the workspace past its plan's monitor limit is refused whole (402). The monitors are stored in one transaction; the first 100 are checked at once, the rest start on their schedule (spread over one interval). The response lists them in the order sent, and \`warnings\` (\`monitors[i].check_interval_seconds\`) says what was adjusted.`,
      role: 'member',
      body: createMonitorsBody,
      maxBodyBytes: config.batch_max_body_bytes,
      status: 201,
      responses: {
        201: 'The monitors, in the order sent, with `warnings`',
        402: 'The batch does not fit under the plan monitor limit: nothing was created',
      },
      async handler({ auth, body }) {
        const { monitors, notices } = await createMonitors(context(auth), body);
        const nodes = await dependencyNodes(store, auth.workspace.id, monitors);
        const infos = await statuses(
          auth,
          monitors.map((m) => m.id),
        );
        return {
          data: monitors.map((m) =>
            monitorJson(
              m,
              auth.user.role,
              infos.get(m.id) ?? { ...NO_CHECKS, status: 'pending', last_checked_at: null },
              null,
              nodes,
            ),
          ),
          warnings: notices,
        };
      },
    }),
    route({
      method: 'post',
      path: '/monitors/batch/check',
      audit: { action: 'monitor.batch_check', resource_type: 'monitor', noRecord: true },
      tag: 'Monitors',
      response: z.strictObject({ count: z.number().int(), warnings }),
      summary:
        'Check a batch as `POST /monitors/batch` would (every item, and the plan monitor limit against the count now plus `in_other_batches`: monitors the caller will create in other batches) without creating anything: 200 with the number of monitors it would create and its `warnings`, or the same 422 or 402.',
      role: 'member',
      body: checkMonitorsBody,
      maxBodyBytes: config.batch_max_body_bytes,
      responses: { 402: 'The batch does not fit under the plan monitor limit' },
      async handler({ auth, body }) {
        const { count, notices } = await checkMonitors(context(auth), body);
        return { count, warnings: notices };
      },
    }),
    bulkRoute({ context: (auth) => ({ ...context(auth), store }), filter: listFilter }),
    route({
      method: 'get',
      path: '/monitors',
      tag: 'Monitors',
      response: page(monitorResponse),
      summary:
        "List monitors, by default by status (down, pending, maintenance, paused, up; then by name), each with its `status` (up, down, paused, pending: no verdict yet, maintenance: in an active maintenance window), `last_checked_at`, `uptime_24h` and `uptime_30d` (percent of successful checks across locations in the hourly buckets of the last 24 hours / 30 days, the current hour included; null without checks), `last_response_time_ms` (the newest successful check) and `recent_checks` (the 30 newest checks across locations, oldest first). `sort`: `status` (default), `name` (case-insensitive), `last_change` (the newest change of verdict or pause first), `response_time` (the newest successful check's response time as of the hourly buckets, up to 5 minutes behind; slowest first, monitors without one last). Paging follows the sort: a cursor works only with the sort that made it (422 otherwise). Filters: `status=down` or several at once (`status=up,pending`), `q` (a case-insensitive part of the name or the target), `tag` (one whole tag), `group_id` (`none`: in no group), `monitor_type`, `region`; `GET /monitors/counts` counts by status with the same filters.",
      query: z.strictObject({
        ...pageQuery,
        sort: z.enum(MONITOR_SORTS).default('status').describe('The order (default `status`).'),
        ...listFilters,
        ...regionFilter(config.regions),
      }),
      async handler({ auth, query: { q, ...query } }) {
        const now = clock.now();
        const page = await store.listMonitorsWithStatus(
          auth.workspace.id,
          { ...query, search: q ?? query.search },
          now,
          await coverNow(store, auth.workspace.id, now),
        );
        const down = page.data.filter((m) => m.status === 'down').map((m) => m.id);
        const held = await suppressedBy(store, auth.workspace.id, down);
        const nodes = await dependencyNodes(store, auth.workspace.id, page.data);
        return {
          data: page.data.map((m) => monitorJson(m, auth.user.role, m, held.get(m.id) ?? null, nodes)),
          next_cursor: page.next_cursor,
        };
      },
    }),
    route({
      method: 'get',
      path: '/monitors/counts',
      tag: 'Monitors',
      response: z.strictObject(
        Object.fromEntries([...MONITOR_STATUSES, 'total'].map((s) => [s, z.number().int()])) as Record<
          MonitorStatus | 'total',
          z.ZodNumber
        >,
      ),
      summary:
        'How many monitors have each status (`up`, `down`, `pending`, `paused`, `maintenance`) and in all (`total`), with the filters of `GET /monitors` (a status filter leaves the other statuses at 0).',
      query: z.strictObject({ ...listFilters, ...regionFilter(config.regions) }),
      async handler({ auth, query: { q, ...query } }) {
        return store.countMonitorsByStatus(
          auth.workspace.id,
          { ...query, search: q ?? query.search },
          await coverNow(store, auth.workspace.id, clock.now()),
        );
      },
    }),
    route({
      method: 'get',
      path: '/monitors/{id}',
      tag: 'Monitors',
      response: monitorResponse,
      summary:
        'Get a monitor, with its `status`, `last_checked_at`, `uptime_24h`, `uptime_30d`, `last_response_time_ms` and `recent_checks` (as in the list).',
      responses: { 404: 'No such monitor in this workspace' },
      async handler({ auth, params }) {
        return shown(auth, await load(auth, params.id!));
      },
    }),
    route({
      method: 'get',
      path: '/monitors/{id}/timeline',
      tag: 'Monitors',
      response: timelineResponse,
      summary: `The monitor's dependency timeline. ${TIMELINE_SUMMARY}`,
      responses: { 404: 'No such monitor in this workspace' },
      async handler({ auth, params }) {
        const m = await load(auth, params.id!);
        return timelineJson(store, auth.workspace.id, 'monitor', m.id);
      },
    }),
    route({
      method: 'patch',
      path: '/monitors/{id}',
      tag: 'Monitors',
      response: monitorWithWarnings,
      summary: 'Change some fields of a monitor; the result is checked as a whole.',
      role: 'member',
      body: updateMonitorBody,
      responses: { 404: 'No such monitor in this workspace', 409: 'Changed concurrently; retry' },
      async handler({ auth, params, body }) {
        const { monitor, notices } = await updateMonitor(context(auth), await load(auth, params.id!), body);
        return { ...(await shown(auth, monitor)), warnings: notices };
      },
    }),
    route({
      method: 'delete',
      path: '/monitors/{id}',
      tag: 'Monitors',
      response: null,
      summary: 'Delete a monitor.',
      role: 'member',
      status: 204,
      responses: { 404: 'No such monitor in this workspace' },
      async handler({ auth, params }) {
        if (!(await store.deleteMonitor(auth.workspace.id, params.id!)))
          throw new AppError('not_found', 'Monitor not found.');
        return undefined;
      },
    }),
    route({
      method: 'post',
      path: '/monitors/{id}/check',
      tag: 'Monitors',
      response: z.strictObject({ requested: z.array(z.string()) }),
      summary:
        'Check now: asks every location of the monitor to run it at once, outside its schedule. The results arrive like any other (`GET /monitors/{id}/results`, with `run_now_request_id`).',
      role: 'member',
      status: 202,
      responses: {
        202: 'Requested: `{"requested": [locations]}`',
        404: 'No such monitor in this workspace',
        409: 'The monitor is paused',
      },
      async handler({ auth, params }) {
        return { requested: await checkNow(store, await load(auth, params.id!), clock.now()) };
      },
    }),
    ...(['pause', 'resume'] as const).map((action) =>
      route({
        method: 'post',
        path: `/monitors/{id}/${action}`,
        tag: 'Monitors',
        response: monitorResponse,
        summary: action === 'pause' ? 'Stop running checks until resumed.' : 'Run checks again.',
        role: 'member',
        responses: { 404: 'No such monitor in this workspace' },
        async handler({ auth, params }) {
          return shown(
            auth,
            await setPaused(store, await load(auth, params.id!), action === 'pause', clock.now()),
          );
        },
      }),
    ),
  ];
};
