import { AppError, type FieldProblem, newId } from '@lookout/shared';
import { z } from 'zod';
import { freeText, nameText, parseOrThrow, throwIfProblems } from '../validation.js';
import {
  COMPONENT_STATUSES,
  type ComponentStatus,
  INCIDENT_STATUSES,
  type Incident,
  type IncidentUpdate,
  type StatusPage,
  type StatusPageStore,
} from './status-page-store.js';
import { loadStatusPage } from './status-pages.js';
import type { IncidentMailEvent } from './subscriber-store.js';
import { mailEventOf } from './subscribers.js';

const message = freeText(10_000, 'many').trim().min(1);
const affected = z.record(z.string(), z.enum(COMPONENT_STATUSES));

export const createIncidentBody = z.strictObject({
  title: nameText(200),
  status: z.enum(INCIDENT_STATUSES).default('investigating'),
  message,
  /** `{<component id>: <component status>}`: the components affected and how badly. */
  components: affected.default({}),
  /** False: a draft, shown to nobody outside the team until published. */
  published: z.boolean().default(true),
});

export const incidentUpdateBody = z.strictObject({
  status: z.enum(INCIDENT_STATUSES),
  message,
  components: affected.optional(),
});

export const editIncidentBody = z.strictObject({
  title: nameText(200).optional(),
  /** Markdown, on a resolved incident (null removes it); rendered safely on the page. */
  postmortem: freeText(100_000, 'many').nullable().optional(),
});

const componentProblems = (page: StatusPage, components: Record<string, ComponentStatus> | undefined) => {
  const ids = new Set(page.components.map((c) => c.id));
  return Object.keys(components ?? {})
    .filter((id) => !ids.has(id))
    .map((id): FieldProblem => ({ field: `components.${id}`, message: 'not a component of this page' }));
};

/** What the incident now says of each component: the newest update naming one wins; resolved says nothing. */
const mergeComponents = (
  current: Record<string, ComponentStatus>,
  stated: Record<string, ComponentStatus> | undefined,
) => ({ ...current, ...(stated ?? {}) });

export const loadIncident = async (
  store: StatusPageStore,
  workspaceId: string,
  pageId: string,
  id: string,
) => {
  const incident = await store.getIncident(workspaceId, pageId, id);
  if (!incident) throw new AppError('not_found', 'Incident not found.');
  return incident;
};

/** Opens an incident with its first update (a person's, or the system's for an automatic draft). */
export const newIncident = (
  page: StatusPage,
  v: {
    title: string;
    status: Incident['status'];
    message: string;
    components: Record<string, ComponentStatus>;
    published: boolean;
  },
  now: Date,
  by: string | null,
  autoKey: string | null = null,
): Incident => {
  const resolved = v.status === 'resolved';
  return {
    id: newId(),
    workspace_id: page.workspace_id,
    page_id: page.id,
    title: v.title,
    status: v.status,
    published: v.published,
    auto_key: autoKey,
    components: v.components,
    updates: [
      {
        id: newId(),
        status: v.status,
        message: v.message,
        components: v.components,
        created_at: now,
        created_by: by,
      },
    ],
    postmortem: null,
    created_at: now,
    updated_at: now,
    resolved_at: resolved ? now : null,
    version: 1,
  };
};

export const createIncident = async (
  store: StatusPageStore,
  workspaceId: string,
  pageId: string,
  body: unknown,
  now: Date,
  by: string,
): Promise<Incident> => {
  const v = parseOrThrow(createIncidentBody, body);
  const page = await loadStatusPage(store, workspaceId, pageId);
  throwIfProblems(componentProblems(page, v.components));
  const incident = newIncident(page, v, now, by);
  await store.insertIncident(incident, mailEventOf(incident, incident.updates[0]!));
  return incident;
};

/** Writes `change(current)` by compare-and-set, reading again when another write came between. */
const changeIncident = async (
  store: StatusPageStore,
  workspaceId: string,
  pageId: string,
  id: string,
  change: (current: Incident) => Incident,
  /** What subscribers are to hear of the change (stored with it), if anything. */
  announce?: (next: Incident, current: Incident) => IncidentMailEvent | undefined,
): Promise<Incident> => {
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await loadIncident(store, workspaceId, pageId, id);
    const next = { ...change(current), version: current.version + 1 };
    if (await store.updateIncident(next, current.version, announce?.(next, current))) return next;
  }
  throw new AppError('conflict', 'The incident is being changed by others; try again.');
};

/** Posts an update: its status becomes the incident's; resolving closes it. */
export const postIncidentUpdate = async (
  store: StatusPageStore,
  workspaceId: string,
  pageId: string,
  id: string,
  body: unknown,
  now: Date,
  by: string,
): Promise<Incident> => {
  const v = parseOrThrow(incidentUpdateBody, body);
  const page = await loadStatusPage(store, workspaceId, pageId);
  throwIfProblems(componentProblems(page, v.components));
  const update: IncidentUpdate = {
    id: newId(),
    status: v.status,
    message: v.message,
    components: v.components ?? {},
    created_at: now,
    created_by: by,
  };
  return changeIncident(
    store,
    workspaceId,
    pageId,
    id,
    (i) => {
      const resolved = v.status === 'resolved';
      return {
        ...i,
        status: v.status,
        components: mergeComponents(i.components, v.components),
        updates: [...i.updates, update],
        resolved_at: resolved ? (i.resolved_at ?? now) : null,
        updated_at: now,
      };
    },
    (next) => mailEventOf(next, update),
  );
};

/** Renames an incident or sets its post-mortem (only once it is resolved). */
export const editIncident = async (
  store: StatusPageStore,
  workspaceId: string,
  pageId: string,
  id: string,
  body: unknown,
  now: Date,
): Promise<Incident> => {
  const v = parseOrThrow(editIncidentBody, body);
  return changeIncident(store, workspaceId, pageId, id, (i) => {
    if (v.postmortem && i.status !== 'resolved')
      throwIfProblems([{ field: 'postmortem', message: 'can be written once the incident is resolved' }]);
    return {
      ...i,
      ...(v.title !== undefined ? { title: v.title } : {}),
      ...(v.postmortem !== undefined ? { postmortem: v.postmortem?.trim() || null } : {}),
      updated_at: now,
    };
  });
};

/** Makes a draft public (an automatic draft is a person's incident from then on). */
export const publishIncident = (
  store: StatusPageStore,
  workspaceId: string,
  pageId: string,
  id: string,
  now: Date,
) =>
  changeIncident(
    store,
    workspaceId,
    pageId,
    id,
    (i) => {
      if (i.published) throw new AppError('conflict', 'This incident is already published.');
      return { ...i, published: true, updated_at: now };
    },
    (next) => mailEventOf(next, next.updates[next.updates.length - 1]!),
  );

/**
 * Discards a draft: it is closed and stays unpublished (kept, so that the outage that opened an
 * automatic draft does not open another). 409 for a published incident: resolve that one.
 */
export const discardIncident = (
  store: StatusPageStore,
  workspaceId: string,
  pageId: string,
  id: string,
  now: Date,
) =>
  changeIncident(store, workspaceId, pageId, id, (i) => {
    if (i.published)
      throw new AppError('conflict', 'Only a draft can be discarded; resolve a published incident.');
    return { ...i, status: 'resolved', resolved_at: i.resolved_at ?? now, updated_at: now };
  });

/** Deletes an incident for good. */
export const deleteIncident = async (
  store: StatusPageStore,
  workspaceId: string,
  pageId: string,
  id: string,
) => {
  if (!(await store.deleteIncident(workspaceId, pageId, id)))
    throw new AppError('not_found', 'Incident not found.');
};
