import { AppError } from '@lookout/shared';
import type { ClientSession, Collection } from 'mongodb';
import {
  type AlertKey,
  type AlertQuery,
  type AlertStore,
  newestAlertFirst,
  sourceSlices,
} from '../../domain/alerts/alert-store.js';
import type { Actor, Alert, AlertSourceType, Delivery } from '../../domain/types.js';
import { openKey } from '../open-key.js';
import {
  type Doc,
  fromDoc,
  fromDocs,
  type IndexDecl,
  isDuplicate,
  type MongoContext,
  page,
  type Query,
  runQuery,
  toDoc,
} from './db.js';
import { mongoAlertExport } from './exports.js';
import { stateId } from './monitors.js';

export const alertIndexes: IndexDecl[] = [
  { on: 'alerts', key: { workspace_id: 1, created_at: -1, _id: -1 } },
  { on: 'alerts', key: { workspace_id: 1, status: 1, created_at: -1 } },
  // A report's alerts of some sources over a period (listAlertsBetween).
  { on: 'alerts', key: { workspace_id: 1, source_type: 1, source_id: 1, created_at: -1, _id: -1 } },
  // At most one unresolved alert per key; resolving unsets the key. `$exists: true` (not `$type`)
  // so that an equality or `$in` on open_key is a subset of the filter and the planner uses it.
  {
    on: 'alerts',
    key: { open_key: 1 },
    options: {
      name: 'open_key_exists',
      unique: true,
      partialFilterExpression: { open_key: { $exists: true } },
    },
    replaces: ['open_key_1'],
  },
  // The escalation scheduler's queries: open alerts with a due step, settled ones with a due follow-up.
  // `replaces`: the index of the follow-ups' former read (recently settled alerts), now unused.
  { on: 'alerts', key: { status: 1, escalation_due_at: 1 }, replaces: ['settled_updated_at'] },
  // The delivery log in insertion order (SQLite: rowid) within one `at`.
  { on: 'deliveries', key: { alert_id: 1, at: 1, delivery_seq: 1 }, replaces: ['alert_id_1_at_1'] },
  { on: 'deliveries', key: { channel_id: 1, at: 1, delivery_seq: 1 }, replaces: ['channel_id_1_at_1'] },
  // A channel's delivery log paged newest first (listChannelDeliveries).
  { on: 'deliveries', key: { workspace_id: 1, channel_id: 1, at: -1, _id: -1 } },
  // Only deliveries that have a key (a sparse index would hold every null); the query repeats the
  // filter expression so the planner can use it.
  {
    on: 'deliveries',
    key: { idempotency_key: 1 },
    options: {
      name: 'idempotency_key_set',
      partialFilterExpression: { idempotency_key: { $type: 'string' } },
    },
    replaces: ['idempotency_key_1'],
  },
];

/** The unresolved alerts for these keys (an equality or `$in` on the open key's partial index). */
export const openAlertsQuery = (keys: AlertKey[]): Query => ({
  filter: keys.length === 1 ? { open_key: openKey(keys[0]!) } : { open_key: { $in: keys.map(openKey) } },
});

export const dueEscalationsQuery = (at: Date, limit: number): Query => ({
  filter: { status: 'open', escalation_due_at: { $lte: at } },
  sort: { escalation_due_at: 1 },
  limit,
});

export const dueFollowUpsQuery = (at: Date, limit: number): Query => ({
  filter: {
    status: { $in: ['acknowledged', 'resolved'] },
    escalation_due_at: { $lte: at },
    escalation: { $type: 'object' },
  },
  sort: { escalation_due_at: 1 },
  limit,
});

export const deliveriesQuery = (
  workspaceId: string,
  filter: { alert_id?: string; channel_id?: string; limit: number },
): Query => ({
  filter: {
    workspace_id: workspaceId,
    ...(filter.alert_id !== undefined ? { alert_id: filter.alert_id } : {}),
    ...(filter.channel_id !== undefined ? { channel_id: filter.channel_id } : {}),
  },
  sort: { at: 1, delivery_seq: 1 },
  limit: filter.limit,
});

export const sentDeliveryQuery = (idempotencyKey: string): Query => ({
  filter: { idempotency_key: { $type: 'string', $eq: idempotencyKey }, outcome: 'sent' },
  limit: 1,
});

/**
 * The alerts of these sources (one type) open at any moment of [from, to), newest first: the source
 * index's equality and `$in` prefix, merged in created_at order (no in-memory sort); the resolve time
 * is a filter on the way.
 */
export const alertsBetweenQuery = (
  workspaceId: string,
  type: AlertSourceType,
  ids: string[],
  from: Date,
  to: Date,
  limit: number,
): Query => ({
  filter: {
    workspace_id: workspaceId,
    source_type: type,
    source_id: { $in: ids },
    created_at: { $lt: to },
    $or: [{ resolved_at: null }, { resolved_at: { $gte: from } }],
  },
  sort: { created_at: -1, _id: -1 },
  limit,
});

/** Inserts an alert holding its open key (unless it is born resolved): duplicate key if one is open. */
export const insertAlert = (alerts: Collection<Doc>, alert: Alert, session?: ClientSession) =>
  alerts.insertOne(
    { ...toDoc(alert), ...(alert.status === 'resolved' ? {} : { open_key: openKey(alert) }) },
    session ? { session } : {},
  );

/** On acknowledge and resolve: an alert with an escalation is due for its follow-ups (an aggregation expression). */
const followDue = (at: Date) => ({ $cond: [{ $eq: [{ $type: '$escalation' }, 'object'] }, at, null] });

/**
 * The update (a pipeline) that resolves an alert and frees its key, so the next failure raises a new
 * one; an alert with an escalation becomes due for its follow-ups.
 */
export const resolveUpdate = (by: Actor, at: Date) => [
  {
    $set: {
      status: 'resolved',
      resolved_at: at,
      resolved_by: { $literal: by },
      updated_at: at,
      escalation_due_at: followDue(at),
    },
  },
  { $unset: 'open_key' },
];

/**
 * Alerts, their escalation position and the delivery log. Acknowledge, claim and advance are
 * single-document compare-and-set updates; resolving re-arms the source in the same transaction.
 */
export const mongoAlerts = (ctx: MongoContext): AlertStore => {
  const { col, inTransaction } = ctx;
  const { alerts, deliveries, counters, monitorStates, heartbeats } = col;
  const getAlert = async (workspaceId: string, id: string) =>
    fromDoc<Alert>(await alerts.findOne({ workspace_id: workspaceId, _id: id }));
  return {
    ...mongoAlertExport(ctx),
    async raiseAlert(alert) {
      for (let attempt = 0; attempt < 3; attempt++) {
        // Local read concern: after a duplicate key the winner is in the primary's data, but maybe not
        // yet majority-committed, and a majority read could miss it on every attempt.
        const existing = await alerts.findOne(openAlertsQuery([alert]).filter, {
          readConcern: { level: 'local' },
        });
        if (existing) return { alert: fromDoc<Alert>(existing)!, created: false };
        try {
          await insertAlert(alerts, alert);
          return { alert, created: true };
        } catch (e) {
          if (!isDuplicate(e)) throw e;
        }
      }
      throw new AppError('conflict', 'Could not raise the alert; try again.');
    },
    getAlert,
    async findOpenAlert(key) {
      return fromDoc<Alert>(await alerts.findOne(openAlertsQuery([key]).filter));
    },
    async findOpenAlerts(keys) {
      if (keys.length === 0) return [];
      return fromDocs<Alert>(await runQuery(alerts, openAlertsQuery(keys)));
    },
    async listAlerts(workspaceId, q: AlertQuery) {
      const f: Doc | Record<string, unknown> = { workspace_id: workspaceId };
      if (q.status?.length) f.status = { $in: q.status };
      if (q.source_type) f.source_type = q.source_type;
      if (q.source_id) f.source_id = q.source_id;
      if (q.since || q.until)
        f.created_at = { ...(q.since ? { $gte: q.since } : {}), ...(q.until ? { $lt: q.until } : {}) };
      return page<Alert>(alerts, f, q);
    },
    async listAlertsBetween(workspaceId, sources, from, to, limit) {
      if (limit <= 0) return [];
      const found: Alert[] = [];
      for (const { type, ids } of sourceSlices(sources))
        found.push(
          ...fromDocs<Alert>(
            await runQuery(alerts, alertsBetweenQuery(workspaceId, type, ids, from, to, limit)),
          ),
        );
      return found.sort(newestAlertFirst).slice(0, limit);
    },
    async resolveAlert(workspaceId, id, by, at) {
      // One transaction: the resolve and the re-arming of its source (see the port) commit together.
      const updated = await inTransaction(async (session) => {
        const alert = fromDoc<Alert>(
          await alerts.findOneAndUpdate(
            { workspace_id: workspaceId, _id: id, status: { $ne: 'resolved' } },
            resolveUpdate(by, at),
            { returnDocument: 'after', session },
          ),
        );
        if (alert?.source_type === 'monitor' && alert.cause === 'down') {
          const rearmed = await monitorStates.updateOne(
            { _id: stateId(alert.source_id, '*'), status: 'down' },
            { $set: { status: 'unknown' }, $inc: { version: 1 } },
            { session },
          );
          // The monitor record's copy of the verdict (store/mongo/monitor-status.ts), in step.
          if (rearmed.modifiedCount === 1)
            await col.monitors.updateOne(
              { _id: alert.source_id },
              { $set: { verdict: 'pending', status_changed_at: at } },
              { session },
            );
        }
        if (alert?.source_type === 'heartbeat') {
          await heartbeats.updateOne(
            { _id: alert.source_id, workspace_id: workspaceId, alert_id: id },
            [
              {
                $set: {
                  alert_id: null,
                  rearmed_at: {
                    $cond: [{ $eq: ['$state', 'down'] }, at, { $ifNull: ['$rearmed_at', null] }],
                  },
                  due_at: at,
                  state_version: { $add: [{ $ifNull: ['$state_version', 0] }, 1] },
                },
              },
            ],
            { session },
          );
        }
        return alert;
      });
      if (updated) return { outcome: 'resolved', alert: updated };
      const alert = await getAlert(workspaceId, id);
      return alert ? { outcome: 'already_resolved', alert } : { outcome: 'not_found', alert: null };
    },
    async acknowledgeAlert(workspaceId, id, by, at) {
      // In a transaction: the request's audit entry is written with it (db.ts `inTransaction`).
      const updated = await inTransaction((session) =>
        alerts.findOneAndUpdate(
          { workspace_id: workspaceId, _id: id, status: 'open' },
          [
            {
              $set: {
                status: 'acknowledged',
                acknowledged_at: at,
                acknowledged_by: { $literal: by },
                updated_at: at,
                escalation_due_at: followDue(at),
              },
            },
          ],
          { returnDocument: 'after', session },
        ),
      );
      if (updated) return { outcome: 'acknowledged', alert: fromDoc<Alert>(updated) };
      const alert = await getAlert(workspaceId, id);
      if (!alert) return { outcome: 'not_found', alert: null };
      return { outcome: alert.status === 'resolved' ? 'already_resolved' : 'already_acknowledged', alert };
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
    async listDueEscalations(at, limit) {
      return fromDocs<Alert>(await runQuery(alerts, dueEscalationsQuery(at, limit)));
    },
    async claimEscalation(workspaceId, id, expectedDueAt, claim, leaseUntil) {
      return fromDoc<Alert>(
        await alerts.findOneAndUpdate(
          {
            workspace_id: workspaceId,
            _id: id,
            status: 'open',
            escalation: { $type: 'object' },
            escalation_due_at: expectedDueAt,
          },
          { $set: { 'escalation.claim': claim, escalation_due_at: leaseUntil } },
          { returnDocument: 'after' },
        ),
      );
    },
    async advanceEscalation(workspaceId, id, claim, next) {
      const r = await alerts.updateOne(
        { workspace_id: workspaceId, _id: id, status: 'open', 'escalation.claim': claim },
        { $set: { escalation: next.escalation, escalation_due_at: next.escalation_due_at } },
      );
      return r.matchedCount === 1;
    },

    async insertDeliveries(ds) {
      if (ds.length === 0) return;
      // One block of insertion numbers for the whole batch, in order.
      const c = await counters.findOneAndUpdate(
        { _id: 'deliveries' },
        { $inc: { seq: ds.length } },
        { upsert: true, returnDocument: 'after' },
      );
      const last = c?.seq as number;
      await deliveries.insertMany(
        ds.map((d, i) => ({
          ...toDoc(d),
          remote_id: d.remote_id ?? null,
          delivery_seq: last - ds.length + 1 + i,
        })),
      );
    },
    async insertDelivery(d) {
      // Insertion order breaks ties within one `at`, as SQLite's rowid does.
      const c = await counters.findOneAndUpdate(
        { _id: 'deliveries' },
        { $inc: { seq: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      await deliveries.insertOne({
        ...toDoc(d),
        remote_id: d.remote_id ?? null,
        delivery_seq: c?.seq as number,
      });
    },
    async listDeliveries(workspaceId, filter) {
      return fromDocs<Delivery>(await runQuery(deliveries, deliveriesQuery(workspaceId, filter)));
    },
    async listDueFollowUps(at, limit) {
      return fromDocs<Alert>(await runQuery(alerts, dueFollowUpsQuery(at, limit)));
    },
    async claimFollowUp(workspaceId, id, expectedDueAt, claim, leaseUntil) {
      return fromDoc<Alert>(
        await alerts.findOneAndUpdate(
          {
            workspace_id: workspaceId,
            _id: id,
            status: { $in: ['acknowledged', 'resolved'] },
            escalation: { $type: 'object' },
            escalation_due_at: expectedDueAt,
          },
          { $set: { 'escalation.claim': claim, escalation_due_at: leaseUntil } },
          { returnDocument: 'after' },
        ),
      );
    },
    async finishFollowUp(workspaceId, id, claim, leaseUntil) {
      const r = await alerts.updateOne(
        {
          workspace_id: workspaceId,
          _id: id,
          status: { $in: ['acknowledged', 'resolved'] },
          escalation_due_at: leaseUntil,
          'escalation.claim': claim,
        },
        { $set: { escalation_due_at: null } },
      );
      return r.matchedCount === 1;
    },
    async listChannelDeliveries(workspaceId, channelId, q) {
      return page<Delivery>(deliveries, { workspace_id: workspaceId, channel_id: channelId }, q, 'at');
    },
    async hasSentDelivery(key) {
      return (await runQuery(deliveries, sentDeliveryQuery(key))).length > 0;
    },
  };
};
