import { z } from 'zod';
import type { AlertHoldStore, HoldSourceType } from '../domain/alerts/alert-hold-store.js';
import { SOURCE_EVENT_RETENTION_DAYS, SOURCE_EVENTS_SHOWN } from '../domain/alerts/alert-hold-store.js';
import type { DependencyGraphLookup, DependencyNode } from '../domain/monitors/depends-on.js';
import { responseSchemas, time } from './responses.js';

/**
 * What monitors and heartbeats show of their dependencies: `suppressed_by` (from the holds, one read per
 * page) and the dependency timeline (`GET /monitors/{id}/timeline`, `GET /heartbeats/{id}/timeline`).
 */

/** The dependency that holds each of these sources' alert back now, by source id (one indexed read). */
export const suppressedBy = async (
  store: Pick<AlertHoldStore, 'getAlertHolds'>,
  workspaceId: string,
  ids: string[],
): Promise<Map<string, string>> => {
  const holds = ids.length > 0 ? await store.getAlertHolds(workspaceId, ids) : [];
  return new Map(
    holds
      .filter((h) => h.state === 'suppressed' && h.suppressed_by)
      .map((h) => [h.source_id, h.suppressed_by!]),
  );
};

export const dependencyResponse = z
  .strictObject({
    id: z.string(),
    kind: z.enum(['monitor', 'heartbeat', 'group']),
    name: z.string(),
  })
  .register(responseSchemas, { id: 'Dependency' });

/**
 * What records of a page depend on, with kinds and names: one read for the whole page, none when
 * nothing on it has dependencies (the common case).
 */
export const dependencyNodes = async (
  store: DependencyGraphLookup,
  workspaceId: string,
  records: { depends_on?: string[] | null }[],
): Promise<Map<string, DependencyNode>> => {
  const ids = [...new Set(records.flatMap((r) => r.depends_on ?? []))];
  if (ids.length === 0) return new Map();
  return new Map((await store.getDependencyNodes(workspaceId, ids)).map((n) => [n.id, n]));
};

/** A record's dependencies as the API shows them, in its order; one gone since is left out. */
export const dependenciesJson = (
  dependsOn: string[] | null | undefined,
  nodes: Map<string, DependencyNode>,
): z.output<typeof dependencyResponse>[] =>
  (dependsOn ?? []).flatMap((id) => {
    const n = nodes.get(id);
    return n ? [{ id, kind: n.kind, name: n.name }] : [];
  });

export const timelineResponse = z
  .strictObject({
    data: z.array(
      z.strictObject({
        at: time,
        kind: z.enum(['held', 'suppressed', 'released', 'raised', 'cleared']),
        dependency_id: z.string().nullable(),
        message: z.string(),
      }),
    ),
    retention_days: z.number().int(),
  })
  .register(responseSchemas, { id: 'DependencyTimeline' });

export const TIMELINE_SUMMARY = `What its dependencies did to its alert, newest first (at most ${SOURCE_EVENTS_SHOWN}; kept ${SOURCE_EVENT_RETENTION_DAYS} days): \`held\` (went down, waits until its dependencies are checked), \`suppressed\` (a dependency is down: no alert), \`released\` (the dependency recovered), \`raised\` (its alert was raised after all), \`cleared\` (it recovered while held: no alert).`;

export const timelineJson = async (
  store: Pick<AlertHoldStore, 'listSourceEvents'>,
  workspaceId: string,
  type: HoldSourceType,
  id: string,
): Promise<z.output<typeof timelineResponse>> => ({
  data: (await store.listSourceEvents(workspaceId, type, id, SOURCE_EVENTS_SHOWN)).map((e) => ({
    at: e.at.toISOString(),
    kind: e.kind,
    dependency_id: e.dependency_id,
    message: e.message,
  })),
  retention_days: SOURCE_EVENT_RETENTION_DAYS,
});
