import { AppError } from '@lookout/shared';
import { z } from 'zod';
import { resolveAlerts, uuidsBody } from '../../domain/alerts.js';
import { uuid } from '../../domain/validation.js';
import { type AppDeps, route } from '../route.js';
import { alertJson } from '../serialize.js';
import { isoTime, pageQuery } from './query.js';

const STATUSES = ['open', 'acknowledged', 'resolved'] as const;
const statusList = z
  .string()
  .transform((s) => s.split(',').map((x) => x.trim()))
  .pipe(z.array(z.enum(STATUSES)).min(1));

export const alertRoutes = ({ store, clock }: AppDeps) => [
  route({
    method: 'get',
    path: '/alerts',
    tag: 'Alerts',
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
    summary: 'Get an alert.',
    responses: { 404: 'No such alert in this workspace' },
    async handler({ auth, params }) {
      const ok = uuid().safeParse(params.uuid).success;
      const a = ok ? await store.getAlert(auth.workspace.id, params.uuid!.toLowerCase()) : null;
      if (!a) throw new AppError('not_found', 'Alert not found.');
      return alertJson(a);
    },
  }),
  route({
    method: 'post',
    path: '/alerts/resolve',
    tag: 'Alerts',
    summary:
      'Resolve alerts by UUID, recording you (and your key) as the resolver. Alerts already resolved stay as they were; unknown UUIDs are reported as not found.',
    role: 'member',
    body: uuidsBody,
    responses: { 200: '{"resolved": [...], "already_resolved": [...], "not_found": [...]}' },
    async handler({ auth, body }) {
      const by = { type: 'user' as const, user_id: auth.user.id, api_key_id: auth.key.id };
      const r = await resolveAlerts(store, auth.workspace.id, body, by, clock.now());
      return {
        resolved: r.resolved.map(alertJson),
        already_resolved: r.already_resolved.map(alertJson),
        not_found: r.not_found,
      };
    },
  }),
];
