import { z } from 'zod';
import type { LiveStatus } from '../../domain/status-pages/component-status.js';
import { proofRecords } from '../../domain/status-pages/custom-domain-proof.js';
import type { MaintenanceView } from '../../domain/status-pages/public-view.js';
import {
  COMPONENT_STATUSES,
  CUSTOM_DOMAIN_STATUSES,
  INCIDENT_STATUSES,
  type Incident,
  PAGE_VISIBILITIES,
  type StatusPage,
} from '../../domain/status-pages/status-page-store.js';
import { type StatusSubscriber, SUBSCRIBER_STATUSES } from '../../domain/status-pages/subscriber-store.js';
import { responseSchemas, time } from '../responses.js';

/* Status pages and incidents as the API returns them (beside the other resources' responses, same rules: http/responses.ts). */

const componentStatus = z.enum(COMPONENT_STATUSES);
/** What a component shows now: a status above, or `unknown` before its monitor's or heartbeat's first data. */
const liveStatus = z.enum([...COMPONENT_STATUSES, 'unknown']);

export const statusComponentResponse = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    group: z.string().nullable(),
    monitor_id: z.string().nullable(),
    heartbeat_id: z.string().nullable(),
    group_id: z
      .string()
      .nullable()
      .describe('The group it stands for (the worst status of its members), or null.'),
    /**
     * Live: from its monitor or heartbeat (or set by hand), made worse by an open incident; `unknown`
     * while its monitor has no verdict yet or its heartbeat was never pinged.
     */
    status: liveStatus,
  })
  .register(responseSchemas, { id: 'StatusPageComponent' });

export const statusPageResponse = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    custom_domain: z.string().nullable(),
    /** `verified`: served there (and certificates allowed); `pending`: not checked yet; `failed`: no proof found. */
    custom_domain_status: z.enum(CUSTOM_DOMAIN_STATUSES).nullable(),
    custom_domain_checked_at: time.nullable(),
    /** Failed checks in a row; a verified domain is dropped after 3 (checked hourly). */
    custom_domain_failures: z.number().int(),
    /** Why the last check failed. */
    custom_domain_error: z.string().nullable(),
    /** Create either record in the domain's DNS to prove it; empty without a domain. */
    custom_domain_records: z.array(
      z.strictObject({ type: z.enum(['TXT', 'CNAME']), name: z.string(), value: z.string() }),
    ),
    visibility: z.enum(PAGE_VISIBILITIES),
    accent_color: z.string().nullable(),
    auto_draft_incidents: z.boolean(),
    components: z.array(statusComponentResponse),
    /** The public page on the workspace host. */
    public_url: z.string(),
    /** Confirmed email subscribers (their addresses: GET …/subscribers, admins only). */
    subscriber_count: z.number().int(),
    /**
     * Maintenance over its components that has not ended: each window's occurrence in progress or
     * next, and for a recurring window its rule in words (`recurrence`).
     */
    maintenances: z.array(
      z.strictObject({
        id: z.string(),
        name: z.string(),
        status: z.enum(['scheduled', 'in_progress']),
        starts_at: time,
        ends_at: time,
        recurrence: z.string().nullable(),
        component_ids: z.array(z.string()),
      }),
    ),
    created_at: time,
    updated_at: time,
  })
  .register(responseSchemas, { id: 'StatusPage' });

/** The password's hash and the cookie key never leave the server. */
export const statusPageJson = (
  p: StatusPage,
  statuses: Map<string, LiveStatus>,
  workspaceUrl: string,
  subscriberCount: number,
  workspaceHost: string,
  maintenances: MaintenanceView[],
): z.output<typeof statusPageResponse> => ({
  id: p.id,
  name: p.name,
  slug: p.slug,
  custom_domain: p.custom_domain,
  custom_domain_status: p.custom_domain_status,
  custom_domain_checked_at: p.custom_domain_checked_at?.toISOString() ?? null,
  custom_domain_failures: p.custom_domain_failures,
  custom_domain_error: p.custom_domain_error,
  custom_domain_records:
    p.custom_domain && p.custom_domain_token
      ? proofRecords(p.custom_domain, p.custom_domain_token, workspaceHost)
      : [],
  visibility: p.visibility,
  accent_color: p.accent_color,
  auto_draft_incidents: p.auto_draft_incidents,
  components: p.components.map((c) => ({
    id: c.id,
    name: c.name,
    description: c.description,
    group: c.group,
    monitor_id: c.monitor_id,
    heartbeat_id: c.heartbeat_id,
    group_id: c.group_id ?? null,
    status: statuses.get(c.id) ?? c.manual_status,
  })),
  public_url: `${workspaceUrl}/status/${p.slug}`,
  subscriber_count: subscriberCount,
  maintenances: maintenances.map((m) => ({
    ...m,
    starts_at: m.starts_at.toISOString(),
    ends_at: m.ends_at.toISOString(),
  })),
  created_at: p.created_at.toISOString(),
  updated_at: p.updated_at.toISOString(),
});

const affected = z.record(z.string(), componentStatus);

export const incidentResponse = z
  .strictObject({
    id: z.string(),
    page_id: z.string(),
    title: z.string(),
    status: z.enum(INCIDENT_STATUSES),
    /** False: a draft, not shown on the public page until published. */
    published: z.boolean(),
    /** True for a draft opened automatically when a linked monitor went down. */
    automatic: z.boolean(),
    components: affected,
    updates: z.array(
      z.strictObject({
        id: z.string(),
        status: z.enum(INCIDENT_STATUSES),
        message: z.string(),
        components: affected,
        created_at: time,
        created_by: z.string().nullable(),
      }),
    ),
    postmortem: z.string().nullable(),
    created_at: time,
    updated_at: time,
    resolved_at: time.nullable(),
  })
  .register(responseSchemas, { id: 'Incident' });

export const incidentJson = (i: Incident): z.output<typeof incidentResponse> => ({
  id: i.id,
  page_id: i.page_id,
  title: i.title,
  status: i.status,
  published: i.published,
  automatic: i.updates[0]?.created_by === null,
  components: i.components,
  updates: i.updates.map((u) => ({ ...u, created_at: u.created_at.toISOString() })),
  postmortem: i.postmortem,
  created_at: i.created_at.toISOString(),
  updated_at: i.updated_at.toISOString(),
  resolved_at: i.resolved_at?.toISOString() ?? null,
});

/** A subscriber as admins see it (never a token or its hash). */
export const subscriberResponse = z
  .strictObject({
    id: z.string(),
    email: z.string(),
    status: z.enum(SUBSCRIBER_STATUSES),
    created_at: time,
    confirmed_at: time.nullable(),
  })
  .register(responseSchemas, { id: 'StatusPageSubscriber' });

export const subscriberJson = (s: StatusSubscriber): z.output<typeof subscriberResponse> => ({
  id: s.id,
  email: s.email,
  status: s.status,
  created_at: s.created_at.toISOString(),
  confirmed_at: s.confirmed_at?.toISOString() ?? null,
});
