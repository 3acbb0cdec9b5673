import type { Page, PageQuery } from '../types.js';
import type { IncidentMailEvent } from './subscriber-store.js';

/** A component's status, in Atlassian Statuspage's words (widgets that read summary.json know them). */
export const COMPONENT_STATUSES = [
  'operational',
  'degraded_performance',
  'partial_outage',
  'major_outage',
  'under_maintenance',
] as const;
export type ComponentStatus = (typeof COMPONENT_STATUSES)[number];

export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export const PAGE_VISIBILITIES = ['public', 'password'] as const;
export type PageVisibility = (typeof PAGE_VISIBILITIES)[number];

/**
 * One row of a page: what it shows comes from a monitor, a heartbeat, or (neither) the status its
 * author set by hand (`manual_status`, operational unless set).
 */
export interface StatusComponent {
  id: string;
  name: string;
  description: string | null;
  group: string | null;
  monitor_id: string | null;
  heartbeat_id: string | null;
  /** A group it stands for: the worst status of the group's monitors and heartbeats. Absent on older records. */
  group_id?: string | null;
  manual_status: ComponentStatus;
}

/** A custom domain's proof of ownership (custom-domain-proof.ts): pending until first checked. */
export const CUSTOM_DOMAIN_STATUSES = ['pending', 'verified', 'failed'] as const;
export type CustomDomainStatus = (typeof CUSTOM_DOMAIN_STATUSES)[number];

/** Where a page's custom domain stands (all null, failures 0, without one). */
export interface CustomDomainProof {
  /** Random per domain set: the TXT record's value carries it. */
  custom_domain_token: string | null;
  /** Served (and confirmed to `/_tls/ask`) only when `verified`. */
  custom_domain_status: CustomDomainStatus | null;
  custom_domain_checked_at: Date | null;
  /** Failed checks in a row (a verified domain is dropped after FAILURES_TO_DROP). */
  custom_domain_failures: number;
  /** Why the last check failed; null after a success. */
  custom_domain_error: string | null;
}

export interface StatusPage extends CustomDomainProof {
  id: string;
  workspace_id: string;
  name: string;
  /** `[a-z0-9-]`, unique in the workspace: the page is at /status/{slug}. */
  slug: string;
  /** Unique in the whole service (lower case); null: none. */
  custom_domain: string | null;
  visibility: PageVisibility;
  /** The page password as tenancy/passwords.ts hashes it; null for a public page. */
  password_hash: string | null;
  /**
   * The key that signs a reader's access cookie (random, never shown): replaced whenever the password
   * changes, so every cookie given for the old one stops working.
   */
  cookie_secret: string;
  /** `#rrggbb` or null (the page's default). */
  accent_color: string | null;
  /** A linked monitor going down opens a draft incident (never public until published). */
  auto_draft_incidents: boolean;
  /** In the author's order. */
  components: StatusComponent[];
  created_at: Date;
  updated_at: Date;
}

export interface IncidentUpdate {
  id: string;
  status: IncidentStatus;
  message: string;
  /** The components this update says are affected, and how badly; empty: no change stated. */
  components: Record<string, ComponentStatus>;
  created_at: Date;
  /** The user who posted it; null when the system did (an automatic draft). */
  created_by: string | null;
}

export interface Incident {
  id: string;
  workspace_id: string;
  page_id: string;
  title: string;
  /** The status of its newest update. */
  status: IncidentStatus;
  /** False: a draft, seen only by the team until someone publishes it. */
  published: boolean;
  /**
   * For an automatic draft: `<component id>:<alert id>`, the outage that opened it. The store keeps
   * one incident per (page, auto_key), so an outage opens one draft however many replicas see it, and
   * none again once the team has discarded it.
   */
  auto_key: string | null;
  /** The affected components and their stated status (the newest update that names each wins). */
  components: Record<string, ComponentStatus>;
  /** Oldest first. */
  updates: IncidentUpdate[];
  /** Markdown, on a resolved incident; null: none. */
  postmortem: string | null;
  created_at: Date;
  updated_at: Date;
  resolved_at: Date | null;
  /** Bumped by every write; updates are compare-and-set on it. */
  version: number;
}

export interface IncidentQuery extends PageQuery {
  /** Only drafts (false: only published ones); all when undefined. */
  published?: boolean | undefined;
}

/** A day's checks of one monitor (all locations), from the daily uptime buckets. */
export interface DailyUptime {
  monitor_id: string;
  /** The UTC day's first ms. */
  day: number;
  total: number;
  ok: number;
}

/**
 * Status pages and their incidents. Adapters: store/sqlite/status-pages.ts,
 * store/mongo/status-pages.ts; contract test/contract/status-pages.test.ts.
 */
export interface StatusPageStore {
  /**
   * `conflict` when the slug is taken in the workspace, or the custom domain is verified on another page
   * (many pages may claim a domain; one proves it).
   */
  insertStatusPage(page: StatusPage): Promise<void>;
  getStatusPage(workspaceId: string, id: string): Promise<StatusPage | null>;
  getStatusPageBySlug(workspaceId: string, slug: string): Promise<StatusPage | null>;
  /** The page whose custom domain this is, verified; null when none has proved it. */
  getStatusPageByDomain(domain: string): Promise<StatusPage | null>;
  /**
   * Stores a domain check's result if the page still has this domain and token (compare-and-set: an
   * edit that changed the domain meanwhile wins); false otherwise; `conflict` when the result says
   * verified and another page has this domain verified already.
   */
  recordDomainCheck(
    workspaceId: string,
    id: string,
    expected: Pick<StatusPage, 'custom_domain' | 'custom_domain_token'>,
    next: CustomDomainProof,
  ): Promise<boolean>;
  /** Pages with a custom domain never checked or last checked before `checkedBefore`; oldest first. */
  listDomainsDue(checkedBefore: Date, limit: number): Promise<StatusPage[]>;
  /** Newest first. */
  listStatusPages(workspaceId: string, query: PageQuery): Promise<Page<StatusPage>>;
  /** How many pages the workspace has (the plan's `max_status_pages`). */
  countStatusPages(workspaceId: string): Promise<number>;
  /** Every page (all workspaces) with `auto_draft_incidents` on. */
  listAutoDraftPages(): Promise<StatusPage[]>;
  /** Replaces the page; false when it is gone; `conflict` as on insert. */
  updateStatusPage(page: StatusPage): Promise<boolean>;
  /** Deletes the page, its incidents and its subscribers (and their mail); false when it was not there. */
  deleteStatusPage(workspaceId: string, id: string): Promise<boolean>;

  /**
   * False (nothing stored) when an incident of the page already has this `auto_key`. With `announce`,
   * the subscribers' mail event is stored in the same step (a crash loses neither or both).
   */
  insertIncident(incident: Incident, announce?: IncidentMailEvent): Promise<boolean>;
  getIncident(workspaceId: string, pageId: string, id: string): Promise<Incident | null>;
  /** Newest first. */
  listIncidents(workspaceId: string, pageId: string, query: IncidentQuery): Promise<Page<Incident>>;
  /**
   * What the public page shows: the page's published incidents that are open, or were resolved at or
   * after `resolvedSince`; newest first, at most `limit`.
   */
  listPublicIncidents(
    workspaceId: string,
    pageId: string,
    resolvedSince: Date,
    limit: number,
  ): Promise<Incident[]>;
  /**
   * Writes `incident` (its version already bumped) if the stored one is at `expectedVersion`; with
   * `announce`, the subscribers' mail event in the same step.
   */
  updateIncident(incident: Incident, expectedVersion: number, announce?: IncidentMailEvent): Promise<boolean>;
  deleteIncident(workspaceId: string, pageId: string, id: string): Promise<boolean>;
  /** Deletes up to `limit` incidents resolved before `before`; returns how many. */
  pruneIncidents(before: Date, limit: number): Promise<number>;

  /**
   * The daily uptime buckets (domain/results/uptime.ts) of these monitors of the workspace for the
   * days in [fromDay, toDay), summed over locations; days without checks are left out.
   */
  dailyUptime(
    workspaceId: string,
    monitorIds: string[],
    fromDay: number,
    toDay: number,
  ): Promise<DailyUptime[]>;
}
