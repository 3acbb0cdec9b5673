import type { ClientSession, Document } from 'mongodb';
import { nameKey, STATUS_OF_VERDICT } from '../../domain/monitors/monitor-status.js';
import {
  assertMonitorLevel,
  type MonitorQuery,
  type MonitorStore,
} from '../../domain/monitors/monitor-store.js';
import { DEFAULT_RETRY_INTERVAL_SECONDS } from '../../domain/monitors/monitors.js';
import type { Monitor, MonitorChange, MonitorLocationState } from '../../domain/types.js';
import {
  bumpGuard,
  type Collections,
  type Doc,
  deleteRecord,
  deleteSome,
  editRecord,
  escapeRegex,
  fromDoc,
  fromDocs,
  type IndexDecl,
  type MongoContext,
  page,
  type Query,
  runQuery,
  toDoc,
} from './db.js';

export const monitorIndexes: IndexDecl[] = [
  { on: 'monitors', key: { workspace_id: 1, created_at: -1, _id: -1 } },
  { on: 'monitors', key: { check_locations: 1, paused: 1 } },
  // The list's orders (monitor-status.ts): by status bucket then name, by name, by last change.
  { on: 'monitors', key: { workspace_id: 1, paused: 1, verdict: 1, name_key: 1, _id: 1 } },
  { on: 'monitors', key: { workspace_id: 1, name_key: 1, _id: 1 } },
  { on: 'monitors', key: { workspace_id: 1, status_changed_at: -1, _id: -1 } },
  { on: 'monitors', key: { workspace_id: 1, group_id: 1, paused: 1, verdict: 1, name_key: 1, _id: 1 } },
  // Filters by tag and by group (domain/monitors/labels.ts).
  { on: 'monitors', key: { workspace_id: 1, tags: 1 } },
  { on: 'monitors', key: { workspace_id: 1, group_id: 1 } },
  { on: 'monitorStates', key: { monitor_id: 1 } },
  { on: 'monitorChanges', key: { at: 1 } },
];

/** A location state's document id: one per (monitor, location); '*' is the monitor-level one. */
export const stateId = (monitorId: string, location: string) => `${monitorId}|${location}`;
export const stateOf = ({ _id, ...rest }: Document) => rest as MonitorLocationState;

/** The feed after `afterSeq`, oldest first (a range on `_id`, the seq). */
export const feedQuery = (afterSeq: number, limit: number): Query => ({
  filter: { _id: { $gt: afterSeq } },
  sort: { _id: 1 },
  limit,
});

const FEED = 'monitor_changes';

/** The named fields of a monitor (a bulk step's `$set`). */
const pick = (m: Monitor, fields: readonly (keyof Monitor)[]) =>
  Object.fromEntries(fields.map((f) => [f, m[f]]));

/** Bulk steps write this many documents per round trip, all in one transaction. */
const BULK_CHUNK = 1000;
/** Thrown inside a bulk transaction when one record is not as expected: aborts the whole step. */
const BULK_MISS = new Error('bulk step: a monitor changed meanwhile');

/**
 * The feed's counter starts at the highest seq already stored (never below it; `$max` never lowers
 * it), so a database whose counter is missing or behind (restored, or written by an older version)
 * goes on after its last entry instead of colliding with it. It exists before any transaction
 * bumps it: an upsert racing inside two transactions would fail one with a duplicate key.
 */
export const seedFeedCounter = async (col: Collections) => {
  const [last] = await col.monitorChanges.find({}).sort({ _id: -1 }).limit(1).toArray();
  await col.counters.updateOne({ _id: FEED }, { $max: { seq: last?._id ?? 0 } }, { upsert: true });
};

/**
 * Monitors stored before the retry interval existed get the default once (as SQLite's migration gives
 * them): 15 s, or their interval when that is shorter (domain/monitors/monitors.ts).
 */
export const backfillRetryIntervals = (col: Collections) =>
  col.monitors.updateMany({ retry_interval_seconds: { $exists: false } }, [
    {
      $set: {
        retry_interval_seconds: { $min: [DEFAULT_RETRY_INTERVAL_SECONDS, '$check_interval_seconds'] },
      },
    },
  ]);

/** A new monitor's document: the record, and what the list orders by (its verdict starts pending). */
const newDoc = (m: Monitor) => ({
  ...toDoc(m),
  verdict: 'pending',
  name_key: nameKey(m.display_name),
  status_changed_at: m.created_at,
});

/**
 * Monitors and heartbeats stored before groups and tags existed get none, and the default severity,
 * once (as SQLite's migration 33 gives them).
 */
export const backfillLabels = (col: Collections) =>
  Promise.all(
    [col.monitors, col.heartbeats].map((c) =>
      c.updateMany(
        { tags: { $exists: false } },
        { $set: { tags: [], group_id: null, severity: 'critical' } },
      ),
    ),
  );

/**
 * Monitors stored before check types had settings get none, once (as SQLite's migration 37 gives
 * them): their types' modules read an absent field as its default. Idempotent: only where missing.
 */
export const backfillCheckSettings = (col: Collections) =>
  col.monitors.updateMany({ settings: { $exists: false } }, { $set: { settings: {} } });

/**
 * Workspaces stored before the plan cap kept a counter get theirs from the monitors they hold, once:
 * only where the field is missing, so a counter that a create has seeded or moved meanwhile is left
 * as it is (a create that finds none seeds it in its own transaction).
 */
export const seedMonitorCounts = async (col: Collections) => {
  const ids = (
    await col.workspaces.find({ monitor_count: { $exists: false } }, { projection: { _id: 1 } }).toArray()
  ).map((w) => w._id);
  if (ids.length === 0) return;
  const counts = new Map(
    (
      await col.monitors
        .aggregate<{ _id: string; n: number }>([
          { $match: { workspace_id: { $in: ids } } },
          { $group: { _id: '$workspace_id', n: { $sum: 1 } } },
        ])
        .toArray()
    ).map((c) => [c._id, c.n]),
  );
  await col.workspaces.bulkWrite(
    ids.map((id) => ({
      updateOne: {
        filter: { _id: id, monitor_count: { $exists: false } },
        update: { $set: { monitor_count: counts.get(id) ?? 0 } },
      },
    })),
    { ordered: false },
  );
};

/**
 * Appends entries to the feed inside `session`'s transaction. Every writer bumps the one counter
 * document, so feed transactions conflict and serialize: seq order is commit order, no gaps.
 */
export const appendMonitorChanges = async (
  { counters, monitorChanges }: Collections,
  session: ClientSession,
  entries: Omit<MonitorChange, 'seq'>[],
) => {
  if (entries.length === 0) return;
  const c = await counters.findOneAndUpdate(
    { _id: FEED },
    { $inc: { seq: entries.length } },
    { upsert: true, returnDocument: 'after', session },
  );
  const last = (c?.seq as number) ?? entries.length;
  await monitorChanges.insertMany(
    entries.map((e, i) => ({ _id: last - entries.length + 1 + i, ...e })),
    { session },
  );
};

/** A 'changed' entry of the feed for one monitor. */
export const changed = (monitorId: string): Omit<MonitorChange, 'seq'> => ({
  monitor_id: monitorId,
  kind: 'changed',
  location: null,
  reason: null,
  request_id: null,
  at: new Date(),
});

/**
 * Monitors, the feed and location states. Every monitor write appends to the feed in its
 * transaction; inserts and deletes move the workspace's `monitor_count` (the plan cap) in it, and
 * inserts and updates write the workspace document (the counter, or its guard), because a policy
 * delete checks references (see routing.ts).
 */
export const mongoMonitors = (ctx: MongoContext): MonitorStore => {
  const { col, inTransaction } = ctx;
  const { workspaces, monitors, monitorChanges, monitorStates } = col;

  const appendChanges = (session: ClientSession, entries: Omit<MonitorChange, 'seq'>[]) =>
    appendMonitorChanges(col, session, entries);
  const getMonitor = async (workspaceId: string, id: string) =>
    fromDoc<Monitor>(await monitors.findOne({ workspace_id: workspaceId, _id: id }));
  /** A bulk transaction: a record not as expected (BULK_MISS) aborted it whole, so 'conflict'. */
  const bulkStep = async <T>(fn: (session: ClientSession) => Promise<T>): Promise<T | 'conflict'> => {
    try {
      return await inTransaction(fn);
    } catch (e) {
      if (e === BULK_MISS) return 'conflict';
      throw e;
    }
  };
  const latest = async () =>
    (await monitorChanges.find({}).sort({ _id: -1 }).limit(1).toArray())[0]?._id ?? 0;

  return {
    async insertMonitor(monitor, { maxMonitors }) {
      return inTransaction(async (session) => {
        const ws = monitor.workspace_id;
        // The workspace's counter, moved only below the cap. Writing the workspace document is also
        // its guard (a policy delete checks references, see routing.ts): concurrent creates conflict
        // on it and are retried, so none goes past the cap.
        const counted = await workspaces.updateOne(
          { _id: ws, monitor_count: { $lt: maxMonitors } },
          { $inc: { monitor_count: 1 } },
          { session },
        );
        if (counted.matchedCount !== 1) {
          const found = await workspaces.findOne({ _id: ws }, { session, projection: { monitor_count: 1 } });
          if (!found || typeof found.monitor_count === 'number') return 'limit_reached' as const;
          // A workspace whose counter init has not seeded yet (created by an older version meanwhile).
          const n = await monitors.countDocuments({ workspace_id: ws }, { session });
          const room = n < maxMonitors;
          await workspaces.updateOne(
            { _id: ws, monitor_count: { $exists: false } },
            { $set: { monitor_count: room ? n + 1 : n } },
            { session },
          );
          if (!room) return 'limit_reached' as const;
        }
        await monitors.insertOne(newDoc(monitor), { session });
        await appendChanges(session, [changed(monitor.id)]);
        return 'inserted' as const;
      });
    },
    async insertMonitors(list, { maxMonitors }) {
      if (list.length === 0) return 'inserted';
      const ws = list[0]!.workspace_id;
      if (list.some((m) => m.workspace_id !== ws)) throw new Error('insertMonitors: one workspace per batch');
      // One multi-document transaction: the counter moves by the batch's size only if all fit, the
      // documents go in with one ordered insertMany, the feed gets one entry each. Any failure (a
      // duplicate id, a write conflict past withTransaction's retries) aborts the transaction, so
      // none of the batch is stored.
      return inTransaction(async (session) => {
        const n = list.length;
        const counted = await workspaces.updateOne(
          { _id: ws, monitor_count: { $lte: maxMonitors - n } },
          { $inc: { monitor_count: n } },
          { session },
        );
        if (counted.matchedCount !== 1) {
          const found = await workspaces.findOne({ _id: ws }, { session, projection: { monitor_count: 1 } });
          if (!found || typeof found.monitor_count === 'number') return 'limit_reached' as const;
          // A workspace whose counter init has not seeded yet (see insertMonitor).
          const have = await monitors.countDocuments({ workspace_id: ws }, { session });
          if (have + n > maxMonitors) return 'limit_reached' as const;
          await workspaces.updateOne(
            { _id: ws, monitor_count: { $exists: false } },
            { $set: { monitor_count: have + n } },
            { session },
          );
        }
        await monitors.insertMany(list.map(newDoc), { session, ordered: true });
        await appendChanges(
          session,
          list.map((m) => changed(m.id)),
        );
        return 'inserted' as const;
      });
    },
    getMonitor,
    async countMonitors(workspaceId) {
      const w = await workspaces.findOne({ _id: workspaceId }, { projection: { monitor_count: 1 } });
      if (!w) return 0;
      // A counter not seeded yet (see insertMonitor): the monitors themselves.
      return typeof w.monitor_count === 'number'
        ? w.monitor_count
        : monitors.countDocuments({ workspace_id: workspaceId });
    },
    async listMonitors(workspaceId, q: MonitorQuery) {
      const f: Document = { workspace_id: workspaceId };
      if (q.monitor_type) f.monitor_type = q.monitor_type;
      if (q.paused !== undefined) f.paused = q.paused;
      if (q.search) {
        const re = new RegExp(escapeRegex(q.search), 'i');
        f.$or = [{ display_name: re }, { url: re }];
      }
      if (q.group_id !== undefined) f.group_id = q.group_id === 'none' ? null : q.group_id;
      if (q.tag !== undefined) f.tags = q.tag;
      return page<Monitor>(monitors, f, q);
    },
    async updateMonitor(next, expectedVersion) {
      return editRecord(ctx, monitors, next, async (session) => {
        // The whole record, but what the store keeps for the list: the verdict stays, the folded name
        // follows the name, and a change of `paused` is a change of status.
        const r = await monitors.updateOne(
          { _id: next.id, workspace_id: next.workspace_id, version: expectedVersion },
          [
            {
              $replaceWith: {
                $mergeObjects: [
                  { $literal: { ...toDoc(next), name_key: nameKey(next.display_name) } },
                  {
                    verdict: { $ifNull: ['$verdict', 'pending'] },
                    status_changed_at: {
                      $cond: [
                        { $ne: ['$paused', next.paused] },
                        { $literal: next.updated_at },
                        { $ifNull: ['$status_changed_at', '$created_at'] },
                      ],
                    },
                  },
                ],
              },
            },
          ],
          { session },
        );
        if (r.matchedCount === 1) await appendChanges(session, [changed(next.id)]);
        return r.matchedCount === 1;
      });
    },
    async deleteMonitor(workspaceId, id) {
      return deleteRecord(ctx, monitors, workspaceId, id, async (session) => {
        // An unseeded counter stays unseeded: seeding counts the monitors there are then.
        await workspaces.updateOne(
          { _id: workspaceId, monitor_count: { $exists: true } },
          { $inc: { monitor_count: -1 } },
          { session },
        );
        await appendChanges(session, [changed(id)]);
      });
    },
    async updateMonitors(changes, fields) {
      if (changes.length === 0) return 'updated';
      const ws = changes[0]!.next.workspace_id;
      if (changes.some((c) => c.next.workspace_id !== ws)) throw new Error('updateMonitors: one workspace');
      // One transaction (the workspace guard first, as editRecord), written in chunks; a chunk that
      // matches fewer than it names throws, which aborts the transaction: nothing is stored.
      return bulkStep(async (session) => {
        await bumpGuard(workspaces, ws, session);
        for (let i = 0; i < changes.length; i += BULK_CHUNK) {
          const chunk = changes.slice(i, i + BULK_CHUNK);
          const r = await monitors.bulkWrite(
            chunk.map(({ next, expectedVersion }) => ({
              updateOne: {
                filter: { _id: next.id, workspace_id: ws, version: expectedVersion },
                update: fields.includes('paused')
                  ? // A change of `paused` is a change of status (the list's last_change, monitor-status.ts).
                    [
                      {
                        $set: {
                          status_changed_at: {
                            $cond: [
                              { $ne: ['$paused', next.paused] },
                              { $literal: next.updated_at },
                              { $ifNull: ['$status_changed_at', '$created_at'] },
                            ],
                          },
                        },
                      },
                      {
                        $set: Object.fromEntries(
                          Object.entries(pick(next, [...fields, 'version', 'updated_at'])).map(([k, v]) => [
                            k,
                            { $literal: v },
                          ]),
                        ),
                      },
                    ]
                  : { $set: pick(next, [...fields, 'version', 'updated_at']) },
              },
            })),
            { session, ordered: true },
          );
          if (r.matchedCount !== chunk.length) throw BULK_MISS;
        }
        await appendChanges(
          session,
          changes.map((c) => changed(c.next.id)),
        );
        return 'updated' as const;
      });
    },
    async deleteMonitors(workspaceId, list) {
      if (list.length === 0) return 'deleted';
      return bulkStep(async (session) => {
        for (let i = 0; i < list.length; i += BULK_CHUNK) {
          const chunk = list.slice(i, i + BULK_CHUNK);
          const r = await monitors.bulkWrite(
            chunk.map(({ id, version }) => ({
              deleteOne: { filter: { _id: id, workspace_id: workspaceId, version } },
            })),
            { session, ordered: true },
          );
          if (r.deletedCount !== chunk.length) throw BULK_MISS;
        }
        // An unseeded counter stays unseeded (see deleteMonitor).
        await workspaces.updateOne(
          { _id: workspaceId, monitor_count: { $exists: true } },
          { $inc: { monitor_count: -list.length } },
          { session },
        );
        await appendChanges(
          session,
          list.map((m) => changed(m.id)),
        );
        return 'deleted' as const;
      });
    },

    async listRegionMonitors(region) {
      return fromDocs<Monitor>(await monitors.find({ check_locations: region, paused: false }).toArray());
    },
    async getMonitorsByIds(ids) {
      if (ids.length === 0) return [];
      return fromDocs<Monitor>(await monitors.find({ _id: { $in: ids } }).toArray());
    },
    async scanMonitors(afterId, limit) {
      return fromDocs<Monitor>(
        await monitors
          .find({ _id: { $gt: afterId ?? '' } })
          .sort({ _id: 1 })
          .limit(limit)
          .toArray(),
      );
    },

    async listMonitorChanges(afterSeq, limit) {
      const docs = await runQuery(monitorChanges, feedQuery(afterSeq, limit));
      return docs.map(({ _id, ...rest }) => ({ ...(rest as Omit<MonitorChange, 'seq'>), seq: _id }));
    },
    latestMonitorChange: latest,
    async requestRuns(runs) {
      if (runs.length === 0) return;
      await inTransaction((session) =>
        appendChanges(
          session,
          runs.map((r) => ({ ...r, kind: 'run' as const })),
        ),
      );
    },
    async pruneMonitorChanges(before, limit) {
      const last = await latest();
      if (!last) return 0;
      return deleteSome(monitorChanges, { at: { $lt: before }, _id: { $lt: last } }, limit, { _id: 1 });
    },

    async putMonitorStates(writes) {
      if (writes.length === 0) return [];
      assertMonitorLevel(writes);
      return inTransaction(async (session) => {
        const won: boolean[] = [];
        for (const { next, expectedVersion } of writes) {
          const _id = stateId(next.monitor_id, next.location);
          if (expectedVersion === 0) {
            // An insert that loses to a concurrent one is a write conflict (retried whole), or finds
            // the row there and inserts nothing; a duplicate key would abort the transaction.
            const r = await monitorStates.updateOne(
              { _id },
              { $setOnInsert: { ...next } },
              { upsert: true, session },
            );
            won.push(r.upsertedCount === 1);
          } else {
            const r = await monitorStates.replaceOne(
              { _id, version: expectedVersion } as Doc,
              { _id, ...next },
              { session },
            );
            won.push(r.matchedCount === 1);
          }
          if (won[won.length - 1]) {
            // The monitor record's copy of the verdict, in the same transaction (monitor-status.ts).
            const v = STATUS_OF_VERDICT[next.status];
            await monitors.updateOne(
              { _id: next.monitor_id, verdict: { $ne: v } },
              { $set: { verdict: v, status_changed_at: next.last_result_at ?? new Date(0) } },
              { session },
            );
          }
        }
        return won;
      });
    },
  };
};
