import { z } from 'zod';
import type { HeartbeatStore } from '../../domain/heartbeats/heartbeat-store.js';
import type { MaintenanceWindowStore } from '../../domain/maintenance/maintenance-store.js';
import type { GroupStore } from '../../domain/monitors/group-store.js';
import type { MonitorStatusStore } from '../../domain/monitors/monitor-status.js';
import type { MonitorStore } from '../../domain/monitors/monitor-store.js';
import { verifyPageDomain } from '../../domain/status-pages/custom-domain-proof.js';
import {
  createIncident,
  createIncidentBody,
  deleteIncident,
  discardIncident,
  editIncident,
  editIncidentBody,
  incidentUpdateBody,
  loadIncident,
  postIncidentUpdate,
  publishIncident,
} from '../../domain/status-pages/incidents.js';
import { liveComponentStatuses, pageMaintenances } from '../../domain/status-pages/public-view.js';
import type { StatusPage, StatusPageStore } from '../../domain/status-pages/status-page-store.js';
import {
  createStatusPage,
  createStatusPageBody,
  deleteStatusPage,
  loadStatusPage,
  updateStatusPage,
  updateStatusPageBody,
} from '../../domain/status-pages/status-pages.js';
import type { StatusSubscriberStore } from '../../domain/status-pages/subscriber-store.js';
import { loadSubscriber } from '../../domain/status-pages/subscribers.js';
import { boolParam, idOf, pageQuery } from '../query.js';
import { page } from '../responses.js';
import { type RouteDeps, route } from '../route.js';
import {
  incidentJson,
  incidentResponse,
  statusPageJson,
  statusPageResponse,
  subscriberJson,
  subscriberResponse,
} from './responses.js';

const TAG = 'Status pages';
const NO_PAGE = { 404: 'No such status page in this workspace' };
const NO_SUBSCRIBER = { 404: 'No such status page or subscriber in this workspace' };
const NO_INCIDENT = { 404: 'No such status page or incident in this workspace' };

export const statusPageRoutes = ({
  store,
  clock,
  config,
  workspaceUrl,
  statusCache,
  domainLookup: dns,
}: RouteDeps<
  StatusPageStore &
    StatusSubscriberStore &
    MonitorStore &
    MonitorStatusStore &
    HeartbeatStore &
    MaintenanceWindowStore &
    GroupStore
>) => {
  const hostOf = (subdomain: string) => `${subdomain}.${config.service_domain.toLowerCase()}`;
  const json = async (p: StatusPage, subdomain: string) =>
    statusPageJson(
      p,
      await liveComponentStatuses(store, p, clock.now()),
      workspaceUrl(subdomain),
      await store.countSubscribers(p.workspace_id, p.id),
      hostOf(subdomain),
      await pageMaintenances(store, p, clock.now()),
    );
  /** A change the public page shows: this replica's cache forgets the page at once. */
  const changed = <T>(pageId: string, v: T): T => {
    statusCache?.invalidate(pageId);
    return v;
  };
  /** Publish or discard a draft: one store step on the incident, 409 when it is not a draft. */
  const draftRoute = (
    action: 'publish' | 'discard',
    step: typeof publishIncident,
    summary: string,
    conflict: string,
  ) =>
    route({
      method: 'post',
      path: `/status-pages/{id}/incidents/{incident_id}/${action}`,
      tag: TAG,
      response: incidentResponse,
      summary,
      role: 'member',
      responses: { ...NO_INCIDENT, 409: conflict },
      async handler({ auth, params }) {
        const i = await step(
          store,
          auth.workspace.id,
          idOf(params.id),
          idOf(params.incident_id),
          clock.now(),
        );
        return changed(i.page_id, incidentJson(i));
      },
    });
  return [
    route({
      method: 'get',
      path: '/status-pages',
      tag: TAG,
      response: page(statusPageResponse),
      summary: 'List status pages, newest first, each component with its live `status`.',
      query: z.strictObject(pageQuery),
      async handler({ auth, query }) {
        const p = await store.listStatusPages(auth.workspace.id, query);
        return {
          data: await Promise.all(p.data.map((x) => json(x, auth.workspace.subdomain))),
          next_cursor: p.next_cursor,
        };
      },
    }),
    route({
      method: 'post',
      path: '/status-pages',
      tag: TAG,
      response: statusPageResponse,
      summary:
        'Create a status page: `name`, `slug` (`[a-z0-9-]`, unique in the workspace; the page is at /status/{slug}), `custom_domain` (served once proved in DNS: see `custom_domain_records`; unique among proved domains), `visibility` (`public`, or `password` with `password`), `accent_color` (#rrggbb), `auto_draft_incidents` (a linked monitor going down opens a draft incident), and ordered `components` `[{name, description?, group?, monitor_id? | heartbeat_id?, status?}]` (neither link: set by hand, with `status`).',
      role: 'member',
      body: createStatusPageBody,
      status: 201,
      responses: {
        402: 'Plan status page limit reached: upgrade to add more',
        409: 'The slug is taken in this workspace, or another page has proved the custom domain',
      },
      async handler({ auth, body }) {
        const { plan } = auth.workspace;
        const p = await createStatusPage(store, auth.workspace.id, body, clock.now(), config.service_domain, {
          name: plan,
          maxStatusPages: config.plans[plan]?.max_status_pages,
        });
        return changed(p.id, await json(p, auth.workspace.subdomain));
      },
    }),
    route({
      method: 'get',
      path: '/status-pages/{id}',
      tag: TAG,
      response: statusPageResponse,
      summary: 'Get a status page, each component with its live `status`.',
      responses: NO_PAGE,
      async handler({ auth, params }) {
        return json(
          await loadStatusPage(store, auth.workspace.id, idOf(params.id)),
          auth.workspace.subdomain,
        );
      },
    }),
    route({
      method: 'patch',
      path: '/status-pages/{id}',
      tag: TAG,
      response: statusPageResponse,
      summary:
        'Edit a status page: each field given replaces the stored one; `components` replaces the list (a component keeps its history when sent with its `id`). A new password ends every reader’s access.',
      role: 'member',
      body: updateStatusPageBody,
      responses: {
        ...NO_PAGE,
        409: 'The slug is taken in this workspace, or another page has proved the custom domain',
      },
      async handler({ auth, params, body }) {
        const p = await updateStatusPage(
          store,
          auth.workspace.id,
          idOf(params.id),
          body,
          clock.now(),
          config.service_domain,
        );
        return changed(p.id, await json(p, auth.workspace.subdomain));
      },
    }),
    route({
      method: 'post',
      path: '/status-pages/{id}/custom-domain/verify',
      audit: { action: 'status_page.verify_domain', resource_type: 'status_page' },
      tag: TAG,
      response: statusPageResponse,
      summary:
        'Check the page’s custom domain now: verified when DNS has either record of `custom_domain_records` (TXT `_lookout-challenge.<domain>` with the page’s token, or a CNAME to the workspace host). Only a verified domain is served. At most one check per page every 10 s.',
      role: 'member',
      responses: { ...NO_PAGE, 422: 'The page has no custom domain', 429: 'Checked less than 10 s ago' },
      async handler({ auth, params }) {
        const p = await loadStatusPage(store, auth.workspace.id, idOf(params.id));
        const checked = await verifyPageDomain(store, dns, p, hostOf(auth.workspace.subdomain), clock.now());
        return changed(p.id, await json(checked, auth.workspace.subdomain));
      },
    }),
    route({
      method: 'delete',
      path: '/status-pages/{id}',
      tag: TAG,
      response: null,
      summary: 'Delete a status page and its incidents.',
      role: 'member',
      status: 204,
      responses: NO_PAGE,
      async handler({ auth, params }) {
        await deleteStatusPage(store, auth.workspace.id, idOf(params.id));
        return changed(idOf(params.id), undefined);
      },
    }),
    route({
      method: 'get',
      path: '/status-pages/{id}/incidents',
      tag: TAG,
      response: page(incidentResponse),
      summary: 'List the page’s incidents, newest first, drafts included (`published=false`: only drafts).',
      query: z.strictObject({ ...pageQuery, published: boolParam.optional() }),
      responses: NO_PAGE,
      async handler({ auth, params, query }) {
        const p = await loadStatusPage(store, auth.workspace.id, idOf(params.id));
        const list = await store.listIncidents(auth.workspace.id, p.id, query);
        return { data: list.data.map(incidentJson), next_cursor: list.next_cursor };
      },
    }),
    route({
      method: 'post',
      path: '/status-pages/{id}/incidents',
      tag: TAG,
      response: incidentResponse,
      summary:
        'Report an incident: `title`, `status` (investigating, identified, monitoring, resolved), `message` (its first update), `components` `{<component id>: <component status>}` (how badly each is affected); `published: false` keeps it a draft.',
      role: 'member',
      body: createIncidentBody,
      status: 201,
      responses: NO_PAGE,
      async handler({ auth, params, body }) {
        const i = await createIncident(
          store,
          auth.workspace.id,
          idOf(params.id),
          body,
          clock.now(),
          auth.user.id,
        );
        return changed(i.page_id, incidentJson(i));
      },
    }),
    route({
      method: 'get',
      path: '/status-pages/{id}/incidents/{incident_id}',
      tag: TAG,
      response: incidentResponse,
      summary: 'Get an incident with its updates.',
      responses: NO_INCIDENT,
      async handler({ auth, params }) {
        return incidentJson(
          await loadIncident(store, auth.workspace.id, idOf(params.id), idOf(params.incident_id)),
        );
      },
    }),
    route({
      method: 'patch',
      path: '/status-pages/{id}/incidents/{incident_id}',
      tag: TAG,
      response: incidentResponse,
      summary:
        'Rename an incident, or write its post-mortem (Markdown, once it is resolved; null removes it).',
      role: 'member',
      body: editIncidentBody,
      responses: NO_INCIDENT,
      async handler({ auth, params, body }) {
        const i = await editIncident(
          store,
          auth.workspace.id,
          idOf(params.id),
          idOf(params.incident_id),
          body,
          clock.now(),
        );
        return changed(i.page_id, incidentJson(i));
      },
    }),
    route({
      method: 'post',
      path: '/status-pages/{id}/incidents/{incident_id}/updates',
      audit: { action: 'incident.add_update', resource_type: 'incident', idParam: 'incident_id' },
      tag: TAG,
      response: incidentResponse,
      summary:
        'Post an incident update: `status`, `message`, and optionally `components` (the components it now affects and how badly). Status `resolved` closes the incident.',
      role: 'member',
      body: incidentUpdateBody,
      status: 201,
      responses: NO_INCIDENT,
      async handler({ auth, params, body }) {
        const i = await postIncidentUpdate(
          store,
          auth.workspace.id,
          idOf(params.id),
          idOf(params.incident_id),
          body,
          clock.now(),
          auth.user.id,
        );
        return changed(i.page_id, incidentJson(i));
      },
    }),
    draftRoute(
      'publish',
      publishIncident,
      'Publish a draft incident: from now on the public page shows it. 409 when it is published already.',
      'Already published',
    ),
    draftRoute(
      'discard',
      discardIncident,
      'Discard a draft incident: it is closed and never shown (kept, so the outage that opened an automatic draft does not open another). 409 for a published incident.',
      'Published: resolve it instead',
    ),
    route({
      method: 'delete',
      path: '/status-pages/{id}/incidents/{incident_id}',
      tag: TAG,
      response: null,
      summary: 'Delete an incident for good.',
      role: 'member',
      status: 204,
      responses: NO_INCIDENT,
      async handler({ auth, params }) {
        await deleteIncident(store, auth.workspace.id, idOf(params.id), idOf(params.incident_id));
        return changed(idOf(params.id), undefined);
      },
    }),
    route({
      method: 'get',
      path: '/status-pages/{id}/subscribers',
      tag: TAG,
      response: page(subscriberResponse),
      summary:
        'List the page’s email subscribers, newest first (`pending` until they follow the confirmation link). Personal data: admins only.',
      role: 'admin',
      query: z.strictObject(pageQuery),
      responses: NO_PAGE,
      async handler({ auth, params, query }) {
        const p = await loadStatusPage(store, auth.workspace.id, idOf(params.id));
        const list = await store.listSubscribers(auth.workspace.id, p.id, query);
        return { data: list.data.map(subscriberJson), next_cursor: list.next_cursor };
      },
    }),
    route({
      method: 'delete',
      path: '/status-pages/{id}/subscribers/{subscriber_id}',
      audit: { resource_type: 'status_subscriber' },
      tag: TAG,
      response: null,
      summary: 'Delete a subscriber (and any mail still queued for it).',
      role: 'admin',
      status: 204,
      responses: NO_SUBSCRIBER,
      async handler({ auth, params }) {
        const s = await loadSubscriber(store, auth.workspace.id, idOf(params.id), idOf(params.subscriber_id));
        await store.deleteSubscriber(auth.workspace.id, s.page_id, s.id);
      },
    }),
  ];
};
