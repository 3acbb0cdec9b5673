import type { ClientSession, Collection, Document, Filter } from 'mongodb';
import type {
  Alert,
  Delivery,
  EscalationPolicy,
  MaintenanceWindow,
  NotificationChannel,
  Page,
  PageQuery,
} from '../../domain/types.js';
import type { PageOrder } from '../cursor.js';
import type { RoutingMethods } from '../port.js';

type Doc = Document & { _id: string };

/** What the MongoDB adapter lends to this module. */
export interface MongoHelpers {
  col(name: string): Collection<Doc>;
  inTransaction<T>(fn: (session: ClientSession) => Promise<T>): Promise<T>;
  toDoc(record: { id: string } & object): Doc;
  fromDoc<T>(doc: Document | null): T | null;
  page<T extends { id: string }>(
    c: Collection<Doc>,
    filter: Filter<Doc>,
    q: PageQuery,
    by?: PageOrder,
  ): Promise<Page<T>>;
}

/** Indexes for alert routing, created at start with the others. */
export const mongoRoutingIndexes = ({ col }: Pick<MongoHelpers, 'col'>) => [
  // The scheduler's query: open alerts with a due step, soonest first.
  col('alerts').createIndex({ status: 1, escalation_due_at: 1 }),
  col('notification_channels').createIndex({ workspace_id: 1, created_at: 1 }),
  col('escalation_policies').createIndex({ workspace_id: 1, 'steps.notify_channel_ids': 1 }),
  col('deliveries').createIndex({ alert_id: 1, at: 1 }),
  col('deliveries').createIndex({ channel_id: 1, at: 1 }),
  col('deliveries').createIndex({ idempotency_key: 1 }, { sparse: true }),
  col('maintenance_windows').createIndex({ workspace_id: 1, ends_at: 1 }),
];

/**
 * Alert routing in MongoDB (majority writes, set on the client). Races are settled the same way as
 * in SQLite: acknowledge, claim and advance are single-document findOneAndUpdate/updateOne calls whose
 * filter carries the expected state; switching the default policy and refusing to delete what is in
 * use run in transactions.
 */
export const mongoRouting = ({ col, inTransaction, toDoc, fromDoc, page }: MongoHelpers): RoutingMethods => {
  const alerts = col('alerts');
  const policies = col('escalation_policies');
  const monitors = col('monitors');
  const heartbeats = col('heartbeats');
  const channels = col('notification_channels');
  const deliveries = col('deliveries');
  const windows = col('maintenance_windows');
  const all = <T>(docs: Document[]) => docs.map((d) => fromDoc<T>(d)!);

  return {
    async acknowledgeAlert(workspaceId, id, by, at) {
      const updated = await alerts.findOneAndUpdate(
        { workspace_id: workspaceId, _id: id, status: 'open' },
        {
          $set: {
            status: 'acknowledged',
            acknowledged_at: at,
            acknowledged_by: by,
            updated_at: at,
            escalation_due_at: null,
          },
        },
        { returnDocument: 'after' },
      );
      if (updated) return { outcome: 'acknowledged', alert: fromDoc<Alert>(updated) };
      const alert = fromDoc<Alert>(await alerts.findOne({ workspace_id: workspaceId, _id: id }));
      if (!alert) return { outcome: 'not_found', alert: null };
      return {
        outcome: alert.status === 'resolved' ? 'already_resolved' : 'already_acknowledged',
        alert,
      };
    },
    async listDueEscalations(at, limit) {
      return all<Alert>(
        await alerts
          .find({ status: 'open', escalation_due_at: { $lte: at } })
          .sort({ escalation_due_at: 1 })
          .limit(limit)
          .toArray(),
      );
    },
    async claimEscalation(workspaceId, id, expectedDueAt, claim, leaseUntil) {
      const doc = await alerts.findOneAndUpdate(
        {
          workspace_id: workspaceId,
          _id: id,
          status: 'open',
          escalation: { $type: 'object' },
          escalation_due_at: expectedDueAt,
        },
        { $set: { 'escalation.claim': claim, escalation_due_at: leaseUntil } },
        { returnDocument: 'after' },
      );
      return fromDoc<Alert>(doc);
    },
    async advanceEscalation(workspaceId, id, claim, next) {
      const r = await alerts.updateOne(
        { workspace_id: workspaceId, _id: id, status: 'open', 'escalation.claim': claim },
        { $set: { escalation: next.escalation, escalation_due_at: next.escalation_due_at } },
      );
      return r.matchedCount === 1;
    },

    async listEscalationPolicies(workspaceId, q) {
      return page<EscalationPolicy>(policies, { workspace_id: workspaceId }, q);
    },
    async insertEscalationPolicy(p) {
      await inTransaction(async (session) => {
        if (p.is_default)
          await policies.updateMany(
            { workspace_id: p.workspace_id, _id: { $ne: p.id } },
            { $set: { is_default: false } },
            { session },
          );
        await policies.insertOne(toDoc(p), { session });
      });
    },
    async updateEscalationPolicy(p) {
      return inTransaction(async (session) => {
        const r = await policies.replaceOne({ _id: p.id, workspace_id: p.workspace_id }, toDoc(p), {
          session,
        });
        if (r.matchedCount !== 1) return false;
        if (p.is_default)
          await policies.updateMany(
            { workspace_id: p.workspace_id, _id: { $ne: p.id } },
            { $set: { is_default: false } },
            { session },
          );
        return true;
      });
    },
    async deleteEscalationPolicy(workspaceId, id) {
      return inTransaction(async (session) => {
        const p = fromDoc<EscalationPolicy>(
          await policies.findOne({ workspace_id: workspaceId, _id: id }, { session }),
        );
        if (!p) return 'not_found' as const;
        if (p.is_default) return 'is_default' as const;
        const ref: Filter<Doc> = { workspace_id: workspaceId, escalation_policy_id: id };
        if (
          (await monitors.findOne(ref, { session, projection: { _id: 1 } })) ||
          (await heartbeats.findOne(ref, { session, projection: { _id: 1 } }))
        )
          return 'in_use' as const;
        await policies.deleteOne({ workspace_id: workspaceId, _id: id }, { session });
        return 'deleted' as const;
      });
    },

    async insertChannel(c) {
      await channels.insertOne(toDoc(c));
    },
    async getChannel(workspaceId, id) {
      return fromDoc<NotificationChannel>(await channels.findOne({ workspace_id: workspaceId, _id: id }));
    },
    async listChannels(workspaceId, q) {
      return page<NotificationChannel>(channels, { workspace_id: workspaceId }, q);
    },
    async updateChannel(c) {
      return (
        (await channels.replaceOne({ _id: c.id, workspace_id: c.workspace_id }, toDoc(c))).matchedCount === 1
      );
    },
    async deleteChannel(workspaceId, id) {
      return inTransaction(async (session) => {
        if (!(await channels.findOne({ workspace_id: workspaceId, _id: id }, { session })))
          return 'not_found' as const;
        if (
          await policies.findOne(
            { workspace_id: workspaceId, 'steps.notify_channel_ids': id },
            { session, projection: { _id: 1 } },
          )
        )
          return 'in_use' as const;
        await channels.deleteOne({ workspace_id: workspaceId, _id: id }, { session });
        return 'deleted' as const;
      });
    },

    async insertDelivery(d) {
      await deliveries.insertOne(toDoc(d));
    },
    async listDeliveries(workspaceId, filter) {
      const f: Filter<Doc> = { workspace_id: workspaceId };
      if (filter.alert_id !== undefined) f.alert_id = filter.alert_id;
      if (filter.channel_id !== undefined) f.channel_id = filter.channel_id;
      return all<Delivery>(
        await deliveries.find(f).sort({ at: 1, attempt: 1, _id: 1 }).limit(filter.limit).toArray(),
      );
    },
    async hasSentDelivery(key) {
      return (
        (await deliveries.findOne({ idempotency_key: key, outcome: 'sent' }, { projection: { _id: 1 } })) !==
        null
      );
    },

    async insertMaintenanceWindow(w) {
      await windows.insertOne(toDoc(w));
    },
    async getMaintenanceWindow(workspaceId, id) {
      return fromDoc<MaintenanceWindow>(await windows.findOne({ workspace_id: workspaceId, _id: id }));
    },
    async listMaintenanceWindows(workspaceId, q) {
      return page<MaintenanceWindow>(windows, { workspace_id: workspaceId }, q, 'starts_at');
    },
    async deleteMaintenanceWindow(workspaceId, id) {
      return (await windows.deleteOne({ workspace_id: workspaceId, _id: id })).deletedCount === 1;
    },
    async findActiveMaintenanceWindow(workspaceId, source, at) {
      const [doc] = await windows
        .find({
          workspace_id: workspaceId,
          ends_at: { $gt: at },
          starts_at: { $lte: at },
          $or: [{ scope_type: 'workspace' }, { scope_type: source.type, scope_id: source.id }],
        })
        .sort({ starts_at: 1, _id: 1 })
        .limit(1)
        .toArray();
      return fromDoc<MaintenanceWindow>(doc ?? null);
    },
  };
};
