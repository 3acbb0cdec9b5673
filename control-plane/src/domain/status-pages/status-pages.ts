import { randomBytes } from 'node:crypto';
import { AppError, type FieldProblem, newId, validationError } from '@lookout/shared';
import { z } from 'zod';
import type { HeartbeatStore } from '../heartbeats/heartbeat-store.js';
import type { GroupStore } from '../monitors/group-store.js';
import { groupProblems } from '../monitors/labels.js';
import type { MonitorStore } from '../monitors/monitor-store.js';
import { hashPassword } from '../tenancy/passwords.js';
import { freeText, nameText, problemsIn, throwIfProblems, uuid } from '../validation.js';
import { freshProof } from './custom-domain-proof.js';
import {
  COMPONENT_STATUSES,
  PAGE_VISIBILITIES,
  type StatusComponent,
  type StatusPage,
  type StatusPageStore,
} from './status-page-store.js';

/** Incidents resolved longer ago than this are pruned (the page shows the last weeks; the API a year). */
export const INCIDENT_RETENTION_DAYS = 365;
export const MAX_COMPONENTS = 100;

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const slug = z
  .string()
  .max(64)
  .regex(SLUG_PATTERN, 'must be lower-case letters, digits and dashes (not at either end)');
/** A host name of at least two labels, lower case once stored. */
const DOMAIN_PATTERN =
  /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;
const domain = z.string().regex(DOMAIN_PATTERN, 'must be a host name such as status.example.com');
const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb');
const password = z.string().min(8).max(200);

const componentBody = z.strictObject({
  /** Keeps a component (and its history and incident links) across an edit; omitted: a new one. */
  id: uuid().optional(),
  name: nameText(200),
  description: freeText(1000, 'one').nullable().optional(),
  group: nameText(100).nullable().optional(),
  monitor_id: uuid().nullable().optional(),
  heartbeat_id: uuid().nullable().optional(),
  /** A group of monitors and heartbeats (GET /groups): the component shows the worst of their statuses. */
  group_id: uuid().nullable().optional(),
  /** For a component set by hand (neither monitor nor heartbeat nor group): its status. */
  status: z.enum(COMPONENT_STATUSES).optional(),
});

export const createStatusPageBody = z.strictObject({
  name: nameText(200),
  slug,
  custom_domain: domain.nullable().optional(),
  visibility: z.enum(PAGE_VISIBILITIES).default('public'),
  /** Required for visibility `password` (on create, or when switching to it); write-only. */
  password: password.optional(),
  accent_color: colour.nullable().optional(),
  auto_draft_incidents: z.boolean().default(false),
  components: z.array(componentBody).max(MAX_COMPONENTS).default([]),
});

export const updateStatusPageBody = z.strictObject({
  name: nameText(200).optional(),
  slug: slug.optional(),
  custom_domain: domain.nullable().optional(),
  visibility: z.enum(PAGE_VISIBILITIES).optional(),
  password: password.optional(),
  accent_color: colour.nullable().optional(),
  auto_draft_incidents: z.boolean().optional(),
  /** Replaces the list; each component keeps its `id` when given one of the page's. */
  components: z.array(componentBody).max(MAX_COMPONENTS).optional(),
});

type ComponentInput = z.output<typeof componentBody>;
type Store = StatusPageStore & MonitorStore & HeartbeatStore & Pick<GroupStore, 'getGroupsByIds'>;

/** A fresh key for the readers' access cookies (see StatusPage.cookie_secret). */
const newCookieSecret = () => randomBytes(32).toString('base64url');

/** Problems of each component's links: a monitor or heartbeat that is not the workspace's, or both. */
const linkProblems = async (
  store: Store,
  workspaceId: string,
  input: (readonly [number, ComponentInput])[],
  problems: FieldProblem[],
) => {
  for (const [i, c] of input) {
    const at = (f: string) => `components[${i}].${f}`;
    const monitorId = c.monitor_id?.toLowerCase() ?? null;
    const heartbeatId = c.heartbeat_id?.toLowerCase() ?? null;
    const groupId = c.group_id?.toLowerCase() ?? null;
    if ([monitorId, heartbeatId, groupId].filter(Boolean).length > 1)
      problems.push({
        field: at(groupId ? 'group_id' : 'heartbeat_id'),
        message: 'a component shows one monitor, one heartbeat or one group, not several',
      });
    if (monitorId && !(await store.getMonitor(workspaceId, monitorId)))
      problems.push({ field: at('monitor_id'), message: 'no monitor with this id in the workspace' });
    if (heartbeatId && !(await store.getHeartbeat(workspaceId, heartbeatId)))
      problems.push({ field: at('heartbeat_id'), message: 'no heartbeat with this id in the workspace' });
    if (c.status && (monitorId || heartbeatId || groupId))
      problems.push({ field: at('status'), message: 'only a component set by hand takes a status' });
  }
  // The groups of every component in one read.
  problems.push(
    ...(await groupProblems(
      store,
      workspaceId,
      input.map(([i, c]) => ({ field: `components[${i}].group_id`, id: c.group_id?.toLowerCase() ?? null })),
    )),
  );
};

/** The components as stored, or the problems of each (a link to another workspace's monitor, …). */
const buildComponents = async (
  store: Store,
  workspaceId: string,
  input: ComponentInput[],
  existing: StatusComponent[],
  problems: FieldProblem[],
): Promise<StatusComponent[]> => {
  await linkProblems(store, workspaceId, [...input.entries()], problems);
  const known = new Set(existing.map((c) => c.id));
  const seen = new Set<string>();
  const out: StatusComponent[] = [];
  for (const [i, c] of input.entries()) {
    const id = c.id?.toLowerCase();
    if (id && (!known.has(id) || seen.has(id)))
      problems.push({
        field: `components[${i}].id`,
        message: 'not a component of this page (omit it for a new one)',
      });
    if (id) seen.add(id);
    out.push({
      id: id ?? newId(),
      name: c.name,
      description: c.description ?? null,
      group: c.group ?? null,
      monitor_id: c.monitor_id?.toLowerCase() ?? null,
      heartbeat_id: c.heartbeat_id?.toLowerCase() ?? null,
      group_id: c.group_id?.toLowerCase() ?? null,
      manual_status: c.status ?? existing.find((e) => e.id === id)?.manual_status ?? 'operational',
    });
  }
  return out;
};

/** A domain another page has proved is taken (an unproved claim takes nothing: custom-domain-proof.ts). */
const takenDomain = async (store: StatusPageStore, domain: string | null, pageId: string | null) => {
  const holder = domain ? await store.getStatusPageByDomain(domain) : null;
  if (holder && holder.id !== pageId)
    throw new AppError('conflict', 'This custom domain is already used by another status page.', [
      { field: 'custom_domain', message: 'is already used by another status page' },
    ]);
};

/**
 * Parses a page's body, or throws one 422 naming every bad field: those the schema refuses and, in
 * the same answer, the links of every component that does parse (an empty name and a bad slug do not
 * hide an unknown monitor).
 */
const parseBody = async <T>(
  schema: z.ZodType<T>,
  store: Store,
  workspaceId: string,
  body: unknown,
): Promise<T> => {
  const r = problemsIn(schema, body);
  if (r.problems.length === 0) return r.data as T;
  const problems = r.problems.map((d) => (d.field === '(body)' ? { ...d, field: 'body' } : d));
  const raw = (body as { components?: unknown } | null)?.components;
  if (Array.isArray(raw)) {
    const parsed = raw.flatMap((c, i) => {
      const p = componentBody.safeParse(c);
      return p.success ? [[i, p.data] as const] : [];
    });
    await linkProblems(store, workspaceId, parsed, problems);
  }
  throw validationError(problems);
};

/** A custom domain may not be the service's own domain or a workspace host under it. */
const domainProblems = (customDomain: string | null | undefined, serviceDomain: string): FieldProblem[] => {
  if (!customDomain) return [];
  const d = customDomain.toLowerCase();
  const s = serviceDomain.toLowerCase();
  return d === s || d.endsWith(`.${s}`)
    ? [{ field: 'custom_domain', message: `must not be ${s} or a host under it (those are workspace hosts)` }]
    : [];
};

export const createStatusPage = async (
  store: Store,
  workspaceId: string,
  body: unknown,
  now: Date,
  serviceDomain: string,
  /** The plan's cap (402 once reached; counted, then inserted, as heartbeats). */
  plan?: { name: string; maxStatusPages: number | undefined },
): Promise<StatusPage> => {
  const v = await parseBody(createStatusPageBody, store, workspaceId, body);
  const problems: FieldProblem[] = [...domainProblems(v.custom_domain, serviceDomain)];
  if (v.visibility === 'password' && !v.password)
    problems.push({ field: 'password', message: 'is required for a page protected by a password' });
  if (v.visibility === 'public' && v.password)
    problems.push({ field: 'password', message: 'must be omitted for a public page' });
  const components = await buildComponents(store, workspaceId, v.components, [], problems);
  throwIfProblems(problems);
  await takenDomain(store, v.custom_domain?.toLowerCase() ?? null, null);
  const page: StatusPage = {
    id: newId(),
    workspace_id: workspaceId,
    name: v.name,
    slug: v.slug,
    custom_domain: v.custom_domain?.toLowerCase() ?? null,
    ...freshProof(v.custom_domain?.toLowerCase() ?? null),
    visibility: v.visibility,
    password_hash: v.password ? await hashPassword(v.password) : null,
    cookie_secret: newCookieSecret(),
    accent_color: v.accent_color?.toLowerCase() ?? null,
    auto_draft_incidents: v.auto_draft_incidents,
    components,
    created_at: now,
    updated_at: now,
  };
  const max = plan?.maxStatusPages;
  if (max !== undefined && (await store.countStatusPages(workspaceId)) >= max)
    throw new AppError(
      'plan_limit_reached',
      `The ${plan!.name} plan allows ${max} status page${max === 1 ? '' : 's'} and this workspace has reached that limit. Upgrade your plan to add more status pages.`,
    );
  await store.insertStatusPage(page);
  return page;
};

export const loadStatusPage = async (store: StatusPageStore, workspaceId: string, id: string) => {
  const page = await store.getStatusPage(workspaceId, id);
  if (!page) throw new AppError('not_found', 'Status page not found.');
  return page;
};

/** Edits a page: every field given replaces the stored one; a new password also ends every reader's access. */
export const updateStatusPage = async (
  store: Store,
  workspaceId: string,
  id: string,
  body: unknown,
  now: Date,
  serviceDomain: string,
): Promise<StatusPage> => {
  const v = await parseBody(updateStatusPageBody, store, workspaceId, body);
  const existing = await loadStatusPage(store, workspaceId, id);
  const problems: FieldProblem[] = [...domainProblems(v.custom_domain, serviceDomain)];
  const visibility = v.visibility ?? existing.visibility;
  if (visibility === 'password' && !v.password && !existing.password_hash)
    problems.push({ field: 'password', message: 'is required for a page protected by a password' });
  if (visibility === 'public' && v.password)
    problems.push({ field: 'password', message: 'must be omitted for a public page' });
  const components = v.components
    ? await buildComponents(store, workspaceId, v.components, existing.components, problems)
    : existing.components;
  throwIfProblems(problems);
  const newPassword = visibility === 'password' && v.password !== undefined;
  // A different domain must be proved again (custom-domain-proof.ts); the same one keeps its proof.
  const domain =
    v.custom_domain === undefined ? existing.custom_domain : (v.custom_domain?.toLowerCase() ?? null);
  if (domain !== existing.custom_domain) await takenDomain(store, domain, existing.id);
  const next: StatusPage = {
    ...existing,
    ...(v.name !== undefined ? { name: v.name } : {}),
    ...(v.slug !== undefined ? { slug: v.slug } : {}),
    ...(domain !== existing.custom_domain ? { custom_domain: domain, ...freshProof(domain) } : {}),
    ...(v.accent_color !== undefined ? { accent_color: v.accent_color?.toLowerCase() ?? null } : {}),
    ...(v.auto_draft_incidents !== undefined ? { auto_draft_incidents: v.auto_draft_incidents } : {}),
    visibility,
    password_hash:
      visibility === 'public' ? null : newPassword ? await hashPassword(v.password!) : existing.password_hash,
    cookie_secret:
      newPassword || visibility !== existing.visibility ? newCookieSecret() : existing.cookie_secret,
    components,
    updated_at: now,
  };
  if (!(await store.updateStatusPage(next))) throw new AppError('not_found', 'Status page not found.');
  return next;
};

export const deleteStatusPage = async (store: StatusPageStore, workspaceId: string, id: string) => {
  if (!(await store.deleteStatusPage(workspaceId, id)))
    throw new AppError('not_found', 'Status page not found.');
};
