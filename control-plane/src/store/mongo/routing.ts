import type { Document, Filter } from 'mongodb';
import {
  type EscalationPolicyStore,
  POLICY_USERS,
  type PolicyUser,
} from '../../domain/escalation/escalation-policy-store.js';
import { MAX_WINDOWS, windowOver } from '../../domain/maintenance/cover.js';
import type { MaintenanceWindowStore } from '../../domain/maintenance/maintenance-store.js';
import type { ChannelStore } from '../../domain/notifications/channel-store.js';
import type { EscalationPolicy, MaintenanceWindow, NotificationChannel } from '../../domain/types.js';
import {
  bumpGuard,
  type Doc,
  deleteSome,
  fromDoc,
  type IndexDecl,
  type MongoContext,
  page,
  toDoc,
} from './db.js';

export const routingIndexes: IndexDecl[] = [
  { on: 'policies', key: { workspace_id: 1, is_default: 1 } },
  { on: 'policies', key: { workspace_id: 1, 'steps.notify_channel_ids': 1 } },
  { on: 'policies', key: { workspace_id: 1, 'steps.notify_user_ids': 1 } },
  { on: 'channels', key: { workspace_id: 1, created_at: 1 } },
  { on: 'windows', key: { workspace_id: 1, ends_at: 1 } },
];

/** A window as stored; one written before recurring windows has none of their fields. */
const windowOf = (d: Document | MaintenanceWindow): MaintenanceWindow => {
  const w = ('_id' in d ? fromDoc<MaintenanceWindow>(d) : d) as MaintenanceWindow;
  return {
    ...w,
    schedule: w.schedule ?? null,
    timezone: w.timezone ?? null,
    duration_seconds: w.duration_seconds ?? null,
  };
};

/**
 * Escalation policies, channels and maintenance windows. Switching the default policy and refusing
 * to delete what is in use run in transactions. Every transaction that writes a reference between
 * records of a workspace (a policy naming channels; a monitor, heartbeat or integration naming a
 * policy: monitors.ts, heartbeats.ts, integrations.ts) or deletes a referenced record bumps the
 * workspace's guard first: under snapshot isolation a delete that found no reference and a write
 * adding one touch different documents and would both commit; with the guard they conflict and one
 * is retried, as SQLite serializes them.
 */
export const mongoRouting = ({
  col,
  inTransaction,
}: MongoContext): EscalationPolicyStore & ChannelStore & MaintenanceWindowStore => {
  const { workspaces, policies, channels, windows, monitors, heartbeats, integrations } = col;
  // ends_at null: recurring (documents written before recurring windows have no recurring fields).
  const liveWindows = async (workspaceId: string, at: Date, limit: number) =>
    (
      await windows
        .find({ workspace_id: workspaceId, $or: [{ ends_at: null }, { ends_at: { $gt: at } }] })
        .sort({ starts_at: 1, _id: 1 })
        .limit(limit)
        .toArray()
    ).map(windowOf);
  const clearOtherDefaults = (p: EscalationPolicy, session: Parameters<typeof bumpGuard>[2]) =>
    p.is_default
      ? policies.updateMany(
          { workspace_id: p.workspace_id, _id: { $ne: p.id } },
          { $set: { is_default: false } },
          { session },
        )
      : null;
  return {
    async getEscalationPolicy(workspaceId, id) {
      return fromDoc<EscalationPolicy>(await policies.findOne({ workspace_id: workspaceId, _id: id }));
    },
    async getDefaultEscalationPolicy(workspaceId) {
      return fromDoc<EscalationPolicy>(
        await policies.findOne({ workspace_id: workspaceId, is_default: true }),
      );
    },
    async listEscalationPolicies(workspaceId, q) {
      return page<EscalationPolicy>(policies, { workspace_id: workspaceId }, q);
    },
    async insertEscalationPolicy(p) {
      await inTransaction(async (session) => {
        await bumpGuard(workspaces, p.workspace_id, session);
        await clearOtherDefaults(p, session);
        await policies.insertOne(toDoc(p), { session });
      });
    },
    async updateEscalationPolicy(p) {
      return inTransaction(async (session) => {
        await bumpGuard(workspaces, p.workspace_id, session);
        const r = await policies.replaceOne({ _id: p.id, workspace_id: p.workspace_id }, toDoc(p), {
          session,
        });
        if (r.matchedCount !== 1) return false;
        await clearOtherDefaults(p, session);
        return true;
      });
    },
    async deleteEscalationPolicy(workspaceId, id) {
      return inTransaction(async (session) => {
        await bumpGuard(workspaces, workspaceId, session);
        const p = fromDoc<EscalationPolicy>(
          await policies.findOne({ workspace_id: workspaceId, _id: id }, { session }),
        );
        if (!p) return 'not_found' as const;
        if (p.is_default) return 'is_default' as const;
        const ref: Filter<Doc> = { workspace_id: workspaceId, escalation_policy_id: id };
        const named = { monitors, heartbeats, integrations };
        const users: PolicyUser[] = [];
        for (const kind of POLICY_USERS)
          if (await named[kind].findOne(ref, { session, projection: { _id: 1 } })) users.push(kind);
        if (users.length > 0) return { in_use: users };
        await policies.deleteOne({ workspace_id: workspaceId, _id: id }, { session });
        return 'deleted' as const;
      });
    },

    async insertChannel(c) {
      // In a transaction: the request's audit entry is written with it (db.ts `inTransaction`).
      await inTransaction((session) => channels.insertOne(toDoc(c), { session }));
    },
    async getChannel(workspaceId, id) {
      return fromDoc<NotificationChannel>(await channels.findOne({ workspace_id: workspaceId, _id: id }));
    },
    async listChannels(workspaceId, q) {
      return page<NotificationChannel>(channels, { workspace_id: workspaceId }, q);
    },
    async updateChannel(c) {
      return inTransaction(
        async (session) =>
          (await channels.replaceOne({ _id: c.id, workspace_id: c.workspace_id }, toDoc(c), { session }))
            .matchedCount === 1,
      );
    },
    async deleteChannel(workspaceId, id) {
      return inTransaction(async (session) => {
        await bumpGuard(workspaces, workspaceId, session);
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

    async insertMaintenanceWindow(w) {
      await inTransaction((session) => windows.insertOne(toDoc(w), { session }));
    },
    async getMaintenanceWindow(workspaceId, id) {
      const doc = await windows.findOne({ workspace_id: workspaceId, _id: id });
      return doc ? windowOf(doc) : null;
    },
    async listMaintenanceWindows(workspaceId, q) {
      const p = await page<MaintenanceWindow>(windows, { workspace_id: workspaceId }, q, 'starts_at');
      return { ...p, data: p.data.map(windowOf) };
    },
    async updateMaintenanceWindow(w) {
      return inTransaction(
        async (session) =>
          (
            await windows.updateOne(
              { workspace_id: w.workspace_id, _id: w.id },
              {
                $set: {
                  name: w.name,
                  starts_at: w.starts_at,
                  ends_at: w.ends_at,
                  schedule: w.schedule,
                  timezone: w.timezone,
                  duration_seconds: w.duration_seconds,
                },
              },
              { session },
            )
          ).matchedCount === 1,
      );
    },
    async deleteMaintenanceWindow(workspaceId, id) {
      return inTransaction(
        async (session) =>
          (await windows.deleteOne({ workspace_id: workspaceId, _id: id }, { session })).deletedCount === 1,
      );
    },
    async listLiveMaintenanceWindows(workspaceId, at, limit) {
      return liveWindows(workspaceId, at, limit);
    },
    async pruneMaintenanceWindows(before, limit) {
      return deleteSome(windows, { ends_at: { $ne: null, $lt: before } }, limit);
    },
    async findActiveMaintenanceWindow(workspaceId, source, at) {
      return windowOver(await liveWindows(workspaceId, at, MAX_WINDOWS), source, at);
    },
  };
};
