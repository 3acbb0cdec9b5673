import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type Body, ok } from '../api-client/client.js';
import { CHECK_TYPES, TYPES_OF_FIELD } from '../domain/checks/registry.js';
import { MONITOR_SORTS } from '../domain/monitors/monitor-status.js';
import { MONITOR_FIELDS } from '../domain/monitors/monitors.js';
import type { McpApi } from './api.js';
import { listAuditLog } from './audit-tools.js';
import { labelFilters, monitorFilters, statuses, words } from './list-filters.js';
import { listMyShifts, whoIsOnCall } from './oncall-tools.js';
import { getRegionHealth } from './region-tools.js';
import { getSlaReport } from './report-tools.js';
import { getScriptRun } from './script-run-tools.js';
import { listSecrets } from './secret-tools.js';

/**
 * The tools an on-call assistant gets. Each one is a single call of the public API; the API stays the
 * one validator (fields are described here for the assistant, and anything it sends is passed on, so
 * the API's field-by-field messages reach it). Results are the API's JSON, unchanged, except the
 * on-call tools' (oncall-tools.ts), which answer in sentences.
 */
export interface ToolDef {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  annotations: ToolAnnotations;
  run(api: McpApi, args: Record<string, unknown>): Promise<unknown>;
}

const tool = <S extends z.ZodObject>(def: {
  name: string;
  title: string;
  description: string;
  input: S;
  annotations: ToolAnnotations;
  run(api: McpApi, args: z.output<S>): Promise<unknown>;
}): ToolDef => def as unknown as ToolDef;

const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const id = (what: string) => z.string().min(1).describe(`The ${what}'s id (a UUID).`);
const page = {
  limit: z.number().int().min(1).max(100).optional().describe('At most this many items (1-100, default 50).'),
  cursor: z
    .string()
    .optional()
    .describe('Pass the next_cursor of the previous page to get the next one; omit for the first page.'),
};
const time = (what: string) =>
  z.string().optional().describe(`${what}, as an ISO-8601 date-time with a zone, e.g. 2026-06-01T12:00:00Z.`);

const alertIds = z
  .array(z.string())
  .min(1)
  .max(100)
  .describe('Alert UUIDs (1-100), as listed by list_alerts.');

/** Which types require a field ("Required for http and api."). */
const requiredFor = (field: string) =>
  Object.entries(CHECK_TYPES)
    .filter(([, t]) => t.fields[field]?.required)
    .map(([type]) => type);

interface Json {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: Json[];
  minimum?: number;
  maximum?: number;
}

/**
 * A field's JSON shape without its limits (the API checks those and names every bad field; a limit
 * here would refuse the call before the API could say why), its choices and bounds in words.
 */
const shapeOf = (schema: z.ZodType): { shape: z.ZodType; words: string } => {
  const j = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as Json;
  const nullable = j.anyOf?.some((a) => a.type === 'null') ?? false;
  const base = j.anyOf?.find((a) => a.type !== 'null') ?? j;
  const words = [
    base.enum && `One of: ${base.enum.join(', ')}.`,
    base.minimum !== undefined && base.maximum !== undefined && `From ${base.minimum} to ${base.maximum}.`,
  ]
    .filter(Boolean)
    .join(' ');
  const t = Array.isArray(base.type) ? base.type[0] : base.type;
  const shape =
    t === 'integer' || t === 'number'
      ? z.number()
      : t === 'boolean'
        ? z.boolean()
        : t === 'array'
          ? z.array(z.unknown())
          : t === 'object'
            ? z.record(z.string(), z.unknown())
            : t === 'string'
              ? z.string()
              : z.unknown();
  return { shape: nullable ? shape.nullable() : shape, words };
};

/**
 * create_monitor's input: the API's own fields (domain/monitors/monitors.ts and each check type's
 * module), every one optional here so that what the assistant leaves out is named by the API's 422,
 * each described with its bounds and the types that have or require it.
 */
const monitorInput = z.looseObject(
  Object.fromEntries(
    Object.entries(MONITOR_FIELDS).map(([name, schema]) => {
      const { shape, words } = shapeOf(schema);
      const types = TYPES_OF_FIELD[name];
      const required = requiredFor(name);
      const notes = [
        schema.description,
        words,
        types && `Only for ${types.join(', ')} monitors.`,
        required.length > 0 && `Required for ${required.join(', ')}.`,
      ].filter(Boolean);
      return [name, shape.optional().describe(notes.join(' '))];
    }),
  ),
);

export const tools: ToolDef[] = [
  tool({
    name: 'list_alerts',
    title: 'List alerts',
    description:
      'List alerts of the workspace, newest first, with their status (open, acknowledged, resolved), severity, source (monitor, heartbeat, integration or region and its id), cause and times. Filter by status, source and creation time. Returns {"data": [...], "next_cursor"}; pass next_cursor as cursor for more.',
    input: z.object({
      status: statuses(
        ['open', 'acknowledged', 'resolved'],
        '["open", "acknowledged"] or "open,acknowledged" for everything unresolved',
      ),
      source_type: z
        .enum(['monitor', 'heartbeat', 'integration', 'region'])
        .optional()
        .describe('Only alerts raised by this kind of source.'),
      source_id: z
        .string()
        .optional()
        .describe('Only alerts of this source (a monitor id, a heartbeat id, …); use with source_type.'),
      since: time('Only alerts created at or after this time'),
      until: time('Only alerts created before this time'),
      ...page,
    }),
    annotations: READ,
    run: (api, a) => ok(api.client.GET('/alerts', { params: { query: { ...a, status: words(a.status) } } })),
  }),
  tool({
    name: 'get_alert',
    title: 'Get an alert',
    description:
      "One alert with all its fields (status, severity, source, cause, title, description, who acknowledged or resolved it and when; escalation.waiting_for_support_hours_until: a warning outside its policy's support hours notifies no one until then) and its timeline: raised, each notification attempt (a grouped summary is logged on every alert it named), acknowledged, resolved.",
    input: z.object({ alert_id: id('alert') }),
    annotations: READ,
    run: (api, a) => ok(api.client.GET('/alerts/{uuid}', { params: { path: { uuid: a.alert_id } } })),
  }),
  tool({
    name: 'acknowledge_alerts',
    title: 'Acknowledge alerts',
    description:
      'Acknowledge open alerts: tell the team someone is working on them (their escalation stops; they stay unresolved). Records the key’s user. Returns what happened to every UUID: {"acknowledged", "already_acknowledged", "already_resolved", "not_found"}.',
    input: z.object({ alert_ids: alertIds }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (api, a) => ok(api.client.POST('/alerts/acknowledge', { body: { UUIDs: a.alert_ids } })),
  }),
  tool({
    name: 'resolve_alerts',
    title: 'Resolve alerts',
    description:
      'Resolve alerts, recording the key’s user as the resolver. This cannot be undone: a resolved alert is never reopened (a new failure raises a new alert). Monitor and heartbeat alerts resolve themselves on recovery; use this mainly for integration alerts, which have no recovery signal, and confirm with the user first. Returns {"resolved", "already_resolved", "not_found"}.',
    input: z.object({ alert_ids: alertIds }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: (api, a) => ok(api.client.POST('/alerts/resolve', { body: { UUIDs: a.alert_ids } })),
  }),
  tool({
    name: 'list_monitors',
    title: 'List monitors',
    description:
      'List uptime monitors, by default by status (down first, then pending, maintenance, paused, up; within a status by name): name, type (http, api, dns, tcp, domain), target, interval, locations, group_id, tags, severity (critical or warning), status (up, down, paused, pending: no verdict yet, maintenance: in a maintenance window), last_checked_at, uptime_24h and uptime_30d (percent of successful checks across locations, null without checks), last_response_time_ms (newest successful check) and recent_checks (the 30 newest checks, oldest first: at, ok, location, response_time_ms). sort: status, name, last_change (newest change first) or response_time (slowest first); a cursor works only with the sort that made it. Returns {"data": [...], "next_cursor"}.',
    input: z.object({
      ...monitorFilters('["down"] or "down" to see what is failing now'),
      sort: z.enum(MONITOR_SORTS).optional().describe('The order (default status: what needs a look first).'),
      paused: z.boolean().optional().describe('true: only paused monitors; false: only running ones.'),
      ...page,
    }),
    annotations: READ,
    run: (api, { paused, ...a }) =>
      ok(
        api.client.GET('/monitors', {
          params: {
            query: { ...a, status: words(a.status), paused: paused === undefined ? undefined : `${paused}` },
          },
        }),
      ),
  }),
  tool({
    name: 'count_monitors',
    title: 'Count monitors by status',
    description:
      'How many monitors are up, down, pending, paused and in maintenance, and in all ({"up","down","pending","paused","maintenance","total"}), with the same filters as list_monitors: the quickest overview of a large workspace.',
    input: z.object(monitorFilters('only these statuses are counted')),
    annotations: READ,
    run: (api, a) =>
      ok(api.client.GET('/monitors/counts', { params: { query: { ...a, status: words(a.status) } } })),
  }),
  tool({
    name: 'get_monitor',
    title: 'Get a monitor',
    description:
      'One monitor with its whole configuration (endpoint secrets are never shown), its status (up, down, paused, pending, maintenance), last_checked_at, uptime_24h and uptime_30d (percent, null without checks), last_response_time_ms and recent_checks (the 30 newest checks, oldest first).',
    input: z.object({ monitor_id: id('monitor') }),
    annotations: READ,
    run: (api, a) => ok(api.client.GET('/monitors/{id}', { params: { path: { id: a.monitor_id } } })),
  }),
  tool({
    name: 'create_monitor',
    title: 'Create a monitor',
    description:
      'Create an uptime monitor. Required: display_name, monitor_type, url, and the fields its type requires (each field says which types have it). Types: http/api check a URL (status, keyword, assertions), dns a record, tcp a port, domain the registration expiry, ping a host (ICMP), grpc a health service, websocket a socket, smtp a mail server, postgres/mysql/redis a database (the URL is a secret). An interval below the plan minimum is raised to it and the response says so in "warnings". Invalid input is refused with every bad field named; fix those fields and try again.',
    input: monitorInput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    // The API is the validator: what the assistant leaves out is named in its 422, not refused here.
    run: (api, a) => ok(api.client.POST('/monitors/create', { body: a as Body<'/monitors/create', 'post'> })),
  }),
  tool({
    name: 'set_dependencies',
    title: 'Set what a monitor or heartbeat depends on',
    description:
      "Replace the depends_on of a monitor or heartbeat: ids of monitors, heartbeats or groups of the workspace (at most 20; [] for none). While a dependency is down, the dependent's failure raises no alert and notifies no one; it shows status down with suppressed_by naming the dependency, and the dependency's alert counts it in held_back. A cycle is refused with its path. Returns the record.",
    input: z.object({
      source_type: z.enum(['monitor', 'heartbeat']).describe('What to change.'),
      id: id('monitor or heartbeat'),
      depends_on: z.array(z.string()).describe('The ids it depends on.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (api, a) =>
      a.source_type === 'monitor'
        ? ok(
            api.client.PATCH('/monitors/{id}', {
              params: { path: { id: a.id } },
              body: { depends_on: a.depends_on },
            }),
          )
        : ok(
            api.client.PATCH('/heartbeats/{uuid}', {
              params: { path: { uuid: a.id } },
              body: { depends_on: a.depends_on },
            }),
          ),
  }),
  tool({
    name: 'get_dependency_timeline',
    title: 'What dependencies did to an alert',
    description:
      'The dependency timeline of a monitor or heartbeat, newest first: held (went down, waits until its dependencies are checked), suppressed (a dependency is down: no alert), released (the dependency recovered), raised (its alert was raised after all), cleared (it recovered while held). Use it to see why a down monitor has no alert.',
    input: z.object({
      source_type: z.enum(['monitor', 'heartbeat']).describe('What to look at.'),
      id: id('monitor or heartbeat'),
    }),
    annotations: READ,
    run: (api, a) =>
      a.source_type === 'monitor'
        ? ok(api.client.GET('/monitors/{id}/timeline', { params: { path: { id: a.id } } }))
        : ok(api.client.GET('/heartbeats/{uuid}/timeline', { params: { path: { uuid: a.id } } })),
  }),
  tool({
    name: 'pause_monitor',
    title: 'Pause a monitor',
    description:
      'Stop running checks of a monitor until it is resumed (during maintenance, say). While paused it raises no alerts. Returns the monitor.',
    input: z.object({ monitor_id: id('monitor') }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: (api, a) => ok(api.client.POST('/monitors/{id}/pause', { params: { path: { id: a.monitor_id } } })),
  }),
  tool({
    name: 'resume_monitor',
    title: 'Resume a monitor',
    description: 'Run the checks of a paused monitor again. Returns the monitor.',
    input: z.object({ monitor_id: id('monitor') }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (api, a) => ok(api.client.POST('/monitors/{id}/resume', { params: { path: { id: a.monitor_id } } })),
  }),
  tool({
    name: 'bulk_monitors',
    title: 'Act on many monitors at once',
    description:
      'One action on many monitors, all or nothing: action "pause", "resume", "delete", "set_policy" (with escalation_policy_id, null for the workspace default), "set_group" (with group_id, null for none), "add_tags" or "remove_tags" (with tags), on the monitors named by ids (at most 1000) or by filter (the filters of list_monitors: status, q for a part of the name or target, monitor_type, paused; {} means every monitor of the workspace, so ask the user first and say how many). An unknown id changes nothing and is named in the error. Returns {"affected": n}, the monitors changed. Deleting cannot be undone: confirm with the user.',
    input: z.object({
      action: z.enum(['pause', 'resume', 'delete', 'set_policy', 'set_group', 'add_tags', 'remove_tags']),
      ids: z
        .array(z.string())
        .min(1)
        .max(1000)
        .optional()
        .describe('Monitor UUIDs, as listed by list_monitors.'),
      filter: z
        .record(z.string(), z.union([z.string(), z.array(z.string()), z.boolean()]))
        .optional()
        .describe(
          'The filters of list_monitors, e.g. {"status": ["down"]} or {"q": "db"}; use ids or filter, not both.',
        ),
      escalation_policy_id: z
        .string()
        .nullable()
        .optional()
        .describe('For set_policy: the policy id, or null for the workspace default.'),
      group_id: z
        .string()
        .nullable()
        .optional()
        .describe('For set_group: the group id (list_groups), or null for none.'),
      tags: z
        .array(z.string())
        .min(1)
        .max(20)
        .optional()
        .describe(
          'For add_tags and remove_tags: tags, each key or key:value (lower-case letters, digits, - and _).',
        ),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: (api, { filter, ...a }) =>
      ok(
        api.client.POST('/monitors/bulk', {
          body: {
            ...a,
            // The list's filters as its query takes them: a list as one comma-separated value, a flag as text.
            ...(filter
              ? {
                  filter: Object.fromEntries(
                    Object.entries(filter).map(([k, v]) => [k, typeof v === 'boolean' ? `${v}` : words(v)]),
                  ),
                }
              : {}),
          } as Body<'/monitors/bulk', 'post'>,
        }),
      ),
  }),
  tool({
    name: 'list_heartbeats',
    title: 'List heartbeats',
    description:
      'List heartbeats (jobs that ping Lookout), newest first, with their state (new, up, late, down, paused), group_id, tags, severity, last ping time, schedule (a period, or a cron schedule in its time zone; schedule_text says it in words), next_expected_at, grace, the last run’s duration and whether it pings far too often. A heartbeat is late when no ping came by its next expected time, and down after the grace too. Returns {"data": [...], "next_cursor"}.',
    input: z.object({ ...labelFilters('heartbeats'), ...page }),
    annotations: READ,
    run: (api, a) => ok(api.client.GET('/heartbeats', { params: { query: a } })),
  }),
  tool({
    name: 'list_maintenance_windows',
    title: 'List maintenance windows',
    description:
      'List maintenance windows, latest start first: what each covers (scope_type workspace, monitor, heartbeat, group or tag, and scope_id), whether it is active now, its times (one-off: starts_at and ends_at; recurring: schedule, timezone, duration_seconds and schedule_text in words) and next_occurrence. Alerts raised inside an active window are recorded but notify no one. Returns {"data": [...], "next_cursor"}.',
    input: z.object(page),
    annotations: READ,
    run: (api, a) => ok(api.client.GET('/maintenance-windows', { params: { query: a } })),
  }),
  tool({
    name: 'create_maintenance_window',
    title: 'Plan a maintenance window',
    description:
      'Plan a maintenance window (admins only): alerts of what it covers are recorded but notify no one while it is active. Give name, scope_type (workspace, monitor, heartbeat, group or tag) and scope_id (the id, or the tag like env:prod; omitted for the workspace), then either starts_at and ends_at for one-off work, or schedule (five cron fields, e.g. "0 2 * * 0" for Sundays 02:00), timezone (IANA, e.g. Europe/Berlin) and duration_seconds for recurring work. Confirm with the user first. Returns the window with its next_occurrence.',
    input: z.object({
      name: z.string().min(1).describe('What the work is, e.g. "Nightly batch".'),
      scope_type: z.enum(['workspace', 'monitor', 'heartbeat', 'group', 'tag']),
      scope_id: z.string().optional().describe('The monitor, heartbeat or group id, or the tag.'),
      starts_at: time('One-off: when it starts'),
      ends_at: time('One-off: when it ends'),
      schedule: z.string().optional().describe('Recurring: five cron fields, when each occurrence starts.'),
      timezone: z
        .string()
        .optional()
        .describe('Recurring: the IANA time zone of the schedule (default UTC).'),
      duration_seconds: z.number().int().optional().describe('Recurring: how long each occurrence lasts.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (api, a) =>
      ok(api.client.POST('/maintenance-windows', { body: a as Body<'/maintenance-windows', 'post'> })),
  }),
  tool({
    name: 'list_groups',
    title: 'List groups',
    description:
      'List the groups of monitors and heartbeats (id, name), newest first; search takes a part of the name. Use a group id with list_monitors or list_heartbeats (group_id) to see its members. Returns {"data": [...], "next_cursor"}.',
    input: z.object({
      search: z.string().optional().describe('Only groups whose name contains this text.'),
      ...page,
    }),
    annotations: READ,
    run: (api, { search, ...a }) => ok(api.client.GET('/groups', { params: { query: { ...a, q: search } } })),
  }),
  tool({
    name: 'get_monitor_results',
    title: 'Recent check results of a monitor',
    description:
      'The most recent check results of a monitor, newest first, from every location (or one): ok or not, error kind and message, status code, response time, scheduled time. Use it to see whether a failure is everywhere or in one region, and since when.',
    input: z.object({
      monitor_id: id('monitor'),
      location: z.string().optional().describe('Only results from this region.'),
      since: time('Only results scheduled at or after this time'),
      until: time('Only results scheduled before this time'),
      ...page,
    }),
    annotations: READ,
    run: (api, { monitor_id, ...q }) =>
      ok(api.client.GET('/monitors/{id}/results', { params: { path: { id: monitor_id }, query: q } })),
  }),
  tool({
    name: 'get_monitor_uptime',
    title: 'Uptime of a monitor',
    description:
      'Share of successful checks of a monitor in a window (default: the last 24 hours), across locations: total_checks, successful_checks, uptime_percentage (null when there were no checks).',
    input: z.object({
      monitor_id: id('monitor'),
      since: time('Start of the window'),
      until: time('End of the window (default: now)'),
    }),
    annotations: READ,
    run: (api, { monitor_id, ...q }) =>
      ok(api.client.GET('/monitors/{id}/uptime', { params: { path: { id: monitor_id }, query: q } })),
  }),
  tool({
    name: 'list_status_pages',
    title: 'List status pages',
    description:
      'List the workspace’s public status pages, each with its components (id, name, live status) and public_url. Use it to find the page and component ids that report_incident takes. Returns {"data": [...], "next_cursor"}.',
    input: z.object(page),
    annotations: READ,
    run: (api, a) => ok(api.client.GET('/status-pages', { params: { query: a } })),
  }),
  tool({
    name: 'report_incident',
    title: 'Report an incident on a status page',
    description:
      'Open an incident on a public status page, which its readers (customers) see at once unless published is false (a draft for the team). Give a short title, the status (investigating, identified, monitoring or resolved), a message written for customers, and the components it affects with how badly ({"<component id>": "degraded_performance" | "partial_outage" | "major_outage" | "under_maintenance" | "operational"}). Confirm the wording with the user first. Returns the incident.',
    input: z.object({
      status_page_id: id('status page'),
      title: z.string().min(1).max(200).describe('What customers see as the incident’s name.'),
      status: z
        .enum(['investigating', 'identified', 'monitoring', 'resolved'])
        .optional()
        .describe('Default investigating.'),
      message: z.string().min(1).describe('The first update, written for customers.'),
      components: z
        .record(z.string(), z.string())
        .optional()
        .describe('Affected components by id (from list_status_pages) and their status.'),
      published: z.boolean().optional().describe('False keeps it a draft that only the team sees.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: (api, { status_page_id, ...body }) =>
      ok(
        api.client.POST('/status-pages/{id}/incidents', {
          params: { path: { id: status_page_id } },
          body: body as Body<'/status-pages/{id}/incidents', 'post'>,
        }),
      ),
  }),
  tool({
    name: 'post_incident_update',
    title: 'Post an incident update',
    description:
      'Post an update on a status page incident that customers see: its new status (investigating, identified, monitoring, or resolved, which closes it), a message for customers, and optionally the components it now affects and how badly. Confirm the wording with the user first. Returns the incident with all its updates.',
    input: z.object({
      status_page_id: id('status page'),
      incident_id: id('incident'),
      status: z.enum(['investigating', 'identified', 'monitoring', 'resolved']),
      message: z.string().min(1).describe('The update, written for customers.'),
      components: z
        .record(z.string(), z.string())
        .optional()
        .describe('Components by id and their status now.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: (api, { status_page_id, incident_id, ...body }) =>
      ok(
        api.client.POST('/status-pages/{id}/incidents/{incident_id}/updates', {
          params: { path: { id: status_page_id, incident_id } },
          body: body as Body<'/status-pages/{id}/incidents/{incident_id}/updates', 'post'>,
        }),
      ),
  }),
  tool(getRegionHealth),
  tool(whoIsOnCall),
  tool(listMyShifts),
  tool(getScriptRun),
  tool(listSecrets),
  tool(listAuditLog),
  tool(getSlaReport),
];
