import { AppError } from '@lookout/shared';
import { z } from 'zod';
import type { AlertStore } from '../../domain/alerts/alert-store.js';
import { acknowledgeAlerts, alertTimeline, resolveAlerts, uuidsBody } from '../../domain/alerts/alerts.js';
import type { MaintenanceLookup, PolicyLookup } from '../../domain/lookups.js';
import type { ChannelStore } from '../../domain/notifications/channel-store.js';
import type { TenancyStore } from '../../domain/tenancy/tenancy-store.js';
import { parseOrThrow } from '../../domain/validation.js';
import { idOf, isoTime, pageQuery } from '../query.js';
import { page } from '../responses.js';
import { type RouteDeps, route } from '../route.js';
import { alertDetailJson, alertDetailResponse, alertJson, alertResponse } from './responses.js';

const STATUSES = ['open', 'acknowledged', 'resolved'] as const;
const statusList = z
  .string()
  .transform((s) => s.split(',').map((x) => x.trim()))
  .pipe(z.array(z.enum(STATUSES)).min(1));

export const alertRoutes = ({
  store,
  clock,
}: RouteDeps<
  AlertStore &
    PolicyLookup &
    MaintenanceLookup &
    Pick<ChannelStore, 'getChannel'> &
    Pick<TenancyStore, 'getUser'>
>) => [
  route({
    method: 'get',
    path: '/alerts',
    tag: 'Alerts',
    response: page(alertResponse),
    summary: 'List alerts, newest first. Filter by status (comma-separated), source and creation time.',
    query: z.strictObject({
      ...pageQuery,
      status: statusList.optional(),
      source_type: z.enum(['monitor', 'heartbeat', 'integration', 'region']).optional(),
      source_id: z.string().min(1).max(200).optional(),
      since: isoTime.optional(),
      until: isoTime.optional(),
    }),
    async handler({ auth, query }) {
      const page = await store.listAlerts(auth.workspace.id, query);
      return { data: page.data.map(alertJson), next_cursor: page.next_cursor };
    },
  }),
  route({
    method: 'get',
    path: '/alerts/{uuid}',
    tag: 'Alerts',
    response: alertDetailResponse,
    summary:
      'Get an alert with its timeline: raised, each notification attempt (to whom, how, outcome), acknowledged, resolved.',
    responses: { 404: 'No such alert in this workspace' },
    async handler({ auth, params }) {
      const id = idOf(params.uuid);
      const a = id ? await store.getAlert(auth.workspace.id, id) : null;
      if (!a) throw new AppError('not_found', 'Alert not found.');
      const deliveries = await store.listDeliveries(auth.workspace.id, { alert_id: a.id, limit: 500 });
      // Who each went to, by name (a channel's name, a user's email), not by an address.
      const channels = new Map<string, string>();
      const users = new Map<string, string>();
      for (const cid of new Set(deliveries.map((d) => d.channel_id).filter((x) => x !== null))) {
        const c = await store.getChannel(auth.workspace.id, cid);
        if (c) channels.set(cid, c.name);
      }
      for (const uid of new Set(deliveries.map((d) => d.user_id).filter((x) => x !== null))) {
        const u = await store.getUser(auth.workspace.id, uid);
        if (u) users.set(uid, u.email);
      }
      return alertDetailJson(a, alertTimeline(a, deliveries, { channels, users }));
    },
  }),
  route({
    method: 'post',
    path: '/alerts/acknowledge',
    tag: 'Alerts',
    response: z.strictObject({
      acknowledged: z.array(alertResponse),
      already_acknowledged: z.array(alertResponse),
      already_resolved: z.array(alertResponse),
      not_found: z.array(z.string()),
    }),
    summary:
      'Acknowledge open alerts by UUID, recording you (and your key): their escalation stops. Alerts already acknowledged or resolved stay as they were; unknown UUIDs are reported as not found.',
    role: 'member',
    body: uuidsBody,
    responses: {
      200: '{"acknowledged": [...], "already_acknowledged": [...], "already_resolved": [...], "not_found": [...]}',
    },
    async handler({ auth, body }) {
      const { UUIDs } = parseOrThrow(uuidsBody, body);
      const by = { type: 'user' as const, user_id: auth.user.id, api_key_id: auth.key?.id ?? null };
      const r = await acknowledgeAlerts(store, auth.workspace.id, UUIDs, by, clock.now());
      return {
        acknowledged: r.acknowledged.map(alertJson),
        already_acknowledged: r.already_acknowledged.map(alertJson),
        already_resolved: r.already_resolved.map(alertJson),
        not_found: r.not_found,
      };
    },
  }),
  route({
    method: 'post',
    path: '/alerts/resolve',
    tag: 'Alerts',
    response: z.strictObject({
      resolved: z.array(alertResponse),
      already_resolved: z.array(alertResponse),
      not_found: z.array(z.string()),
    }),
    summary:
      'Resolve alerts by UUID, recording you (and your key) as the resolver. Alerts already resolved stay as they were; unknown UUIDs are reported as not found.',
    role: 'member',
    body: uuidsBody,
    responses: { 200: '{"resolved": [...], "already_resolved": [...], "not_found": [...]}' },
    async handler({ auth, body }) {
      const by = { type: 'user' as const, user_id: auth.user.id, api_key_id: auth.key?.id ?? null };
      const r = await resolveAlerts(store, auth.workspace.id, body, by, clock.now());
      return {
        resolved: r.resolved.map(alertJson),
        already_resolved: r.already_resolved.map(alertJson),
        not_found: r.not_found,
      };
    },
  }),
];
