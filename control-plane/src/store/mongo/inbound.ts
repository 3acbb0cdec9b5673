import { AppError } from '@lookout/shared';
import { type Document, type Filter, MongoServerError } from 'mongodb';
import type { Alert, Heartbeat, Integration } from '../../domain/types.js';
import { decodeCursor, toPage } from '../cursor.js';
import { openKey } from '../open-key.js';
import type { PingTouch } from '../ping-touches.js';
import type { InboundMethods } from '../port.js';
import type { MongoHelpers } from './routing.js';

type Doc = Document & { _id: string };

class LostStep extends Error {}

const isDuplicate = (e: unknown) => e instanceof MongoServerError && e.code === 11000;

/** Heartbeats written before these fields existed have none: treat a missing one as its zero value. */
const versionFilter = (v: number) => (v === 0 ? { $in: [0, null] } : v);

/** Indexes (and a one-time backfill of heartbeat deadlines), created at start with the others. */
export const mongoInboundIndexes = ({ col }: Pick<MongoHelpers, 'col'>) => [
  // The deadline job's query: due_at <= now, soonest first. Null deadlines sort first and are skipped.
  col('heartbeats').createIndex({ due_at: 1 }),
  col('integrations').createIndex({ key_hash: 1 }, { unique: true }),
  col('integrations').createIndex({ workspace_id: 1, created_at: -1, _id: -1 }),
  col('heartbeats').updateMany({ due_at: { $exists: false } }, [
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
  ]),
];

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
 * same rules as touchHeartbeatSql in sqlite/inbound.ts. Every expression in one $set stage sees the
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
            t.kind === 'fail' ? { $cond: [noAlert, received, null] } : { $cond: [noAlert, runDue, received] },
          ],
        },
        state_version: version,
      },
    },
  ];
};

/**
 * Heartbeat deadlines and integrations in MongoDB. A deadline step runs in a transaction: the
 * compare-and-set on `state_version` and the alert it raises or resolves commit together (a ping
 * written meanwhile conflicts with it, and the step is retried, then refused by the version check).
 */
export const mongoInbound = ({ col, inTransaction, toDoc, fromDoc }: MongoHelpers): InboundMethods => {
  const heartbeats = col('heartbeats');
  const alerts = col('alerts');
  const integrations = col('integrations');
  return {
    async listDueHeartbeats(at, limit) {
      return (
        await heartbeats
          .find({ due_at: { $lte: at } })
          .sort({ due_at: 1 })
          .limit(limit)
          .toArray()
      ).map((d) => fromDoc<Heartbeat>(d)!);
    },

    async stepHeartbeat(input) {
      const notStepped = { stepped: false, alert: null, created: false };
      return inTransaction(async (session) => {
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
          const key = openKey(input.raise);
          alert = fromDoc<Alert>(await alerts.findOne({ open_key: key }, { session }));
          if (!alert) {
            await alerts.insertOne({ ...toDoc(input.raise), open_key: key }, { session });
            alert = input.raise;
            created = true;
          }
          alertId = alert.id;
        } else if (input.resolve && alertId) {
          // As resolveAlert does: the open key is freed, so the next failure raises a new alert.
          await alerts.updateOne(
            { workspace_id: input.workspace_id, _id: alertId, status: { $ne: 'resolved' } },
            {
              $set: {
                status: 'resolved',
                resolved_at: input.at,
                resolved_by: input.resolve,
                updated_at: input.at,
                escalation_due_at: null,
              },
              $unset: { open_key: '' },
            },
            { session },
          );
          alert = fromDoc<Alert>(await alerts.findOne({ _id: alertId }, { session }));
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
      }).catch((e: unknown) => {
        if (e instanceof LostStep) return notStepped;
        throw e;
      });
    },

    async refreshOpenAlert(workspaceId, id, patch, at) {
      return fromDoc<Alert>(
        await alerts.findOneAndUpdate(
          { workspace_id: workspaceId, _id: id, status: { $ne: 'resolved' } },
          {
            $set: {
              title: patch.title,
              description: patch.description,
              severity: patch.severity,
              updated_at: at,
            },
          },
          { returnDocument: 'after' },
        ),
      );
    },

    async insertIntegration(integration) {
      try {
        await integrations.insertOne(toDoc(integration));
      } catch (e) {
        if (isDuplicate(e)) throw new AppError('conflict', 'That service key is taken; try again.');
        throw e;
      }
    },
    async getIntegration(workspaceId, id) {
      return fromDoc<Integration>(await integrations.findOne({ workspace_id: workspaceId, _id: id }));
    },
    async findIntegrationByKeyHash(keyHash) {
      return fromDoc<Integration>(await integrations.findOne({ key_hash: keyHash }));
    },
    async listIntegrations(workspaceId, q) {
      const cur = decodeCursor(q.cursor);
      const filter: Filter<Doc> = cur
        ? {
            workspace_id: workspaceId,
            $or: [
              { created_at: { $lt: new Date(cur.t) } },
              { created_at: new Date(cur.t), _id: { $lt: cur.id } },
            ],
          }
        : { workspace_id: workspaceId };
      const docs = await integrations
        .find(filter)
        .sort({ created_at: -1, _id: -1 })
        .limit(q.limit + 1)
        .toArray();
      return toPage(
        docs.map((d) => fromDoc<Integration>(d)!),
        q.limit,
      );
    },
    async updateIntegration(i) {
      const r = await integrations.updateOne(
        { workspace_id: i.workspace_id, _id: i.id },
        {
          $set: {
            name: i.name,
            escalation_policy_id: i.escalation_policy_id,
            key_hash: i.key_hash,
            key_last_four: i.key_last_four,
            updated_at: i.updated_at,
          },
        },
      );
      return r.matchedCount === 1;
    },
    async deleteIntegration(workspaceId, id) {
      return (await integrations.deleteOne({ workspace_id: workspaceId, _id: id })).deletedCount === 1;
    },
  };
};
