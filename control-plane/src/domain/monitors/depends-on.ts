import type { FieldProblem } from '@lookout/shared';
import { z } from 'zod';
import { uuid } from '../validation.js';

/**
 * `depends_on` of monitors and heartbeats: ids of monitors, heartbeats or groups of the same workspace
 * (issue 53, "Dependencies"). While a dependency is down, a dependent's failure raises no alert
 * (domain/dependencies/). Checked on every create and edit: each id must name a record of the
 * workspace, none the record itself, and the new edges must close no cycle. The cycle check walks only
 * what is reachable from the new edges, level by level, one read per level, and stops after
 * MAX_WALK nodes: it never loads the workspace's monitors.
 */

/** At most this many dependencies per monitor or heartbeat. */
export const MAX_DEPENDS_ON = 20;
/** The cycle check reads at most this many records; a graph deeper than that is refused as too deep. */
export const MAX_WALK = 2_000;

export const dependsOnField = z
  .array(uuid())
  .max(MAX_DEPENDS_ON)
  .describe(
    `Ids of monitors, heartbeats or groups of the workspace this depends on (at most ${MAX_DEPENDS_ON}); while one is down, this one's failures raise no alert.`,
  );

export type DependencyKind = 'monitor' | 'heartbeat' | 'group';

/** One record of the dependency graph: what it is, its name and what it depends on. */
export interface DependencyNode {
  id: string;
  kind: DependencyKind;
  name: string;
  /** For a group: its members (a group is down by its members, so they are its edges). */
  depends_on: string[];
}

/**
 * The graph as stored: the records of these ids in the workspace (other workspaces' ids and unknown
 * ids are left out). A group's `depends_on` lists its members (at most MAX_WALK of them).
 * Adapters: store/sqlite/dependencies.ts, store/mongo/dependencies.ts.
 */
export interface DependencyGraphLookup {
  getDependencyNodes(workspaceId: string, ids: string[]): Promise<DependencyNode[]>;
}

/** Duplicates removed, order kept, ids lower-cased (uuids compare case-insensitively). */
export const normalDependsOn = (ids: readonly string[]): string[] => [
  ...new Set(ids.map((id) => id.toLowerCase())),
];

/**
 * Every problem with `ids` as the dependencies of `self` (a record being created or edited), each
 * naming `${field}[i]`: unknown or other-workspace ids, the record itself, and a cycle, whose message
 * names the path by names ("A → B → A"). Reads the graph level by level from the new edges.
 */
export const dependsOnProblems = async (
  lookup: DependencyGraphLookup,
  workspaceId: string,
  self: { id: string; name: string },
  ids: readonly string[],
  field = 'depends_on',
  /** What the record named before this change: an entry deleted since is left as it is, not refused. */
  kept: readonly string[] = [],
): Promise<FieldProblem[]> => {
  if (ids.length === 0) return [];
  const problems: FieldProblem[] = [];
  const nodes = new Map<string, DependencyNode>();
  for (const n of await lookup.getDependencyNodes(workspaceId, [...new Set(ids)])) nodes.set(n.id, n);
  ids.forEach((id, i) => {
    if (id === self.id)
      problems.push({
        field: `${field}[${i}]`,
        message: `is this record itself: ${self.name} → ${self.name}`,
      });
    else if (!nodes.has(id) && !kept.includes(id))
      problems.push({
        field: `${field}[${i}]`,
        message: 'no monitor, heartbeat or group with this id in the workspace',
      });
  });
  if (problems.length > 0) return problems;
  // Breadth-first from the new edges; `via` remembers how each node was reached, for the path.
  const via = new Map<string, string | null>();
  let level: string[] = [];
  for (const id of ids) {
    if (!via.has(id)) {
      via.set(id, null);
      level.push(id);
    }
  }
  const pathTo = (id: string): string[] => {
    const path: string[] = [];
    for (let at: string | null = id; at !== null; at = via.get(at) ?? null) path.unshift(at);
    return path;
  };
  while (level.length > 0) {
    const missing = level.filter((id) => !nodes.has(id));
    if (missing.length > 0)
      for (const n of await lookup.getDependencyNodes(workspaceId, missing)) nodes.set(n.id, n);
    const next: string[] = [];
    for (const id of level) {
      for (const dep of nodes.get(id)?.depends_on ?? []) {
        if (dep === self.id) {
          const names = [self.id, ...pathTo(id), self.id].map((x) =>
            x === self.id ? self.name : (nodes.get(x)?.name ?? x),
          );
          const first = pathTo(id)[0]!;
          return [
            {
              field: `${field}[${ids.indexOf(first)}]`,
              message: `would make a cycle: ${names.join(' → ')}`,
            },
          ];
        }
        if (via.has(dep)) continue;
        via.set(dep, id);
        next.push(dep);
      }
    }
    if (via.size > MAX_WALK)
      return [
        {
          field,
          message: `reaches more than ${MAX_WALK} records through their dependencies; keep the dependency chains shorter`,
        },
      ];
    level = next;
  }
  return [];
};
