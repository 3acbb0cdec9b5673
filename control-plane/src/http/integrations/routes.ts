import { AppError, newId } from '@lookout/shared';
import { z } from 'zod';
import type { AlertStore } from '../../domain/alerts/alert-store.js';
import {
  alertmanagerBody,
  grafanaBody,
  type InboundEvent,
  pagerDutyBody,
  pagerDutyRoutingKey,
  parseAlertmanager,
  parseGrafana,
  parsePagerDuty,
  parseWebhook,
  webhookBody,
} from '../../domain/integrations/inbound-events.js';
import type { IntegrationStore } from '../../domain/integrations/integration-store.js';
import {
  applyInboundEvents,
  createIntegration,
  createIntegrationBody,
  rotateServiceKey,
  updateIntegration,
  updateIntegrationBody,
} from '../../domain/integrations/integrations.js';
import type { MaintenanceLookup, PolicyLookup } from '../../domain/lookups.js';
import type { Integration, IntegrationKind } from '../../domain/types.js';
import { parseOrThrow } from '../../domain/validation.js';
import { UUID } from '../heartbeats/routes.js';
import { pageQuery } from '../query.js';
import { page } from '../responses.js';
import { type Authed, type RouteDeps, route } from '../route.js';
import { integrationJson, integrationResponse, integrationWithKey } from './responses.js';

/** Not audited: alerts other tools send in are events, not changes to configuration or access. */
const INBOUND_EVENTS = 'inbound events from another tool, not a change to configuration or access';

export const integrationRoutes = ({
  store,
  clock,
  config,
  workspaceUrl,
}: RouteDeps<IntegrationStore & AlertStore & PolicyLookup & MaintenanceLookup>) => {
  const shown = (auth: Authed, i: Integration) => integrationJson(i, workspaceUrl(auth.workspace.subdomain));
  const load = async (auth: Authed, id: string): Promise<Integration> => {
    const i = UUID.test(id) ? await store.getIntegration(auth.workspace.id, id.toLowerCase()) : null;
    if (!i) throw new AppError('not_found', 'Integration not found.');
    return i;
  };

  /** One inbound endpoint per kind; our webhook format is strict, the tools' formats accept extra fields. */
  const inbound = (
    kind: Exclude<IntegrationKind, 'pagerduty'>,
    body: z.ZodType,
    parse: (body: unknown) => InboundEvent[],
    summary: string,
  ) =>
    route({
      method: 'post',
      path: `/integrations/${kind}/events`,
      audit: { none: INBOUND_EVENTS },
      tag: 'Integrations',
      response: z.strictObject({
        status: z.literal('ok'),
        events: z.array(
          z.strictObject({
            action: z.enum(['trigger', 'acknowledge', 'resolve']),
            dedup_key: z.string(),
            outcome: z.enum([
              'created',
              'updated',
              'resolved',
              'acknowledged',
              'already_acknowledged',
              'not_open',
            ]),
            alert_id: z.string().nullable(),
          }),
        ),
      }),
      auth: 'service_key',
      serviceKey: { kind },
      maxBodyBytes: config.integration_max_body_bytes,
      extraFields: kind !== 'webhook',
      body,
      status: 202,
      summary,
      responses: {
        202: '{"status": "ok", "events": [{"action", "dedup_key", "outcome", "alert_id"}]}',
        401: 'No service key, an unknown one, or one of another kind of integration',
      },
      async handler({ integration, body: payload }) {
        const events = parse(payload);
        return { status: 'ok', events: await applyInboundEvents(store, integration, events, clock.now()) };
      },
    });

  return [
    route({
      method: 'post',
      path: '/integrations',
      tag: 'Integrations',
      response: integrationWithKey,
      summary:
        'Create an integration (an inbound alert source: webhook, alertmanager, grafana or pagerduty). The response carries its service key, shown this once, and the endpoint to send events to.',
      role: 'admin',
      body: createIntegrationBody,
      status: 201,
      async handler({ auth, body }) {
        const r = await createIntegration(store, auth.workspace, body, clock.now());
        return { ...shown(auth, r.integration), service_key: r.service_key };
      },
    }),
    route({
      method: 'get',
      path: '/integrations',
      tag: 'Integrations',
      response: page(integrationResponse),
      summary: 'List integrations, newest first (service keys are never shown again).',
      query: z.strictObject(pageQuery),
      async handler({ auth, query }) {
        const page = await store.listIntegrations(auth.workspace.id, query);
        return { data: page.data.map((i) => shown(auth, i)), next_cursor: page.next_cursor };
      },
    }),
    route({
      method: 'get',
      path: '/integrations/{integration_id}',
      tag: 'Integrations',
      response: integrationResponse,
      summary: 'Get an integration.',
      responses: { 404: 'No such integration in this workspace' },
      async handler({ auth, params }) {
        return shown(auth, await load(auth, params.integration_id!));
      },
    }),
    route({
      method: 'patch',
      path: '/integrations/{integration_id}',
      tag: 'Integrations',
      response: integrationResponse,
      summary: 'Rename an integration or change the escalation policy of its alerts.',
      role: 'admin',
      body: updateIntegrationBody,
      async handler({ auth, params, body }) {
        parseOrThrow(updateIntegrationBody, body);
        const i = await updateIntegration(store, await load(auth, params.integration_id!), body, clock.now());
        return shown(auth, i);
      },
    }),
    route({
      method: 'post',
      path: '/integrations/{integration_id}/rotate-key',
      tag: 'Integrations',
      response: integrationWithKey,
      summary:
        'Replace the integration’s service key; the new one is in the response, shown this once, and the old one stops working at once.',
      role: 'admin',
      async handler({ auth, params }) {
        const r = await rotateServiceKey(store, await load(auth, params.integration_id!), clock.now());
        return { ...shown(auth, r.integration), service_key: r.service_key };
      },
    }),
    route({
      method: 'delete',
      path: '/integrations/{integration_id}',
      tag: 'Integrations',
      response: null,
      summary: 'Delete an integration; its key stops working. Its alerts stay.',
      role: 'admin',
      status: 204,
      async handler({ auth, params }) {
        const i = await load(auth, params.integration_id!);
        await store.deleteIntegration(auth.workspace.id, i.id);
        return undefined;
      },
    }),
    inbound(
      'webhook',
      webhookBody,
      (b) => parseWebhook(b, newId),
      'Generic webhook: {"title", "description"?, "severity"? (critical, warning, info), "dedup_key"?}. A repeated dedup key updates the unresolved alert; without one, each call opens an alert. There is no recovery signal: resolve with POST /alerts/resolve.',
    ),
    inbound(
      'alertmanager',
      alertmanagerBody,
      parseAlertmanager,
      'Prometheus Alertmanager webhook (webhook_configs, payload version 4). Each alert’s fingerprint is its dedup key: firing opens or updates, resolved resolves.',
    ),
    inbound(
      'grafana',
      grafanaBody,
      parseGrafana,
      'Grafana alerting webhook contact point. Each alert’s fingerprint is its dedup key: firing opens or updates, resolved resolves.',
    ),
    route({
      method: 'post',
      path: '/integrations/pagerduty/v2/enqueue',
      audit: { none: INBOUND_EVENTS },
      aliases: ['/v2/enqueue'],
      tag: 'Integrations',
      response: z.strictObject({ status: z.literal('success'), message: z.string(), dedup_key: z.string() }),
      auth: 'service_key',
      serviceKey: { kind: 'pagerduty', inBody: pagerDutyRoutingKey },
      maxBodyBytes: config.integration_max_body_bytes,
      extraFields: true,
      body: pagerDutyBody,
      status: 202,
      summary:
        'PagerDuty Events API v2: the integration’s service key is the routing_key; trigger, acknowledge and resolve by dedup_key. Also served at /v2/enqueue, so a tool’s PagerDuty URL can simply point at Lookout.',
      responses: {
        202: '{"status": "success", "message": "Event processed", "dedup_key": "..."}',
        401: 'No routing_key, or an unknown one (checked before the rest of the event)',
      },
      async handler({ integration, body }) {
        const { event } = parsePagerDuty(body, () => newId().replaceAll('-', ''));
        await applyInboundEvents(store, integration, [event], clock.now());
        return { status: 'success', message: 'Event processed', dedup_key: event.dedup_key };
      },
    }),
  ];
};
