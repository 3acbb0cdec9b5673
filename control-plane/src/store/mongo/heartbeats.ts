import type { Document, Filter } from 'mongodb';
import { type PingTouch, pingTouches } from '../../domain/heartbeats/heartbeat-rules.js';
import type { HeartbeatStore } from '../../domain/heartbeats/heartbeat-store.js';
import type { Alert, Heartbeat, PageQuery, Ping } from '../../domain/types.js';
import { insertAlert, openAlertsQuery, resolveUpdate } from './alerts.js';
import {
  bumpGuard,
  type Collections,
  type Doc,
  deleteRecord,
  editRecord,
  escapeRegex,
  fromDoc,
  fromDocs,
  type IndexDecl,
  isDuplicateOn,
  type MongoContext,
  page,
  pageQuery,
  type Query,
  retryOnDuplicate,
  runQuery,
  toDoc,
} from './db.js';

export const heartbeatIndexes: IndexDecl[] = [
  { on: 'heartbeats', key: { workspace_id: 1, created_at: -1, _id: -1 } },
  // Slug pings find a heartbeat by (workspace, slug); a slug is unique in its workspace when set.
  {
    on: 'heartbeats',
    key: { workspace_id: 1, slug: 1 },
    options: { unique: true, partialFilterExpression: { slug: { $type: 'string' } } },
  },
  // The deadline job's query: due_at <= now, soonest first. Null deadlines sort first and are skipped.
  { on: 'heartbeats', key: { due_at: 1 } },
  // Filters by tag and by group (domain/monitors/labels.ts).
  { on: 'heartbeats', key: { workspace_id: 1, tags: 1 } },
  { on: 'heartbeats', key: { workspace_id: 1, group_id: 1 } },
  // The pings page: one heartbeat's pings newest first, ties by _id, read in index order.
  { on: 'pings', key: { heartbeat_id: 1, at: -1, _id: -1 }, replaces: ['heartbeat_id_1_at_-1'] },
];

export const dueHeartbeatsQuery = (at: Date, limit: number): Query => ({
  filter: { due_at: { $lte: at } },
  sort: { due_at: 1 },
  limit,
});

const pingFilter = (workspaceId: string, heartbeatId: string) => ({
  workspace_id: workspaceId,
  heartbeat_id: heartbeatId,
});

/** The pings page, as listPings reads it. */
export const pingsPageQuery = (workspaceId: string, heartbeatId: string, q: PageQuery): Query =>
  pageQuery(pingFilter(workspaceId, heartbeatId), q, 'at');

/** Heartbeats written before the deadline fields existed get them once (at start). */
export const backfillHeartbeats = (col: Collections) =>
  col.heartbeats.updateMany({ due_at: { $exists: false } }, [
    {
      $set: {
        due_at: {
          $cond: [
            {
              $and: [
                { $ne: ['$paused', true] },
                { $in: ['$state', ['up', 'late']] },
                { $ne: [{ $ifNull: ['$last_ping_at', null] }, null] },
              ],
            },
            { $add: ['$last_ping_at', { $multiply: ['$period_seconds', 1000] }] },
            null,
          ],
        },
        started_at: null,
        start_rid: null,
        alert_id: { $ifNull: ['$alert_id', null] },
        state_version: { $ifNull: ['$state_version', 0] },
      },
    },
  ]);

/** Heartbeats written before these fields existed have none: treat a missing one as its zero value. */
const versionFilter = (v: number) => (v === 0 ? { $in: [0, null] } : v);

/**
 * Which heartbeat a ping touches, and only when the ping's time does not move it backwards: a success
 * or fail older than last_ping_at, or a start older than last_ping_at or the pending run's start,
 * matches nothing (the ping is still kept in the log). As the WHERE of touchHeartbeatSql; `null`
 * matches a missing field too.
 */
export const mongoPingTouchFilter = (t: PingTouch): Filter<Doc> => {
  const at = new Date(t.at);
  const notOlder = (field: string) => ({ $or: [{ [field]: null }, { [field]: { $lte: at } }] });
  return {
    _id: t.id,
    $and:
      t.kind === 'start' ? [notOlder('last_ping_at'), notOlder('started_at')] : [notOlder('last_ping_at')],
  };
};

/**
 * A ping's effect on its heartbeat as an update pipeline (applied under mongoPingTouchFilter): the
 * same rules as touchHeartbeatSql in sqlite/heartbeats.ts (and touchPing in domain/heartbeats/heartbeat-rules.ts). Every expression in one $set stage sees the
 * document as it was.
 */
export const mongoPingTouch = (t: PingTouch): Document[] => {
  const at = new Date(t.at);
  const received = new Date(t.received);
  const rid = t.rid === null ? null : { $literal: t.rid };
  const grace = { $multiply: ['$grace_seconds', 1000] };
  const version = { $add: [{ $ifNull: ['$state_version', 0] }, 1] };
  const noAlert = { $eq: [{ $ifNull: ['$alert_id', null] }, null] };
  if (t.kind === 'start') {
    return [
      {
        $set: {
          started_at: at,
          start_rid: rid,
          due_at: {
            $cond: [
              { $eq: ['$paused', true] },
              null,
              {
                $cond: [
                  { $and: [{ $eq: ['$state', 'down'] }, { $not: [noAlert] }] },
                  '$due_at',
                  // $min skips a null due_at
                  { $min: ['$due_at', { $add: [at, grace] }] },
                ],
              },
            ],
          },
          state_version: version,
        },
      },
    ];
  }
  // A finish ends the pending run when the run ids match or either side has none.
  const ends =
    t.rid === null
      ? true
      : { $or: [{ $eq: [{ $ifNull: ['$start_rid', null] }, null] }, { $eq: ['$start_rid', rid] }] };
  // The filter let through only a ping no older than last_ping_at: it is the new last ping.
  const nextDue = { $add: [at, { $multiply: ['$period_seconds', 1000] }] };
  const runDue = {
    $cond: [ends, nextDue, { $min: [nextDue, { $add: ['$started_at', grace] }] }],
  };
  // A cron heartbeat's next run is the deadline job's to work out: due at once (touchPing).
  const hasSchedule = { $ne: [{ $ifNull: ['$schedule', null] }, null] };
  const started = { $ifNull: ['$started_at', null] };
  return [
    {
      $set: {
        last_ping_at: at,
        started_at: { $cond: [ends, null, '$started_at'] },
        start_rid: { $cond: [ends, null, '$start_rid'] },
        state: { $cond: [{ $eq: ['$paused', true] }, '$state', t.kind === 'fail' ? 'down' : 'up'] },
        rearmed_at: null,
        due_at: {
          $cond: [
            { $eq: ['$paused', true] },
            null,
            t.kind === 'fail'
              ? { $cond: [noAlert, received, null] }
              : { $cond: [{ $and: [noAlert, { $not: [hasSchedule] }] }, runDue, received] },
          ],
        },
        last_duration_ms: {
          $cond: [
            { $and: [ends, { $ne: [started, null] }, { $lte: [started, at] }] },
            { $subtract: [at, '$started_at'] },
            { $ifNull: ['$last_duration_ms', null] },
          ],
        },
        state_version: version,
      },
    },
  ];
};

/** The fields pings and the deadline job own (and the id), never written by an edit. */
const OWNED_BY_PINGS = new Set([
  '_id',
  'last_ping_at',
  'state',
  'due_at',
  'started_at',
  'start_rid',
  'alert_id',
  'state_version',
  'rearmed_at',
  'last_duration_ms',
]);

const slugTaken = (e: unknown) => isDuplicateOn(e, ['workspace_id', 'slug']);

/** Raised inside a step's transaction to roll it back when its compare-and-set lost. */
class LostStep extends Error {}

/**
 * Heartbeats, pings and the deadline job's steps. A batch of pings is one transaction: the pings of
 * heartbeats that exist, and their effect on those heartbeats, each of which is bumped (its guard)
 * so that a concurrent delete conflicts with the batch instead of leaving its pings behind. A step
 * is one transaction too: the compare-and-set on `state_version` and the alert it raises or
 * resolves commit together (a ping written meanwhile conflicts with it; the retry then fails the
 * version check). Creating or editing a heartbeat bumps the workspace's guard (see routing.ts).
 */
export const mongoHeartbeats = (ctx: MongoContext): HeartbeatStore => {
  const { col, inTransaction } = ctx;
  const { workspaces, heartbeats, pings, alerts } = col;
  const getHeartbeat = async (workspaceId: string, id: string) =>
    fromDoc<Heartbeat>(await heartbeats.findOne({ workspace_id: workspaceId, _id: id }));
  return {
    async insertHeartbeat(heartbeat) {
      try {
        await inTransaction(async (session) => {
          await bumpGuard(workspaces, heartbeat.workspace_id, session);
          await heartbeats.insertOne(toDoc(heartbeat), { session });
        });
        return 'inserted';
      } catch (e) {
        if (slugTaken(e)) return 'slug_taken';
        throw e;
      }
    },
    getHeartbeat,
    async findHeartbeat(id) {
      return fromDoc<Heartbeat>(await heartbeats.findOne({ _id: id }));
    },
    async findHeartbeatBySlug(workspaceId, slug) {
      return fromDoc<Heartbeat>(await heartbeats.findOne({ workspace_id: workspaceId, slug }));
    },
    async countHeartbeats(workspaceId) {
      return heartbeats.countDocuments({ workspace_id: workspaceId });
    },
    async listHeartbeats(workspaceId, q) {
      const f: Document = { workspace_id: workspaceId };
      if (q.search) {
        const re = new RegExp(escapeRegex(q.search), 'i');
        f.$or = [{ display_name: re }, { slug: re }];
      }
      if (q.group_id !== undefined) f.group_id = q.group_id === 'none' ? null : q.group_id;
      if (q.tag !== undefined) f.tags = q.tag;
      return page<Heartbeat>(heartbeats, f, q);
    },
    async updateHeartbeat(next, expectedVersion) {
      // What pings and the deadline job own is left as stored; an edit makes the heartbeat due now, so
      // the job re-evaluates it with the new period and grace.
      const fields = Object.fromEntries(Object.entries(toDoc(next)).filter(([k]) => !OWNED_BY_PINGS.has(k)));
      return editRecord(ctx, heartbeats, next, async (session) => {
        const r = await heartbeats.updateOne(
          { _id: next.id, workspace_id: next.workspace_id, version: expectedVersion },
          { $set: { ...fields, due_at: next.updated_at }, $inc: { state_version: 1 } },
          { session },
        );
        return r.matchedCount === 1;
      }).catch((e: unknown) => {
        if (slugTaken(e)) return 'slug_taken' as const;
        throw e;
      });
    },
    async deleteHeartbeat(workspaceId, id) {
      return deleteRecord(ctx, heartbeats, workspaceId, id, (session) =>
        pings.deleteMany({ heartbeat_id: id }, { session }),
      );
    },
    async recordPings(batch) {
      if (batch.length === 0) return;
      const ids = [...new Set(batch.map((p) => p.heartbeat_id))];
      const touches = pingTouches(batch);
      await inTransaction(async (session) => {
        const live = new Set(
          (await heartbeats.find({ _id: { $in: ids } }, { session, projection: { _id: 1 } }).toArray()).map(
            (d) => d._id,
          ),
        );
        if (live.size === 0) return;
        const kept = batch.filter((p) => live.has(p.heartbeat_id));
        await pings.insertMany(kept.map(toDoc), { session });
        // The guards first, then each touch in arrival order (a start and its finish in one batch
        // apply in that order).
        await heartbeats.bulkWrite(
          [
            ...[...live].map((id) => ({
              updateOne: { filter: { _id: id }, update: { $inc: { guard: 1 } } },
            })),
            ...touches
              .filter((t) => live.has(t.id))
              .map((t) => ({ updateOne: { filter: mongoPingTouchFilter(t), update: mongoPingTouch(t) } })),
          ],
          { ordered: true, session },
        );
      });
    },
    async listPings(workspaceId, heartbeatId, q) {
      return page<Ping>(pings, pingFilter(workspaceId, heartbeatId), q, 'at');
    },

    async listDueHeartbeats(at, limit) {
      return fromDocs<Heartbeat>(await runQuery(heartbeats, dueHeartbeatsQuery(at, limit)));
    },
    async stepHeartbeat(input) {
      const notStepped = { stepped: false, alert: null, created: false };
      return retryOnDuplicate(() =>
        inTransaction(async (session) => {
          const filter: Filter<Doc> = {
            _id: input.id,
            workspace_id: input.workspace_id,
            state_version: versionFilter(input.expected_state_version),
          };
          const h = fromDoc<Heartbeat>(await heartbeats.findOne(filter, { session }));
          if (!h) return notStepped;
          let alertId = h.alert_id ?? null;
          let alert: Alert | null = null;
          let created = false;
          if (input.raise) {
            alert = fromDoc<Alert>(await alerts.findOne(openAlertsQuery([input.raise]).filter, { session }));
            if (!alert) {
              await insertAlert(alerts, input.raise, session);
              alert = input.raise;
              created = true;
            }
            alertId = alert.id;
          } else if (input.resolve && alertId) {
            // As resolveAlert does: the open key is freed, so the next failure raises a new alert.
            alert = fromDoc<Alert>(
              await alerts.findOneAndUpdate(
                { workspace_id: input.workspace_id, _id: alertId, status: { $ne: 'resolved' } },
                resolveUpdate(input.resolve, input.at),
                { session, returnDocument: 'after' },
              ),
            );
            alert ??= fromDoc<Alert>(await alerts.findOne({ _id: alertId }, { session }));
            alertId = null;
          }
          const r = await heartbeats.updateOne(
            filter,
            {
              $set: {
                state: input.next.state,
                due_at: input.next.due_at,
                alert_id: alertId,
                updated_at: input.at,
                ...(input.raise ? { rearmed_at: null } : {}),
              },
              $inc: { state_version: 1 },
            },
            { session },
          );
          // Under snapshot isolation a concurrent write surfaces as a (retried) write conflict, so this is
          // belt and braces: abort, so the alert written above is rolled back, and report the lost step.
          if (r.matchedCount !== 1) throw new LostStep();
          return { stepped: true, alert, created };
        }),
      ).catch((e: unknown) => {
        if (e instanceof LostStep) return notStepped;
        throw e;
      });
    },
  };
};
