import type { Document } from 'mongodb';
import type { AlertHold, AlertHoldStore, SourceEvent } from '../../domain/alerts/alert-hold-store.js';
import {
  type DependencyGraphLookup,
  type DependencyNode,
  MAX_WALK,
} from '../../domain/monitors/depends-on.js';
import { openKey } from '../open-key.js';
import { type Collections, deleteSome, fromDocs, type IndexDecl, type MongoContext, toDoc } from './db.js';

/**
 * The dependency graph (monitors' and heartbeats' `depends_on`, by `_id`) and the held alerts with
 * their source timelines in MongoDB: `alert_holds` (`_id` = workspace|type|source, one per source) and
 * `source_events`. A step that touches two collections is one transaction.
 */
export const dependencyIndexes: IndexDecl[] = [
  { on: 'alertHolds', key: { due_at: 1 } },
  { on: 'alertHolds', key: { workspace_id: 1, source_id: 1 } },
  { on: 'sourceEvents', key: { workspace_id: 1, source_type: 1, source_id: 1, at: -1 } },
  { on: 'sourceEvents', key: { at: 1 } },
];

/** Documents stored before dependencies existed depend on nothing (SQLite's migration does the same). */
export const backfillDependsOn = async (col: Collections) => {
  for (const c of [col.monitors, col.heartbeats])
    await c.updateMany({ depends_on: { $exists: false } }, { $set: { depends_on: [] } });
};

const holdId = (h: Pick<AlertHold, 'workspace_id' | 'source_type' | 'source_id'>) =>
  `${h.workspace_id}|${h.source_type}|${h.source_id}`;
const holdOf = ({ _id, ...rest }: Document) => rest as AlertHold;
const DOWN_CAUSES = ['down', 'fail'];

/**
 * Events of one instant keep the order they were written in (`order`, the adapter's own field: the
 * writer's clock in µs plus a counter), as SQLite's rowid keeps it.
 */
let counter = 0;
const eventDoc = (e: SourceEvent) => ({ ...toDoc(e), order: Date.now() * 1000 + (counter++ % 1000) });
const eventOf = ({ order: _o, ...rest }: Document) => fromDocs<SourceEvent>([rest])[0]!;

export const mongoDependencies = ({
  col,
  inTransaction,
}: MongoContext): AlertHoldStore & DependencyGraphLookup => ({
  async getDependencyNodes(workspaceId, ids) {
    if (ids.length === 0) return [];
    const filter = { workspace_id: workspaceId, _id: { $in: ids } };
    const projection = { display_name: 1, depends_on: 1 };
    const [monitors, heartbeats] = await Promise.all([
      col.monitors.find(filter, { projection }).toArray(),
      col.heartbeats.find(filter, { projection }).toArray(),
    ]);
    const node = (kind: DependencyNode['kind']) => (d: Document) => ({
      id: d._id as string,
      kind,
      name: d.display_name as string,
      depends_on: (d.depends_on as string[] | undefined) ?? [],
    });
    const nodes: DependencyNode[] = [...monitors.map(node('monitor')), ...heartbeats.map(node('heartbeat'))];
    // A group's edges are its members (at most MAX_WALK), read by the group_id index.
    for (const g of await col.groups.find(filter, { projection: { name: 1 } }).toArray()) {
      const member = { workspace_id: workspaceId, group_id: g._id };
      const ids = [
        ...(await col.monitors
          .find(member, { projection: { _id: 1 } })
          .limit(MAX_WALK)
          .toArray()),
        ...(await col.heartbeats
          .find(member, { projection: { _id: 1 } })
          .limit(MAX_WALK)
          .toArray()),
      ].map((d) => d._id as string);
      nodes.push({
        id: g._id as string,
        kind: 'group',
        name: g.name as string,
        depends_on: ids.slice(0, MAX_WALK),
      });
    }
    return nodes;
  },

  async insertAlertHolds(items) {
    if (items.length === 0) return 0;
    return inTransaction(async (session) => {
      let added = 0;
      for (const { hold, event } of items) {
        const r = await col.alertHolds.updateOne(
          { _id: holdId(hold) },
          { $setOnInsert: { ...hold } },
          { upsert: true, session },
        );
        if (r.upsertedCount !== 1) continue;
        added++;
        if (event) await col.sourceEvents.insertOne(eventDoc(event), { session });
      }
      return added;
    });
  },
  async getAlertHolds(workspaceId, sourceIds) {
    if (sourceIds.length === 0) return [];
    return (
      await col.alertHolds.find({ workspace_id: workspaceId, source_id: { $in: sourceIds } }).toArray()
    ).map(holdOf);
  },
  async listDueAlertHolds(at, limit) {
    return (
      await col.alertHolds
        .find({ due_at: { $lte: at } })
        .sort({ due_at: 1 })
        .limit(limit)
        .toArray()
    ).map(holdOf);
  },
  async updateAlertHold(next, expectedVersion, extra = {}) {
    return inTransaction(async (session) => {
      const { workspace_id, source_type, source_id, ...rest } = next;
      const r = await col.alertHolds.updateOne(
        { _id: holdId(next), version: expectedVersion },
        { $set: { ...rest, version: expectedVersion + 1 } },
        { session },
      );
      if (r.modifiedCount !== 1) return false;
      if (extra.event) await col.sourceEvents.insertOne(eventDoc(extra.event), { session });
      if (extra.countOn) {
        const keys = DOWN_CAUSES.map((cause) =>
          openKey({
            workspace_id,
            source_type: extra.countOn!.source_type,
            source_id: extra.countOn!.source_id,
            cause,
            dedup_key: '',
          }),
        );
        await col.alerts.updateMany({ open_key: { $in: keys } }, { $inc: { held_back: 1 } }, { session });
      }
      return true;
    });
  },
  async deleteAlertHold(hold, expectedVersion, event) {
    return inTransaction(async (session) => {
      const r = await col.alertHolds.deleteOne({ _id: holdId(hold), version: expectedVersion }, { session });
      if (r.deletedCount !== 1) return false;
      if (event) await col.sourceEvents.insertOne(eventDoc(event), { session });
      return true;
    });
  },
  async listSourceEvents(workspaceId, sourceType, sourceId, limit) {
    return (
      await col.sourceEvents
        .find({ workspace_id: workspaceId, source_type: sourceType, source_id: sourceId })
        .sort({ at: -1, order: -1 })
        .limit(limit)
        .toArray()
    ).map(eventOf);
  },
  async pruneSourceEvents(before, limit) {
    return deleteSome(col.sourceEvents, { at: { $lt: before } }, limit);
  },
});
