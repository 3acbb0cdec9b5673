import type { AlertHold, AlertHoldStore, SourceEvent } from '../../domain/alerts/alert-hold-store.js';
import {
  type DependencyGraphLookup,
  type DependencyNode,
  MAX_WALK,
} from '../../domain/monitors/depends-on.js';
import { openKey } from '../open-key.js';
import type { SqliteContext } from './db.js';
import { insertSql, type Table, toRow } from './tables.js';

/** Layout of alert_holds (migrations/0034-dependencies.ts, frozen SQL). */
export const alertHolds: Table = {
  name: 'alert_holds',
  columns: {
    workspace_id: 'text',
    source_type: 'text',
    source_id: 'text',
    state: 'text',
    suppressed_by: 'text',
    since: 'date',
    hold_until: 'date',
    due_at: 'date',
    version: 'int',
  },
};

/** Layout of source_events (migrations/0034-dependencies.ts). */
export const sourceEvents: Table = {
  name: 'source_events',
  columns: {
    id: 'text',
    workspace_id: 'text',
    source_type: 'text',
    source_id: 'text',
    at: 'date',
    kind: 'text',
    dependency_id: 'text',
    message: 'text',
  },
};

/** The causes of a source's alert that counts the dependents it holds back. */
const DOWN_CAUSES = ['down', 'fail'];

/**
 * The dependency graph (monitors' and heartbeats' `depends_on`, by primary key) and the held alerts
 * with their source timelines, in SQLite. Every step that changes two tables is one IMMEDIATE
 * transaction.
 */
export const sqliteDependencies = ({
  st,
  many,
  immediate,
}: SqliteContext): AlertHoldStore & DependencyGraphLookup => {
  const addEvent = (e: SourceEvent | undefined) => {
    if (e) st(insertSql(sourceEvents)).run(toRow(sourceEvents, e));
  };
  return {
    async getDependencyNodes(workspaceId, ids) {
      if (ids.length === 0) return [];
      const rows = st(
        `SELECT id, 'monitor' AS kind, display_name AS name, depends_on FROM monitors
           WHERE workspace_id = ? AND id IN (SELECT value FROM json_each(?))
         UNION ALL
         SELECT id, 'heartbeat' AS kind, display_name AS name, depends_on FROM heartbeats
           WHERE workspace_id = ? AND id IN (SELECT value FROM json_each(?))`,
      ).all(workspaceId, JSON.stringify(ids), workspaceId, JSON.stringify(ids)) as {
        id: string;
        kind: DependencyNode['kind'];
        name: string;
        depends_on: string | null;
      }[];
      const nodes: DependencyNode[] = rows.map((r) => ({
        ...r,
        depends_on: JSON.parse(r.depends_on ?? '[]') as string[],
      }));
      // A group's edges are its members (at most MAX_WALK), read by the group index.
      const groups = st(
        'SELECT id, name FROM groups WHERE workspace_id = ? AND id IN (SELECT value FROM json_each(?))',
      ).all(workspaceId, JSON.stringify(ids)) as { id: string; name: string }[];
      for (const g of groups) {
        const members = st(
          `SELECT id FROM monitors WHERE workspace_id = ? AND group_id = ?
           UNION ALL SELECT id FROM heartbeats WHERE workspace_id = ? AND group_id = ? LIMIT ?`,
        ).all(workspaceId, g.id, workspaceId, g.id, MAX_WALK) as { id: string }[];
        nodes.push({ id: g.id, kind: 'group', name: g.name, depends_on: members.map((m) => m.id) });
      }
      return nodes;
    },

    async insertAlertHolds(items) {
      if (items.length === 0) return 0;
      return immediate(() => {
        let added = 0;
        for (const { hold, event } of items) {
          if (
            st(insertSql(alertHolds).replace('INSERT', 'INSERT OR IGNORE')).run(toRow(alertHolds, hold))
              .changes === 1
          ) {
            added++;
            addEvent(event);
          }
        }
        return added;
      });
    },
    async getAlertHolds(workspaceId, sourceIds) {
      if (sourceIds.length === 0) return [];
      return many<AlertHold>(
        alertHolds,
        'SELECT * FROM alert_holds WHERE workspace_id = ? AND source_id IN (SELECT value FROM json_each(?))',
        workspaceId,
        JSON.stringify(sourceIds),
      );
    },
    async listDueAlertHolds(at, limit) {
      return many<AlertHold>(
        alertHolds,
        'SELECT * FROM alert_holds WHERE due_at <= ? ORDER BY due_at LIMIT ?',
        at.getTime(),
        limit,
      );
    },
    async updateAlertHold(next, expectedVersion, extra = {}) {
      return immediate(() => {
        const row = toRow(alertHolds, { ...next, version: expectedVersion + 1 });
        const changed =
          st(
            `UPDATE alert_holds SET state = @state, suppressed_by = @suppressed_by, since = @since,
               hold_until = @hold_until, due_at = @due_at, version = @version
             WHERE workspace_id = @workspace_id AND source_type = @source_type AND source_id = @source_id
               AND version = ${Number(expectedVersion)}`,
          ).run(row).changes === 1;
        if (!changed) return false;
        addEvent(extra.event);
        if (extra.countOn) {
          const keys = DOWN_CAUSES.map((cause) =>
            openKey({
              workspace_id: next.workspace_id,
              source_type: extra.countOn!.source_type,
              source_id: extra.countOn!.source_id,
              cause,
              dedup_key: '',
            }),
          );
          st(
            'UPDATE alerts SET held_back = coalesce(held_back, 0) + 1 WHERE open_key IN (SELECT value FROM json_each(?))',
          ).run(JSON.stringify(keys));
        }
        return true;
      });
    },
    async deleteAlertHold(hold, expectedVersion, event) {
      return immediate(() => {
        const gone =
          st(
            `DELETE FROM alert_holds WHERE workspace_id = ? AND source_type = ? AND source_id = ? AND version = ?`,
          ).run(hold.workspace_id, hold.source_type, hold.source_id, expectedVersion).changes === 1;
        if (gone) addEvent(event);
        return gone;
      });
    },
    async listSourceEvents(workspaceId, sourceType, sourceId, limit) {
      return many<SourceEvent>(
        sourceEvents,
        `SELECT * FROM source_events WHERE workspace_id = ? AND source_type = ? AND source_id = ?
           ORDER BY at DESC, rowid DESC LIMIT ?`,
        workspaceId,
        sourceType,
        sourceId,
        limit,
      );
    },
    async pruneSourceEvents(before, limit) {
      return st(
        'DELETE FROM source_events WHERE id IN (SELECT id FROM source_events WHERE at < ? LIMIT ?)',
      ).run(before.getTime(), limit).changes;
    },
  };
};
