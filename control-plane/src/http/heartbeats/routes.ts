import { AppError } from '@lookout/shared';
import { z } from 'zod';
import type { AlertHoldStore } from '../../domain/alerts/alert-hold-store.js';
import type { HeartbeatStore } from '../../domain/heartbeats/heartbeat-store.js';
import { pingsTooOften, runStarts, TOO_OFTEN_SAMPLE } from '../../domain/heartbeats/heartbeat-view.js';
import {
  createHeartbeat,
  createHeartbeatBody,
  updateHeartbeat,
  updateHeartbeatBody,
} from '../../domain/heartbeats/heartbeats.js';
import type { MaintenanceLookup, PolicyLookup } from '../../domain/lookups.js';
import type { DependencyGraphLookup } from '../../domain/monitors/depends-on.js';
import type { GroupStore } from '../../domain/monitors/group-store.js';
import { labelFilters } from '../../domain/monitors/labels.js';
import type { Heartbeat } from '../../domain/types.js';
import {
  dependencyNodes,
  suppressedBy,
  TIMELINE_SUMMARY,
  timelineJson,
  timelineResponse,
} from '../dependency-responses.js';
import { page, time } from '../responses.js';
import { type Authed, type RouteDeps, route } from '../route.js';
import { heartbeatJson, heartbeatResponse } from './responses.js';

const pingResponse = z.strictObject({
  id: z.string(),
  kind: z.enum(['success', 'start', 'fail']),
  at: time,
  received_at: time,
  source: z.string().nullable(),
  rid: z.string().nullable(),
  exit_status: z.number().int().nullable(),
  body: z.string().nullable(),
  duration_ms: z.number().nullable(),
});

import { pageQuery } from '../query.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const heartbeatRoutes = ({
  store,
  clock,
  config,
  workspaceUrl,
}: RouteDeps<
  HeartbeatStore & PolicyLookup & MaintenanceLookup & GroupStore & DependencyGraphLookup & AlertHoldStore
>) => {
  const pingUrl = (auth: Authed, id: string) => `${workspaceUrl(auth.workspace.subdomain)}/hb/ping/${id}`;
  /** The record: with its next expected time, and whether it pings far too often (its recent pings). */
  const json = async (auth: Authed, h: Heartbeat) => {
    const recent = (await store.listPings(h.workspace_id, h.id, { limit: TOO_OFTEN_SAMPLE * 2 })).data;
    const held = h.state === 'down' ? await suppressedBy(store, h.workspace_id, [h.id]) : new Map();
    return heartbeatJson(h, pingUrl(auth, h.id), {
      now: clock.now(),
      tooOften: pingsTooOften(h, recent),
      suppressedBy: held.get(h.id) ?? null,
      nodes: await dependencyNodes(store, h.workspace_id, [h]),
    });
  };
  const load = async (auth: Authed, id: string): Promise<Heartbeat> => {
    const h = UUID.test(id) ? await store.getHeartbeat(auth.workspace.id, id.toLowerCase()) : null;
    if (!h) throw new AppError('not_found', 'Heartbeat not found.');
    return h;
  };
  return [
    route({
      method: 'post',
      path: '/heartbeats',
      tag: 'Heartbeats',
      response: heartbeatResponse,
      summary: 'Create a heartbeat; the response carries its ping URL.',
      role: 'member',
      body: createHeartbeatBody,
      status: 201,
      async handler({ auth, body }) {
        const max = config.plans[auth.workspace.plan]?.max_heartbeats;
        const h = await createHeartbeat(store, auth.workspace, body, clock.now(), max);
        return json(auth, h);
      },
    }),
    route({
      method: 'get',
      path: '/heartbeats',
      tag: 'Heartbeats',
      response: page(heartbeatResponse),
      summary:
        'List heartbeats, newest first, with their state and last ping; search with `q` (a case-insensitive part of the name or the slug); filter with `tag` (one whole tag) and `group_id` (`none`: in no group).',
      query: z.strictObject({
        ...pageQuery,
        q: z.string().min(1).max(200).optional().describe('A case-insensitive part of the name or the slug.'),
        ...labelFilters,
      }),
      async handler({ auth, query }) {
        const page = await store.listHeartbeats(auth.workspace.id, { ...query, search: query.q });
        return {
          data: await Promise.all(page.data.map((h) => json(auth, h))),
          next_cursor: page.next_cursor,
        };
      },
    }),
    route({
      method: 'get',
      path: '/heartbeats/{uuid}',
      tag: 'Heartbeats',
      response: heartbeatResponse,
      summary: 'Get a heartbeat.',
      responses: { 404: 'No such heartbeat in this workspace' },
      async handler({ auth, params }) {
        return json(auth, await load(auth, params.uuid!));
      },
    }),
    route({
      method: 'get',
      path: '/heartbeats/{uuid}/timeline',
      tag: 'Heartbeats',
      response: timelineResponse,
      summary: `The heartbeat's dependency timeline. ${TIMELINE_SUMMARY}`,
      responses: { 404: 'No such heartbeat in this workspace' },
      async handler({ auth, params }) {
        const h = await load(auth, params.uuid!);
        return timelineJson(store, auth.workspace.id, 'heartbeat', h.id);
      },
    }),
    route({
      method: 'get',
      path: '/heartbeats/{uuid}/pings',
      tag: 'Heartbeats',
      response: page(pingResponse),
      summary:
        'Pings of a heartbeat, newest first by ping time, paged: kind (success, start, fail), exit status, run id, body, and for a finish, the duration of the run it ended: from the start with the same run id, or without run ids from the start just before it (on the same page).',
      query: z.strictObject(pageQuery),
      async handler({ auth, params, query }) {
        const h = await load(auth, params.uuid!);
        const page = await store.listPings(auth.workspace.id, h.id, query);
        const pings = page.data;
        const started = runStarts(pings);
        return {
          data: pings.map((p) => {
            const start = started.get(p);
            return {
              id: p.id,
              kind: p.kind,
              at: p.at.toISOString(),
              received_at: p.received_at.toISOString(),
              source: p.source,
              // (?? null: pings stored before these fields existed have none)
              rid: p.rid ?? null,
              exit_status: p.exit_status ?? null,
              body: p.body ?? null,
              duration_ms: start && start.at <= p.at ? p.at.getTime() - start.at.getTime() : null,
            };
          }),
          next_cursor: page.next_cursor,
        };
      },
    }),
    route({
      method: 'patch',
      path: '/heartbeats/{uuid}',
      tag: 'Heartbeats',
      response: heartbeatResponse,
      summary:
        'Change a heartbeat’s name, period or schedule (a period given clears the schedule; schedule null goes back to the period), time zone, slug, grace or policy, or pause it.',
      role: 'member',
      body: updateHeartbeatBody,
      async handler({ auth, params, body }) {
        const h = await updateHeartbeat(store, await load(auth, params.uuid!), body, clock.now());
        return json(auth, h);
      },
    }),
    route({
      method: 'delete',
      path: '/heartbeats/{uuid}',
      tag: 'Heartbeats',
      response: null,
      summary: 'Delete a heartbeat and its pings.',
      role: 'member',
      status: 204,
      async handler({ auth, params }) {
        const h = await load(auth, params.uuid!);
        await store.deleteHeartbeat(auth.workspace.id, h.id);
        return undefined;
      },
    }),
  ];
};
