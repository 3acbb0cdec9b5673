import type { Document } from 'mongodb';
import {
  byMonitorThenLocation,
  type ResultQuery,
  type ResultStore,
} from '../../domain/results/result-store.js';
import { DAY_MS, type RollupDelta, rollupDeltas } from '../../domain/results/uptime.js';
import type { CheckResultRecord, MonitorLocationState } from '../../domain/types.js';
import { addToDaily, dailyRollupsOf } from './daily-rollups.js';
import {
  type Collections,
  type Doc,
  deleteSome,
  type IndexDecl,
  type MongoContext,
  page,
  pageQuery,
  type Query,
  retryOnDuplicate,
  toDoc,
} from './db.js';
import { mongoResultExport } from './exports.js';
import { stateId, stateOf } from './monitors.js';

export const resultIndexes: IndexDecl[] = [
  // The results page: one monitor's results newest first, ties by _id, read in index order.
  {
    on: 'results',
    key: { monitor_id: 1, scheduled_at: -1, _id: -1 },
    replaces: ['monitor_id_1_scheduled_at_-1'],
  },
  { on: 'results', key: { received_at: 1 } },
  // A monitor's buckets of a window, newest first (uptime, the newest successful check); pruning.
  { on: 'rollups', key: { monitor_id: 1, hour: -1 } },
  { on: 'rollups', key: { hour: 1 } },
  { on: 'daily', key: { monitor_id: 1, day: -1 } },
  { on: 'daily', key: { day: 1 } },
];

/**
 * Adds a bucket increment in one upsert: an update pipeline, so the newest successful check's
 * response time moves together with its time (every expression of one $set reads the document as
 * it was before the update).
 */
const addToRollup = (d: RollupDelta) => {
  const lastOkAt = d.last_ok_at === null ? null : new Date(d.last_ok_at);
  const newer = lastOkAt ? { $gte: [lastOkAt, { $ifNull: ['$last_ok_at', new Date(0)] }] } : false;
  return {
    updateOne: {
      filter: { _id: `${d.monitor_id}|${d.location}|${d.hour}` },
      update: [
        {
          $set: {
            workspace_id: d.workspace_id,
            monitor_id: d.monitor_id,
            location: d.location,
            hour: new Date(d.hour),
            total: { $add: [{ $ifNull: ['$total', 0] }, d.total] },
            ok: { $add: [{ $ifNull: ['$ok', 0] }, d.ok] },
            response_ms_sum: { $add: [{ $ifNull: ['$response_ms_sum', 0] }, d.response_ms_sum] },
            last_ok_at: { $cond: [newer, lastOkAt, { $ifNull: ['$last_ok_at', null] }] },
            last_ok_ms: { $cond: [newer, d.last_ok_ms, { $ifNull: ['$last_ok_ms', null] }] },
          },
        },
      ],
      upsert: true,
    },
  };
};

const resultFilter = (workspaceId: string, monitorId: string, q: ResultQuery) => {
  const f: Doc | Record<string, unknown> = { workspace_id: workspaceId, monitor_id: monitorId };
  if (q.location) f.location = q.location;
  if (q.since || q.until)
    f.scheduled_at = { ...(q.since ? { $gte: q.since } : {}), ...(q.until ? { $lt: q.until } : {}) };
  return f;
};

/** The results page, as listResults reads it. */
export const resultsPageQuery = (workspaceId: string, monitorId: string, q: ResultQuery): Query =>
  pageQuery(resultFilter(workspaceId, monitorId, q), q, 'scheduled_at');

/** Raised when a state write does not match what the transaction read: never expected (see below). */
export class LostStateStep extends Error {
  constructor(keys: string) {
    super(`A state of ${keys} changed while results were recorded; nothing of the batch was stored.`);
  }
}

/**
 * Check results. recordResults is one transaction: the new results, and the location states their
 * steps produce. A concurrent writer of the same state or result id makes it a write conflict, and
 * the driver runs the whole callback again (so `step` may run again); a crash or a throwing `step`
 * leaves nothing, so the agent's resend replays the whole batch.
 */
export const mongoResults = (ctx: MongoContext): ResultStore => {
  const { col, inTransaction } = ctx;
  const { results, monitorStates, rollups, daily } = col;
  return {
    ...mongoResultExport(ctx),
    async listResults(workspaceId, monitorId, q) {
      return page<CheckResultRecord>(results, resultFilter(workspaceId, monitorId, q), q, 'scheduled_at');
    },
    async countResults(workspaceId, monitorId, since, until) {
      const [r] = await results
        .aggregate<{ total: number; ok: number }>([
          {
            $match: {
              workspace_id: workspaceId,
              monitor_id: monitorId,
              scheduled_at: { $gte: since, $lt: until },
            },
          },
          { $group: { _id: null, total: { $sum: 1 }, ok: { $sum: { $cond: ['$ok', 1, 0] } } } },
        ])
        .toArray();
      return { total: r?.total ?? 0, ok: r?.ok ?? 0 };
    },
    async pruneResults(before, limit) {
      return deleteSome(results, { received_at: { $lt: before } }, limit);
    },
    async sumRollups(workspaceId, monitorId, fromHour, toHour) {
      const [r] = await rollups
        .aggregate<{ total: number; ok: number }>([
          {
            $match: {
              monitor_id: monitorId,
              hour: { $gte: fromHour, $lt: toHour },
              workspace_id: workspaceId,
            },
          },
          { $group: { _id: null, total: { $sum: '$total' }, ok: { $sum: '$ok' } } },
        ])
        .toArray();
      return { total: r?.total ?? 0, ok: r?.ok ?? 0 };
    },
    async pruneRollups(before, limit, dailyBefore = before) {
      const hourly = await deleteSome(rollups, { hour: { $lt: before } }, limit);
      // A day goes once all of it is before `dailyBefore`.
      const days = await deleteSome(
        daily,
        { day: { $lte: new Date(dailyBefore.getTime() - DAY_MS) } },
        limit,
      );
      return hourly + days;
    },
    async dailyRollups(workspaceId, monitorIds, fromDay, toDay) {
      return dailyRollupsOf(daily, workspaceId, monitorIds, fromDay, toDay);
    },

    async recordResults(batch, step) {
      if (batch.length === 0) return { stored: [], states: [] };
      const touched = [...new Set(batch.map((r) => r.monitor_id))];
      return retryOnDuplicate(() =>
        inTransaction(async (session) => {
          // Upserts with $setOnInsert: a replayed id matches and changes nothing; new ones are inserted.
          const inserted = await results.bulkWrite(
            batch.map((rec) => {
              const { _id, ...fields } = toDoc(rec);
              return { updateOne: { filter: { _id }, update: { $setOnInsert: fields }, upsert: true } };
            }),
            { ordered: true, session },
          );
          const fresh = inserted.upsertedIds as Record<number, string>;
          // Every state of the monitors concerned in one read; the steps then work on this map.
          const read = new Map<string, MonitorLocationState>();
          for (const d of await monitorStates.find({ monitor_id: { $in: touched } }, { session }).toArray())
            read.set(d._id, stateOf(d));
          const states = new Map(read);
          const changed = new Set<string>();
          const stored: string[] = [];
          const storedNow: CheckResultRecord[] = [];
          batch.forEach((rec, i) => {
            if (fresh[i] === undefined) return;
            stored.push(rec.id);
            storedNow.push(rec);
            const key = stateId(rec.monitor_id, rec.location);
            const next = step(states.get(key) ?? null, rec);
            if (!next) return;
            states.set(key, next);
            changed.add(key);
          });
          // Compare-and-set on the version read. Inside the transaction a concurrent write surfaces as
          // a write conflict (and a retry) first, so a mismatch here is a bug: abort, loudly.
          if (changed.size > 0) {
            const w = await monitorStates.bulkWrite(
              [...changed].map((key) => {
                const next = { _id: key, ...states.get(key)! };
                const before = read.get(key);
                return before
                  ? { replaceOne: { filter: { _id: key, version: before.version }, replacement: next } }
                  : { insertOne: { document: next } };
              }),
              { ordered: true, session },
            );
            if (w.insertedCount + w.matchedCount !== changed.size)
              throw new LostStateStep([...changed].join(', '));
          }
          // Only the results stored now count, each once (a replay matched and upserted nothing).
          const deltas = rollupDeltas(storedNow);
          if (deltas.length > 0) {
            await rollups.bulkWrite(deltas.map(addToRollup), { ordered: false, session });
            await daily.bulkWrite(addToDaily(storedNow), { ordered: false, session });
          }
          const after = [...states.values()].sort(byMonitorThenLocation);
          return { stored, states: after };
        }),
      );
    },
  };
};

/** Where the rollup backfill stands, in `counters`: `after` is the last monitor id done; `done` once all are. */
const BACKFILL = 'uptime_rollups_backfill';

export interface BackfillOptions {
  /** Monitors whose results are grouped into buckets in one step (default 100). */
  monitorsPerChunk?: number;
  /** Called after each step, once its progress is recorded, with the number of steps done. */
  afterChunk?: (chunks: number) => Promise<void> | void;
}

/** The next `n` monitor ids after `after` that have results, one index seek each (monitor_id leads an index). */
const nextMonitors = async (col: Collections, after: string | null, n: number) => {
  const ids: string[] = [];
  let last = after;
  while (ids.length < n) {
    const doc = await col.results.findOne(last === null ? {} : { monitor_id: { $gt: last } }, {
      sort: { monitor_id: 1 },
      projection: { _id: 0, monitor_id: 1 },
    });
    if (!doc) break;
    last = doc.monitor_id as string;
    ids.push(last);
  }
  return ids;
};

/**
 * Rollups for the results stored before rollups existed. Monitor by monitor in id order, a chunk at
 * a time: one aggregation groups a chunk's results into hourly buckets, a second those into daily
 * ones ($merge; a bucket that exists, written by ingestion meanwhile or by an earlier run of this
 * chunk, is kept as it is), then the marker records the chunk's last monitor. The marker's `done`
 * is written last, so a start that dies part-way leaves no `done` and the next start goes on after
 * the last chunk recorded (redoing at most the chunk it died in, which keeps what it had merged). A
 * store with no results yet is done at once; one made by a version before the marker is backfilled
 * once more (every bucket it has is kept). Replicas starting at once may run the same chunk: $merge
 * is idempotent, and a duplicate key from their racing inserts runs the chunk again.
 */
export const backfillRollups = async (col: Collections, opts: BackfillOptions = {}) => {
  const marker = await col.counters.findOne({ _id: BACKFILL });
  if (marker?.done === true) return;
  const per = opts.monitorsPerChunk ?? 100;
  let after = typeof marker?.after === 'string' ? marker.after : null;
  for (let chunks = 1; ; chunks++) {
    const ids = await nextMonitors(col, after, per);
    if (ids.length === 0) break;
    const range = { monitor_id: { $gte: ids[0]!, $lte: ids[ids.length - 1]! } };
    await retryOnDuplicate(() => bucketResults(col, range));
    after = ids[ids.length - 1]!;
    await col.counters.updateOne({ _id: BACKFILL }, { $set: { after } }, { upsert: true });
    await opts.afterChunk?.(chunks);
  }
  await col.counters.updateOne({ _id: BACKFILL }, { $set: { done: true } }, { upsert: true });
};

/** The results of the monitors in `range` into hourly buckets, then those into daily ones; existing buckets kept. */
const bucketResults = async (col: Collections, range: Document) => {
  const hour = { $dateTrunc: { date: '$scheduled_at', unit: 'hour' } };
  await col.results
    .aggregate([
      { $match: range },
      {
        $group: {
          _id: {
            $concat: ['$monitor_id', '|', '$location', '|', { $toString: { $toLong: hour } }],
          },
          workspace_id: { $first: '$workspace_id' },
          monitor_id: { $first: '$monitor_id' },
          location: { $first: '$location' },
          hour: { $first: hour },
          total: { $sum: 1 },
          ok: { $sum: { $cond: ['$ok', 1, 0] } },
          response_ms_sum: { $sum: '$response_time_ms' },
          last_ok_at: { $max: { $cond: ['$ok', '$scheduled_at', null] } },
          newest_ok: {
            $top: {
              sortBy: { ok: -1, scheduled_at: -1 },
              output: { ok: '$ok', ms: '$response_time_ms' },
            },
          },
        },
      },
      {
        $set: {
          last_ok_ms: { $cond: ['$newest_ok.ok', '$newest_ok.ms', null] },
          newest_ok: '$$REMOVE',
        },
      },
      { $merge: { into: 'uptime_rollups', whenMatched: 'keepExisting', whenNotMatched: 'insert' } },
    ])
    .toArray();
  const day = { $dateTrunc: { date: '$hour', unit: 'day' } };
  await col.rollups
    .aggregate([
      { $match: range },
      {
        $group: {
          _id: { $concat: ['$monitor_id', '|', '$location', '|', { $toString: { $toLong: day } }] },
          workspace_id: { $first: '$workspace_id' },
          monitor_id: { $first: '$monitor_id' },
          location: { $first: '$location' },
          day: { $first: day },
          total: { $sum: '$total' },
          ok: { $sum: '$ok' },
          response_ms_sum: { $sum: '$response_ms_sum' },
        },
      },
      { $merge: { into: 'uptime_daily', whenMatched: 'keepExisting', whenNotMatched: 'insert' } },
    ])
    .toArray();
};
