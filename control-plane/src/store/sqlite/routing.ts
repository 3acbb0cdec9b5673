import { type EscalationPolicyStore, POLICY_USERS } from '../../domain/escalation/escalation-policy-store.js';
import { MAX_WINDOWS, windowOver } from '../../domain/maintenance/cover.js';
import type { MaintenanceWindowStore } from '../../domain/maintenance/maintenance-store.js';
import type { ChannelStore } from '../../domain/notifications/channel-store.js';
import type { EscalationPolicy, MaintenanceWindow, NotificationChannel } from '../../domain/types.js';
import type { SqliteContext } from './db.js';
import { channels, insertSql, maintenanceWindows, policies, toRow, updateSql } from './tables.js';

/**
 * Routing configuration in SQLite: escalation policies, channels, maintenance windows. Switching the
 * default policy and refusing to delete something in use are each one IMMEDIATE transaction.
 */
export const sqliteRouting = ({
  st,
  one,
  many,
  immediate,
  page,
}: SqliteContext): EscalationPolicyStore & ChannelStore & MaintenanceWindowStore => {
  // ends_at NULL: recurring. The index (workspace_id, ends_at) serves both arms.
  const liveWindows = (workspaceId: string, at: Date, limit: number) =>
    many<MaintenanceWindow>(
      maintenanceWindows,
      `SELECT * FROM maintenance_windows
       WHERE workspace_id = ? AND (ends_at IS NULL OR ends_at > ?)
       ORDER BY starts_at, id LIMIT ?`,
      workspaceId,
      at.getTime(),
      limit,
    );
  const getPolicy = (workspaceId: string, id: string) =>
    one<EscalationPolicy>(
      policies,
      'SELECT * FROM escalation_policies WHERE workspace_id = ? AND id = ?',
      workspaceId,
      id,
    );
  const clearOtherDefaults = (p: EscalationPolicy) => {
    if (p.is_default)
      st('UPDATE escalation_policies SET is_default = 0 WHERE workspace_id = ? AND id != ?').run(
        p.workspace_id,
        p.id,
      );
  };

  return {
    async getEscalationPolicy(workspaceId, id) {
      return getPolicy(workspaceId, id);
    },
    async getDefaultEscalationPolicy(workspaceId) {
      return one<EscalationPolicy>(
        policies,
        'SELECT * FROM escalation_policies WHERE workspace_id = ? AND is_default = 1',
        workspaceId,
      );
    },
    async listEscalationPolicies(workspaceId, q) {
      return page<EscalationPolicy>(policies, ['workspace_id = ?'], [workspaceId], q);
    },
    async insertEscalationPolicy(p) {
      immediate(() => {
        clearOtherDefaults(p);
        st(insertSql(policies)).run(toRow(policies, p));
      });
    },
    async updateEscalationPolicy(p) {
      return immediate(() => {
        const r = st(updateSql(policies, 'id = @id AND workspace_id = @workspace_id')).run(
          toRow(policies, p),
        );
        if (r.changes !== 1) return false;
        clearOtherDefaults(p);
        return true;
      });
    },
    async deleteEscalationPolicy(workspaceId, id) {
      return immediate(() => {
        const p = getPolicy(workspaceId, id);
        if (!p) return 'not_found' as const;
        if (p.is_default) return 'is_default' as const;
        // Each kind of user is the table of that name.
        const users = POLICY_USERS.filter(
          (table) =>
            (
              st(
                `SELECT EXISTS (SELECT 1 FROM ${table} WHERE workspace_id = ? AND escalation_policy_id = ?) used`,
              ).get(workspaceId, id) as { used: number }
            ).used === 1,
        );
        if (users.length > 0) return { in_use: users };
        st('DELETE FROM escalation_policies WHERE workspace_id = ? AND id = ?').run(workspaceId, id);
        return 'deleted' as const;
      });
    },

    async insertChannel(c) {
      // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
      return immediate(() => {
        st(insertSql(channels)).run(toRow(channels, c));
      });
    },
    async getChannel(workspaceId, id) {
      return one<NotificationChannel>(
        channels,
        'SELECT * FROM notification_channels WHERE workspace_id = ? AND id = ?',
        workspaceId,
        id,
      );
    },
    async listChannels(workspaceId, q) {
      return page<NotificationChannel>(channels, ['workspace_id = ?'], [workspaceId], q);
    },
    async updateChannel(c) {
      // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
      return immediate(() => {
        return (
          st(updateSql(channels, 'id = @id AND workspace_id = @workspace_id')).run(toRow(channels, c))
            .changes === 1
        );
      });
    },
    async deleteChannel(workspaceId, id) {
      return immediate(() => {
        const used = st(
          `SELECT EXISTS (SELECT 1 FROM escalation_policies p, json_each(p.steps) s,
                json_each(s.value, '$.notify_channel_ids') c
              WHERE p.workspace_id = ? AND c.value = ?) used`,
        ).get(workspaceId, id) as { used: number };
        const exists = st('SELECT 1 FROM notification_channels WHERE workspace_id = ? AND id = ?').get(
          workspaceId,
          id,
        );
        if (!exists) return 'not_found' as const;
        if (used.used) return 'in_use' as const;
        st('DELETE FROM notification_channels WHERE workspace_id = ? AND id = ?').run(workspaceId, id);
        return 'deleted' as const;
      });
    },

    async insertMaintenanceWindow(w) {
      // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
      return immediate(() => {
        st(insertSql(maintenanceWindows)).run(toRow(maintenanceWindows, w));
      });
    },
    async getMaintenanceWindow(workspaceId, id) {
      return one<MaintenanceWindow>(
        maintenanceWindows,
        'SELECT * FROM maintenance_windows WHERE workspace_id = ? AND id = ?',
        workspaceId,
        id,
      );
    },
    async listMaintenanceWindows(workspaceId, q) {
      return page<MaintenanceWindow>(maintenanceWindows, ['workspace_id = ?'], [workspaceId], q, 'starts_at');
    },
    async updateMaintenanceWindow(w) {
      // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
      return immediate(() => {
        return (
          st(
            `UPDATE maintenance_windows SET name = @name, starts_at = @starts_at, ends_at = @ends_at,
               schedule = @schedule, timezone = @timezone, duration_seconds = @duration_seconds
             WHERE workspace_id = @workspace_id AND id = @id`,
          ).run(toRow(maintenanceWindows, w)).changes === 1
        );
      });
    },
    async deleteMaintenanceWindow(workspaceId, id) {
      // In a transaction: the request's audit entry is written with it (db.ts `immediate`).
      return immediate(() => {
        return (
          st('DELETE FROM maintenance_windows WHERE workspace_id = ? AND id = ?').run(workspaceId, id)
            .changes === 1
        );
      });
    },
    async listLiveMaintenanceWindows(workspaceId, at, limit) {
      return liveWindows(workspaceId, at, limit);
    },
    async pruneMaintenanceWindows(before, limit) {
      return st(
        'DELETE FROM maintenance_windows WHERE id IN (SELECT id FROM maintenance_windows WHERE ends_at < ? LIMIT ?)',
      ).run(before.getTime(), limit).changes;
    },
    async findActiveMaintenanceWindow(workspaceId, source, at) {
      return windowOver(liveWindows(workspaceId, at, MAX_WINDOWS), source, at);
    },
  };
};
