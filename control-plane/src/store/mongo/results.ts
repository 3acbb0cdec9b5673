import type { ResultQuery, ResultStore } from '../../domain/result-store.js';
import type { CheckResultRecord, MonitorLocationState } from '../../domain/types.js';
import {
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
import { stateId, stateOf } from './monitors.js';

export const resultIndexes: IndexDecl[] = [
  // The results page: one monitor's results newest first, ties by _id, read in index order.
  {
    on: 'results',
    key: { monitor_id: 1, scheduled_at: -1, _id: -1 },
    replaces: ['monitor_id_1_scheduled_at_-1'],
  },
  { on: 'results', key: { received_at: 1 } },
];

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
export const mongoResults = ({ col, inTransaction }: MongoContext): ResultStore => {
  const { results, monitorStates } = col;
  return {
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
          batch.forEach((rec, i) => {
            if (fresh[i] === undefined) return;
            stored.push(rec.id);
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
          const after = [...states.values()].sort(
            (a, b) => a.monitor_id.localeCompare(b.monitor_id) || a.location.localeCompare(b.location),
          );
          return { stored, states: after };
        }),
      );
    },
  };
};
